/**
 * `npm run compare`: detection quality of our guardrails beside each peer's
 * equivalent detector on the labelled dev sets, with the eval command's
 * scoring (src/cli/scoring.ts), plus the speed benchmarks; writes
 * docs/benchmarks.md and docs/benchmarks-chart.svg.
 *
 *   npm run compare                                   # everything
 *   npm run compare -- --data-dir ../shared/datasets  # another data folder
 *   npm run compare -- --systems ours,hai --tasks pii --skip-bench --limit 200
 *
 * Each system runs in its own Node process (a peer that crashes or hangs is
 * reported, not fatal), over every row of each file in file order: no
 * sampling, no randomness. Only aggregate numbers are written, never rows.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, release, tmpdir, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Detector, SystemAdapter, Task } from '../bench/peers/adapter';
import { tasks as allTasks, installedVersion } from '../bench/peers/adapter';
import { packageOf, systems } from '../bench/peers/index';
import { evaluate } from '../src/cli/eval';
import {
  type Confusion,
  emptyConfusion,
  type GoldSpan,
  quantile,
  type Rates,
  rates,
  scoreSpans,
} from '../src/cli/scoring';
import { allPiiEntities } from '../src/guards/pii/find-pii';
import { renderLosoFile } from './train/loso-report';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const selfPath = fileURLToPath(import.meta.url);

const files: Record<Task, string> = {
  pii: 'pii.dev.jsonl',
  secrets: 'secrets.dev.jsonl',
  'injection-direct': 'prompt_injection.dev.jsonl',
  'injection-indirect': 'indirect_injection.dev.jsonl',
};

const taskTitles: Record<Task, string> = {
  pii: 'PII (span level, per entity type)',
  secrets: 'Secrets (row level, per set)',
  'injection-direct': 'Direct prompt injection (row level, per set)',
  'injection-indirect': 'Indirect prompt injection (row level, per set)',
};

/** Gold types that need named-entity recognition: no pattern detector (ours or a peer's) claims them. */
const nerTypes = new Set([
  'PERSON',
  'GPE',
  'LOCATION',
  'TITLE',
  'STREET_ADDRESS',
  'ORGANIZATION',
  'DATE_TIME',
  'NRP',
  'AGE',
]);

interface Row {
  text: string;
  label: number;
  set?: string;
  spans?: Array<{ entity_type: string; start: number; end: number }>;
}

/** Counts and latencies of one `set` (or of the whole file). */
interface SetScore {
  set: string;
  rows: number;
  confusion: Confusion;
  p50Ms: number | null;
  p95Ms: number | null;
}

/** What one detector scored on one task. */
interface DetectorResult {
  task: Task;
  system: string;
  label: string;
  call: string;
  status: 'ok' | 'error' | 'stopped';
  error?: string;
  rowsTotal: number;
  rowsScored: number;
  /** Rows where the detector threw; counted as not flagged. */
  rowErrors: number;
  sets: SetScore[];
  overall: SetScore;
  entities?: Record<string, Confusion>;
}

/** What one system's process reports. */
interface SystemReport {
  id: string;
  system: string;
  version: string;
  notes: string[];
  unavailable: Partial<Record<Task, string>>;
  results: DetectorResult[];
  backgroundErrors?: { count: number; first?: string };
  /** Ours only: whether the eval command's `evaluate()` gives the same row counts. */
  evalCrossCheck?: string[];
  /** Set when the process itself failed. */
  failure?: string;
}

function readRows(path: string, limit: number | undefined): Row[] {
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter(line => line.trim() !== '')
    .map(line => JSON.parse(line) as Row);
  return limit === undefined ? rows : rows.slice(0, limit);
}

function addRow(confusion: Confusion, label: number, flagged: boolean): void {
  if (label === 1) {
    if (flagged) confusion.truePositives++;
    else confusion.falseNegatives++;
  } else if (flagged) confusion.falsePositives++;
  else confusion.trueNegatives++;
}

