import { describe, expect, it } from 'vitest';
import { findPii } from '../find-pii-bundled';
import { keptRegExpPatterns, withReusedRegExps } from './reused-regexps';

const nativeRegExp = RegExp;
const nativeSearch = String.prototype.search;

describe('withReusedRegExps', () => {
  // Sources in variables: literals would not call the constructor.
  const areaCode = '^(?:[2-9]\\d{2})$';
  const digitRun = '\\d+';

  it('hands out one kept object per pattern and flags while the work runs', () => {
    const [first, second, other] = withReusedRegExps(() => [
      new RegExp(areaCode),
      new RegExp(areaCode),
      new RegExp(areaCode, 'i'),
    ]);
    expect(second).toBe(first);
    expect(other).not.toBe(first);
    expect(first!.test('415')).toBe(true);
    expect(first!.test('115')).toBe(false);
    expect(other!.flags).toBe('i');
    expect(new RegExp(areaCode)).not.toBe(first);
  });

  it('gives a kept global regex back with lastIndex 0, as a new one would have', () => {
    const regExp = withReusedRegExps(() => new RegExp(digitRun, 'g'));
    regExp.exec('a 12 b');
    expect(regExp.lastIndex).toBe(4);
    const again = withReusedRegExps(() => new RegExp(digitRun, 'g'));
    expect(again).toBe(regExp);
    expect(again.lastIndex).toBe(0);
  });

  it('builds regexes from regexes, and calls without new, as RegExp does', () => {
    const source = /a+/g;
    const [copy, called] = withReusedRegExps(() => [new RegExp(source, 'y'), RegExp(digitRun)]);
    expect(copy).not.toBe(source);
    expect(copy!.flags).toBe('y');
    expect(called!.test('a12')).toBe(true);
    expect(called).toBeInstanceOf(nativeRegExp);
  });

  it('searches with a kept regex for a string pattern, as search builds one', () => {
    const nativeSearch = String.prototype.search;
    const [index, missing, first, second] = withReusedRegExps(() => {
      const kept = keptRegExpPatterns().length;
      return [
        'call 415'.search(digitRun),
        'no digits'.search(digitRun),
        kept,
        keptRegExpPatterns().length,
      ];
    });
    expect([index, missing]).toEqual([5, -1]);
    expect(second).toBe(first! + 1);
    expect(keptRegExpPatterns()).toContain(`/${digitRun}`);
    expect(String.prototype.search).toBe(nativeSearch);
  });

  it('puts the real RegExp back, also when the work throws', () => {
    expect(() =>
      withReusedRegExps(() => {
        expect(globalThis.RegExp).not.toBe(nativeRegExp);
        throw new Error('inside');
      }),
    ).toThrow('inside');
    expect(globalThis.RegExp).toBe(nativeRegExp);
    expect(String.prototype.search).toBe(nativeSearch);
  });

  it('keeps libphonenumber metadata patterns, never the scanned text', () => {
    const text = 'Call me at (415) 555-2671 or +44 20 7946 0958.';
    expect(
      findPii(text, { entities: ['PHONE_NUMBER'] }).map(span => text.slice(span.start, span.end)),
    ).toEqual(['(415) 555-2671', '+44 20 7946 0958']);
    const patterns = keptRegExpPatterns();
    expect(patterns.length).toBeGreaterThan(0);
    for (const digits of ['4155552671', '5552671', '2079460958', '79460958']) {
      expect(patterns.filter(pattern => pattern.includes(digits))).toEqual([]);
    }
    expect(globalThis.RegExp).toBe(nativeRegExp);
  });
});
