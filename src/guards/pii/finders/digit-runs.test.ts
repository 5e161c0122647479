import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPii } from '../find-pii-bundled';
import { cardCandidate } from './card';
import { digitRunsOf, forEachMatchInRuns, forgetDigitRuns, positionsOf } from './digit-runs';
import { forEachPhoneRun, phoneRunStart } from './phone';
import { nhsCandidate, ninoTail } from './uk';
import { nineDigits } from './us-ssn';

/** The pattern the phone finder ran over the whole text before the runs were shared. */
const phoneRun = /\+?\(?\d(?=(?:[ ().\-/]*\d){6})[\d ().\-/]*/g;

/** `[index, match]` of each match, as `matchAll` over the whole text yields them. */
function fullScan(text: string, pattern: RegExp): string[] {
  return Array.from(text.matchAll(pattern), match => `${match.index}:${match[0]}`);
}

/** The same, searched only in the digit runs holding `minDigits` digits. */
function runScan(text: string, pattern: RegExp, minDigits: number): string[] {
  const found: string[] = [];
  forEachMatchInRuns(text, pattern, minDigits, match => found.push(`${match.index}:${match[0]}`));
  return found;
}

function phoneRuns(text: string): string[] {
  const found: string[] = [];
  forEachPhoneRun(text, (firstDigit, end) => {
    const start = phoneRunStart(text, firstDigit);
    found.push(`${start}:${text.slice(start, end)}`);
  });
  return found;
}

/** Texts of digits, every separator a number may hold, the characters the patterns look at around them, and words. */
const numberish = fc
  .array(
    fc.constantFrom(
      ...'0123456789012345678901234567890123456789'.split(''),
      ' ',
      '  ',
      '-',
      '.',
      '(',
      ')',
      '/',
      '+',
      '+(',
      ']',
      '[X]',
      'A',
      'b',
      'C',
      'd',
      'Q',
      '_',
      ':',
      '\n',
      '4111 1111 1111 1111',
      '4111_1111_1111_1111',
      '4111 - 1111 - 1111 - 1111',
      '123-45-6789',
      '536--22--1234',
      '943 47 6512',
      'AB 12 34 56 C',
      '+1 (415) 555-2671',
      '1.2.3.4',
      'word ',
    ),
    { maxLength: 80 },
  )
  .map(parts => parts.join(''));

describe('digit runs shared by the number finders', () => {
  it('give each pattern the matches a scan of the whole text gives', () => {
    fc.assert(
      fc.property(numberish, text => {
        expect(runScan(text, cardCandidate, 12)).toEqual(fullScan(text, cardCandidate));
        expect(runScan(text, nineDigits, 9)).toEqual(fullScan(text, nineDigits));
        expect(runScan(text, nhsCandidate, 10)).toEqual(fullScan(text, nhsCandidate));
        expect(runScan(text, ninoTail, 6)).toEqual(fullScan(text, ninoTail));
        expect(phoneRuns(text)).toEqual(fullScan(text, phoneRun));
      }),
      { numRuns: 3000, seed: 15 },
    );
  });

  it('are the matches of the lookahead form of the run pattern', () => {
    // Round 29 wrote the five digits after the first out; the runs are the same.
    const lookahead = /(?<!\d)\d(?=(?:[ ().\-/_]*\d){5})[\d ().\-/_]*/g;
    fc.assert(
      fc.property(numberish, text => {
        const expected = Array.from(text.matchAll(lookahead), match => [
          match.index,
          match.index + match[0].length,
          match[0].replace(/\D/g, '').length,
        ]).flat();
        expect(digitRunsOf(text)).toEqual(expected);
        forgetDigitRuns();
      }),
      { numRuns: 3000, seed: 29 },
    );
  });

  it('reports each run once, from its first digit, with its digit count', () => {
    // `12-34` holds too few digits; the separators at a run's end are in it.
    const text = 'call +1 (415) 555-2671, ref 12-34 and 2024 / 123456.';
    expect(digitRunsOf(text)).toEqual([6, 22, 11, 38, 52, 10]);
    expect(phoneRuns(text)).toEqual(['5:+1 (415) 555-2671', '38:2024 / 123456.']);
  });

  it('take in `_` for cards and SSNs, and give the phone finder the parts between', () => {
    const text = 'id 4111_1111_1111_1111 or 12_415-555-2671_9 end';
    expect(digitRunsOf(text)).toEqual([3, 23, 16, 26, 44, 13]);
    expect(phoneRuns(text)).toEqual(['29:415-555-2671']);
  });

  it('start a phone run at the ( and the + before its first digit, and not at a second (', () => {
    expect(phoneRuns('x+(4155552671 y((4155552671 z(+4155552671')).toEqual([
      '1:+(4155552671 ',
      '16:(4155552671 ',
      '30:+4155552671',
    ]);
  });
});

describe('dots and colons shared by the IP and MAC finders', () => {
  const every = (text: string, char: string) =>
    [...text].flatMap((unit, index) => (unit === char ? [index] : []));

  it('are the offsets of each `.` and `:` of the text asked about, not of the last one', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a:.1 ]{0,30}$/), { minLength: 2 }), texts => {
        for (const text of texts) {
          // Colons first, then dots, then colons again: each read from the text's own memo.
          expect(Array.from(positionsOf(text, ':'))).toEqual(every(text, ':'));
          expect(Array.from(positionsOf(text, '.'))).toEqual(every(text, '.'));
          expect(Array.from(positionsOf(text, ':'))).toEqual(every(text, ':'));
        }
        forgetDigitRuns();
      }),
      { numRuns: 300 },
    );
  });

  it('give findPii the addresses of each text of a row', () => {
    const texts = [
      'mac 00:1a:2b:3c:4d:5e.',
      'ip 10.0.0.12:8080',
      'both 10.0.0.1 aa:bb:cc:dd:ee:0f',
    ];
    expect(texts.map(text => findPii(text, { entities: ['IP_ADDRESS', 'MAC_ADDRESS'] }))).toEqual([
      [{ type: 'MAC_ADDRESS', start: 4, end: 21 }],
      [{ type: 'IP_ADDRESS', start: 3, end: 12 }],
      [
        { type: 'IP_ADDRESS', start: 5, end: 13 },
        { type: 'MAC_ADDRESS', start: 14, end: 31 },
      ],
    ]);
  });
});
