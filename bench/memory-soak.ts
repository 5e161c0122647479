/**
 * Memory under a flood of distinct keys: 1,000,000 distinct users through
 * `rateLimit` (its default `memoryStore`) and 1,000,000 distinct texts
 * through the middleware's input verdict cache (its default in-memory store),
 * the way a long-running server sees them. Reports the heap after a full GC
 * as a ratio to an empty baseline measured in the same process (modules
 * loaded, middleware built, nothing stored), next to an unbounded `Map` of
 * the same keys (what a store without eviction would hold).
 *
 *   npx tsx bench/memory-soak.ts            # re-runs itself with --expose-gc
 *   SOAK_KEYS=200000 npx tsx bench/memory-soak.ts
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { type GuardrailContext, guardrails } from '../src';
import { allow, defineGuardrail } from '../src/core/define-guardrail';
import { rateLimit } from '../src/guards/rate-limit/rate-limit';
import { saveSummary } from './fixtures';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  // Heap figures mean nothing without a full collection first.
  const result = spawnSync(
    process.execPath,
    ['--expose-gc', '--no-flush-bytecode', '--import', 'tsx', fileURLToPath(import.meta.url)],
    { stdio: 'inherit', env: process.env },
  );
  process.exit(result.status ?? 1);
}

const KEYS = Number(process.env.SOAK_KEYS ?? 1_000_000);
const MB = 1024 * 1024;

async function heapUsed(): Promise<number> {
  // What the last calls left (abort signals, Web Crypto jobs) is released by
  // finalizers that run after a collection, once the event loop turns: so
  // collect, let them run, collect again.
  for (let round = 0; round < 3; round++) {
    gc!();
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  gc!();
  return process.memoryUsage().heapUsed;
}

function context(userId: string): GuardrailContext {
  return {
    kind: 'input',
    messages: [],
    metadata: { userId },
    state: new Map(),
    abortSignal: new AbortController().signal,
  };
}

async function main() {
  const limit = rateLimit({ limit: 5, windowMs: 3_600_000 });
  const passing = defineGuardrail({ name: 'passing', check: () => allow() });
  const middleware = guardrails({ input: [passing] });
  const transform = middleware.transformParams!;
  const model = {} as Parameters<typeof transform>[0]['model'];
  // Warm both paths once so the baseline includes compiled code, not data.
  await limit.check('', context('warm-up'));
  await transform({
    type: 'generate',
    params: { prompt: [{ role: 'user', content: [{ type: 'text', text: 'warm-up' }] }] },
    model,
  });
  const baseline = await heapUsed();

  // Each phase reports the heap once the store has been full for a while
  // (twice its cap of 10,000 keys: the default memoryStore and memoSize) and
  // after all KEYS: flat between the two is the bound holding. (Readings at
  // the cap itself carried transient garbage of the first calls.)
  const FULL = 20_000;
  let started = performance.now();
  let atRateLimitCap = 0;
  for (let i = 0; i < KEYS; i++) {
    await limit.check('', context(`user-${i}`));
    if (i + 1 === FULL) atRateLimitCap = await heapUsed();
  }
  const rateLimitMs = performance.now() - started;
  const afterRateLimit = await heapUsed();

  started = performance.now();
  let atVerdictCap = 0;
  for (let i = 0; i < KEYS; i++) {
    const params: LanguageModelV4CallOptions = {
      prompt: [{ role: 'user', content: [{ type: 'text', text: `distinct message number ${i}` }] }],
    };
    await transform({ type: 'generate', params, model });
    if (i + 1 === FULL) atVerdictCap = await heapUsed();
  }
  const verdictMs = performance.now() - started;
  const afterVerdicts = await heapUsed();

  // The same keys in a plain Map: what the stores would hold without eviction.
  const unbounded = new Map<string, string>();
  for (let i = 0; i < KEYS; i++) unbounded.set(`rate-limit:user-${i}`, '1');
  const withUnbounded = await heapUsed();
  const unboundedBytes = withUnbounded - afterVerdicts;
  unbounded.clear();

  const n = KEYS.toLocaleString('en');
  const rows: Array<[string, number]> = [
    ['empty baseline (modules loaded, middleware built)', baseline],
    [`rateLimit after ${FULL.toLocaleString('en')} keys (store full)`, atRateLimitCap],
    [`rateLimit after ${n} keys`, afterRateLimit],
    [`+ verdict cache after ${FULL.toLocaleString('en')} texts (store full)`, atVerdictCap],
    [`+ verdict cache after ${n} texts`, afterVerdicts],
    [`for comparison: an unbounded Map of ${n} rate-limit keys`, baseline + unboundedBytes],
  ];
  console.log(`# Memory soak (${n} distinct keys per store)\n`);
  console.log('| heap after full GC | MB | vs empty baseline |');
  console.log('|---|---|---|');
  for (const [label, bytes] of rows) {
    console.log(`| ${label} | ${(bytes / MB).toFixed(1)} | ${(bytes / baseline).toFixed(2)}x |`);
  }
  console.log(
    `\nFrom ${FULL.toLocaleString('en')} to ${n} keys: rateLimit ${(afterRateLimit / atRateLimitCap).toFixed(2)}x, verdict cache ${(afterVerdicts / atVerdictCap).toFixed(2)}x (1.00x = flat: the bound holds).`,
  );
  console.log(
    `rateLimit: ${((KEYS / rateLimitMs) * 1000).toFixed(0)} checks/s; verdict cache: ${((KEYS / verdictMs) * 1000).toFixed(0)} transformParams/s (this run, this machine's load).`,
  );
  await saveSummary('memory-soak', {
    keys: KEYS,
    baselineMB: baseline / MB,
    afterRateLimitRatio: afterRateLimit / baseline,
    afterVerdictsRatio: afterVerdicts / baseline,
    rateLimitCapToEndRatio: afterRateLimit / atRateLimitCap,
    verdictCapToEndRatio: afterVerdicts / atVerdictCap,
    unboundedMapRatio: (baseline + unboundedBytes) / baseline,
  });
}

await main();
