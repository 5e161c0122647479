/**
 * Error analysis of the harmful-request detector's thresholds (eighth
 * round): are the requests a left-out source loses scored just under their
 * fold's threshold (a threshold-rule problem) or far under it (a
 * representation problem), and what would other threshold rules, picked on
 * the same held-apart slice (never on the left-out source), give?
 *
 *   npx tsx scripts/train/harmful/threshold-margins.ts --dump DIR     train every fold (as --loso; the trainer's
 *                                                                     environment knobs apply), write DIR/<source>.json
 *   npx tsx scripts/train/harmful/threshold-margins.ts --report DIR   margins, who fills the slice's look-alike
 *                                                                     budget, and the medians under other rules
 *
 * A dump holds the fold's threshold, Platt parameters and the logits (by row
 * index, never text) of its held-apart slice and of the left-out source's
 * rows; a fold already dumped is skipped, so a stopped run resumes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { maxWindowLogit } from '../../../src/guards/harmful-content/harmful-model';
import {
  augmentedRows,
  fitHarmful,
  harmfulTrainOptions,
  isCalibrationRow,
  median,
  prepare,
  TARGET_FPR,
} from '../train-harmful';
import { type HarmfulRow, harmfulRows } from './harmful-data';

interface FoldDump {
  group: string;
  threshold: number;
  plattA: number;
  plattB: number;
  /** [row index, window logit] of the held-apart slice (other sources). */
  slice: [number, number][];
  /** [row index, window logit] of the left-out source. */
  left: [number, number][];
}

const root = resolve(import.meta.dirname, '../../..');
const rows = harmfulRows({
  corpora: join(root, '../shared/corpora'),
  datasets: join(root, '../shared/datasets'),
});
const originals = rows.length;
const fileOf = (dir: string, group: string) => join(dir, `${group.replace(/[/:]/g, '_')}.json`);
const groups = [...new Set(rows.map(row => row.group))].sort();

function dump(dir: string) {
  mkdirSync(dir, { recursive: true });
  rows.push(...augmentedRows(rows));
  const data = prepare(rows, harmfulTrainOptions.bits);
  for (const group of groups) {
    if (existsSync(fileOf(dir, group))) continue;
    const fitted = fitHarmful(data, group);
    const out: FoldDump = {
      group,
      threshold: fitted.threshold,
      plattA: fitted.spec.plattA,
      plattB: fitted.spec.plattB,
      slice: [],
      left: [],
    };
    for (let index = 0; index < originals; index++) {
      const row = rows[index]!;
      const into = row.group === group ? out.left : isCalibrationRow(row) ? out.slice : undefined;
      into?.push([index, maxWindowLogit(data.folded[index]!, fitted.scorer)]);
    }
    writeFileSync(fileOf(dir, group), JSON.stringify(out));
    process.stderr.write(`${group}: threshold ${fitted.threshold}\n`);
  }
}

type Kind = 'harmful' | 'lookalike' | 'general';
const kindOf = (row: HarmfulRow): Kind =>
  row.label === 1 ? 'harmful' : row.kind === 'lookalike' ? 'lookalike' : 'general';

/** Counts [flagged, total] per source of one kind at a threshold. */
type PerSource = Map<string, [number, number]>;
/** A threshold rule: does the slice, counted per source, allow this threshold? */
type Rule = (counts: Record<'lookalike' | 'general', PerSource>) => boolean;

const rate = ([flagged, total]: [number, number]) => flagged / total;
const sum = (counts: PerSource, skip?: string): [number, number] =>
  [...counts].reduce<[number, number]>(
    (acc, [group, [f, n]]) => (group === skip ? acc : [acc[0] + f, acc[1] + n]),
    [0, 0],
  );
const bigSources = (counts: PerSource, minRows = 10) =>
  [...counts.values()].filter(([, n]) => n >= minRows).map(rate);
