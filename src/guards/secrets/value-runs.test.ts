import { describe, expect, it } from 'vitest';
import { printableRuns } from '../shared/anchored-scan';
import { valueRuns } from './provider-scan';

/**
 * Round 33: the keyed-value runs are found by probing every 14th character
 * of each printable run, as `printableRuns` reads the text, instead of
 * reading each printable run whole. They must be the maximal runs of
 * `[A-Za-z0-9_=:-]` of 14 or more.
 */
function reference(text: string): number[] {
  return [...text.matchAll(/[A-Za-z0-9_=:-]{14,}/g)].flatMap(match => [
    match.index,
    match.index + match[0].length,
  ]);
}

describe('valueRuns', () => {
  it('finds the maximal runs of value characters of 14 or more, as a full read does', () => {
    const units = [
      'a',
      'Z',
      '7',
      '_',
      '=',
      ':',
      '-',
      '.',
      '/',
      '?',
      ' ',
      '\n',
      '"',
      '\u00e9',
      'key',
    ];
    let state = 3;
    for (let text = 0; text < 600; text++) {
      let value = '';
      const length = 1 + (text % 300);
      for (let unit = 0; unit < length; unit++) {
        state = (state * 1103515245 + 12345) >>> 0;
        // Mostly value characters, so runs of every length occur.
        value += units[state % 7 < 5 ? state % 7 : state % units.length];
      }
      expect([...valueRuns(value, printableRuns(value, 14), 14)]).toEqual(reference(value));
    }
  });

  it('reads a token, a URL and a path', () => {
    const text =
      'see https://docs.example.org/guide?page=2 and AKIAIOSFODNN7EXAMPLE, ' +
      '/usr/local/share/some_long_directory_name/x token=abc:def-ghi_jkl=1';
    // `AKIAIOSFODNN7EXAMPLE`, `some_long_directory_name`, `token=abc:def-ghi_jkl=1`.
    const runs = [46, 66, 85, 109, 112, 135];
    expect([...valueRuns(text, printableRuns(text, 14), 14)]).toEqual(runs);
    expect(reference(text)).toEqual(runs);
  });
});
