import { describe, expect, it } from 'vitest';
import { StoreListError } from '../../src/store/store-list-error';
import { announceSkip, REDIS_URL, storesThrough, useRedisClients } from './redis-helpers';

announceSkip('list-bytes');

const hour = 60 * 60 * 1000;

describe.skipIf(!REDIS_URL)('redisStore lists whose bytes another client wrote (round 29)', () => {
  const clients = useRedisClients();

  // Bytes that are no UTF-8 inside a JSON string: a lone continuation byte,
  // 0xFF, a lead with too few continuations, an overlong NUL and '/', a
  // surrogate written as UTF-8 (CESU), a code point past U+10FFFF, and a
  // lead byte 0xF5 that never starts a character.
  const notUtf8 = [
    [0x80],
    [0xff],
    [0xe2, 0x82],
    [0xc0, 0x80],
    [0xc0, 0xaf],
    [0xe0, 0x80, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xed, 0xbf, 0xbf],
    [0xf4, 0x90, 0x80, 0x80],
    [0xf5, 0x80, 0x80, 0x80],
    [0xf0, 0x80, 0x80, 0xaf],
    // A valid sequence between a lead and what follows does not complete it.
    [0xe1, 0x80, 0xc2, 0x80, 0x80],
  ];
  const listWith = (bytes: number[]) =>
    Buffer.concat([Buffer.from('["a","b'), Buffer.from(bytes), Buffer.from('"]')]);

  it('refuses a list holding bytes that are no UTF-8 with a StoreListError, through node-redis and ioredis, and writes nothing', async () => {
    for (const { label, prefix, store } of storesThrough(clients, 'not-utf8')) {
      for (const bytes of notUtf8) {
        const raw = listWith(bytes);
        await clients.ioredis.set(`${prefix}tags`, raw, 'PX', hour);
        // A client reads the bytes as U+FFFD: this item read as present before,
        // and was added (or pushed) a second time beside it.
        const item = `b${'\uFFFD'.repeat(1)}`;
        for (const [operation, call] of [
          ['addToList', () => store.addToList!('tags', item, 10, hour)],
          ['pushToList', () => store.pushToList!('tags', item, 10, hour)],
          ['addToList', () => store.addToList!('tags', 'z', 10, hour)],
          ['pushToList', () => store.pushToList!('tags', 'z', 10, hour)],
        ] as const) {
          const error = await call().then(
            () => undefined,
            (thrown: unknown) => thrown,
          );
          expect(StoreListError.isInstance(error), `${label} ${bytes}`).toBe(true);
          expect((error as StoreListError).reason).toBe('invalid-utf8');
          expect((error as StoreListError).operation).toBe(operation);
          expect((error as Error).message).toBe(
            `redis store: ${operation} found a list that is no valid UTF-8 at its key (bytes another client wrote); nothing written`,
          );
        }
        expect(await clients.ioredis.getBuffer(`${prefix}tags`)).toEqual(raw);
      }
    }
  });

  it('keeps a list of every well-formed UTF-8 length and edge (U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFD, U+10000, U+10FFFF)', async () => {
    const { prefix, store } = storesThrough(clients, 'utf8-edges', 'ioredis')[0]!;
    const items = [
      '\u0080',
      '\u07FF',
      '\u0800',
      '\uD7FF',
      '\uE000',
      '\uFFFD',
      '\u{10000}',
      '\u{10FFFF}',
      'é€😀',
    ];
    await clients.ioredis.set(`${prefix}tags`, Buffer.from(JSON.stringify(items)), 'PX', hour);
    expect(await store.addToList!('tags', 'z', 20, hour)).toEqual([...items, 'z']);
    expect(await store.pushToList!('tags', '\uFFFD', 20, hour)).toEqual([
      ...items.filter(item => item !== '\uFFFD'),
      'z',
      '\uFFFD',
    ]);
    expect(await store.get('tags')).toBe(
      JSON.stringify([...items.filter(item => item !== '\uFFFD'), 'z', '\uFFFD']),
    );
  });

  it('writes the JSON text JSON.stringify writes, control characters, DEL, U+2028 and slashes too', async () => {
    const { store } = storesThrough(clients, 'same-text', 'ioredis')[0]!;
    const items = [
      'a/b\\/c',
      '\\',
      '"/"',
      '\u0001\b\t\n\f\r\u001f',
      '\u007f',
      'a\u007f\u007f/b\u007f',
      '\\u007f\u007f\\/',
      '\u2028\u2029',
      '</script>',
      // Every ASCII character.
      String.fromCharCode(...Array.from({ length: 128 }, (_, i) => i)),
    ];
    for (const item of items) await store.pushToList!('text', item, 20, hour);
    expect(await store.get('text')).toBe(JSON.stringify(items));
  });
});
