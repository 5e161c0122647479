import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runChain } from '../../src/core/chain';
import { GuardrailConfigError } from '../../src/core/errors';
import { rateLimit } from '../../src/guards/rate-limit/rate-limit';
import { redisStore } from '../../src/redis';
import { notShownString } from '../helpers';
import {
  connectIORedis,
  HAS_REDIS_SERVER,
  ownRedisServer,
  REDIS_URL,
  uniquePrefix,
} from './redis-helpers';

/*
 * A Redis that may evict keys under memory pressure (maxmemory set, any
 * maxmemory-policy but noeviction: every key of this store has an expiry,
 * so volatile-* policies may evict them too) can drop a rate-limit counter,
 * a token budget or a pin: the limit resets without anyone noticing. The
 * store reads the policy on first use and refuses such a server unless told.
 * The test configures a redis-server of its own (the shared REDIS_URL server
 * is never reconfigured).
 */

const ctx = {
  kind: 'input' as const,
  messages: [],
  metadata: { userId: 'u1' },
  abortSignal: new AbortController().signal,
  state: new Map(),
};

describe.skipIf(!REDIS_URL || !HAS_REDIS_SERVER)(
  'redisStore on a server that may evict its keys',
  () => {
    let server: Awaited<ReturnType<typeof ownRedisServer>>;
    let client: Redis;

    beforeAll(async () => {
      server = await ownRedisServer();
      client = await connectIORedis(server.url);
    });
    afterAll(async () => {
      await server?.stop();
      client?.disconnect();
    });

    async function configure(maxmemory: string, policy: string) {
      await client.config('SET', 'maxmemory', maxmemory);
      await client.config('SET', 'maxmemory-policy', policy);
    }

    it('refuses allkeys-lru and volatile-lru with a limit: every operation rejects with a GuardrailConfigError', async () => {
      for (const policy of ['allkeys-lru', 'volatile-lru', 'allkeys-random']) {
        await configure('64mb', policy);
        const store = redisStore(client, { prefix: uniquePrefix('evict') });
        const error = await store.incrBy('k', 1, 60_000).catch((e: unknown) => e);
        expect(GuardrailConfigError.isInstance(error), policy).toBe(true);
        expect((error as GuardrailConfigError).issues, policy).toEqual([
          {
            path: 'redisStore (server maxmemory-policy)',
            // The server's value is shown as its type and length, as every issue's (round 39).
            value: notShownString(policy),
            expected:
              "noeviction, or maxmemory 0: with maxmemory set (67108864 bytes) Redis may evict this store's keys (counters, budgets, pins), which resets limits silently; or redisStore({ evictionCheck: 'warn' | 'off' })",
          },
        ]);
        expect(await client.keys('ai-guardrails-test:evict:*')).toEqual([]);
      }
    });

    it('a rate limit on such a server fails closed with an error record', async () => {
      await configure('64mb', 'allkeys-lru');
      const limiter = rateLimit({
        limit: 5,
        windowMs: 60_000,
        store: redisStore(client, { prefix: uniquePrefix('evict') }),
      });
      const { trip, records } = await runChain([limiter], 'hi', ctx);
      expect(trip).toBe(records[0]);
      expect(records[0]).toMatchObject({ guardrail: 'rate-limit', status: 'error' });
      expect(records[0]?.reason).toMatch(/maxmemory-policy/);
    });

    it('accepts noeviction, and any policy without maxmemory; re-checks after a refusal', async () => {
      await configure('0', 'allkeys-lru');
      expect(
        await redisStore(client, { prefix: uniquePrefix('evict') }).incrBy('k', 1, 60_000),
      ).toBe(1);
      await configure('64mb', 'noeviction');
      expect(
        await redisStore(client, { prefix: uniquePrefix('evict') }).incrBy('k', 2, 60_000),
      ).toBe(2);

      await configure('64mb', 'allkeys-lfu');
      const store = redisStore(client, { prefix: uniquePrefix('evict') });
      await expect(store.get('k')).rejects.toThrow(/maxmemory-policy/);
      await configure('64mb', 'noeviction');
      expect(await store.incrBy('k', 3, 60_000)).toBe(3);
    });

    it("evictionCheck: 'warn' warns once and works; 'off' does not look", async () => {
      await configure('64mb', 'allkeys-lru');
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        const store = redisStore(client, { prefix: uniquePrefix('evict'), evictionCheck: 'warn' });
        expect(await store.incrBy('k', 1, 60_000)).toBe(1);
        expect(await store.incrBy('k', 1, 60_000)).toBe(2);
        expect(warn.mock.calls).toEqual([
          [
            "ai-guardrails redisStore: the server's maxmemory-policy is allkeys-lru with maxmemory set (67108864 bytes): Redis may evict this store's keys (counters, budgets, pins), which resets limits silently. Use noeviction.",
          ],
        ]);
        warn.mockClear();
        const off = redisStore(client, { prefix: uniquePrefix('evict'), evictionCheck: 'off' });
        expect(await off.incrBy('k', 5, 60_000)).toBe(5);
        expect(warn).not.toHaveBeenCalled();
      } finally {
        warn.mockRestore();
      }
    });

    it('an ACL user who may not run INFO is warned about once, and INFO is not asked again', async () => {
      // `+@all -@dangerous` is a common ACL: INFO is a dangerous command. Redis
      // refuses it in a script with "can't run this command", which the check
      // did not recognise: no warning, and every operation asked INFO again.
      await configure('64mb', 'allkeys-lru');
      await client.call(
        'ACL',
        'SETUSER',
        'nodanger',
        'on',
        '>pw',
        '~*',
        '&*',
        '+@all',
        '-@dangerous',
      );
      const limited = await connectIORedis(server.url.replace('//', '//nodanger:pw@'));
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const evaluated = vi.spyOn(limited, 'evalsha');
      try {
        const store = redisStore(limited, { prefix: uniquePrefix('evict') });
        expect(await store.incrBy('k', 1, 60_000)).toBe(1);
        const afterFirst = evaluated.mock.calls.length;
        expect(await store.incrBy('k', 1, 60_000)).toBe(2);
        expect(await store.incrBy('k', 1, 60_000)).toBe(3);
        expect(evaluated.mock.calls.length - afterFirst).toBe(2); // one call per operation
        expect(warn.mock.calls).toEqual([
          [
            "ai-guardrails redisStore: could not read the server's maxmemory-policy (INFO memory); make sure it is noeviction, or Redis may evict counters and budgets under memory pressure.",
          ],
        ]);
      } finally {
        warn.mockRestore();
        limited.disconnect();
        await client.call('ACL', 'DELUSER', 'nodanger');
      }
    });

    it('rejects an unknown evictionCheck', () => {
      expect(() => redisStore(client, { evictionCheck: 'maybe' as never })).toThrow(
        "redisStore.evictionCheck: expected 'refuse', 'warn' or 'off', received a string of 5 characters (not shown)",
      );
    });
  },
);
