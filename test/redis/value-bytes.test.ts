import { describe, expect, it } from 'vitest';
import { announceSkip, REDIS_URL, storesThrough, useRedisClients } from './redis-helpers';

announceSkip('value-bytes');

const hour = 60 * 60 * 1000;

// Round 30: list reads refuse a stored text that is no UTF-8 (round 29), but
// get and setIfAbsent handed it on with U+FFFD in place of the bytes: the
// value read differed from the one stored, silently (a verdict, a pin, a
// pseudonym vault entry another client wrote). Every read refuses it now.
describe.skipIf(!REDIS_URL)('redisStore get / setIfAbsent of a value that is no UTF-8', () => {
  const clients = useRedisClients();

  it('rejects, through node-redis and ioredis, and setIfAbsent writes nothing', async () => {
    for (const { label, prefix, store } of storesThrough(clients, 'value-not-utf8')) {
      const raw = Buffer.concat([
        Buffer.from('["a","b'),
        Buffer.from([0xc0, 0xaf]),
        Buffer.from('"]'),
      ]);
      await clients.ioredis.set(`${prefix}pin`, raw, 'PX', hour);
      for (const [operation, call] of [
        ['get', () => store.get('pin')],
        ['setIfAbsent', () => store.setIfAbsent('pin', '["c"]', hour)],
      ] as const) {
        await expect(call(), `${label} ${operation}`).rejects.toThrow(
          `redis store: ${operation} found a value that is no valid UTF-8 at its key (bytes another client wrote); not read`,
        );
      }
      expect(await clients.ioredis.getBuffer(`${prefix}pin`)).toEqual(raw);
      // Valid UTF-8 (2, 3 and 4 bytes) reads back as written.
      await store.set('ok', 'é€😀', hour);
      expect(await store.get('ok')).toBe('é€😀');
      expect(await store.setIfAbsent('ok', 'x', hour)).toBe('é€😀');
      expect(await store.get('missing')).toBe(undefined);
      expect(await store.setIfAbsent('fresh', 'ü', hour)).toBe('ü');
    }
  });
});
