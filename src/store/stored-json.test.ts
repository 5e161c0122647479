import { describe, expect, it } from 'vitest';
import { MAX_STORED_JSON_DEPTH, readStoredJson } from './stored-json';

/** JSON arrays nested `depth` levels deep around `0`. */
const nested = (depth: number) => `${'['.repeat(depth)}0${']'.repeat(depth)}`;

describe('readStoredJson', () => {
  it('reads JSON up to maxChars characters, and none past them', () => {
    const text = JSON.stringify({ a: 'x'.repeat(20) }); // 28 characters
    expect(text).toHaveLength(28);
    expect(readStoredJson(text, 28)).toEqual({ a: 'x'.repeat(20) });
    expect(readStoredJson(text, 27)).toBe(undefined);
    expect(readStoredJson('null', 4)).toBe(null);
    expect(readStoredJson(undefined, 100)).toBe(undefined);
  });

  it(`reads ${MAX_STORED_JSON_DEPTH} levels of nesting and not one more; brackets in strings do not count`, () => {
    expect(MAX_STORED_JSON_DEPTH).toBe(1_000);
    const limit = Number.POSITIVE_INFINITY;
    expect(JSON.stringify(readStoredJson(nested(1_000), limit))).toBe(nested(1_000));
    expect(readStoredJson(nested(1_001), limit)).toBe(undefined);
    const objects = `${'{"k":'.repeat(1_001)}0${'}'.repeat(1_001)}`;
    expect(readStoredJson(objects, limit)).toBe(undefined);
    const inStrings = JSON.stringify(['['.repeat(5_000), '{\\"['.repeat(1_000)]);
    expect(readStoredJson(inStrings, limit)).toEqual(['['.repeat(5_000), '{\\"['.repeat(1_000)]);
  });

  it('reads no text that is no JSON, and none the reviver refuses', () => {
    for (const raw of ['', '{', '[1,]', "{'a':1}", 'undefined', 'NaN', '"\u0000"']) {
      expect(readStoredJson(raw, 100), raw).toBe(undefined);
    }
    const refuse = (_key: string, value: unknown) => {
      if (value === 2) throw new SyntaxError('two');
      return value;
    };
    expect(readStoredJson('[1,3]', 100, refuse)).toEqual([1, 3]);
    expect(readStoredJson('[1,2]', 100, refuse)).toBe(undefined);
  });
});