const worst = (counts: PerSource) =>
  [...counts].reduce((best, entry) => (entry[1][0] > best[1][0] ? entry : best), ['', [-1, 0]])[0];
const both =
  (
    test: (counts: PerSource, target: number) => boolean,
    lookalike: number = TARGET_FPR.lookalike,
  ): Rule =>
  counts =>
    test(counts.general, TARGET_FPR.general) && test(counts.lookalike, lookalike);

const RULES: [string, Rule][] = [
  ["pooled (the trainer's rule)", both((c, t) => rate(sum(c)) <= t)],
  [
    'mean over slice sources of >= 10 rows',
    both((c, t) => bigSources(c).reduce((a, b) => a + b, 0) / bigSources(c).length <= t),
  ],
  ['median over slice sources of >= 10 rows', both((c, t) => median(bigSources(c)) <= t)],
  [
    'median over slice sources of >= 5 rows (round 47)',
    both((c, t) => median(bigSources(c, 5)) <= t),
  ],
  ['pooled without the source with most flags', both((c, t) => rate(sum(c, worst(c))) <= t)],
  ...[0.03, 0.04, 0.06, 0.07, 0.1].map((target): [string, Rule] => [
    `pooled, look-alike slice target ${target}`,
    both((c, t) => rate(sum(c)) <= t, target),
  ]),
];

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ??
  Number.NaN;

/** The fold's rounded probability of a logit (as the trainer compares it with the threshold). */
const probability = (fold: FoldDump, z: number) =>
  Math.round(1000 / (1 + Math.exp(-(fold.plattA * z + fold.plattB)))) / 1000;

/** Rows over `threshold` per kind and source: [flagged, total]. */
function count(fold: FoldDump, pairs: [number, number][], threshold: number) {
  const by: Record<Kind, PerSource> = {
    harmful: new Map(),
    lookalike: new Map(),
    general: new Map(),
  };
  for (const [index, z] of pairs) {
    const row = rows[index]!;
    const counts = by[kindOf(row)].get(row.group) ?? [0, 0];
    by[kindOf(row)].set(row.group, [
      counts[0] + (probability(fold, z) >= threshold ? 1 : 0),
      counts[1] + 1,
    ]);
  }
  return by;
}

/** The lowest threshold on the 0.01 grid that `rule` allows on the fold's slice. */
function pick(fold: FoldDump, rule: Rule): number {
  for (let step = 1; step <= 99; step++)
    if (rule(count(fold, fold.slice, step / 100))) return step / 100;
  return 0.99;
}

