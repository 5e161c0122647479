import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, withoutTiming } from '../../test/helpers';
import { rateLimit } from '../guards/rate-limit/rate-limit';
import { tokenBudget } from '../guards/token-budget/token-budget';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { guardrails } from '../middleware/guardrails-middleware';
import { memoryStore } from './memory-store';
import type { Store } from './store';

/*
 * Round 25: memoryStore's incrBy / incrByCapped on a key holding no integer
 * read Number('abc') = NaN and stored "NaN"; `NaN > cap` is false, so every
 * later call passed the rate limit or token budget. Redis answers "ERR value
 * is not an integer or out of range"; the memory store now throws too, and
 * rateLimit and tokenBudget check what any store answers, so the call is
 * blocked with an `error` record.
 */

const MEMORY_INCR_BY_CAPPED_ERROR =
  'memory store: incrByCapped found a value that is not an integer at its key (as Redis: value is not an integer or out of range)';

/** A store over `inner` that corrupts `key` (writes `garbage` to it) before every counting call on it. */
function corrupting(inner: Store, key: string, garbage: string): Store {
  return {
    ...inner,
    async incrBy(k, amount, ttlMs) {
      if (k === key) await inner.set(k, garbage, ttlMs);
      return inner.incrBy(k, amount, ttlMs);
    },
    async incrByCapped(k, amount, cap, ttlMs) {
      if (k === key) await inner.set(k, garbage, ttlMs);
      return inner.incrByCapped(k, amount, cap, ttlMs);
    },
  };
}

function okModel() {
  return new MockLanguageModelV4({ doGenerate: async () => generateResult('Hello!') });
}

async function call(store: Store, guard: 'rate-limit' | 'token-budget') {
  const model = okModel();
  const input =
    guard === 'rate-limit'
      ? rateLimit({ limit: 2, windowMs: 60_000, store })
      : tokenBudget({ perSession: { maxTokens: 100 }, store });
  const result = await generateText({
    model: wrapLanguageModel({ model, middleware: guardrails({ input: [input] }) }),
    prompt: 'hi',
    providerOptions: { guardrails: { userId: 'u1', sessionId: 's1' } },
  });
  return {
    finishReason: result.finishReason,
    calls: model.doGenerateCalls.length,
    record: withoutTiming((await getGuardrailOutcome(result))?.records)[0],
  };
}

describe('memoryStore: a counter key holding no integer fails as Redis does', () => {
  it.each(['abc', 'NaN', '1.5', ' 12', '1e3', '0x10', '', '012', '99999999999999999'])(
    'incrBy and incrByCapped reject %j and leave it',
    async garbage => {
      const store = memoryStore();
      await store.set('k', garbage, 60_000);
      await expect(store.incrBy('k', 1, 60_000)).rejects.toThrow(
        new TypeError(
          'memory store: incrBy found a value that is not an integer at its key (as Redis: value is not an integer or out of range)',
        ),
      );
      await expect(store.incrByCapped('k', 1, 10, 60_000)).rejects.toThrow(
        new TypeError(MEMORY_INCR_BY_CAPPED_ERROR),
      );
      expect(await store.get('k')).toBe(garbage);
    },
  );

  it('reads integers as Redis writes them', async () => {
    const store = memoryStore();
    await store.set('a', '41', 60_000);
    await store.set('b', '-3', 60_000);
    await store.set('c', '0', 60_000);
    expect(await store.incrBy('a', 1, 60_000)).toBe(42);
    expect(await store.incrBy('b', 5, 60_000)).toBe(2);
    expect(await store.incrByCapped('c', 2, 2, 60_000)).toMatchObject({ applied: true, value: 2 });
  });
});

describe('rateLimit and tokenBudget fail closed on a corrupted counter', () => {
  it.each([
    ['rate-limit', 'rate-limit:u1'],
    ['token-budget', 'token-budget:session:s1'],
  ] as const)('%s: blocked with an error record, the model not called', async (guard, key) => {
    const store = corrupting(memoryStore(), key, 'NaN');
    for (let i = 0; i < 3; i++) {
      expect(await call(store, guard)).toEqual({
        finishReason: 'content-filter',
        calls: 0,
        record: expect.objectContaining({
          guardrail: guard,
          kind: 'input',
          status: 'error',
          reason: MEMORY_INCR_BY_CAPPED_ERROR,
        }),
      });
    }
  });

  it.each([
    ['rate-limit', { applied: true, value: Number.NaN, resetInMs: 1_000 }],
    ['token-budget', { applied: true, value: Number.NaN, resetInMs: 1_000 }],
    ['rate-limit', { applied: 'yes', value: 1, resetInMs: 1_000 }],
    ['token-budget', undefined],
  ] as const)('%s: a custom store answering %j is an error, not a pass', async (guard, answer) => {
    const inner = memoryStore();
    const store: Store = { ...inner, incrByCapped: async () => answer as never };
    expect(await call(store, guard)).toEqual({
      finishReason: 'content-filter',
      calls: 0,
      record: expect.objectContaining({
        guardrail: guard,
        status: 'error',
        reason:
          "the store's incrByCapped answered no { applied, value, resetInMs } of a boolean and integers; failing closed",
      }),
    });
  });

  it('token-budget: a custom store whose incrBy answers NaN when settling blocks the answer', async () => {
    const inner = memoryStore();
    const store: Store = { ...inner, incrBy: async () => Number.NaN };
    const budget = tokenBudget({ perSession: { maxTokens: 10_000 }, store });
    const model = okModel();
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({ input: [budget], output: [budget] }),
      }),
      prompt: 'hi',
      providerOptions: { guardrails: { sessionId: 's1' } },
    });
    expect(result.finishReason).toBe('content-filter');
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      expect.objectContaining({ guardrail: 'token-budget', kind: 'input', status: 'passed' }),
      expect.objectContaining({
        guardrail: 'token-budget',
        kind: 'output',
        status: 'error',
        reason: "the store's incrBy answered no integer count; failing closed",
      }),
    ]);
  });
});
