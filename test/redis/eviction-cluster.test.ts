import { Cluster, Redis } from 'ioredis';
import { createCluster } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GuardrailConfigError } from '../../src/core/errors';
import { redisStore } from '../../src/redis';
import { notShownString } from '../helpers';
import {
  HAS_REDIS_CLI,
  HAS_REDIS_SERVER,
  ownRedisCluster,
  REDIS_URL,
  uniquePrefix,
} from './redis-helpers';

/*
 * A store on a Redis Cluster keeps its keys on every master (each key in the
 * slot of its hash), so any master that may evict can drop a counter, a
 * budget or a pin. The eviction check must read every master: it read one,
 * the master of its own `eviction-check` key, and passed a cluster whose
 * other masters run allkeys-lru. Runs on a cluster of the test's own.
 */

describe.skipIf(!REDIS_URL || !HAS_REDIS_SERVER || !HAS_REDIS_CLI)(
  'redisStore on a Redis Cluster: the eviction check reads every master',
  () => {
    let cluster: Awaited<ReturnType<typeof ownRedisCluster>>;
    /** A direct connection to each master, to configure it. */
    let direct: Redis[];

    beforeAll(async () => {
      cluster = await ownRedisCluster(3);
      direct = cluster.ports.map(port => new Redis(port, '127.0.0.1'));
    }, 30_000);
    afterAll(async () => {
      for (const connection of direct ?? []) connection.disconnect();
      await cluster?.stop();
    });
    afterEach(async () => {
      for (const connection of direct) {
        await connection.config('SET', 'maxmemory', '0');
        await connection.config('SET', 'maxmemory-policy', 'noeviction');
      }
    });

    /** The port of the master serving `key`'s slot. */
    async function masterOf(key: string): Promise<number> {
      const slot = Number(await direct[0]!.cluster('KEYSLOT', key));
      const ranges = await direct[0]!.cluster('SLOTS');
      const range = ranges.find(([from, to]) => slot >= from && slot <= to);
      return range![2]![1];
    }

    /** Sets allkeys-lru with a limit on the master at `port` alone. */
    async function evicting(port: number) {
      const connection = direct[cluster.ports.indexOf(port)]!;
      await connection.config('SET', 'maxmemory', '64mb');
      await connection.config('SET', 'maxmemory-policy', 'allkeys-lru');
    }

    const refusal = (port: number) => ({
      path: 'redisStore (server maxmemory-policy)',
      value: notShownString('allkeys-lru'),
      expected: `noeviction, or maxmemory 0, on every cluster master: master 127.0.0.1:${port} has maxmemory set (67108864 bytes), so Redis may evict this store's keys (counters, budgets, pins), which resets limits silently; or redisStore({ evictionCheck: 'warn' | 'off' })`,
    });

    const clients = {
      ioredis: async () => {
        const client = new Cluster([{ host: '127.0.0.1', port: cluster.ports[0]! }], {
          lazyConnect: true,
        });
        await client.connect();
        return { client, close: () => client.disconnect() };
      },
      'node-redis': async () => {
        const client = createCluster({
          rootNodes: [{ url: `redis://127.0.0.1:${cluster.ports[0]}` }],
        });
        client.on('error', () => {});
        await client.connect();
        return { client, close: () => client.close() };
      },
    };

    it('ioredis: a client not ready yet (its first operation right after new Cluster) is checked on every master too', async () => {
      // Before it is ready an ioredis Cluster lists no masters (nodes('master') is []):
      // the check read only the master of its own key, and passed for good.
      const prefix = uniquePrefix('cluster-cold');
      const checked = await masterOf(`${prefix}eviction-check`);
      const others = cluster.ports.filter(port => port !== checked);
      for (const port of others) await evicting(port);
      const client = new Cluster([{ host: '127.0.0.1', port: checked }]);
      try {
        const store = redisStore(client, { prefix });
        const error = await store.incrBy('k', 1, 60_000).catch((e: unknown) => e);
        expect(GuardrailConfigError.isInstance(error)).toBe(true);
        expect((error as GuardrailConfigError).issues).toEqual([refusal(others[0]!)]);
        for (const connection of direct) {
          expect(await connection.keys(`${prefix}*`)).toEqual([]);
        }
      } finally {
        client.disconnect();
      }
    });

    it('ioredis: a master that cannot tell (INFO forbidden) listed before one that evicts does not end the check', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { client, close } = await clients.ioredis();
      const [first, ...rest] = client.nodes('master').map(node => node.options.port!);
      const forbidden = direct[cluster.ports.indexOf(first!)]!;
      try {
        await forbidden.call('ACL', 'SETUSER', 'default', '-info');
        for (const port of rest) await evicting(port);
        const store = redisStore(client, { prefix: uniquePrefix('cluster-unreadable') });
        const error = await store.incrBy('k', 1, 60_000).catch((e: unknown) => e);
        // It warned that it could not read the first master, then passed the cluster.
        expect(GuardrailConfigError.isInstance(error)).toBe(true);
        expect((error as GuardrailConfigError).issues).toEqual([refusal(rest[0]!)]);
        // (ioredis warns of its own ready check, which reads INFO too.)
        const ours = warn.mock.calls.filter(([text]) => String(text).startsWith('ai-guardrails'));
        expect(ours).toEqual([]);
      } finally {
        await forbidden.call('ACL', 'SETUSER', 'default', '+info');
        warn.mockRestore();
        await close();
      }
    });

    for (const [kind, connect] of Object.entries(clients)) {
      it(`${kind}: refuses a cluster whose one master that does not hold the check's key may evict`, async () => {
        const { client, close } = await connect();
        try {
          const prefix = uniquePrefix('cluster-evict');
          const checked = await masterOf(`${prefix}eviction-check`);
          const other = cluster.ports.find(port => port !== checked)!;
          await evicting(other);
          const store = redisStore(client, { prefix });
          const error = await store.incrBy('k', 1, 60_000).catch((e: unknown) => e);
          expect(GuardrailConfigError.isInstance(error)).toBe(true);
          expect((error as GuardrailConfigError).issues).toEqual([refusal(other)]);
          // Nothing was written, on any master.
          for (const connection of direct) {
            expect(await connection.keys(`${prefix}*`)).toEqual([]);
          }
        } finally {
          await close();
        }
      });

      it(`${kind}: works when every master is noeviction; 'warn' names the master`, async () => {
        const { client, close } = await connect();
        const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
        try {
          const store = redisStore(client, { prefix: uniquePrefix('cluster-ok') });
          expect(await store.incrBy('a', 1, 60_000)).toBe(1);
          expect(await store.incrBy('b', 2, 60_000)).toBe(2);

          const prefix = uniquePrefix('cluster-warn');
          const checked = await masterOf(`${prefix}eviction-check`);
          const other = cluster.ports.find(port => port !== checked)!;
          await evicting(other);
          const warned = redisStore(client, { prefix, evictionCheck: 'warn' });
          expect(await warned.incrBy('k', 1, 60_000)).toBe(1);
          expect(await warned.incrBy('k', 1, 60_000)).toBe(2);
          expect(warn.mock.calls).toEqual([
            [
              `ai-guardrails redisStore: the maxmemory-policy of cluster master 127.0.0.1:${other} is allkeys-lru with maxmemory set (67108864 bytes): Redis may evict this store's keys (counters, budgets, pins), which resets limits silently. Use noeviction on every master.`,
            ],
          ]);
        } finally {
          warn.mockRestore();
          await close();
        }
      });
    }
  },
);
