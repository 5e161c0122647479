import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[2,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives the same text for objects that differ only in key order', () => {
    expect(canonicalJson({ query: 'q', limit: 3 })).toBe(canonicalJson({ limit: 3, query: 'q' }));
  });

  it('follows JSON.stringify for undefined, functions, non-finite numbers and toJSON', () => {
    expect(
      canonicalJson({
        skip: undefined,
        fn: () => 1,
        list: [undefined, Number.NaN, Number.POSITIVE_INFINITY],
        when: new Date('2024-01-02T03:04:05.000Z'),
      }),
    ).toBe('{"list":[null,null,null],"when":"2024-01-02T03:04:05.000Z"}');
  });

  it('serialises top-level primitives and undefined', () => {
    expect(canonicalJson('a "quoted"\nline')).toBe('"a \\"quoted\\"\\nline"');
    expect(canonicalJson(42)).toBe('42');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('allows shared references but rejects cycles', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
  });

  it('round-trips through JSON.parse to an equal value', () => {
    const value = { b: [1, 'two', { c: null }], a: true };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });
});
