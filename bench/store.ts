/**
 * Cost of keeping guardrail state in Redis instead of process memory, each
 * figure next to the memory store measured in the same run.
 *
 *   npx tsx bench/store.ts                 # starts its own redis-server
 *   REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/store.ts
 *
 * 1. Checks per second of `rateLimit` and `tokenBudget` (per-session budget)
 *    called directly, 1 and 50 concurrent callers on one hot key, with the
 *    memory store, a node-redis client and an ioredis client (median of 3 runs).
 * 2. Added latency per guarded call: sequential `generateText` calls through
 *    the middleware with both guardrails on input, p50 / p95, Redis vs memory.
 *
 * Without REDIS_URL it starts `redis-server` on a free loopback port (no
 * persistence) and stops it at the end. Keys get a unique prefix and expire
 * within a minute.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { generateText, wrapLanguageModel } from 'ai';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { type Guardrail, type GuardrailContext, guardrails, memoryStore, type Store } from '../src';
import { rateLimit } from '../src/guards/rate-limit/rate-limit';
import { tokenBudget } from '../src/guards/token-budget/token-budget';
import { redisStore } from '../src/redis';
import { scriptedModel } from '../src/testing';

const CHECK_DURATION_MS = 1_000;
const LATENCY_CALLS = 2_000;

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

async function startRedis(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('error', reject);
    child.once('exit', code => reject(new Error(`redis-server exited with ${code}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, child };
}

function context(metadata: GuardrailContext['metadata']): GuardrailContext {
  return {
    kind: 'input',
    messages: [],
    abortSignal: new AbortController().signal,
    metadata,
    state: new Map(),
  };
}

const BIG = 1_000_000_000;
const guards = {
  rateLimit: (store: Store) => rateLimit({ limit: BIG, windowMs: 60_000, store }),
  tokenBudget: (store: Store) =>
    tokenBudget({ perSession: { maxTokens: BIG, windowMs: 60_000 }, store, countTokens: () => 10 }),
};

/**
 * Checks per second with `concurrency` callers looping for `durationMs`
 * (median of three runs after a warm-up run, as the machine may be shared).
 */
async function checksPerSecond(guardrail: Guardrail, concurrency: number): Promise<number> {
  await checksPerSecondOnce(guardrail, concurrency, 300);
  const runs: number[] = [];
  for (let i = 0; i < 3; i++)
    runs.push(await checksPerSecondOnce(guardrail, concurrency, CHECK_DURATION_MS));
  return runs.sort((a, b) => a - b)[1]!;
}

async function checksPerSecondOnce(guardrail: Guardrail, concurrency: number, durationMs: number) {
  const ctx = context({ userId: 'bench-user', sessionId: 'bench-session' });
  let count = 0;
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const verdict = await guardrail.check('hello', ctx);
        if (verdict.action !== 'allow') throw new Error(`unexpected ${verdict.action}`);
        count++;
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** p50 / p95 of sequential guarded generateText calls. */
async function callLatency(store: Store) {
  const model = wrapLanguageModel({
    model: scriptedModel({ respond: () => ({ text: 'Answer.' }) }),
    middleware: guardrails({ input: [guards.rateLimit(store), guards.tokenBudget(store)] }),
  });
  const call = () =>
    generateText({
      model,
      prompt: 'Hello',
      providerOptions: { guardrails: { userId: 'bench-user', sessionId: 'bench-session' } },
    });
  for (let i = 0; i < 200; i++) await call(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < LATENCY_CALLS; i++) {
    const start = performance.now();
    const result = await call();
    times.push(performance.now() - start);
    if (result.text !== 'Answer.') throw new Error('a bench call was blocked');
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function main() {
  let url = process.env.REDIS_URL;
  let own: ChildProcess | undefined;
  if (!url) {
    const started = await startRedis().catch(error => {
      console.error(`REDIS_URL is not set and redis-server could not start: ${error.message}`);
      process.exit(1);
    });
    url = started.url;
    own = started.child;
  }
  const nodeRedis = createClient({ url });
  await nodeRedis.connect();
  const ioredis = new Redis(url);
  const prefix = `ai-guardrails-bench:${Date.now().toString(36)}:`;
  const stores: Array<[string, () => Store]> = [
    ['memory', () => memoryStore()],
    [
      'redis (node-redis)',
      () => redisStore(nodeRedis, { prefix: `${prefix}n:`, timeoutMs: 30_000 }),
    ],
    ['redis (ioredis)', () => redisStore(ioredis, { prefix: `${prefix}i:`, timeoutMs: 30_000 })],
  ];

  try {
    console.log(`# Store bench (Redis at ${url}${own ? ', started by the bench' : ''})`);
    console.log('\n## Checks per second, one hot key\n');
    console.log('| guardrail | store | 1 caller | vs memory | 50 callers | vs memory |');
    console.log('|---|---|---|---|---|---|');
    for (const [guardName, makeGuard] of Object.entries(guards)) {
      const baseline: Record<number, number> = {};
      for (const [storeName, makeStore] of stores) {
        const row: string[] = [guardName, storeName];
        for (const concurrency of [1, 50]) {
          const rate = await checksPerSecond(makeGuard(makeStore()), concurrency);
          baseline[concurrency] ??= rate;
          row.push(Math.round(rate).toLocaleString('en-US'));
          row.push((rate / baseline[concurrency]!).toFixed(3));
        }
        console.log(`| ${row.join(' | ')} |`);
      }
    }

    console.log(
      `\n## Latency per guarded generateText call (rateLimit + tokenBudget on input), ${LATENCY_CALLS} sequential calls\n`,
    );
    console.log(
      '| store | p50 (ms) | p95 (ms) | p50 vs memory | p95 vs memory | added p50 / p95 (ms) |',
    );
    console.log('|---|---|---|---|---|---|');
    let memory: { p50: number; p95: number } | undefined;
    for (const [storeName, makeStore] of stores) {
      const latency = await callLatency(makeStore());
      memory ??= latency;
      console.log(
        `| ${storeName} | ${latency.p50.toFixed(3)} | ${latency.p95.toFixed(3)} | ${(
          latency.p50 / memory.p50
        ).toFixed(
          2,
        )} | ${(latency.p95 / memory.p95).toFixed(2)} | ${(latency.p50 - memory.p50).toFixed(3)} / ${(
          latency.p95 - memory.p95
        ).toFixed(3)} |`,
      );
    }
  } finally {
    await nodeRedis.quit();
    await ioredis.quit();
    if (own) {
      const exited = once(own, 'exit');
      own.kill('SIGTERM');
      await exited;
    }
  }
}

await main();
