import { describe, expect, it } from 'vitest';
import { storeContract } from '../../test/helpers/store-contract';
import { GuardrailConfigError } from '../core/errors';
import { memoryStore } from './memory-store';

describe('memoryStore', () => {
  storeContract(() => memoryStore());

  function clockedStore(maxEntries?: number) {
    let time = 1_000;
    const store = memoryStore({ maxEntries, now: () => time });
    return { store, advance: (ms: number) => (time += ms) };
  }

  it('forgets a key once its TTL has passed', async () => {
    const { store, advance } = clockedStore();
    await store.set('key', 'value', 100);
    advance(99);
    expect(await store.get('key')).toBe('value');
    advance(1);
    expect(await store.get('key')).toBeUndefined();
  });

  it('rounds a fraction of a millisecond up, as Redis does: the key lives 1 ms on a real clock', async () => {
    let time = 1_764_800_000_000;
    const store = memoryStore({ now: () => time });
    await store.set('brief', 'value', 0.0001);
    expect(await store.incrBy('count', 1, 1e-9)).toBe(1);
    expect(await store.incrBy('count', 1, 1e-9)).toBe(2);
    expect(await store.get('brief')).toBe('value');
    time += 1;
    expect(await store.get('brief')).toBeUndefined();
    expect(await store.get('count')).toBeUndefined();
  });

  it('keeps the first expiry of a counter (a fixed window), then starts again from 0', async () => {
    const { store, advance } = clockedStore();
    expect(await store.incrBy('count', 3, 100)).toBe(3);
    advance(60);
    expect(await store.incrBy('count', 3, 100)).toBe(6);
    advance(40);
    expect(await store.incrBy('count', 3, 100)).toBe(3);
  });

  it('reports the time left in the window from incrByCapped, applied or not', async () => {
    const { store, advance } = clockedStore();
    expect(await store.incrByCapped('limit', 1, 1, 1_000)).toEqual({
      applied: true,
      value: 1,
      resetInMs: 1_000,
    });
    advance(250);
    expect(await store.incrByCapped('limit', 1, 1, 1_000)).toEqual({
      applied: false,
      value: 1,
      resetInMs: 750,
    });
    advance(750);
    expect(await store.incrByCapped('limit', 1, 1, 1_000)).toEqual({
      applied: true,
      value: 1,
      resetInMs: 1_000,
    });
  });

  it('setIfAbsent writes again once the first value expired', async () => {
    const { store, advance } = clockedStore();
    expect(await store.setIfAbsent('once', 'first', 10)).toBe('first');
    advance(10);
    expect(await store.setIfAbsent('once', 'second', 10)).toBe('second');
  });

  it('evicts the least recently used key beyond maxEntries', async () => {
    const { store } = clockedStore(3);
    await store.set('a', '1', 1_000);
    await store.set('b', '2', 1_000);
    await store.set('c', '3', 1_000);
    expect(await store.get('a')).toBe('1'); // a is now the most recently used
    await store.set('d', '4', 1_000);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBe('1');
    expect(await store.get('c')).toBe('3');
    expect(await store.get('d')).toBe('4');
  });

  it('counts an increment as a use for eviction', async () => {
    const { store } = clockedStore(2);
    await store.incrBy('old', 1, 1_000);
    await store.set('new', 'x', 1_000);
    await store.incrByCapped('old', 1, 10, 1_000);
    await store.set('newest', 'y', 1_000);
    expect(await store.get('new')).toBeUndefined();
    expect(await store.get('old')).toBe('2');
  });

  it('evicts the least recently used keys beyond maxBytes', async () => {
    // Each entry costs (key + value) × 2 bytes + 96: 'k1' + 100 chars is 300 bytes.
    const store = memoryStore({ maxBytes: 650 });
    await store.set('k1', 'a'.repeat(100), 1_000);
    await store.set('k2', 'b'.repeat(100), 1_000);
    expect(await store.get('k1')).toBe('a'.repeat(100)); // k2 is now the least recently used
    await store.set('k3', 'c'.repeat(100), 1_000);
    expect(await store.get('k2')).toBeUndefined();
    expect(await store.get('k1')).toBe('a'.repeat(100));
    expect(await store.get('k3')).toBe('c'.repeat(100));
  });

  it('does not keep a value larger than maxBytes (nor stay over the bound for it)', async () => {
    const store = memoryStore({ maxBytes: 200 });
    await store.set('small', 'x', 1_000);
    await store.set('huge', 'y'.repeat(1_000), 1_000);
    expect(await store.get('huge')).toBeUndefined();
    expect(await store.get('small')).toBeUndefined();
    await store.set('small', 'x', 1_000);
    expect(await store.get('small')).toBe('x');
  });

  it('sweeps expired keys that are never read again, so they do not push live keys out', async () => {
    const { store, advance } = clockedStore(1_100);
    await store.set('live', 'kept', 1_000_000);
    for (let i = 0; i < 1_000; i++) await store.set(`short-${i}`, 'x', 10);
    advance(20);
    // Without the sweep, these writes would evict 'live' (the least recently used) to stay at 1,100.
    for (let i = 0; i < 1_050; i++) await store.set(`next-${i}`, 'x', 1_000_000);
    expect(await store.get('live')).toBe('kept');
  });

  it('rejects an amount or cap that is not an integer, and a ttlMs that is not positive, as redisStore does', async () => {
    // incrBy(key, NaN) stored "NaN", which passes every cap: a limit on that key never tripped again.
    const store = memoryStore();
    await expect(store.incrBy('k', Number.NaN, 1_000)).rejects.toThrow(
      new TypeError('memory store: incrBy needs an integer amount, received NaN'),
    );
    await expect(store.incrByCapped('k', 1.5, 10, 1_000)).rejects.toThrow(
      'memory store: incrByCapped needs an integer amount, received 1.5',
    );
    await expect(store.incrByCapped('k', 1, Number.NaN, 1_000)).rejects.toThrow(
      'memory store: incrByCapped needs an integer cap, received NaN',
    );
    await expect(store.set('k', 'v', Number.NaN)).rejects.toThrow(
      'memory store: set needs a positive ttlMs of at most 9007199254740991 (every key expires), received NaN',
    );
    expect(await store.get('k')).toBeUndefined();
    expect(await store.incrByCapped('k', 3, 10, 1_000)).toMatchObject({ applied: true, value: 3 });
  });

  it('rejects a maxBytes that is not a positive integer, naming the path', () => {
    expect(() => memoryStore({ maxBytes: -1 })).toThrow(
      'Invalid guardrail configuration at memoryStore.maxBytes: expected a positive integer, received -1',
    );
  });

  it('rejects a maxEntries that is not a positive integer, naming the path', () => {
    expect(() => memoryStore({ maxEntries: 0 })).toThrow(GuardrailConfigError);
    expect(() => memoryStore({ maxEntries: 1.5 })).toThrow(
      'Invalid guardrail configuration at memoryStore.maxEntries: expected a positive integer, received 1.5',
    );
  });
});