function setScore(set: string, confusion: Confusion, latencies: number[]): SetScore {
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
async function scoreDetector(
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

/** Worker: scores one system on the requested tasks and writes its report as JSON. */
async function runWorker(
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
 * Runs the eval command's own `evaluate()` on the PII and secrets files and
 * checks it flags the same rows as our detector here: the comparison scores
 * our guardrails exactly as `ai-guardrails eval` does.
 */
async function crossCheckWithEval(
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
    const evalReports = await evaluate({ guardrail, data: join(dataDir, files[task]), options });
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
        ? `${task}: \`ai-guardrails eval --guardrail ${guardrail}\` gives the same per-set precision, recall and false-positive rate`
        : `${task}: differs from \`ai-guardrails eval\` on set(s) ${mismatches.map(m => m.set).join(', ')}`,
    );
  }
  return lines;
}

/** Runs a child process, forwarding its stderr; resolves with its exit code or a timeout. */
function runChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  captureStdout: boolean,
) {
  return new Promise<{
    code: number | null;
    stdout: string;
    stderrTail: string;
    timedOut: boolean;
  }>(done => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', captureStdout ? 'pipe' : 'inherit', 'pipe'],
    });
    let stdout = '';
    let stderrTail = '';
    let timedOut = false;
    child.stdout?.on('data', chunk => {
      stdout += chunk;
    });
    child.stderr!.on('data', chunk => {
      process.stderr.write(chunk);
      stderrTail = (stderrTail + chunk).slice(-2_000);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', code => {
      clearTimeout(timer);
      done({ code, stdout, stderrTail, timedOut });
    });
  });
}

// ---------------------------------------------------------------- rendering

const num = (value: number | null | undefined, digits = 3) =>
  value === null || value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(digits);

function rowName(result: DetectorResult): string {
  return `${result.system}${result.label ? ` (${result.label})` : ''}`;
}

function sumConfusions(confusions: Confusion[]): Confusion {
  const total = emptyConfusion();
  for (const c of confusions) {
    total.truePositives += c.truePositives;
    total.falsePositives += c.falsePositives;
    total.falseNegatives += c.falseNegatives;
    total.trueNegatives += c.trueNegatives;
  }
  return total;
}

function piiAggregate(result: DetectorResult, types: (type: string) => boolean): Rates & Confusion {
  const confusion = sumConfusions(
    Object.entries(result.entities ?? {})
      .filter(([type]) => types(type))
      .map(([, c]) => c),
  );
  return { ...confusion, ...rates(confusion) };
}

const ourTypes = new Set<string>(allPiiEntities);
const inOurTypes = (type: string) => ourTypes.has(type);
const notNer = (type: string) => !nerTypes.has(type);

function statusNote(result: DetectorResult): string {
  if (result.status === 'error') return `**did not run**: ${result.error}`;
  if (result.status === 'stopped') return `stopped: ${result.error}`;
  if (result.rowErrors > 0)
    return `${result.rowErrors} rows threw (counted as not flagged): ${result.error}`;
  return '';
}

function renderPii(results: DetectorResult[]): string[] {
  const lines: string[] = [];
  const ok = results.filter(result => result.status !== 'error');
  lines.push(
    '| system | scope | tp | fp | fn | precision | recall | F1 | texts flagged among texts without PII (FPR) | p50 ms | p95 ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const result of ok) {
    for (const [scope, filter] of [
      ['our 12 pattern types', inOurTypes],
      ['all non-NER gold types', notNer],
    ] as const) {
      const a = piiAggregate(result, filter);
      lines.push(
        `| ${rowName(result)} | ${scope} | ${a.truePositives} | ${a.falsePositives} | ${a.falseNegatives} | ${num(a.precision)} | ${num(a.recall)} | ${num(a.f1)} | ${num(rates(result.overall.confusion).falsePositiveRate)} | ${num(result.overall.p50Ms, 3)} | ${num(result.overall.p95Ms, 3)} |`,
      );
    }
  }
  const types = new Set<string>();
  for (const result of ok) for (const type of Object.keys(result.entities ?? {})) types.add(type);
  const sortedTypes = [...types].sort((a, b) => {
    const rank = (t: string) => (ourTypes.has(t) ? 0 : nerTypes.has(t) ? 2 : 1);
    return rank(a) - rank(b) || a.localeCompare(b);
  });
  lines.push(
    '',
    'Per entity type: F1 (precision / recall), with tp/fp/fn. A type only a peer reports shows its false positives; NER types (PERSON, GPE, ...) are listed last.',
    '',
    `| entity | ${ok.map(rowName).join(' | ')} |`,
    `|---|${ok.map(() => '---|').join('')}`,
  );
  for (const type of sortedTypes) {
    const cells = ok.map(result => {
      const c = result.entities?.[type];
      if (!c) return '-';
      const r = rates(c);
      return `${num(r.f1, 2)} (${num(r.precision, 2)} / ${num(r.recall, 2)}) ${c.truePositives}/${c.falsePositives}/${c.falseNegatives}`;
    });
    lines.push(`| ${type}${nerTypes.has(type) ? ' (NER)' : ''} | ${cells.join(' | ')} |`);
  }
  return lines;
}

