import { describe, expect, it } from 'vitest';
import { printableRuns } from '../shared/anchored-scan';
import { valueRuns } from './provider-scan';

/**
 * `printableRuns` and `valueRuns` probe every `minLength`-th character and
 * read only around the probes; these tests compare their runs with a read
 * of every character (round 46: a way of probing that reads fewer was
 * tried again, measured inside the noise, and not kept; see
 * docs/data-protection.md, "Round 46 (issue 17)").
 */

const isPrintable = (code: number) => code > 32 && code < 127;
/** A keyed value's character, `[A-Za-z0-9_=:-]`. */
const isValue = (code: number) => /^[A-Za-z0-9_=:-]$/.test(String.fromCharCode(code));

/** Every maximal run of `accepts` characters within `[from, to)`, at least `minLength` long: read whole. */
function naiveRuns(
  text: string,
  accepts: (code: number) => boolean,
  minLength: number,
  from = 0,
  to = text.length,
): number[] {
  const runs: number[] = [];
  let start = -1;
  for (let at = from; at <= to; at++) {
    const inside = at < to && accepts(text.charCodeAt(at));
    if (inside && start < 0) start = at;
    if (!inside && start >= 0) {
      if (at - start >= Math.max(1, minLength)) runs.push(start, at);
      start = -1;
    }
  }
  return runs;
}

/**
 * `count` random texts of up to `maxLength` characters from `alphabet`,
 * each with its own share of `filler` (so long runs come up too),
 * deterministic for a seed (a linear congruential generator).
 */
function randomTexts(
  seed: number,
  count: number,
  maxLength: number,
  alphabet: readonly string[],
  filler: string,
): string[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const texts: string[] = [];
  for (let round = 0; round < count; round++) {
    const length = Math.floor(next() * maxLength);
    const share = next();
    let text = '';
    for (let index = 0; index < length; index++) {
      text += next() < share ? filler : alphabet[Math.floor(next() * alphabet.length)];
    }
    texts.push(text);
  }
  return texts;
}

describe('printableRuns', () => {
  it('finds the runs of 14 or more', () => {
    const text = `see ${'x'.repeat(13)} and ${'y'.repeat(14)}\n${'z'.repeat(20)} é${'w'.repeat(15)}`;
    expect([...printableRuns(text, 14)]).toEqual([22, 36, 37, 57, 59, 74]);
  });

  it('matches a whole read on random text, for every length', () => {
    const alphabet = ['a', 'B', '9', '_', '-', '=', ':', '.', '/', ' ', '\n', '\t', 'é', '"', '~'];
    for (const text of randomTexts(46, 3000, 90, alphabet, 'x')) {
      for (const minLength of [0, 1, 2, 3, 5, 14, 20]) {
        expect([...printableRuns(text, minLength)]).toEqual(
          naiveRuns(text, isPrintable, minLength),
        );
      }
    }
  });

  it('finds the runs of long repetitive text', () => {
    for (const text of [
      'x'.repeat(100_000),
      `${'x'.repeat(13)} `.repeat(10_000),
      'a b'.repeat(30_000),
      `${'y'.repeat(14)} `.repeat(7000),
    ]) {
      expect([...printableRuns(text, 14)]).toEqual(naiveRuns(text, isPrintable, 14));
    }
  });
});

describe('valueRuns', () => {
  it('finds the value runs of 20 or more inside the printable runs', () => {
    const text = `url https://example.com/${'a'.repeat(25)}.x/${'b'.repeat(19)} key=${'c'.repeat(16)}`;
    const runs = printableRuns(text, 14);
    // `https:` and `key=` are value characters (`:` and `=` are); `.` and `/` are not.
    expect([...valueRuns(text, runs, 20)]).toEqual([24, 49, 72, 92]);
  });

  it('matches a whole read of each printable run on random text', () => {
    const alphabet = ['a', 'Z', '7', '_', '-', '=', ':', '.', '/', '+', ' ', '\n', '"'];
    for (const text of randomTexts(17, 3000, 120, alphabet, 'k')) {
      for (const minLength of [1, 3, 14, 20]) {
        const runs = printableRuns(text, Math.min(minLength, 14));
        const expected: number[] = [];
        for (let run = 0; run < runs.length; run += 2) {
          expected.push(...naiveRuns(text, isValue, minLength, runs[run], runs[run + 1]));
        }
        expect([...valueRuns(text, runs, minLength)]).toEqual(expected);
      }
    }
  });
});
