import { expect, it } from 'vitest';
import type { Store } from '../../src/store/store';
import { StoreListError } from '../../src/store/store-list-error';
import { MAX_LIST_BYTES, MAX_LIST_ITEMS } from '../../src/store/string-list';

/**
 * Test helper (not exported by the package): the behaviour every `Store` must
 * have, registered as vitest tests. Used by the memory store's tests and by
 * the Redis store's tests against a real server, so both backends are held to
 * the same contract. `makeStore` must return a store with no keys.
 */
export function storeContract(makeStore: () => Store | Promise<Store>) {
  const hour = 60 * 60 * 1000;

  it('incrBy counts from 0 and returns each new total', async () => {
    const store = await makeStore();
    expect(await store.incrBy('count', 5, hour)).toBe(5);
    expect(await store.incrBy('count', 7, hour)).toBe(12);
    expect(await store.incrBy('count', -2, hour)).toBe(10);
    expect(await store.get('count')).toBe('10');
  });

  it('incrBy never leaves a counter below 0, and a decrement of a missing key leaves it missing', async () => {
    const store = await makeStore();
    expect(await store.incrBy('refund', 5, hour)).toBe(5);
    expect(await store.incrBy('refund', -8, hour)).toBe(0);
    expect(await store.get('refund')).toBe('0');
    expect(await store.incrBy('refund', 3, hour)).toBe(3);
    expect(await store.incrBy('gone', -4, hour)).toBe(0);
    expect(await store.incrBy('gone', 0, hour)).toBe(0);
    expect(await store.get('gone')).toBeUndefined();
  });

  it('incrBy floors concurrent decrements atomically: 60 refunds of 1 on 25 leave exactly 0', async () => {
    const store = await makeStore();
    await store.incrBy('refunds', 25, hour);
    const values = await Promise.all(
      Array.from({ length: 60 }, () => store.incrBy('refunds', -1, hour)),
    );
    expect(Math.min(...values)).toBe(0);
    expect(await store.get('refunds')).toBe('0');
    expect(await store.incrBy('refunds', 7, hour)).toBe(7);
  });

  it('incrByCapped adds up to the cap and refuses (without counting) beyond it', async () => {
    const store = await makeStore();
    const first = await store.incrByCapped('budget', 60, 100, hour);
    expect(first.applied).toBe(true);
    expect(first.value).toBe(60);
    expect(first.resetInMs).toBeGreaterThan(0);
    expect(first.resetInMs).toBeLessThanOrEqual(hour);

    const refused = await store.incrByCapped('budget', 41, 100, hour);
    expect(refused.applied).toBe(false);
    expect(refused.value).toBe(60);
    expect(refused.resetInMs).toBeGreaterThan(0);

    const exact = await store.incrByCapped('budget', 40, 100, hour);
    expect(exact).toMatchObject({ applied: true, value: 100 });
    expect(await store.get('budget')).toBe('100');
  });

  it('incrByCapped over the cap on a missing key leaves it missing', async () => {
    const store = await makeStore();
    expect(await store.incrByCapped('absent', 5, 4, hour)).toEqual({
      applied: false,
      value: 0,
      resetInMs: 0,
    });
    expect(await store.get('absent')).toBeUndefined();
  });

  it('incrByCapped lets exactly cap of 120 concurrent increments through', async () => {
    const store = await makeStore();
    const results = await Promise.all(
      Array.from({ length: 120 }, () => store.incrByCapped('concurrent', 1, 37, hour)),
    );
    expect(results.filter(result => result.applied)).toHaveLength(37);
    expect(
      results
        .filter(result => result.applied)
        .map(result => result.value)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 37 }, (_, i) => i + 1));
    expect(await store.get('concurrent')).toBe('37');
  });

  it('get returns undefined for a missing key and set overwrites', async () => {
    const store = await makeStore();
    expect(await store.get('missing')).toBeUndefined();
    await store.set('greeting', 'hello', hour);
    await store.set('greeting', '{"json":"value ü"}', hour);
    expect(await store.get('greeting')).toBe('{"json":"value ü"}');
  });

  it('setIfAbsent keeps the first value written', async () => {
    const store = await makeStore();
    expect(await store.setIfAbsent('once', 'first', hour)).toBe('first');
    expect(await store.setIfAbsent('once', 'second', hour)).toBe('first');
    expect(await store.get('once')).toBe('first');
  });

  it('touch extends a key only while it holds the given value', async () => {
    const store = await makeStore();
    await store.set('mapping', 'bob', 1_000);
    expect(await store.touch('mapping', 'bob', hour)).toBe(true);
    expect(await store.touch('mapping', 'carol', hour)).toBe(false);
    expect(await store.touch('missing', 'bob', hour)).toBe(false);
    expect(await store.get('missing')).toBeUndefined();
    expect(await store.get('mapping')).toBe('bob');
  });

  it('delete removes a key', async () => {
    const store = await makeStore();
    await store.set('doomed', 'x', hour);
    await store.delete('doomed');
    expect(await store.get('doomed')).toBeUndefined();
    await store.delete('never-there');
  });

  it('every operation takes the same ttlMs values: a fraction and up to 2^53 - 1 ms, no more, none below 1', async () => {
    const store = await makeStore();
    const longest = Number.MAX_SAFE_INTEGER;
    await store.set('long', 'kept', longest);
    expect(await store.get('long')).toBe('kept');
    expect(await store.incrBy('long-count', 2, longest)).toBe(2);
    expect(await store.setIfAbsent('long-once', 'first', 1.5)).toBe('first');
    expect(await store.touch('long', 'kept', 0.25)).toBe(true);
    expect(await store.pushToList!('long-list', 'a', 5, longest)).toEqual(['a']);
    const refused = (operation: string, ttl: number) =>
      `${operation} needs a positive ttlMs of at most 9007199254740991 (every key expires), received ${String(ttl)}`;
    for (const ttl of [1e21, longest + 2, Number.POSITIVE_INFINITY, Number.NaN, 0, -1, -1e21]) {
      const calls: [string, () => Promise<unknown>][] = [
        ['incrBy', () => store.incrBy('ttl-count', 1, ttl)],
        ['incrByCapped', () => store.incrByCapped('ttl-count', 1, 5, ttl)],
        ['set', () => store.set('ttl', 'x', ttl)],
        ['setIfAbsent', () => store.setIfAbsent('ttl', 'x', ttl)],
        ['touch', () => store.touch('long', 'kept', ttl)],
        ['addToList', () => store.addToList!('long-list', 'b', 5, ttl)],
        ['pushToList', () => store.pushToList!('long-list', 'b', 5, ttl)],
      ];
      for (const [operation, call] of calls) {
        const error = await call().then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toMatch(/^(memory|redis) store: /);
        expect((error as Error).message.replace(/^(memory|redis) store: /, '')).toBe(
          refused(operation, ttl),
        );
      }
    }
    expect(await store.get('ttl')).toBeUndefined();
    expect(await store.get('ttl-count')).toBeUndefined();
    expect(await store.get('long-list')).toBe('["a"]');
  });

  it('addToList adds an item once, atomically: 40 concurrent adds keep all 40', async () => {
    const store = await makeStore();
    const addToList = store.addToList!.bind(store);
    expect(await addToList('list', 'a', 100, hour)).toBeUndefined();
    expect(await store.get('list')).toBeUndefined();
    await store.set('list', '["a"]', hour);
    const items = Array.from({ length: 40 }, (_, i) => `item-${i}`);
    await Promise.all([...items, 'a', 'item-3'].map(item => addToList('list', item, 100, hour)));
    const stored = JSON.parse((await store.get('list'))!) as string[];
    expect([...stored].sort()).toEqual(['a', ...items].sort());
    expect(await addToList('list', 'a', 100, hour)).toEqual(stored);
  });

  it('pushToList puts an item last, starts a missing list, keeps the newest maxItems: 40 concurrent pushes keep all 40', async () => {
    const store = await makeStore();
    const pushToList = store.pushToList!.bind(store);
    expect(await pushToList('recent', 'a', 3, hour)).toEqual(['a']);
    expect(await pushToList('recent', 'b', 3, hour)).toEqual(['a', 'b']);
    expect(await pushToList('recent', 'a', 3, hour)).toEqual(['b', 'a']);
    expect(await pushToList('recent', 'c', 3, hour)).toEqual(['b', 'a', 'c']);
    expect(await pushToList('recent', 'd', 3, hour)).toEqual(['a', 'c', 'd']);
    expect(await store.get('recent')).toBe('["a","c","d"]');
    const items = Array.from({ length: 40 }, (_, i) => `item-${i}`);
    await Promise.all(items.map(item => pushToList('many', item, 100, hour)));
    expect((JSON.parse((await store.get('many'))!) as string[]).sort()).toEqual([...items].sort());
    await store.set('mixed', '["a",1,null,"b",{"c":1}]', hour);
    expect(await pushToList('mixed', 'x/ü"', 5, hour)).toEqual(['a', 'b', 'x/ü"']);
    // Written as JSON.stringify writes it on every store (Redis's cjson wrote x\/ü).
    expect(await store.get('mixed')).toBe('["a","b","x/ü\\""]');
    await store.set('corrupt', '{"0":"a"}', hour);
    expect(await pushToList('corrupt', 'z', 5, hour)).toEqual(['z']);
    await expect(pushToList('recent', 'x'.repeat(1_025), 5, hour)).rejects.toThrow(TypeError);
    await expect(pushToList('recent', 'c', 0, hour)).rejects.toThrow(TypeError);
    await expect(pushToList('recent', 'c', 5, 0)).rejects.toThrow(TypeError);
    expect(await store.get('recent')).toBe('["a","c","d"]');
  });

  it('addToList keeps at most maxItems, reads a corrupt list as [] and checks its arguments', async () => {
    const store = await makeStore();
    const addToList = store.addToList!.bind(store);
    await store.set('full', '["a","b"]', hour);
    expect(await addToList('full', 'c', 2, hour)).toEqual(['a', 'b']);
    expect(await store.get('full')).toBe('["a","b"]');
    await store.set('corrupt', '{"a":1}', hour);
    expect(await addToList('corrupt', 'x/ü"', 2, hour)).toEqual(['x/ü"']);
    expect(JSON.parse((await store.get('corrupt'))!)).toEqual(['x/ü"']);
    await store.set('mixed', '["a",1,null,"b"]', hour);
    expect(await addToList('mixed', 'c', 5, hour)).toEqual(['a', 'b', 'c']);
    await expect(addToList('full', 'x'.repeat(1_025), 5, hour)).rejects.toThrow(TypeError);
    await expect(addToList('full', 'c', 0, hour)).rejects.toThrow(TypeError);
    await expect(addToList('full', 'c', Number.NaN, hour)).rejects.toThrow(TypeError);
    await expect(addToList('full', 'c', 5, 0)).rejects.toThrow(TypeError);
    expect(await store.get('full')).toBe('["a","b"]');
  });

  it('addToList and pushToList refuse an item with a lone surrogate (Redis would store it as U+FFFD)', async () => {
    const store = await makeStore();
    await store.set('tags', '["a\uFFFDb"]', hour);
    const refused = (operation: string) =>
      new RegExp(
        `^(memory|redis) store: ${operation} needs a well-formed string item \\(a lone surrogate is written as U\\+FFFD, so two items would be one\\), received one with a lone surrogate$`,
      );
    for (const item of ['a\uD800b', 'a\uDC00b', '\uD83D', 'x\uDE00\uD83D']) {
      const added = store.addToList!('tags', item, 10, hour);
      await expect(added).rejects.toThrow(TypeError);
      await expect(added).rejects.toThrow(refused('addToList'));
      const pushed = store.pushToList!('tags', item, 10, hour);
      await expect(pushed).rejects.toThrow(TypeError);
      await expect(pushed).rejects.toThrow(refused('pushToList'));
    }
    expect(await store.get('tags')).toBe('["a\uFFFDb"]');
    // A well-formed pair is one character, not a lone surrogate.
    expect(await store.addToList!('tags', 'a\uD83D\uDE00b', 10, hour)).toEqual([
      'a\uFFFDb',
      'a\uD83D\uDE00b',
    ]);
    expect(await store.pushToList!('tags', 'a\uFFFDb', 10, hour)).toEqual([
      'a\uD83D\uDE00b',
      'a\uFFFDb',
    ]);
  });

  it('addToList and pushToList read a list Redis and JSON read apart as [] on every store, and keep a valid one', async () => {
    const store = await makeStore();
    const nested = (levels: number) =>
      `["a",${'['.repeat(levels - 1)}${']'.repeat(levels - 1)},"b"]`;
    const nestedObjects = (levels: number) =>
      `["a",${'{"k":'.repeat(levels - 1)}1${'}'.repeat(levels - 1)},"b"]`;
    // JSON.parse takes these and Redis's cjson refuses them (round 28: the
    // memory store kept "a" where Redis read []) ...
    const refusedByCjson = [
      String.raw`["a","\ud800","b"]`,
      String.raw`["a","x\udc00\ud83d","b"]`,
      String.raw`["a","\uDBFF\u0041","b"]`,
      String.raw`["a",{"k\udfff":1},"b"]`,
      nested(1_001),
      nestedObjects(1_001),
    ];
    // ... and cjson takes these, which JSON.parse refuses (Redis kept "a",
    // so a list `get` read as [] had its items written back by the next add).
    const refusedByJson = [
      '["a",nan,"b"]',
      '["a",-inf,"b"]',
      '["a",Infinity,"b"]',
      '["a",0x10,"b"]',
      '["a",+1,"b"]',
      '["a",01,"b"]',
      '["a",-01,"b"]',
      '["a",-.5,"b"]',
      '["a",1.,"b"]',
      '["a",1.e5,"b"]',
      '["a\tb","b"]',
      '["a",{"k\n":1},"b"]',
      '["a\u0001","b"]',
      '["a","b"]\u0000 trailing text: cjson reads to the NUL',
    ];
    for (const raw of [...refusedByCjson, ...refusedByJson]) {
      await store.set('odd', raw, hour);
      expect(await store.addToList!('odd', 'z', 10, hour), raw).toEqual(['z']);
      expect(await store.get('odd')).toBe('["z"]');
      await store.set('odd', raw, hour);
      expect(await store.pushToList!('odd', 'a', 10, hour), raw).toEqual(['a']);
      expect(await store.get('odd')).toBe('["a"]');
    }
    // Valid JSON (whitespace, numbers, escapes, brackets in strings, 1,000
    // levels) keeps its strings on both.
    const kept: [string, string[]][] = [
      ['[\n\t"a" ,\r\n 1e5, -0, 1E+2, -1.5e-3, 0.25, true, false, null, "b"\n]', ['a', 'b']],
      [
        String.raw`["\\ud800", "q\"[[{", "\ud83d\ude00", "\u00e9\/"]`,
        ['\\ud800', 'q"[[{', '😀', 'é/'],
      ],
      [nested(1_000), ['a', 'b']],
      [nestedObjects(1_000), ['a', 'b']],
      [`["${'['.repeat(1_500)}"]`, ['['.repeat(1_500)]],
    ];
    for (const [raw, strings] of kept) {
      await store.set('fine', raw, hour);
      expect(await store.pushToList!('fine', 'z', 10, hour), raw).toEqual([...strings, 'z']);
      await store.set('fine', raw, hour);
      expect(await store.addToList!('fine', 'y', 10, hour), raw).toEqual([...strings, 'y']);
      expect(JSON.parse((await store.get('fine'))!)).toEqual([...strings, 'y']);
    }
  });

  it('addToList and pushToList refuse a list over 262,144 UTF-8 bytes, found or to be stored, with a StoreListError and write nothing', async () => {
    const store = await makeStore();
    expect(MAX_LIST_BYTES).toBe(262_144);
    // A JSON array of strings whose text is exactly `bytes` UTF-8 bytes: "é"
    // is 2 bytes and 1 UTF-16 unit, "😀" 4 bytes and 2 units.
    const listOf = (bytes: number) => {
      const items: string[] = [];
      let size = 2;
      while (size + 1_006 <= bytes) {
        items.push('é😀'.repeat(166) + String(items.length).padStart(4, '0'));
        size += (items.length > 1 ? 1 : 0) + 2 + 1_000;
      }
      const rest = bytes - size - (items.length > 0 ? 1 : 0) - 2;
      items.push('x'.repeat(rest));
      const text = JSON.stringify(items);
      expect(new TextEncoder().encode(text).length).toBe(bytes);
      return { items, text };
    };
    const tooLong = (operation: string, found: boolean) =>
      `${operation} ${found ? 'found a list' : 'would store a list'} of more than 262144 bytes (UTF-8 JSON) at its key; nothing written`;
    const refusal = async (call: Promise<unknown>) => {
      const error = await call.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(StoreListError.isInstance(error)).toBe(true);
      const { reason, operation, message } = error as StoreListError;
      return { reason, operation, message: message.replace(/^(memory|redis) store: /, '') };
    };

    // At the bound: read, and rewritten when the text stays within it.
    const full = listOf(MAX_LIST_BYTES);
    expect(full.text.length).toBeLessThan(MAX_LIST_BYTES);
    await store.set('full', full.text, hour);
    expect(await store.addToList!('full', full.items[0]!, MAX_LIST_ITEMS, hour)).toEqual(
      full.items,
    );
    expect(await store.pushToList!('full', full.items[0]!, MAX_LIST_ITEMS, hour)).toEqual([
      ...full.items.slice(1),
      full.items[0],
    ]);
    const rotated = await store.get('full');
    expect(rotated).toBe(JSON.stringify([...full.items.slice(1), full.items[0]]));
    // One more item would pass it: refused, nothing written.
    expect(await refusal(store.addToList!('full', 'z', MAX_LIST_ITEMS, hour))).toEqual({
      reason: 'too-long',
      operation: 'addToList',
      message: tooLong('addToList', false),
    });
    expect(await refusal(store.pushToList!('full', 'z', MAX_LIST_ITEMS, hour))).toEqual({
      reason: 'too-long',
      operation: 'pushToList',
      message: tooLong('pushToList', false),
    });
    expect(await store.get('full')).toBe(rotated);
    // A pushToList that drops the oldest for it stays within: kept.
    expect(await store.pushToList!('full', 'z', full.items.length, hour)).toEqual([
      ...full.items.slice(2),
      full.items[0],
      'z',
    ]);

    // One byte over (fewer UTF-16 units than the bound), and 10 MB: refused as found.
    const over = listOf(MAX_LIST_BYTES + 1);
    const huge = JSON.stringify(
      Array.from({ length: 10_000 }, (_, i) => `${'x'.repeat(1_000)}${i}`),
    );
    for (const text of [over.text, huge]) {
      await store.set('over', text, hour);
      for (const item of [over.items[0]!, 'z']) {
        expect(await refusal(store.addToList!('over', item, MAX_LIST_ITEMS, hour))).toEqual({
          reason: 'too-long',
          operation: 'addToList',
          message: tooLong('addToList', true),
        });
        expect(await refusal(store.pushToList!('over', item, 1, hour))).toEqual({
          reason: 'too-long',
          operation: 'pushToList',
          message: tooLong('pushToList', true),
        });
      }
      expect(await store.get('over')).toBe(text);
    }
  });

  it('maxItems goes to 45,516, the most distinct items a list within 262,144 bytes holds: the shortest items reach it, one more is a TypeError naming maxItems', async () => {
    // Round 32: maxItems went to 100,000, a count no list reaches (the byte
    // bound refused it at 45,516 distinct items at the most), so a caller's
    // maxItems past that was a StoreListError later instead of an error now.
    const store = await makeStore();
    expect(MAX_LIST_ITEMS).toBe(45_516);
    // The shortest distinct strings in JSON: "", the 94 characters written as
    // one byte, the 10,763 strings of 2 bytes, then characters of 3 bytes.
    const oneByte = Array.from({ length: 96 }, (_, i) => String.fromCharCode(0x20 + i)).filter(
      char => char !== '"' && char !== '\\',
    );
    const items = [
      '',
      ...oneByte,
      ...['"', '\\', '\b', '\f', '\n', '\r', '\t'],
      ...Array.from({ length: 0x780 }, (_, i) => String.fromCharCode(0x80 + i)),
      ...oneByte.flatMap(first => oneByte.map(second => first + second)),
    ];
    while (items.length < MAX_LIST_ITEMS) items.push(String.fromCharCode(0x800 + items.length));
    const text = JSON.stringify(items);
    expect(new TextEncoder().encode(text).length).toBe(MAX_LIST_BYTES - 1);

    await store.set('shortest', JSON.stringify(items.slice(0, -1)), hour);
    expect(await store.addToList!('shortest', items.at(-1)!, MAX_LIST_ITEMS, hour)).toEqual(items);
    expect(await store.get('shortest')).toBe(text);
    // Full: the list is answered unchanged, not refused for its bytes.
    expect(await store.addToList!('shortest', 'abc', MAX_LIST_ITEMS, hour)).toEqual(items);

    for (const operation of ['addToList', 'pushToList'] as const) {
      const error = await store[operation]!('shortest', 'abc', MAX_LIST_ITEMS + 1, hour).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message.replace(/^(memory|redis) store: /, '')).toBe(
        `${operation} needs an integer maxItems from 1 to 45516 (the most distinct items a list of 262144 bytes holds), received 45517`,
      );
    }
    expect(await store.get('shortest')).toBe(text);
  });
}
