/** The worker process: one system, every requested task, a JSON report. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '../../bench/peers/adapter';
import { systems } from '../../bench/peers/index';
import { evaluate } from '../../src/cli/eval';
import { emptyConfusion, rates } from '../../src/cli/scoring';
import { files, type SystemReport } from './report';
import { readRows, scoreDetector } from './score';

/** Worker: scores one system on the requested tasks and writes its report as JSON. */
export async function runWorker(
  id: string,
  dataDir: string,
  taskList: Task[],
  limit: number | undefined,
  budgetMs: number,
  out: string,
) {
  const load = systems[id];
  if (!load)
    throw new Error(`Unknown system "${id}": expected one of ${Object.keys(systems).join(', ')}`);
  const adapter = await load();
  const report: SystemReport = {
    id,
    system: adapter.system,
    version: adapter.version,
    notes: adapter.notes,
    unavailable: adapter.unavailable,
    results: [],
  };
  for (const task of taskList) {
    const detectors = adapter.detectors[task] ?? [];
    if (detectors.length === 0) continue;
    const rows = readRows(join(dataDir, files[task]), limit);
    for (const detector of detectors) {
      report.results.push(await scoreDetector(task, adapter, detector, rows, budgetMs));
    }
  }
  if (id === 'ours') report.evalCrossCheck = await crossCheckWithEval(report, dataDir, limit);
  report.backgroundErrors = adapter.backgroundErrors?.();
  writeFileSync(out, JSON.stringify(report));
}

/**
 * The `ai-guardrails eval` command line that scores a guardrail as the
 * comparison does, options included: without `--options` the pii command
 * runs the default entity types, not the comparison's `'all'`.
 */
export function evalCommand(guardrail: string, options: Readonly<Record<string, unknown>>): string {
  const given = Object.keys(options).length > 0 ? ` --options '${JSON.stringify(options)}'` : '';
  return `ai-guardrails eval --guardrail ${guardrail}${given}`;
}

/**
 * Runs the eval command's own `evaluate()` on the PII and secrets files and
 * checks it flags the same rows as our detector here: the comparison scores
 * our guardrails exactly as `ai-guardrails eval` does.
 */
export async function crossCheckWithEval(
  report: SystemReport,
  dataDir: string,
  limit: number | undefined,
): Promise<string[]> {
  const lines: string[] = [];
  for (const [task, guardrail, options] of [
    ['pii', 'pii', { entities: 'all' }],
    ['secrets', 'secrets', {}],
  ] as const) {
    const ours = report.results.find(result => result.task === task);
    if (!ours) continue;
    if (limit !== undefined) {
      lines.push(`${task}: not cross-checked (--limit given; evaluate() reads whole files)`);
      continue;
    }
    const { sets: evalReports } = await evaluate({
      guardrail,
      data: join(dataDir, files[task]),
      options,
    });
    const mismatches = evalReports.filter(evalReport => {
      const mine = ours.sets.find(set => set.set === evalReport.set);
      const theirs = rates(mine?.confusion ?? emptyConfusion());
      return (
        !mine ||
        mine.rows !== evalReport.rows ||
        theirs.precision !== evalReport.precision ||
        theirs.recall !== evalReport.recall ||
        theirs.falsePositiveRate !== evalReport.falsePositiveRate
      );
    });
    lines.push(
      mismatches.length === 0
        ? `${task}: \`${evalCommand(guardrail, options)}\` gives the same per-set precision, recall and false-positive rate`
        : `${task}: differs from \`${evalCommand(guardrail, options)}\` on set(s) ${mismatches.map(m => m.set).join(', ')}`,
    );
  }
  return lines;
}
