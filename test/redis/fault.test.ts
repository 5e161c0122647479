import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GuardrailRecord } from '../../src';
import { rateLimit } from '../../src/guards/rate-limit/rate-limit';
import { tokenBudget } from '../../src/guards/token-budget/token-budget';
import { getGuardrailOutcome } from '../../src/middleware/get-guardrail-outcome';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import { type RedisClientLike, redisStore } from '../../src/redis';
import type { Store } from '../../src/store/store';
import { generateResult } from '../helpers';
import {
  announceSkip,
  connectIORedis,
  connectNodeRedis,
  HAS_REDIS_SERVER,
  ownRedisServer,
  REDIS_URL,
  uniquePrefix,
} from './redis-helpers';

announceSkip('fault');

const TIMEOUT_MS = 1_000;

function guardedModel(store: Store, onError: 'block' | 'allow') {
  const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Answer.') });
  return {
    model,
    guarded: wrapLanguageModel({
      model,
      middleware: guardrails({
        input: [
          rateLimit({ limit: 1_000, windowMs: 60_000, store, onError }),
          // tokenBudget has no onError option (yet): set the Guardrail field the chain reads.
          {
            ...tokenBudget({ perSession: { maxTokens: 100_000 }, store, countTokens: () => 1 }),
            onError,
          },
        ],
      }),
    }),
  };
}

async function ask(guarded: ReturnType<typeof guardedModel>['guarded']) {
  const result = await generateText({
    model: guarded,
    prompt: 'Hello',
    providerOptions: { guardrails: { userId: 'u1', sessionId: 's1' } },
  });
  const outcome = await getGuardrailOutcome(result);
  return { text: result.text, finishReason: result.finishReason, records: outcome?.records ?? [] };
}

const timedOut = (operation: string): Partial<GuardrailRecord> => ({
  guardrail: 'rate-limit',
  status: 'error',
  reason: `redis store: ${operation} did not answer within ${TIMEOUT_MS} ms`,
});

// The test starts, freezes, kills and restarts a redis-server of its own; the
// shared REDIS_URL server is never touched. REDIS_URL gates it like the other
// Redis tests, so CI without Redis skips it.
describe.skipIf(!REDIS_URL || !HAS_REDIS_SERVER)(
  'Redis unreachable mid-test: fail closed within timeoutMs, recover without restart',
  () => {
    for (const clientKind of ['node-redis', 'ioredis'] as const) {
      describe(`with ${clientKind}`, () => {
        let server: Awaited<ReturnType<typeof ownRedisServer>>;
        let client: RedisClientLike & { quit(): Promise<unknown> };

        beforeAll(async () => {
          server = await ownRedisServer();
          client =
            clientKind === 'node-redis'
              ? await connectNodeRedis(server.url)
              : ((await connectIORedis(server.url)) as Redis);
        });
        afterAll(async () => {
          await server?.stop();
          (client as { disconnect?: () => unknown }).disconnect?.();
        });

        it('a frozen server: blocks with an error record, or allows with onError: allow, then recovers', async () => {
          const store = redisStore(client, {
            prefix: uniquePrefix('fault'),
            timeoutMs: TIMEOUT_MS,
          });
          const closed = guardedModel(store, 'block');
          const open = guardedModel(store, 'allow');
          expect((await ask(closed.guarded)).text).toBe('Answer.');

          server.pause();
          try {
            const blocked = await ask(closed.guarded);
            expect(blocked.finishReason).toBe('content-filter');
            expect(blocked.records).toHaveLength(1);
            expect(blocked.records[0]).toMatchObject(timedOut('incrByCapped'));
            expect(closed.model.doGenerateCalls).toHaveLength(1);

            const allowed = await ask(open.guarded);
            expect(allowed.text).toBe('Answer.');
            expect(
              allowed.records.map(({ guardrail, status, reason }) => ({
                guardrail,
                status,
                reason,
              })),
            ).toEqual([
              { ...timedOut('incrByCapped') },
              {
                guardrail: 'token-budget',
                status: 'error',
                // incrBy or incrByCapped, whichever tokenBudget uses for input.
                reason: expect.stringMatching(
                  new RegExp(
                    `^redis store: incrBy(Capped)? did not answer within ${TIMEOUT_MS} ms$`,
                  ),
                ),
              },
            ]);
          } finally {
            server.resume();
          }

          // Same client, same store: works again once the server answers.
          await vi.waitFor(async () => expect((await ask(closed.guarded)).text).toBe('Answer.'), {
            timeout: 10_000,
            interval: 50,
          });
        });

        it('a killed server: fails closed; after a restart on the same port it works again', async () => {
          const store = redisStore(client, {
            prefix: uniquePrefix('fault'),
            timeoutMs: TIMEOUT_MS,
          });
          const closed = guardedModel(store, 'block');
          expect((await ask(closed.guarded)).text).toBe('Answer.');

          await server.kill();
          const blocked = await ask(closed.guarded);
          expect(blocked.finishReason).toBe('content-filter');
          expect(blocked.records[0]).toMatchObject({ guardrail: 'rate-limit', status: 'error' });
          const modelCallsWhileDown = closed.model.doGenerateCalls.length;
          expect(modelCallsWhileDown).toBe(1);

          await server.start();
          await vi.waitFor(async () => expect((await ask(closed.guarded)).text).toBe('Answer.'), {
            timeout: 10_000,
            interval: 50,
          });
        });
      });
    }
  },
);
