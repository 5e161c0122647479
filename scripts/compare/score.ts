/** Scoring one detector over a labelled file, with the eval command's scoring functions. */
import { readFileSync } from 'node:fs';
import type { Detector, SystemAdapter, Task } from '../../bench/peers/adapter';
import {
  type Confusion,
  emptyConfusion,
  type GoldSpan,
  quantile,
  scoreSpans,
} from '../../src/cli/scoring';
import type { DetectorResult, Row, SetScore } from './report';

export function readRows(path: string, limit: number | undefined): Row[] {
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter(line => line.trim() !== '')
    .map(line => JSON.parse(line) as Row);
  return limit === undefined ? rows : rows.slice(0, limit);
}

export function addRow(confusion: Confusion, label: number, flagged: boolean): void {
  if (label === 1) {
    if (flagged) confusion.truePositives++;
    else confusion.falseNegatives++;
  } else if (flagged) confusion.falsePositives++;
  else confusion.trueNegatives++;
}

export function setScore(set: string, confusion: Confusion, latencies: number[]): SetScore {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    set,
    rows: latencies.length,
    confusion,
    p50Ms: quantile(sorted, 0.5),
    p95Ms: quantile(sorted, 0.95),
  };
}

/** Runs one detector over the rows with the eval command's scoring functions. */
export async function scoreDetector(
  task: Task,
  adapter: SystemAdapter,
  detector: Detector,
  rows: readonly Row[],
  budgetMs: number,
): Promise<DetectorResult> {
  const perSet = new Map<string, { confusion: Confusion; latencies: number[] }>();
  const overall = { confusion: emptyConfusion(), latencies: [] as number[] };
  const entities = new Map<string, Confusion>();
  const scoredTypes = new Set<string>();
  for (const row of rows) {
    for (const span of row.spans ?? [])
      scoredTypes.add(span.entity_type === 'DOMAIN_NAME' ? 'URL' : span.entity_type);
  }
  let status: DetectorResult['status'] = 'ok';
  let error: string | undefined;
  let rowErrors = 0;
  let answered = 0;
  const started = performance.now();
  const name = `${adapter.system}${detector.label ? ` ${detector.label}` : ''}`;
  for (const [index, row] of rows.entries()) {
    if (performance.now() - started > budgetMs) {
      status = 'stopped';
      error = `time budget of ${budgetMs / 1000} s spent after ${index} of ${rows.length} rows`;
      break;
    }
    let flagged = false;
    let spans: GoldSpan[] = [];
    const start = performance.now();
    try {
      const detection = await detector.detect(row.text);
      flagged = detection.flagged;
      spans = detection.spans ?? [];
      answered++;
    } catch (caught) {
      rowErrors++;
      error = caught instanceof Error ? caught.message : String(caught);
      if (answered === 0 && rowErrors >= 3) {
        status = 'error';
        break;
      }
    }
    const latency = performance.now() - start;
    const setName = row.set ?? 'all';
    let entry = perSet.get(setName);
    if (!entry) {
      entry = { confusion: emptyConfusion(), latencies: [] };
      perSet.set(setName, entry);
    }
    addRow(entry.confusion, row.label, flagged);
    addRow(overall.confusion, row.label, flagged);
    entry.latencies.push(latency);
    overall.latencies.push(latency);
    if (task === 'pii' && Array.isArray(row.spans)) {
      const gold = row.spans.map(span => ({
        type: span.entity_type,
        start: span.start,
        end: span.end,
      }));
      scoreSpans(spans, gold, entities, scoredTypes);
    }
    if ((index + 1) % 50 === 0 || index + 1 === rows.length) {
      process.stderr.write(`\r  ${name} / ${task}: ${index + 1}/${rows.length}   `);
    }
  }
  process.stderr.write('\n');
  const result: DetectorResult = {
    task,
    system: adapter.system,
    label: detector.label,
    call: detector.call,
    status,
    rowsTotal: rows.length,
    rowsScored: overall.latencies.length,
    rowErrors,
    sets: [...perSet.entries()].map(([set, entry]) =>
      setScore(set, entry.confusion, entry.latencies),
    ),
    overall: setScore('all rows', overall.confusion, overall.latencies),
  };
  if (error !== undefined && (status !== 'ok' || rowErrors > 0)) result.error = error;
  if (task === 'pii') result.entities = Object.fromEntries(entities);
  return result;
}
