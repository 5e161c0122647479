/**
 * Measures `scorePromptInjection` on a labelled JSONL file (rows with `text`,
 * `label` 1/0 and `set`) and prints precision, recall, F1 and false-positive
 * rate per set and overall.
 *
 *   npx tsx scripts/eval-injection.ts <file.jsonl> [--mode direct|indirect] [--threshold 0.5]
 *
 * `--mode` defaults to `indirect` when rows carry a `user_question` (tool
 * results and documents), else `direct`. `--show-errors N` prints the signals
 * of up to N misclassified rows per set, for development.
 * `--detector content-filter` measures `contentFilter()` with its default
 * word lists instead (e.g. on harmful.dev.jsonl).
 */
import { readFileSync } from 'node:fs';
import { contentFilter } from '../src/guards/content-filter/content-filter';
import {
  DEFAULT_INDIRECT_PROMPT_INJECTION_THRESHOLD,
  DEFAULT_PROMPT_INJECTION_THRESHOLD,
  scorePromptInjection,
} from '../src/guards/prompt-injection/score-prompt-injection';

interface Row {
  text: string;
  label: number;
  set: string;
  id?: string;
  user_question?: string;
}

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const path = process.argv[2];
if (!path || path.startsWith('--')) {
  console.error(
    'usage: tsx scripts/eval-injection.ts <file.jsonl> [--mode direct|indirect] [--threshold 0.5]',
  );
  process.exit(2);
}
const rows: Row[] = readFileSync(path, 'utf8')
  .split('\n')
  .filter(line => line.trim() !== '')
  .map(line => JSON.parse(line) as Row);
const modeOption = option('--mode');
const mode =
  modeOption === 'direct' || modeOption === 'indirect'
    ? modeOption
    : rows.some(row => row.user_question !== undefined)
      ? 'indirect'
      : 'direct';
const threshold = Number(
  option('--threshold') ??
    (mode === 'indirect'
      ? DEFAULT_INDIRECT_PROMPT_INJECTION_THRESHOLD
      : DEFAULT_PROMPT_INJECTION_THRESHOLD),
);
const showErrors = Number(option('--show-errors') ?? 0);
const detector = option('--detector') ?? 'prompt-injection';
const filter = contentFilter();
const filterContext = {
  kind: 'input' as const,
  messages: [],
  metadata: {},
  state: new Map<string, unknown>(),
  abortSignal: new AbortController().signal,
};

function judge(text: string): { predicted: boolean; score: number; signals: string[] } {
  if (detector === 'content-filter') {
    const verdict = filter.check(text, filterContext) as { action: string; reason?: string };
    const predicted = verdict.action === 'block';
    return { predicted, score: predicted ? 1 : 0, signals: verdict.reason ? [verdict.reason] : [] };
  }
  const { score, signals } = scorePromptInjection(text, { mode });
  return { predicted: score >= threshold, score, signals };
}

interface Counts {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  errors: string[];
}
const bySet = new Map<string, Counts>();
const overall: Counts = { tp: 0, fp: 0, tn: 0, fn: 0, errors: [] };
const started = performance.now();
for (const row of rows) {
  const { predicted, score, signals } = judge(row.text);
  const counts = bySet.get(row.set) ?? { tp: 0, fp: 0, tn: 0, fn: 0, errors: [] };
  bySet.set(row.set, counts);
  for (const target of [counts, overall]) {
    if (row.label === 1) predicted ? target.tp++ : target.fn++;
    else predicted ? target.fp++ : target.tn++;
  }
  if (predicted !== (row.label === 1) && counts.errors.length < showErrors) {
    counts.errors.push(
      `  ${row.label === 1 ? 'FN' : 'FP'} ${score} [${signals.join(', ')}] ${JSON.stringify(row.text.slice(0, 160))}`,
    );
  }
}
const elapsedMs = performance.now() - started;

function ratio(numerator: number, denominator: number): string {
  return denominator === 0 ? '   -  ' : (numerator / denominator).toFixed(3).padStart(6);
}
function line(name: string, { tp, fp, tn, fn }: Counts): string {
  const precision = tp + fp === 0 ? Number.NaN : tp / (tp + fp);
  const recall = tp + fn === 0 ? Number.NaN : tp / (tp + fn);
  const f1 =
    Number.isNaN(precision) || Number.isNaN(recall) || precision + recall === 0
      ? '   -  '
      : ((2 * precision * recall) / (precision + recall)).toFixed(3).padStart(6);
  return `${name.padEnd(36)} ${String(tp + fn).padStart(5)} ${String(tn + fp).padStart(5)} ${ratio(tp, tp + fp)} ${ratio(tp, tp + fn)} ${f1} ${ratio(fp, fp + tn)}`;
}

console.log(
  detector === 'content-filter'
    ? `file ${path}  detector content-filter (default categories)  rows ${rows.length}`
    : `file ${path}  mode ${mode}  threshold ${threshold}  rows ${rows.length}`,
);
console.log(`${'set'.padEnd(36)}   pos   neg   prec recall     f1    fpr`);
for (const [name, counts] of [...bySet].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(line(name, counts));
  for (const error of counts.errors) console.log(error);
}
console.log(line('(all)', overall));
console.log(`${(elapsedMs / rows.length).toFixed(2)} ms per row`);
