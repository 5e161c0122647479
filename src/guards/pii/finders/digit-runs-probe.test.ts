import { describe, expect, it } from 'vitest';
import { digitRunsOf, forgetDigitRuns, scannedDigitRuns } from './digit-runs';

/** The runs `digitRunsOf` reads at every sixth character, as `[start, end, digits]` triples. */
function runs(text: string): number[][] {
  forgetDigitRuns();
  const flat = digitRunsOf(text);
  const triples: number[][] = [];
  for (let at = 0; at < flat.length; at += 3)
    triples.push([flat[at]!, flat[at + 1]!, flat[at + 2]!]);
  expect(flat).toEqual(scannedDigitRuns(text));
  return triples;
}

/**
 * Round 50 (hA, issue 17): the digit runs read at every sixth character
 * instead of by the regex's walk over every one. Each case failed on a copy
 * of the probe with its part left out (a step of seven, no read back to the
 * stretch's start, no read on past the probe, the next probe not past the
 * stretch).
 */
describe('digit runs read at every sixth character', () => {
  it('finds a run of exactly six digits at every offset from a probe', () => {
    for (let offset = 0; offset < 6; offset++) {
      const text = `${'x'.repeat(offset)}123456${'y'.repeat(7)}`;
      expect([offset, runs(text)]).toEqual([offset, [[offset, offset + 6, 6]]]);
    }
  });

  it('starts a run at its first digit, the separators before it read back', () => {
    expect(runs('call (415) 555-0132 now')).toEqual([[6, 20, 10]]);
    expect(runs('ab--(4155550132')).toEqual([[5, 15, 10]]);
  });

  it('ends a run at the end of its separators, and finds none with five digits', () => {
    expect(runs('id 12.34.56 - x')).toEqual([[3, 14, 6]]);
    expect(runs('v 1.2.3.4.5 and 12 345')).toEqual([]);
  });

  it('finds each of two runs one character apart, and a run at the end of the text', () => {
    expect(runs('123456a654321')).toEqual([
      [0, 6, 6],
      [7, 13, 6],
    ]);
    expect(runs('ends with 4111 1111 1111 1111')).toEqual([[10, 29, 16]]);
  });

  it('stops a run at a character beyond ASCII', () => {
    expect(runs('12345\u00a06789012')).toEqual([[6, 13, 7]]);
  });

  it('agrees with the regex on seeded texts of digits, separators and words', () => {
    let seed = 5;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const alphabet = '0123456789 ().-/_a\n\u00e9+';
    for (let index = 0; index < 3000; index++) {
      let text = '';
      const length = Math.floor(next() * 80);
      for (let at = 0; at < length; at++) text += alphabet[Math.floor(next() * alphabet.length)];
      runs(text);
    }
  });
});
