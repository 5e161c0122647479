import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachIpv4Match, ipv4, ipv4OneBlank } from './ip';

/** `index:match` of each match, as `matchAll` over the whole text yields them. */
function fullScan(text: string, pattern: RegExp): string[] {
  return Array.from(text.matchAll(pattern), match => `${match.index}:${match[0]}`);
}

/** The same from the scan tried only at the digits before each dot. */
function dotScan(text: string): [string[], string[]] {
  const plain: string[] = [];
  const oneBlank: string[] = [];
  forEachIpv4Match(
    text,
    (start, end) => plain.push(`${start}:${text.slice(start, end)}`),
    (start, end) => oneBlank.push(`${start}:${text.slice(start, end)}`),
  );
  return [plain, oneBlank];
}

/** Digits, dots, blanks, prefixes and what the patterns look at around an address. */
const dotted = fc
  .array(
    fc.constantFrom(
      ...'0123456789'.split(''),
      '1',
      '25',
      '255',
      '256',
      '192.168.',
      '.',
      '. ',
      '.\t',
      ' ',
      '\n',
      '/',
      '/24',
      '/33',
      ']',
      'a',
      '_',
      ':',
    ),
    { maxLength: 40 },
  )
  .map(parts => parts.join(''));

describe('IPv4 scan at the dots', () => {
  it('finds exactly the matches of both IPv4 patterns over the whole text', () => {
    fc.assert(
      fc.property(dotted, text => {
        expect(dotScan(text)).toEqual([fullScan(text, ipv4), fullScan(text, ipv4OneBlank)]);
      }),
      { numRuns: 3000, seed: 18 },
    );
  });

  it('reads addresses at the start and after a word, not inside a longer number or after a placeholder', () => {
    const text = '1.2.3.4 host 10.0. 0.1, 1234.5.6.7.8 x.192.168.1.20 [IP].1.2.3.4 9.8.7.6/24';
    expect(dotScan(text)).toEqual([fullScan(text, ipv4), fullScan(text, ipv4OneBlank)]);
    expect(dotScan(text)).toEqual([
      ['0:1.2.3.4', '39:192.168.1.20', '65:9.8.7.6/24'],
      ['0:1.2.3.4', '13:10.0. 0.1', '39:192.168.1.20', '65:9.8.7.6'],
    ]);
  });
});
