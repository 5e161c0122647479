import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { SpelledOutScanner, spelledOutAt } from './spelled-out-scan';

// Round 46 (issue 16): contentFilter's run pattern, read by hand where the
// filter asked the RegExp for every match (an `exec` a letter on spaced
// letters). The same positions as the RegExp (round 45's, as in
// potential-start.ts), every match, overlapping ones too.

const MARKS = '\\t\\n\\v\\f\\r\\x85\\u2028\\u2029';
const LETTER = 'A-Za-z\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u00ff';
const SEPARATOR = `[ .\\-_*${MARKS}]`;
const BREAK = `[ ${MARKS}]{2,3}`;
const SOURCE = `(?<![${LETTER}0-9])(?:[${LETTER}](?:${SEPARATOR}[${LETTER}]){3}|[${LETTER}]${BREAK}[${LETTER}]${SEPARATOR}[${LETTER}]|[${LETTER}]${SEPARATOR}[${LETTER}]${BREAK}[${LETTER}])`;
const AT = new RegExp(SOURCE, 'y');
const ALL = new RegExp(SOURCE, 'g');

/** Units on each side of every class edge of the pattern, and some it never takes. */
const UNITS = [
  ...'aqZkA@[`{',
  '\u00bf',
  '\u00c0',
  '\u00d6',
  '\u00d7',
  '\u00d8',
  '\u00f6',
  '\u00f7',
  '\u00ff',
  '\u0100',
  'и',
  ...'09/:',
  ...' .-_*,+',
  ' ',
  ' ',
  ' ',
  ...'\t\n\v\f\r',
  '\u0085',
  '\u2028',
  '\u2029',
  '\u00a0',
  '\u200b',
  '\u3000',
  '\ud835',
  '\udc24',
];

function randomText(random: () => number): string {
  let text = '';
  const length = Math.floor(random() * 40);
  // Mostly letters and single blanks (runs), the rest anything.
  for (let at = 0; at < length; at++) {
    const roll = random();
    text +=
      roll < 0.35
        ? 'kilyouAÀé'[Math.floor(random() * 9)]
        : roll < 0.6
          ? ' '
          : UNITS[Math.floor(random() * UNITS.length)];
  }
  return text;
}

describe('spelledOutAt and SpelledOutScanner', () => {
  it('match where the RegExp does, at every position of 20,000 seeded texts', () => {
    const random = seededRandom(46);
    let matched = 0;
    const differ: string[] = [];
    for (let sample = 0; sample < 20_000; sample++) {
      const text = randomText(random);
      const expected: number[] = [];
      for (let at = 0; at <= text.length; at++) {
        AT.lastIndex = at;
        const byRegExp = AT.test(text);
        if (byRegExp) expected.push(at);
        if (spelledOutAt(text, at) !== byRegExp && differ.length < 5) {
          differ.push(`at ${at}: ${JSON.stringify(text)}`);
        }
      }
      // Every match in turn, as the filter read them: from the unit after the last one's start.
      const byExec: number[] = [];
      ALL.lastIndex = 0;
      for (let match = ALL.exec(text); match !== null; match = ALL.exec(text)) {
        byExec.push(match.index);
        ALL.lastIndex = match.index + 1;
      }
      const scanner = new SpelledOutScanner(text);
      const scanned: number[] = [];
      for (let at = scanner.next(); at >= 0; at = scanner.next()) scanned.push(at);
      expect(scanner.next()).toBe(-1);
      if (scanned.join() !== expected.join() || byExec.join() !== expected.join()) {
        if (differ.length < 5) differ.push(`scanned ${scanned}: ${JSON.stringify(text)}`);
      }
      matched += expected.length;
    }
    expect(differ).toEqual([]);
    expect(matched).toBeGreaterThan(2_000);
  });

  it('reads the five forms, the look behind and the blanks that are no separator', () => {
    const cases: Array<[string, number[]]> = [
      ['k i l l', [0]],
      ['k.i-l_l*x', [0, 2]],
      ['o n   h o w', [0, 2]],
      ['o   n h', [0]],
      ['o    n h', []],
      ['o n  h', [0]],
      ['ok i l l x', [3]],
      ['9k i l l', []],
      ['\u00e9 \u00e0 \u00ff \u00c0', [0]],
      ['\u00d7 \u00f7 a b', []],
      ['k\u00a0i\u00a0l\u00a0l', []],
      ['k\u2028i\u2029l\u0085l', [0]],
      ['k\ti\r\nl', [0]],
    ];
    for (const [text, expected] of cases) {
      const scanner = new SpelledOutScanner(text);
      const scanned: number[] = [];
      for (let at = scanner.next(); at >= 0; at = scanner.next()) scanned.push(at);
      expect(scanned, JSON.stringify(text)).toEqual(expected);
      const byExec: number[] = [];
      ALL.lastIndex = 0;
      for (let match = ALL.exec(text); match !== null; match = ALL.exec(text)) {
        byExec.push(match.index);
        ALL.lastIndex = match.index + 1;
      }
      expect(byExec, JSON.stringify(text)).toEqual(expected);
    }
  });
});