function report(dir: string) {
  const folds: FoldDump[] = groups.map(group =>
    JSON.parse(readFileSync(fileOf(dir, group), 'utf8')),
  );
  const owners = new Map<string, number>();
  console.log(
    '| left-out source | threshold | missed | logit gap of misses p25 / median / p75 | within 0.5 / 1 logit | misses above 90% of slice look-alikes |',
  );
  console.log('| --- | ---: | ---: | --- | ---: | ---: |');
  for (const fold of folds) {
    const thresholdLogit =
      (Math.log(fold.threshold / (1 - fold.threshold)) - fold.plattB) / fold.plattA;
    for (const [index, z] of fold.slice) {
      const row = rows[index]!;
      if (kindOf(row) === 'lookalike' && probability(fold, z) >= fold.threshold)
        owners.set(row.group, (owners.get(row.group) ?? 0) + 1);
    }
    const harmful = fold.left.filter(([index]) => rows[index]!.label === 1);
    if (harmful.length < 10) continue;
    const gaps = harmful
      .filter(([, z]) => probability(fold, z) < fold.threshold)
      .map(([, z]) => z - thresholdLogit);
    const lookalikes = fold.slice
      .filter(([index]) => kindOf(rows[index]!) === 'lookalike')
      .map(([, z]) => z);
    const top = quantile(lookalikes, 0.9);
    const near = (d: number) => gaps.filter(g => g > -d).length;
    console.log(
      `| ${fold.group} | ${fold.threshold} | ${gaps.length}/${harmful.length} | ${[0.25, 0.5, 0.75].map(q => quantile(gaps, q).toFixed(2)).join(' / ')} | ${near(0.5)} / ${near(1)} | ${gaps.filter(g => g + thresholdLogit >= top).length} |`,
    );
  }
  const flagged = [...owners.values()].reduce((a, b) => a + b, 0);
  console.log(
    `\nslice look-alikes over their fold's threshold, all folds: ${flagged}; ${[...owners]
      .sort((a, b) => b[1] - a[1])
      .map(([g, n]) => `${g} ${n}`)
      .join(', ')}`,
  );
  const alone =
    (kind: 'lookalike' | 'general'): Rule =>
    counts =>
      rate(sum(counts[kind])) <= TARGET_FPR[kind];
  const limits = folds.map(fold => [pick(fold, alone('lookalike')), pick(fold, alone('general'))]);
  const range = (values: number[]) => `${Math.min(...values)}–${Math.max(...values)}`;
  console.log(
    `the look-alike limit binds in ${limits.filter(([l, g]) => l! > g!).length} of ${folds.length} folds; thresholds by the look-alike limit alone ${range(limits.map(([l]) => l!))}, by the ordinary limit alone ${range(limits.map(([, g]) => g!))}\n`,
  );
  // Round 47: per fold, the left-out source at the threshold of each limit alone.
  console.log(
    '| left-out source | threshold | look-alike limit alone | ordinary limit alone | binds | recall at each (pooled / look-alike / ordinary) | look-alike FPR at each | ordinary FPR at each |',
  );
  console.log('| --- | ---: | ---: | ---: | --- | --- | --- | --- |');
  for (const [at, fold] of folds.entries()) {
    const [byLookalike, byGeneral] = limits[at]!;
    const at3 = [fold.threshold, byLookalike!, byGeneral!].map(t => count(fold, fold.left, t));
    const cell = (kind: Kind) => {
      const totals = at3.map(by => sum(by[kind]));
      return totals[0]![1] === 0 ? '–' : totals.map(pair => rate(pair).toFixed(3)).join(' / ');
    };
    const binds =
      byLookalike! > byGeneral! ? 'look-alike' : byLookalike! < byGeneral! ? 'ordinary' : 'both';
    console.log(
      `| ${fold.group} | ${fold.threshold} | ${byLookalike} | ${byGeneral} | ${binds} | ${cell('harmful')} | ${cell('lookalike')} | ${cell('general')} |`,
    );
  }
  console.log('');
  console.log('| threshold rule (on the held-apart slice) | recall | look-alikes | ordinary |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [name, rule] of RULES) {
    const rates: Record<Kind, [number, number][]> = { harmful: [], lookalike: [], general: [] };
    for (const fold of folds) {
      const left = count(fold, fold.left, pick(fold, rule));
      for (const kind of ['harmful', 'lookalike', 'general'] as const)
        rates[kind].push(sum(left[kind]));
    }
    const cell = (kind: Kind) => {
      const pooled = rates[kind].reduce((acc, [f, n]) => [acc[0] + f, acc[1] + n], [0, 0]);
      return `${median(rates[kind].filter(([, n]) => n >= 10).map(rate)).toFixed(3)} (${rate(pooled as [number, number]).toFixed(3)})`;
    };
    console.log(`| ${name} | ${cell('harmful')} | ${cell('lookalike')} | ${cell('general')} |`);
  }
}

const mode = process.argv[2];
const dir = resolve(process.argv[3] ?? '');
if (mode === '--dump' && process.argv[3]) dump(dir);
else if (mode === '--report' && process.argv[3]) report(dir);
else {
  console.error('usage: threshold-margins.ts --dump DIR | --report DIR');
  process.exitCode = 1;
}
