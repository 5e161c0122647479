import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { GuardrailConfigError } from '../../src/core/errors';
import { rateLimit } from '../../src/guards/rate-limit/rate-limit';
import { tokenBudget } from '../../src/guards/token-budget/token-budget';
import { getGuardrailOutcome } from '../../src/middleware/get-guardrail-outcome';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import { redisStore, StoreTimeoutError, type UpstashRedisLike } from '../../src/redis';
import { generateResult, guardContext } from '../helpers';
import { expectOwnCounts, KEY_VARIANTS } from '../helpers/key-variants';
import { storeContract } from '../helpers/store-contract';
import {
  announceSkip,
  keysWithTtl,
  REDIS_URL,
  uniquePrefix,
  useRedisClients,
} from './redis-helpers';

announceSkip('redis-store');

describe.skipIf(!REDIS_URL)('redisStore against a real Redis', () => {
  const clients = useRedisClients();

  describe('with a node-redis client', () => {
    storeContract(() =>
      redisStore(clients.nodeRedis, { prefix: uniquePrefix('node-redis'), timeoutMs: 10_000 }),
    );
  });

  describe('with an clients.ioredis client', () => {
    storeContract(() =>
      redisStore(clients.ioredis, { prefix: uniquePrefix('ioredis'), timeoutMs: 10_000 }),
    );
  });

  describe('with a client shaped like @upstash/redis (eval(script, keys, args))', () => {
    // The documented @upstash/redis calling convention, executed by a real server.
    const upstashShaped = (): UpstashRedisLike => ({
      evalsha: (sha, keys, args) => clients.ioredis.evalsha(sha, keys.length, ...keys, ...args),
      eval: (script, keys, args) => clients.ioredis.eval(script, keys.length, ...keys, ...args),
    });
    storeContract(() =>
      redisStore(upstashShaped(), { prefix: uniquePrefix('upstash'), timeoutMs: 10_000 }),
    );

    it('rejects a value the client deserialised instead of returning it changed', async () => {
      const prefix = uniquePrefix('upstash-json');
      const deserialising: UpstashRedisLike = {
        evalsha: async (sha, keys, args) => {
          const reply = await clients.ioredis.evalsha(sha, keys.length, ...keys, ...args);
          return typeof reply === 'string' ? JSON.parse(reply) : reply;
        },
        eval: (script, keys, args) => clients.ioredis.eval(script, keys.length, ...keys, ...args),
      };
      const store = redisStore(deserialising, { prefix });
      await store.set('vault', '{"a":1}', 60_000);
      await expect(store.get('vault')).rejects.toThrow('automaticDeserialization: false');
    });
  });

  it('shares state between a node-redis and an clients.ioredis instance under one prefix', async () => {
    const prefix = uniquePrefix('shared');
    const a = redisStore(clients.nodeRedis, { prefix });
    const b = redisStore(clients.ioredis, { prefix });
    await a.set('greeting', 'hello', 60_000);
    expect(await b.get('greeting')).toBe('hello');
    expect(await b.incrBy('n', 2, 60_000)).toBe(2);
    expect(await a.incrBy('n', 3, 60_000)).toBe(5);
    expect(await b.setIfAbsent('once', 'from b', 60_000)).toBe('from b');
    expect(await a.setIfAbsent('once', 'from a', 60_000)).toBe('from b');
  });

  it('prefixes every key and gives every key a TTL', async () => {
    const prefix = uniquePrefix('ttl');
    const store = redisStore(clients.ioredis, { prefix });
    await store.incrBy('counter', 1, 60_000);
    await store.incrBy('counter', 1, 10_000); // keeps the first expiry (fixed window)
    await store.incrByCapped('capped', 1, 5, 30_000);
    await store.incrByCapped('refused', 9, 5, 30_000); // not created
    await store.set('value', 'x', 20_000);
    await store.setIfAbsent('once', 'y', 40_000);
    const keys = await keysWithTtl(clients.ioredis, prefix);
    expect(keys.map(({ key }) => key)).toEqual([
      `${prefix}capped`,
      `${prefix}counter`,
      `${prefix}once`,
      `${prefix}value`,
    ]);
    const ttl = Object.fromEntries(keys.map(({ key, pttl }) => [key.slice(prefix.length), pttl]));
    expect(ttl.counter).toBeGreaterThan(10_000);
    expect(ttl.counter).toBeLessThanOrEqual(60_000);
    expect(ttl.capped).toBeGreaterThan(20_000);
    expect(ttl.capped).toBeLessThanOrEqual(30_000);
    expect(ttl.value).toBeLessThanOrEqual(20_000);
    expect(ttl.once).toBeGreaterThan(30_000);
    expect(keys.every(({ pttl }) => pttl > 0)).toBe(true);
  });

  it('keeps a key built from a 1 MB client id under a bounded name (the id chose the key size before)', async () => {
    // A session id from the request body went into the key whole: 1 MB in Redis
    // for as long as a token budget's window (24 hours by default).
    const prefix = uniquePrefix('long-key');
    const store = redisStore(clients.ioredis, { prefix });
    const id = 'x'.repeat(1_000_000);
    expect(await store.incrBy(`token-budget:session:${id}a`, 5, 60_000)).toBe(5);
    expect(await store.incrBy(`token-budget:session:${id}b`, 7, 60_000)).toBe(7);
    expect(await store.incrBy(`token-budget:session:${id}a`, 1, 60_000)).toBe(6);
    await store.set(`pii-vault:pii:${id}:token:<EMAIL_ADDRESS_1>`, 'v', 60_000);
    expect(await store.get(`pii-vault:pii:${id}:token:<EMAIL_ADDRESS_1>`)).toBe('v');
    const keys = await keysWithTtl(clients.ioredis, prefix);
    expect(keys).toHaveLength(3);
    for (const { key, pttl } of keys) {
      expect(key.slice(prefix.length)).toMatch(/^.{200}#sha256:[0-9a-f]{64}$/);
      expect(pttl).toBeGreaterThan(0);
    }
  });

  it('keeps session ids that differ only in a lone surrogate under keys of their own, through generateText', async () => {
    // Redis clients send keys as UTF-8, which writes a lone surrogate as U+FFFD:
    // 'alice\uD800' spent the token budget of 'alice\uFFFD' (and of 'alice\uDFFF').
    for (const [label, client] of [
      ['node-redis', clients.nodeRedis],
      ['ioredis', clients.ioredis],
    ] as const) {
      const prefix = uniquePrefix(`lone-surrogate-${label}`);
      const budget = tokenBudget({
        perSession: { maxTokens: 20 },
        store: redisStore(client, { prefix, timeoutMs: 10_000 }),
        countTokens: () => 10,
        reserveOutputTokens: 5,
      });
      const model = wrapLanguageModel({
        model: new MockLanguageModelV4({ doGenerate: async () => generateResult('Answer.') }),
        middleware: guardrails({ input: [budget] }),
      });
      const ask = (sessionId: string) =>
        generateText({ model, prompt: 'Question', providerOptions: { guardrails: { sessionId } } });
      const sessions = ['alice\uFFFD', 'alice\uD800', 'alice\uDFFF', 'alice\uD800\uDFFF'];
      for (const sessionId of sessions) expect((await ask(sessionId)).text).toBe('Answer.');
      expect((await ask('alice\uD800')).finishReason).toBe('content-filter');
      const keys = (await keysWithTtl(clients.ioredis, prefix)).map(({ key }) =>
        key.slice(prefix.length),
      );
      expect(keys).toHaveLength(4);
      expect(keys).toContain('token-budget:session:alice\uFFFD');
      expect(keys).toContain('token-budget:session:alice\uD800\uDFFF');
      // The two with a lone surrogate: their start written with U+FFFD, padded, then a digest.
      const digestNames = keys.filter(key => key.includes('#sha256:'));
      expect(digestNames).toHaveLength(2);
      for (const key of digestNames) {
        expect(key).toMatch(/^token-budget:session:alice\uFFFD\.{173}#sha256:[0-9a-f]{64}$/);
      }
    }
  });

  it('rateLimit: every key variant a caller may choose has a count of its own in Redis (case, Unicode forms, separators, glob and hash-tag characters)', async () => {
    for (const [label, client] of [
      ['node-redis', clients.nodeRedis],
      ['ioredis', clients.ioredis],
    ] as const) {
      const prefix = uniquePrefix(`rate-limit-keys-${label}`);
      const limiter = rateLimit({
        limit: 1,
        windowMs: 60_000,
        store: redisStore(client, { prefix, timeoutMs: 10_000 }),
        key: ctx => ctx.metadata.k as string,
      });
      await expectOwnCounts(limiter, metadata => guardContext('input', { metadata }));
      const keys = (await keysWithTtl(clients.ioredis, prefix)).map(({ key }) =>
        key.slice(prefix.length),
      );
      expect(keys).toHaveLength(KEY_VARIANTS.length);
      // Separators stay as written; braces are written so that no hash tag applies.
      expect(keys).toContain('rate-limit:a:b:c');
      expect(keys).toContain('rate-limit:{}(alice{})');
      expect(keys).toContain('rate-limit:cafe\u0301');
    }
  });

  it('gives an expiry to a key it finds without one', async () => {
    const prefix = uniquePrefix('heal');
    await clients.ioredis.set(`${prefix}counter`, '4');
    await clients.ioredis.set(`${prefix}capped`, '4');
    const store = redisStore(clients.ioredis, { prefix });
    expect(await store.incrBy('counter', 1, 5_000)).toBe(5);
    expect(await store.incrByCapped('capped', 1, 4, 5_000)).toMatchObject({
      applied: false,
      value: 4,
    });
    const keys = await keysWithTtl(clients.ioredis, prefix);
    expect(keys.map(({ pttl }) => pttl > 0 && pttl <= 5_000)).toEqual([true, true]);
  });

  it('expires keys after their TTL', async () => {
    const store = redisStore(clients.ioredis, { prefix: uniquePrefix('expiry') });
    await store.set('short', 'lived', 30);
    expect(await store.get('short')).toBe('lived');
    await vi.waitFor(async () => expect(await store.get('short')).toBeUndefined(), {
      timeout: 5_000,
      interval: 20,
    });
  });

  it('touch resets the expiry of a key holding the value, and only of such a key', async () => {
    const prefix = uniquePrefix('touch');
    const store = redisStore(clients.ioredis, { prefix });
    await store.set('mapping', 'bob', 1_000);
    await store.set('other', 'carol', 1_000);
    expect(await store.touch('mapping', 'bob', 60_000)).toBe(true);
    expect(await store.touch('other', 'bob', 60_000)).toBe(false);
    expect(await clients.ioredis.pttl(`${prefix}mapping`)).toBeGreaterThan(1_000);
    expect(await clients.ioredis.pttl(`${prefix}other`)).toBeLessThanOrEqual(1_000);
    expect(await store.touch('missing', 'bob', 60_000)).toBe(false);
    expect(await clients.ioredis.exists(`${prefix}missing`)).toBe(0);
  });

  it('loads its scripts again after SCRIPT FLUSH (EVALSHA falls back to EVAL)', async () => {
    const store = redisStore(clients.nodeRedis, { prefix: uniquePrefix('flush') });
    expect(await store.incrBy('n', 1, 60_000)).toBe(1);
    await clients.ioredis.script('FLUSH');
    expect(await store.incrBy('n', 1, 60_000)).toBe(2);
    expect(await store.incrByCapped('n', 1, 3, 60_000)).toMatchObject({ applied: true, value: 3 });
  });

  it('rejects non-integer amounts and missing TTLs instead of storing them', async () => {
    const store = redisStore(clients.ioredis, { prefix: uniquePrefix('args') });
    await expect(store.incrBy('n', 1.5, 1_000)).rejects.toThrow(
      'redis store: incrBy needs an integer amount, received 1.5',
    );
    await expect(store.set('k', 'v', 0)).rejects.toThrow(
      'redis store: set needs a positive ttlMs of at most 9007199254740991 (every key expires), received 0',
    );
  });
});

describe('redisStore without a server', () => {
  it('names the client path when it is not a Redis client', () => {
    let error: unknown;
    try {
      redisStore({ get: () => {} } as never);
    } catch (caught) {
      error = caught;
    }
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    expect((error as GuardrailConfigError).issues[0]?.path).toBe('redisStore.client');
  });

  it('rejects a bad timeoutMs, naming the path', () => {
    const client: UpstashRedisLike = { eval: async () => 1, evalsha: async () => 1 };
    expect(() => redisStore(client, { timeoutMs: -1 })).toThrow(
      'Invalid guardrail configuration at redisStore.timeoutMs: expected a positive number of milliseconds up to 2147483647 (the longest timer), received -1',
    );
  });

  it('rejects with a StoreTimeoutError when the client never answers', async () => {
    const hanging: UpstashRedisLike = {
      eval: () => new Promise(() => {}),
      evalsha: () => new Promise(() => {}),
    };
    const store = redisStore(hanging, { timeoutMs: 20 });
    const error = await store.incrByCapped('k', 1, 5, 1_000).catch(caught => caught);
    expect(StoreTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      operation: 'incrByCapped',
      timeoutMs: 20,
      message: 'redis store: incrByCapped did not answer within 20 ms',
    });
  });
});

describe('a server that answers garbage (round 39)', () => {
  /** A client whose every script answers `reply` (a proxy, another service on the port, a wrong key type). */
  const answering = (reply: unknown): UpstashRedisLike => ({
    eval: async () => reply,
    evalsha: async () => reply,
  });
  const stored = 'Jane Doe 078-05-1120';

  it('names the type and length of a reply that is no number, never the reply: it reached the record', async () => {
    for (const [reply, described] of [
      [stored, 'a string of 20 characters'],
      ['x'.repeat(10_000_000), 'a string of 10000000 characters'],
      [[stored, stored], 'an array of 2 item(s)'],
      [{ value: stored }, 'an object'],
    ] as const) {
      const store = redisStore(answering(reply), { evictionCheck: 'off' });
      await expect(store.incrBy('k', 1, 1_000)).rejects.toThrow(
        `redis store: incrBy returned ${described}, not a number`,
      );
      await expect(store.incrByCapped('k', 1, 5, 1_000)).rejects.toThrow(
        `redis store: incrByCapped returned ${described}, not [applied, value, resetInMs]`,
      );
    }
  });

  it('through generateText: the error record says what came back, not the value', async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Answer.') });
    const store = redisStore(answering(stored), { evictionCheck: 'off' });
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({ input: [rateLimit({ limit: 5, windowMs: 60_000, store })] }),
      }),
      prompt: 'Hello',
      providerOptions: { guardrails: { userId: 'u1' } },
    });
    const outcome = await getGuardrailOutcome(result);
    expect(
      outcome?.records.map(({ guardrail, status, reason }) => ({ guardrail, status, reason })),
    ).toEqual([
      {
        guardrail: 'rate-limit',
        status: 'error',
        reason:
          'redis store: incrByCapped returned a string of 20 characters, not [applied, value, resetInMs]',
      },
    ]);
    expect(JSON.stringify(outcome)).not.toContain('078-05-1120');
  });
});