describe('memoryStore shared by counters and caches', () => {
  it('evicts cached values before counters: a prompt of many distinct texts cannot reset a rate limit', async () => {
    const { generateText, wrapLanguageModel } = await import('ai');
    const { textModel } = await import('../../test/helpers');
    const { guardrails } = await import('../middleware/guardrails-middleware');
    const { rateLimit } = await import('../guards/rate-limit/rate-limit');
    const { defineGuardrail, allow } = await import('../core/define-guardrail');
    // One store for everything, as docs/state.md advises.
    const store = memoryStore({ maxEntries: 50 });
    const judge = defineGuardrail({ name: 'judge', check: () => allow() });
    const model = wrapLanguageModel({
      model: textModel('ok'),
      middleware: guardrails({
        input: [rateLimit({ limit: 2, windowMs: 60_000, store }), judge],
        store,
      }),
    });
    const finishes: string[] = [];
    for (let call = 0; call < 4; call++) {
      // 60 distinct user texts: 60 verdicts, more than the store holds.
      const messages = Array.from({ length: 60 }, (_, i) => ({
        role: 'user' as const,
        content: `message ${call}-${i}`,
      }));
      const result = await generateText({
        model,
        messages,
        providerOptions: { guardrails: { userId: 'mallory' } },
      });
      finishes.push(result.finishReason);
    }
    expect(finishes).toEqual(['stop', 'stop', 'content-filter', 'content-filter']);
  });

  it('still bounds the entries, counters included, and evicts the oldest counter when only counters are left', async () => {
    const store = memoryStore({ maxEntries: 3 });
    await store.incrBy('a', 1, 60_000);
    await store.set('v1', 'x', 60_000);
    await store.incrBy('b', 1, 60_000);
    await store.set('v2', 'x', 60_000);
    await store.incrBy('c', 1, 60_000);
    // Over by two: the cached values went, the counters stayed.
    expect(await store.get('v1')).toBeUndefined();
    expect(await store.get('v2')).toBeUndefined();
    expect(await store.incrBy('a', 0, 60_000)).toBe(1);
    await store.incrBy('d', 1, 60_000);
    // Only counters: the least recently used one ('b') goes.
    expect(await store.incrBy('c', 0, 60_000)).toBe(1);
    expect(await store.incrBy('b', 0, 60_000)).toBe(0);
  });
});

