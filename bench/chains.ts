/**
 * Deterministic chains, ours beside each peer's equivalent on the same
 * inputs: latency p50/p95 per 2 KB prompt and MB/s on 1 MB of mixed text.
 *
 *   npx tsx bench/chains.ts
 *
 * Inputs are generated from a fixed seed (bench/fixtures.ts). Our chain runs
 * through `runChain`, the middleware's code path; each peer through its
 * public API (bench/peers/). Ratios are against our chain measured in the
 * same process; ours is measured before and after the peers and the faster
 * of the two is the baseline, so a slow phase of the machine does not
 * flatter us. hai-guardrails goes last: importing it starts a failing worker
 * pool that keeps a core busy (see docs/benchmarks.md).
 */

import { invisibleText, pii, promptInjection, secrets } from '../src';
import { quantile } from '../src/cli/scoring';
import { runChain } from '../src/core/chain';
import type { Guardrail, GuardrailKind } from '../src/core/types';
import { mixedPrompts, mixedText, saveSummary } from './fixtures';
import type { SystemAdapter } from './peers/adapter';
import { systems } from './peers/index';

const promptCount = Number(process.env.BENCH_PROMPTS ?? 512);
const promptSize = 2_048;
const megabyte = 1_048_576;
/** Time budget per 1 MB measurement: repeats until spent (at least one run, at most 7). */
const megabyteBudgetMs = Number(process.env.BENCH_MB_BUDGET_MS ?? 3_000);

type Check = (text: string) => unknown;

/** One row of the chain table. */
export interface ChainRow {
  task: 'PII + secrets' | 'input chain' | 'prompt injection';
  system: string;
  what: string;
  p50Ms: number | null;
  p95Ms: number | null;
  megabytesPerSecond: number | null;
  /** Our time over theirs on the same input: > 1 means ours is faster. */
  speedupVsOurs?: { per2KB: number | null; perMB: number | null };
  error?: string;
}

function chain(guardrails: Guardrail[], kind: GuardrailKind): Check {
  return text => runChain(guardrails, text, { kind, messages: [], metadata: {}, state: new Map() });
}

async function latencies(check: Check, prompts: readonly string[]) {
  for (const prompt of prompts.slice(0, 32)) await check(prompt); // warm up
  const times: number[] = [];
  for (const prompt of prompts) {
    const start = performance.now();
    await check(prompt);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: quantile(times, 0.5), p95Ms: quantile(times, 0.95) };
}

async function throughput(check: Check, text: string): Promise<number> {
  const times: number[] = [];
  const started = performance.now();
  do {
    const start = performance.now();
    await check(text);
    times.push(performance.now() - start);
  } while (times.length < 7 && performance.now() - started < megabyteBudgetMs);
  times.sort((a, b) => a - b);
  return text.length / megabyte / (quantile(times, 0.5)! / 1000);
}

async function measureRow(
  task: ChainRow['task'],
  system: string,
  what: string,
  check: Check,
  prompts: readonly string[],
  megabyteText: string | undefined,
): Promise<ChainRow> {
  process.stderr.write(`chains: ${system} ${task}...\n`);
  try {
    const { p50Ms, p95Ms } = await latencies(check, prompts);
    const megabytesPerSecond = megabyteText ? await throughput(check, megabyteText) : null;
    return { task, system, what, p50Ms, p95Ms, megabytesPerSecond };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      task,
      system,
      what,
      p50Ms: null,
      p95Ms: null,
      megabytesPerSecond: null,
      error: message,
    };
  }
}

/** The peers' PII + secrets equivalents and injection detectors, through their adapters. */
function peerChecks(
  adapter: SystemAdapter,
): Array<{ task: ChainRow['task']; what: string; check: Check }> {
  const checks: Array<{ task: ChainRow['task']; what: string; check: Check }> = [];
  const piiDetector = adapter.detectors.pii?.[0];
  const secretDetector = adapter.detectors.secrets?.[0];
  if (piiDetector || secretDetector) {
    const parts = [piiDetector, secretDetector].filter(detector => detector !== undefined);
    checks.push({
      task: 'PII + secrets',
      what: `${parts.map(detector => detector.call).join(' + ')}${secretDetector ? '' : ' (no secret detector)'}`,
      check: async text => {
        for (const detector of parts) await detector.detect(text);
      },
    });
  }
  for (const detector of adapter.detectors['injection-direct'] ?? []) {
    if (detector.label === 'heuristic') continue; // never answers (see the hai adapter)
    checks.push({
      task: 'prompt injection',
      what: detector.call,
      check: text => detector.detect(text),
    });
  }
  return checks;
}