function renderRowLevel(results: DetectorResult[]): string[] {
  const lines: string[] = [
    '| set | system | rows | pos / neg | precision | recall | F1 | FPR | p50 ms | p95 ms |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const ok = results.filter(result => result.status !== 'error');
  const setNames = [...new Set(ok.flatMap(result => result.sets.map(set => set.set)))];
  for (const setName of [...setNames, 'all rows']) {
    for (const result of ok) {
      const set =
        setName === 'all rows' ? result.overall : result.sets.find(s => s.set === setName);
      if (!set) continue;
      const c = set.confusion;
      const r = rates(c);
      const name = setName === 'all rows' ? '**all rows**' : setName;
      lines.push(
        `| ${name} | ${rowName(result)} | ${set.rows} | ${c.truePositives + c.falseNegatives} / ${c.falsePositives + c.trueNegatives} | ${num(r.precision)} | ${num(r.recall)} | ${num(r.f1)} | ${num(r.falsePositiveRate)} | ${num(set.p50Ms, 3)} | ${num(set.p95Ms, 3)} |`,
      );
    }
  }
  return lines;
}

interface BenchSummaries {
  overhead?: Array<{
    operation: string;
    variant: string;
    p50Microseconds: number;
    ratioToBare: number;
  }>;
  chains?: {
    rows: Array<{
      task: string;
      system: string;
      what: string;
      megabytesPerSecond: number | null;
      p50Ms: number | null;
      error?: string;
    }>;
  };
}

function renderTargets(reports: SystemReport[], bench: BenchSummaries): string[] {
  const lines = ['| target | measured | met |', '|---|---|---|'];
  const verdict = (met: boolean | undefined) =>
    met === undefined ? 'not measured' : met ? 'yes' : '**no**';
  for (const operation of ['doGenerate', 'doStream (1,000 deltas)']) {
    const row = bench.overhead?.find(
      r => r.operation === operation && r.variant === 'guardrails(), no guardrails',
    );
    const bare = bench.overhead?.find(r => r.operation === operation && r.variant === 'bare model');
    lines.push(
      `| no-guardrail overhead, ${operation}: ratio <= 1.05 | ${row && bare ? `${row.ratioToBare.toFixed(2)} (${row.p50Microseconds.toFixed(1)} µs vs ${bare.p50Microseconds.toFixed(1)} µs bare)` : '-'} | ${verdict(row ? row.ratioToBare <= 1.05 : undefined)} |`,
    );
  }
  // Speed and F1 of PII + secrets.
  const chainRows = bench.chains?.rows.filter(r => r.task === 'PII + secrets' && !r.error) ?? [];
  const ourChain = chainRows.find(r => r.system === 'ai-guardrails');
  const all = reports.flatMap(report => report.results);
  const f1Of = (system: string, task: Task) => {
    const result = all.find(r => r.system === system && r.task === task && r.status !== 'error');
    if (!result) return null;
    return task === 'pii'
      ? piiAggregate(result, inOurTypes).f1
      : rates(result.overall.confusion).f1;
  };
  const full = chainRows.filter(
    r => r.system !== 'ai-guardrails' && !r.what.includes('no secret detector'),
  );
  const partial = chainRows.filter(
    r => r.system !== 'ai-guardrails' && r.what.includes('no secret detector'),
  );
  const fastest = (rows: typeof chainRows) =>
    rows.reduce<(typeof chainRows)[number] | undefined>(
      (best, r) => ((r.megabytesPerSecond ?? 0) > (best?.megabytesPerSecond ?? 0) ? r : best),
      undefined,
    );
  for (const [label, peer] of [
    ['fastest peer with PII and secret detectors', fastest(full)],
    ['fastest peer with a PII detector only', fastest(partial)],
  ] as const) {
    if (!peer || !ourChain?.megabytesPerSecond || !peer.megabytesPerSecond) continue;
    const speedup = ourChain.megabytesPerSecond / peer.megabytesPerSecond;
    const ourPii = f1Of('ai-guardrails', 'pii');
    const peerPii = f1Of(peer.system, 'pii');
    const ourSecrets = f1Of('ai-guardrails', 'secrets');
    const peerSecrets = f1Of(peer.system, 'secrets');
    const f1Higher =
      ourPii !== null &&
      (peerPii === null || ourPii > peerPii) &&
      (peerSecrets === null || (ourSecrets ?? 0) > peerSecrets);
    lines.push(
      `| PII + secrets >= 3x faster than the ${label} (${peer.system}) on 1 MB, with higher F1 | ${speedup.toFixed(2)}x (${num(ourChain.megabytesPerSecond, 2)} vs ${num(peer.megabytesPerSecond, 2)} MB/s); PII F1 (our 12 types) ${num(ourPii)} vs ${num(peerPii)}; secrets F1 ${num(ourSecrets)} vs ${peerSecrets === null ? 'n/a' : num(peerSecrets)} | ${verdict(speedup >= 3 && f1Higher)} |`,
    );
  }
  // Injection: F1 per set and FPR on benign rows.
  for (const task of ['injection-direct', 'injection-indirect'] as const) {
    const ours = all.find(
      r => r.system === 'ai-guardrails' && r.task === task && r.status === 'ok',
    );
    const peers = all.filter(
      r => r.system !== 'ai-guardrails' && r.task === task && r.status !== 'error',
    );
    if (!ours || peers.length === 0) continue;
    const ourFpr = rates(ours.overall.confusion).falsePositiveRate ?? 0;
    for (const set of ours.sets) {
      const hasPositives = set.confusion.truePositives + set.confusion.falseNegatives > 0;
      if (!hasPositives) continue;
      const ourF1 = rates(set.confusion).f1 ?? 0;
      const losses = peers.filter(peer => {
        const theirs = peer.sets.find(s => s.set === set.set);
        const theirF1 = theirs ? (rates(theirs.confusion).f1 ?? 0) : 0;
        const theirFpr = rates(peer.overall.confusion).falsePositiveRate ?? 0;
        return !(ourF1 > theirF1 && ourFpr <= theirFpr);
      });
      lines.push(
        `| promptInjection beats every runnable peer on ${task.replace('injection-', '')} set \`${set.set}\` (higher F1, FPR on the file's benign rows no higher) | our F1 ${num(ourF1)}, FPR ${num(ourFpr)}; ${losses.length === 0 ? 'ahead of all' : `not ahead of: ${losses.map(p => `${rowName(p)} (F1 ${num(rates(p.sets.find(s => s.set === set.set)?.confusion ?? emptyConfusion()).f1)}, FPR ${num(rates(p.overall.confusion).falsePositiveRate)})`).join('; ')}`} | ${verdict(losses.length === 0)} |`,
      );
    }
  }
  return lines;
}

const palette: Record<string, string> = {
  'ai-guardrails': '#d62728',
  '@openai/guardrails': '#1f77b4',
  '@presidio-dev/hai-guardrails': '#2ca02c',
  'llm-guard': '#9467bd',
  llm_guardrail: '#ff7f0e',
};

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Precision vs recall, one panel per task, one point per system (variant). */
function renderChart(reports: SystemReport[]): string {
  const all = reports.flatMap(report => report.results).filter(r => r.status !== 'error');
  const panel = 300;
  const margin = { left: 50, top: 40, gap: 70 };
  const width = margin.left + 2 * (panel + margin.gap);
  const height = margin.top + 2 * (panel + margin.gap) + 60;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">Precision vs recall per system (npm run compare)</text>`,
  ];
  allTasks.forEach((task, index) => {
    const x0 = margin.left + (index % 2) * (panel + margin.gap);
    const y0 = margin.top + Math.floor(index / 2) * (panel + margin.gap);
    const px = (recall: number) => x0 + recall * panel;
    const py = (precision: number) => y0 + panel - precision * panel;
    parts.push(
      `<text x="${x0 + panel / 2}" y="${y0 - 8}" text-anchor="middle" font-size="12" font-weight="bold">${escapeXml(task === 'pii' ? 'PII spans (our 12 pattern types)' : `${task} (all rows)`)}</text>`,
      `<rect x="${x0}" y="${y0}" width="${panel}" height="${panel}" fill="none" stroke="#333"/>`,
    );
    for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
      parts.push(
        `<line x1="${px(tick)}" y1="${y0}" x2="${px(tick)}" y2="${y0 + panel}" stroke="#eee"/>`,
        `<line x1="${x0}" y1="${py(tick)}" x2="${x0 + panel}" y2="${py(tick)}" stroke="#eee"/>`,
        `<text x="${px(tick)}" y="${y0 + panel + 14}" text-anchor="middle">${tick}</text>`,
        `<text x="${x0 - 6}" y="${py(tick) + 4}" text-anchor="end">${tick}</text>`,
      );
    }
    parts.push(
      `<text x="${x0 + panel / 2}" y="${y0 + panel + 30}" text-anchor="middle">recall</text>`,
      `<text x="${x0 - 36}" y="${y0 + panel / 2}" text-anchor="middle" transform="rotate(-90 ${x0 - 36} ${y0 + panel / 2})">precision</text>`,
    );
    const points = all.filter(r => r.task === task);
    points.forEach((result, i) => {
      const r = task === 'pii' ? piiAggregate(result, inOurTypes) : rates(result.overall.confusion);
      if (r.precision === null || r.recall === null) return;
      const cx = px(r.recall);
      const cy = py(r.precision);
      const color = palette[result.system] ?? '#555';
      parts.push(
        `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="5" fill="${color}" fill-opacity="0.85"/>`,
        `<text x="${(cx + 7).toFixed(1)}" y="${(cy + 4 + (i % 3) * 10 - 10).toFixed(1)}" fill="${color}" font-size="9">${escapeXml(result.label || result.system.replace(/^@[^/]+\//, ''))}</text>`,
      );
    });
  });
  const legendY = height - 30;
  Object.entries(palette).forEach(([system, color], i) => {
    const x = margin.left + i * 150;
    parts.push(
      `<circle cx="${x}" cy="${legendY}" r="5" fill="${color}"/>`,
      `<text x="${x + 9}" y="${legendY + 4}">${escapeXml(system)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function renderDoc({
  reports,
  benchMarkdown,
  bench,
  command,
  dataDir,
  limit,
  startedAt,
  seconds,
}: {
  reports: SystemReport[];
  benchMarkdown: string | undefined;
  bench: BenchSummaries;
  command: string;
  dataDir: string;
  limit: number | undefined;
  startedAt: Date;
  seconds: number;
}): string {
  const cpuList = cpus();
  const lines: string[] = [
    '# Benchmarks: ai-guardrails beside the libraries users would pick instead',
    '',
    `Generated by \`${command}\` on ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC in ${Math.round(seconds)} s. Do not edit by hand: re-run the command.`,
    '',
    `- Machine: ${cpuList.length} x ${cpuList[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${platform()} ${release()} ${arch()} (shared with other work while measured: read ratios, not absolute times)`,
    `- Node ${process.version}; ai ${installedVersion('ai')}; mitata ${installedVersion('mitata')}`,
    `- Data: \`${relative(repoRoot, dataDir) || dataDir}\` (dev split), every row in file order${limit === undefined ? '' : `, **first ${limit} rows of each file only**`}; inputs of the speed benchmarks from a fixed seed (bench/fixtures.ts). No dataset rows are stored here, only counts.`,
    '',
    '| system | version | what is compared |',
    '|---|---|---|',
  ];
  for (const report of reports) {
    const what = allTasks
      .map(task => {
        const detectors = report.results.filter(r => r.task === task);
        if (detectors.length > 0)
          return `${task}: ${[...new Set(detectors.map(d => `\`${d.call}\``))].join(', ')}`;
        const why = report.unavailable[task];
        return why ? `${task}: not compared (${why})` : undefined;
      })
      .filter(Boolean)
      .join('<br>');
    lines.push(
      `| ${report.system} | ${report.version} | ${report.failure ? `**failed**: ${report.failure}` : what} |`,
    );
  }
  lines.push('', '## Targets', '', ...renderTargets(reports, bench), '');
  lines.push(
    '## Detection quality',
    '',
    "Scored with the eval command's functions (`rates`, `scoreSpans`, `quantile` from src/cli/scoring.ts): a PII prediction is a true positive when it overlaps an unmatched gold span of the same type (`DOMAIN_NAME` gold counts as `URL`); secrets and injection are scored per row (flagged vs `label`). FPR = flagged rows among rows labelled 0. Latency is per call, in this process, including each library's own overhead.",
    '',
  );
  const cross = reports.find(report => report.id === 'ours')?.evalCrossCheck ?? [];
  if (cross.length > 0)
    lines.push('Cross-check with the eval command:', '', ...cross.map(line => `- ${line}`), '');
  for (const task of allTasks) {
    const results = reports.flatMap(report => report.results).filter(r => r.task === task);
    lines.push(`### ${taskTitles[task]}`, '');
    if (results.length === 0) {
      lines.push('Not run.', '');
      continue;
    }
    const problems = results.filter(r => statusNote(r) !== '');
    lines.push(...(task === 'pii' ? renderPii(results) : renderRowLevel(results)), '');
    if (problems.length > 0) {
      lines.push(...problems.map(r => `- ${rowName(r)}: ${statusNote(r)}`), '');
    }
    const missing = reports.filter(report => report.unavailable[task]);
    if (missing.length > 0) {
      lines.push(
        ...missing.map(report => `- ${report.system}: not compared (${report.unavailable[task]})`),
        '',
      );
    }
  }
  const loso = renderLosoFile(join(repoRoot, 'docs/prompt-injection-loso.json'));
  lines.push(
    '### Prompt injection on sources the detector never saw (leave one source out)',
    '',
    ...(loso ?? [
      'Not available: run `npm run train -- --loso --loso-out docs/prompt-injection-loso.json`.',
      '',
    ]),
    'The dev-split rows above are in-sample for the direct model (the dev split is part of its training data); these are not. From `npm run train -- --loso --loso-out docs/prompt-injection-loso.json` (minutes: one training per source), not re-run by this command; details in docs/prompt-injection-model.md.',
    '',
  );
  lines.push('![Precision vs recall per system and task](benchmarks-chart.svg)', '');
  lines.push('## Speed', '');
  lines.push(
    benchMarkdown
      ? benchMarkdown
          .replace(/^# .*\n/, '')
          .replace(/^#{1,2} /gm, '### ')
          .trim()
      : 'Not run (`--skip-bench`): run `npm run bench`.',
    '',
  );
  lines.push('## Notes on the peers', '');
  for (const report of reports) {
    const notes = [...report.notes];
    if (report.backgroundErrors && report.backgroundErrors.count > 0) {
      notes.push(
        `During this run it raised ${report.backgroundErrors.count} unhandled errors outside any call; the first: \`${report.backgroundErrors.first ?? ''}\`.`,
      );
    }
    if (notes.length > 0) lines.push(`- **${report.system}**`, ...notes.map(note => `  - ${note}`));
  }
  lines.push(
    '',
    '## Reproduce',
    '',
    '```sh',
    'npm install',
    `${command}    # writes docs/benchmarks.md and docs/benchmarks-chart.svg`,
    'npm run bench      # speed only, printed',
    '```',
    '',
    '`npm run compare -- --help` lists the options (`--data-dir`, `--systems`, `--tasks`, `--limit`, `--skip-bench`, `--budget-s`, `--timeout-min`).',
    '',
  );
  return lines.join('\n');
}

// ---------------------------------------------------------------- main

const usage = `Usage: npm run compare -- [--data-dir ../shared/datasets] [--systems ours,openai,hai,llm-guard,llm_guardrail]
       [--tasks pii,secrets,injection-direct,injection-indirect] [--limit N] [--skip-bench]
       [--budget-s 900] [--timeout-min 30] [--out docs/benchmarks.md]`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      systems: { type: 'string' },
      tasks: { type: 'string' },
      limit: { type: 'string' },
      'skip-bench': { type: 'boolean', default: false },
      'budget-s': { type: 'string', default: '900' },
      'timeout-min': { type: 'string', default: '30' },
      out: { type: 'string', default: 'docs/benchmarks.md' },
      worker: { type: 'string' },
      'json-out': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const dataDir = resolve(repoRoot, values['data-dir'] ?? '../shared/datasets');
  const taskList = (values.tasks?.split(',') ?? [...allTasks]) as Task[];
  const badTask = taskList.find(task => !allTasks.includes(task));
  if (badTask) {
    console.error(`Unknown task "${badTask}": expected some of ${allTasks.join(', ')}`);
    return 2;
  }
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  const budgetMs = Number(values['budget-s']) * 1000;
  if (values.worker) {
    await runWorker(values.worker, dataDir, taskList, limit, budgetMs, values['json-out']!);
    return 0;
  }
  const systemIds = values.systems?.split(',') ?? Object.keys(systems);
  const badSystem = systemIds.find(id => !systems[id]);
  if (badSystem) {
    console.error(
      `Unknown system "${badSystem}": expected some of ${Object.keys(systems).join(', ')}`,
    );
    return 2;
  }
  const missing = taskList.filter(task => !existsSync(join(dataDir, files[task])));
  if (missing.length === taskList.length) {
    console.log(
      `No data in ${dataDir} (${taskList.map(task => files[task]).join(', ')}): comparison skipped. Pass --data-dir <folder> to point at the labelled JSONL files.`,
    );
    return 0;
  }
  if (missing.length > 0) {
    console.log(
      `Skipping ${missing.join(', ')}: ${missing.map(task => files[task]).join(', ')} not in ${dataDir}.`,
    );
  }
  const present = taskList.filter(task => !missing.includes(task));
  const startedAt = new Date();
  const scratch = mkdtempSync(join(tmpdir(), 'ai-guardrails-compare-'));
  const reports: SystemReport[] = [];
  try {
    for (const id of systemIds) {
      process.stderr.write(`\n== ${packageOf[id]}\n`);
      const out = join(scratch, `${id}.json`);
      const args = [
        selfPath,
        '--worker',
        id,
        '--json-out',
        out,
        '--data-dir',
        dataDir,
        '--tasks',
        present.join(','),
        '--budget-s',
        String(budgetMs / 1000),
      ];
      if (limit !== undefined) args.push('--limit', String(limit));
      const child = await runChild(
        args,
        process.env,
        Number(values['timeout-min']) * 60_000,
        false,
      );
      if (child.code === 0 && existsSync(out)) {
        reports.push(JSON.parse(readFileSync(out, 'utf8')) as SystemReport);
      } else {
        const lastLine = child.stderrTail.trim().split('\n').filter(Boolean).slice(-3).join(' / ');
        reports.push({
          id,
          system: packageOf[id] ?? id,
          version: installedVersion(packageOf[id] ?? id),
          notes: [],
          unavailable: {},
          results: [],
          failure: child.timedOut
            ? `no result within ${values['timeout-min']} min`
            : `exit ${child.code}: ${lastLine}`,
        });
      }
    }
    let benchMarkdown: string | undefined;
    const bench: BenchSummaries = {};
    if (!values['skip-bench']) {
      process.stderr.write('\n== npm run bench\n');
      const child = await runChild(
        [join(repoRoot, 'bench/index.ts')],
        { ...process.env, BENCH_JSON_DIR: scratch },
        Number(values['timeout-min']) * 60_000,
        true,
      );
      benchMarkdown = child.stdout;
      for (const name of ['overhead', 'chains'] as const) {
        const file = join(scratch, `${name}.json`);
        if (existsSync(file))
          Object.assign(bench, { [name]: JSON.parse(readFileSync(file, 'utf8')) });
      }
    }
    const command = `npm run compare${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
    const outPath = resolve(repoRoot, values.out);
    writeFileSync(
      outPath,
      renderDoc({
        reports,
        benchMarkdown,
        bench,
        command,
        dataDir,
        limit,
        startedAt,
        seconds: (Date.now() - startedAt.getTime()) / 1000,
      }),
    );
    writeFileSync(join(outPath, '..', 'benchmarks-chart.svg'), renderChart(reports));
    console.log(`Wrote ${relative(repoRoot, outPath)} and benchmarks-chart.svg beside it.`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return 0;
}

main().then(
  code => {
    process.exit(code);
  },
  error => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