describe('memoryStore and keys built from client-controlled ids', () => {
  it('a huge session id does not evict the rate-limit counters of a shared store', async () => {
    // Before: a 400,000-character session id (the chat id of the request body)
    // made one 800 KB token-budget key, over maxBytes: everything was evicted,
    // counters included, so every second call of the same user passed again.
    const { generateText, wrapLanguageModel } = await import('ai');
    const { textModel } = await import('../../test/helpers');
    const { guardrails } = await import('../middleware/guardrails-middleware');
    const { rateLimit } = await import('../guards/rate-limit/rate-limit');
    const { tokenBudget } = await import('../guards/token-budget/token-budget');
    const store = memoryStore({ maxBytes: 500_000 });
    const model = wrapLanguageModel({
      model: textModel('ok'),
      middleware: guardrails({
        input: [
          rateLimit({
            limit: 2,
            windowMs: 60_000,
            store,
            key: ({ metadata }) => metadata.userId as string,
          }),
          tokenBudget({ perSession: { maxTokens: 1_000_000 }, store }),
        ],
      }),
    });
    const finishes: string[] = [];
    for (let call = 0; call < 6; call++) {
      const sessionId = call % 2 === 1 ? `chat-${'x'.repeat(400_000)}` : 'chat-1';
      const result = await generateText({
        model,
        prompt: 'hello',
        providerOptions: { guardrails: { userId: 'mallory', sessionId } },
      });
      finishes.push(result.finishReason);
    }
    expect(finishes).toEqual(['stop', 'stop', ...Array(4).fill('content-filter')]);
  });

  it('keeps a long key under a bounded name, distinct from every other key', async () => {
    const store = memoryStore({ maxBytes: 10_000 });
    const long = (tail: string) => `token-budget:session:${'x'.repeat(1_000_000)}${tail}`;
    expect(await store.incrBy(long('a'), 5, 60_000)).toBe(5);
    expect(await store.incrBy(long('b'), 7, 60_000)).toBe(7);
    expect(await store.incrBy(long('a'), 1, 60_000)).toBe(6);
    await store.set(long('v'), 'value', 60_000);
    expect(await store.get(long('v'))).toBe('value');
    expect(await store.get(long('w'))).toBeUndefined();
  });

  it('keeps a long key with a lone surrogate apart from the same key with U+FFFD', async () => {
    // The digest was of the key's UTF-8, which writes a lone surrogate as U+FFFD:
    // two client ids past 256 characters shared one counter.
    const store = memoryStore();
    const long = (tail: string) => `rate-limit:user:${'x'.repeat(300)}${tail}`;
    expect(await store.incrBy(long('\uD800'), 5, 60_000)).toBe(5);
    expect(await store.incrBy(long('\uFFFD'), 7, 60_000)).toBe(7);
    expect(await store.incrBy(long('\uDC00'), 1, 60_000)).toBe(1);
    expect(await store.incrBy(long('\uD800'), 1, 60_000)).toBe(6);
    await store.set(long('\uD800v'), 'lone', 60_000);
    expect(await store.get(long('\uFFFDv'))).toBeUndefined();
  });
});