/** Measures the chain table; prints it as markdown. */
export async function runChains(): Promise<ChainRow[]> {
  const prompts = mixedPrompts(promptCount, promptSize);
  const megabyteText = mixedText(megabyte);
  const ours = {
    output: chain([pii({ action: 'redact' }), secrets({ action: 'redact' })], 'output'),
    input: chain([promptInjection(), pii({ action: 'redact' }), invisibleText()], 'input'),
    injection: chain([promptInjection()], 'input'),
  };
  const ourRows = async (label: string) => [
    await measureRow(
      'PII + secrets',
      label,
      "output chain: pii({ action: 'redact' }), secrets({ action: 'redact' })",
      ours.output,
      prompts,
      megabyteText,
    ),
    await measureRow(
      'input chain',
      label,
      "input chain: promptInjection(), pii({ action: 'redact' }), invisibleText()",
      ours.input,
      prompts,
      undefined,
    ),
    await measureRow(
      'prompt injection',
      label,
      'promptInjection()',
      ours.injection,
      prompts,
      undefined,
    ),
  ];
  const before = await ourRows('ai-guardrails');
  const peerRows: ChainRow[] = [];
  for (const id of ['openai', 'llm-guard', 'llm_guardrail']) {
    const adapter = await systems[id]!();
    for (const { task, what, check } of peerChecks(adapter)) {
      peerRows.push(
        await measureRow(
          task,
          adapter.system,
          what,
          check,
          prompts,
          task === 'PII + secrets' ? megabyteText : undefined,
        ),
      );
    }
  }
  const after = await ourRows('ai-guardrails');
  const hai = await systems.hai!();
  for (const { task, what, check } of peerChecks(hai)) {
    peerRows.push(
      await measureRow(
        task,
        hai.system,
        what,
        check,
        prompts,
        task === 'PII + secrets' ? megabyteText : undefined,
      ),
    );
  }
  const pool = hai.backgroundErrors?.();
  // Our baseline: the better of the two passes per task.
  const baseline = before.map((row, i) => {
    const other = after[i]!;
    return {
      ...row,
      p50Ms: Math.min(row.p50Ms ?? Infinity, other.p50Ms ?? Infinity),
      p95Ms: Math.min(row.p95Ms ?? Infinity, other.p95Ms ?? Infinity),
      megabytesPerSecond:
        row.megabytesPerSecond === null
          ? null
          : Math.max(row.megabytesPerSecond, other.megabytesPerSecond ?? 0),
    };
  });
  for (const row of peerRows) {
    const base = baseline.find(candidate => candidate.task === row.task);
    if (!base || row.error) continue;
    row.speedupVsOurs = {
      per2KB: row.p50Ms && base.p50Ms ? row.p50Ms / base.p50Ms : null,
      perMB:
        row.megabytesPerSecond && base.megabytesPerSecond
          ? base.megabytesPerSecond / row.megabytesPerSecond
          : null,
    };
  }
  const rows = [...baseline, ...peerRows];
  const fmt = (value: number | null | undefined, digits: number) =>
    value === null || value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(digits);
  console.log(
    `\n## Deterministic chains: ${promptCount} prompts of 2 KB, and 1 MB of mixed text (seed in bench/fixtures.ts)\n`,
  );
  console.log(
    '| task | system | what runs | p50 per 2 KB (ms) | p95 per 2 KB (ms) | MB/s on 1 MB | ours faster by (2 KB p50) | ours faster by (1 MB) |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const task of ['PII + secrets', 'input chain', 'prompt injection'] as const) {
    for (const row of rows.filter(candidate => candidate.task === task)) {
      console.log(
        `| ${row.task} | ${row.system} | ${row.what} | ${fmt(row.p50Ms, 3)} | ${fmt(row.p95Ms, 3)} | ${fmt(row.megabytesPerSecond, 2)} | ${row.error ? `error: ${row.error}` : row.system === 'ai-guardrails' ? '1.00 (baseline)' : `${fmt(row.speedupVsOurs?.per2KB, 2)}x`} | ${row.system === 'ai-guardrails' ? (row.megabytesPerSecond === null ? '-' : '1.00 (baseline)') : row.speedupVsOurs?.perMB ? `${fmt(row.speedupVsOurs.perMB, 2)}x` : '-'} |`,
      );
    }
  }
  console.log(
    `\nOurs is measured before and after the peers (the better pass is the baseline: before ${fmt(before[0]!.megabytesPerSecond, 2)} MB/s, after ${fmt(after[0]!.megabytesPerSecond, 2)} MB/s for PII + secrets). "ours faster by" = peer time / our time on the same input.${pool ? ` While hai-guardrails was loaded its worker pool raised ${pool.count} unhandled errors (${pool.first ?? ''}).` : ''}`,
  );
  await saveSummary('chains', { rows, before, after, haiPoolErrors: pool ?? null });
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runChains();
  process.exit(0); // hai-guardrails' worker pool would keep the process alive
}
