/**
 * Renders the leave-one-source-out results of the prompt-injection detector
 * (written by `npm run train -- --loso --loso-out docs/prompt-injection-loso.json`)
 * as markdown, for docs/prompt-injection-model.md and `npm run compare`.
 *
 *   npx tsx scripts/train/loso-report.ts [docs/prompt-injection-loso.json]
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LosoRow } from './train-injection';

/** The JSON file's shape. */
export interface LosoReport {
  targetFpr: number;
  /** K > 0: sources dealt into K folds, each fold left out at once (0 or absent: one source at a time). */
  sourceFolds?: number;
  /** K > 0: the threshold was picked on scores of K models each trained without a K-th of the other sources. */
  calibrationFolds?: number;
  seconds: number;
  direct?: LosoRow[];
  indirect?: LosoRow[];
}

const rate = (part: number, whole: number) => (whole === 0 ? '–' : (part / whole).toFixed(3));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function table(rows: LosoRow[], first: string): string[] {
  return [
    `| ${first} | attacks | recall | benign | FPR | threshold |`,
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      row =>
        `| ${row.source} | ${row.attacks} | ${rate(row.caught, row.attacks)} | ${row.benign} | ${rate(row.flagged, row.benign)} | ${row.threshold} |`,
    ),
  ];
}

/** Summary lines and tables; synthetic (hand-written) groups are shown but left out of the summary. */
export function renderLoso(report: LosoReport): string[] {
  const lines: string[] = [];
  if (report.direct) {
    const real = report.direct.filter(row => !row.source.startsWith('synthetic:'));
    const attackSources = real.filter(row => row.attacks >= 10);
    const benignSources = real.filter(row => row.benign >= 10);
    const recalls = attackSources.map(row => row.caught / row.attacks);
    const fprs = benignSources.map(row => ({ source: row.source, fpr: row.flagged / row.benign }));
    const over = fprs.filter(row => row.fpr > 0.03);
    const left =
      (report.sourceFolds ?? 0) > 0
        ? `leave sources out, ${report.sourceFolds} folds of sources (each row: trained without that source's whole fold, about a fifth of all sources, so stricter than one source at a time)`
        : 'leave one source out (each row: trained without that source)';
    const threshold =
      (report.calibrationFolds ?? 0) > 0
        ? `threshold picked on the other sources as scored by ${report.calibrationFolds} models each trained without a third of them, the lowest keeping the mean of their FPRs ≤ ${report.targetFpr}`
        : `threshold picked on the held-apart slice of the others at FPR ≤ ${report.targetFpr}`;
    lines.push(
      `Direct mode, ${left}; ${threshold}; sources with ≥ 10 rows of a class count in the summary:`,
      '',
      `- median attack-source recall: **${median(recalls).toFixed(3)}** over ${recalls.length} attack sources (target ≥ 0.75)`,
      `- benign sources with FPR > 0.03: **${over.length} of ${fprs.length}** (target 0)${over.length > 0 ? `: ${over.map(row => `${row.source} ${row.fpr.toFixed(3)}`).join(', ')}` : ''}`,
      '',
      ...table(report.direct, 'left-out source'),
      '',
    );
  }
  if (report.indirect) {
    const attacks = report.indirect.reduce((sum, row) => sum + row.attacks, 0);
    const caught = report.indirect.reduce((sum, row) => sum + row.caught, 0);
    const benign = report.indirect.reduce((sum, row) => sum + row.benign, 0);
    const flagged = report.indirect.reduce((sum, row) => sum + row.flagged, 0);
    const precision = caught / Math.max(1, caught + flagged);
    const recall = caught / Math.max(1, attacks);
    const f1 = (2 * precision * recall) / Math.max(1e-9, precision + recall);
    lines.push(
      "Indirect mode (tool outputs), per source: the hand-set phrase detector, or the direct model on each statement of the text at the statement cutoff (the `threshold` column). For each source the direct model is trained without it when it is also a direct-mode source, and the cutoff is picked (F1-best at FPR ≤ 0.02) on the development split's tool-output sets other than that source. Every corpus source is thus unseen; the two `dev:` sets are the data the phrases were written on (in-sample for the phrases, out of sample for the cutoff).",
      '',
      `- all sources together: recall ${recall.toFixed(3)}, FPR ${rate(flagged, benign)}, F1 ${f1.toFixed(3)} (target F1 ≥ 0.80 at FPR ≤ 0.05)`,
      '',
      ...table(report.indirect, 'source'),
      '',
    );
  }
  return lines;
}

/** The rendered report of a JSON file, or undefined when there is none. */
export function renderLosoFile(path: string): string[] | undefined {
  if (!existsSync(path)) return undefined;
  return renderLoso(JSON.parse(readFileSync(path, 'utf8')) as LosoReport);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const path =
    process.argv[2] ?? resolve(import.meta.dirname, '../../docs/prompt-injection-loso.json');
  console.log((renderLosoFile(path) ?? [`no file ${path}`]).join('\n'));
}
