import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenBudget } from '../../src/guards/token-budget/token-budget';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import { redisStore } from '../../src/redis';
import { withoutHashTag } from '../../src/store/store-key';
import { generateResult } from '../helpers';
import {
  announceSkip,
  HAS_REDIS_CLI,
  HAS_REDIS_SERVER,
  keysWithTtl,
  ownRedisCluster,
  REDIS_URL,
  uniquePrefix,
  useRedisClients,
} from './redis-helpers';

announceSkip('hash-tags');

/** What Redis Cluster hashes of a key (cluster.c keyHashSlot): a non-empty `{…}` hash tag, else the whole key. */
function hashedPart(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  return close === -1 || close === open + 1 ? key : key.slice(open + 1, close);
}

/** Session ids a client chose: hash tags, stray braces, and the escaped writing of one as an id of its own. */
const SESSIONS = ['alice', '{victim}', 'x{victim}y', '}{', '{}', '{}(victim{})'];

describe('withoutHashTag', () => {
  it('leaves keys without a brace as they are and writes braces one-to-one, leaving no hash tag', () => {
    expect(withoutHashTag('token-budget:session:alice')).toBe('token-budget:session:alice');
    const written = SESSIONS.map(id => withoutHashTag(`token-budget:session:${id}`));
    expect(new Set(written).size).toBe(SESSIONS.length);
    for (const key of written) expect(hashedPart(`p:${key}`)).toBe(`p:${key}`);
    expect(written[1]).toBe('token-budget:session:{}(victim{})');
  });
});

describe.skipIf(!REDIS_URL)('redisStore keys hold no hash tag a client wrote', () => {
  const clients = useRedisClients();

  it('tokenBudget sessions named with braces get keys Redis Cluster hashes whole, one per session', async () => {
    const prefix = uniquePrefix('hash-tags');
    const budget = tokenBudget({
      perSession: { maxTokens: 1_000 },
      store: redisStore(clients.ioredis, { prefix, timeoutMs: 10_000 }),
      countTokens: () => 10,
      reserveOutputTokens: 5,
    });
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({ doGenerate: async () => generateResult('Answer.') }),
      middleware: guardrails({ input: [budget] }),
    });
    for (const [index, sessionId] of SESSIONS.entries()) {
      for (let call = 0; call <= index; call++) {
        const result = await generateText({
          model,
          prompt: 'Question',
          providerOptions: { guardrails: { sessionId } },
        });
        expect(result.text).toBe('Answer.');
      }
    }
    const keys = await keysWithTtl(clients.ioredis, prefix);
    expect(keys.map(({ key }) => key.slice(prefix.length)).sort()).toEqual(
      [
        'token-budget:session:alice',
        'token-budget:session:{}(victim{})',
        'token-budget:session:x{}(victim{})y',
        'token-budget:session:{}){}(',
        'token-budget:session:{}({})',
        'token-budget:session:{}({})(victim{}({}))',
      ].sort(),
    );
    for (const { key, pttl } of keys) {
      expect(hashedPart(key)).toBe(key);
      expect(pttl).toBeGreaterThan(0);
    }
    // Each session kept its own counter (15 tokens a call; the n-th session made n calls).
    for (const [index, sessionId] of SESSIONS.entries()) {
      expect(
        await clients.ioredis.get(
          `${prefix}${withoutHashTag(`token-budget:session:${sessionId}`)}`,
        ),
      ).toBe(String(15 * (index + 1)));
    }
  });
});

describe.skipIf(!REDIS_URL || !HAS_REDIS_SERVER || !HAS_REDIS_CLI)(
  'redisStore on a Redis Cluster: a client cannot choose the slot of its keys',
  () => {
    let cluster: Awaited<ReturnType<typeof ownRedisCluster>>;
    let direct: Redis;
    let client: Cluster;

    beforeAll(async () => {
      cluster = await ownRedisCluster(3);
      direct = new Redis(cluster.ports[0]!, '127.0.0.1');
      client = new Cluster([{ host: '127.0.0.1', port: cluster.ports[0]! }], { lazyConnect: true });
      await client.connect();
    }, 30_000);
    afterAll(async () => {
      client?.disconnect();
      direct?.disconnect();
      await cluster?.stop();
    });

    it('30 user ids written {tenant}:n land in many slots, not all in the slot of "tenant"', async () => {
      const prefix = uniquePrefix('cluster-tags').replace(/[{}]/g, '');
      const store = redisStore(client, { prefix, timeoutMs: 10_000, evictionCheck: 'off' });
      for (let n = 0; n < 30; n++)
        expect(await store.incrBy(`rate-limit:{tenant}:${n}`, 1, 60_000)).toBe(1);
      const slots = new Set<number>();
      for (let n = 0; n < 30; n++) {
        const key = `${prefix}rate-limit:{}(tenant{}):${n}`;
        expect(await client.get(key)).toBe('1');
        slots.add(Number(await direct.cluster('KEYSLOT', key)));
      }
      expect(slots.has(Number(await direct.cluster('KEYSLOT', 'tenant')))).toBe(false);
      expect(slots.size).toBeGreaterThan(25);
    });
  },
);
