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
    ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)],
    { stdio: 'inherit', env: process.env },
  );
  process.exit(result.status ?? 1);
}

const KEYS = Number(process.env.SOAK_KEYS ?? 1_000_000);
const MB = 1024 * 1024;

function heapUsed(): number {
  for (let i = 0; i < 3; i++) gc!();
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
  const baseline = heapUsed();

  let started = performance.now();
  for (let i = 0; i < KEYS; i++) await limit.check('', context(`user-${i}`));
  const rateLimitMs = performance.now() - started;
  const afterRateLimit = heapUsed();

  started = performance.now();
  for (let i = 0; i < KEYS; i++) {
    const params: LanguageModelV4CallOptions = {
      prompt: [{ role: 'user', content: [{ type: 'text', text: `distinct message number ${i}` }] }],
    };
    await transform({ type: 'generate', params, model });
  }
  const verdictMs = performance.now() - started;
  const afterVerdicts = heapUsed();

  // The same keys in a plain Map: what the stores would hold without eviction.
  const unbounded = new Map<string, string>();
  for (let i = 0; i < KEYS; i++) unbounded.set(`rate-limit:user-${i}`, '1');
  const withUnbounded = heapUsed();
  const unboundedBytes = withUnbounded - afterVerdicts;
  unbounded.clear();

  const rows = [
    ['empty baseline', baseline, 1],
    [
      `after ${KEYS.toLocaleString('en')} rateLimit keys`,
      afterRateLimit,
      afterRateLimit / baseline,
    ],
    [
      `after ${KEYS.toLocaleString('en')} verdict-cache texts too`,
      afterVerdicts,
      afterVerdicts / baseline,
    ],
    [
      `an unbounded Map of the same ${KEYS.toLocaleString('en')} rate-limit keys`,
      baseline + unboundedBytes,
      (baseline + unboundedBytes) / baseline,
    ],
  ] as const;
  console.log(`# Memory soak (${KEYS.toLocaleString('en')} distinct keys per store)\n`);
  console.log('| heap after full GC | MB | vs empty baseline |');
  console.log('|---|---|---|');
  for (const [label, bytes, ratio] of rows) {
    console.log(`| ${label} | ${(bytes / MB).toFixed(1)} | ${ratio.toFixed(2)}x |`);
  }
  console.log(
    `\nrateLimit: ${((KEYS / rateLimitMs) * 1000).toFixed(0)} checks/s; verdict cache: ${((KEYS / verdictMs) * 1000).toFixed(0)} transformParams/s.`,
  );
  await saveSummary('memory-soak', {
    keys: KEYS,
    baselineMB: baseline / MB,
    afterRateLimitRatio: afterRateLimit / baseline,
    afterVerdictsRatio: afterVerdicts / baseline,
    unboundedMapRatio: (baseline + unboundedBytes) / baseline,
  });
}

await main();
