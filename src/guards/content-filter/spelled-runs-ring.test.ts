import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { BUILTIN_CONTENT_CATEGORIES, DEFAULT_CONTENT_CATEGORIES } from './content-filter';
import { lowerCaseLettersWalk } from './lower-case-letters-pretest';
import { spelledRunsMayMatch } from './potential-start';

// Round 45 (issue 16): `spelledRunsMayMatch` kept two tables as long as the
// text from call to call (16 bytes a character after one large delta,
// `attack-r44-spelled-runs-memory.test.ts`). It now reads the matches in
// one pass and keeps those it still reads around in a ring of about `2L`
// positions. The same answers as the tables gave: the round-43 code below,
// as it was (f45bd334), its run pattern with round 45's blanks.

const MARKS = '\\t\\n\\v\\f\\r\\x85\\u2028\\u2029';
const LETTER = 'A-Za-z\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u00ff';
const SEPARATOR = `[ .\\-_*${MARKS}]`;
const BREAK = `[ ${MARKS}]{2,3}`;
const SPELLED_OUT_ALL = new RegExp(
  `(?<![${LETTER}0-9])(?:[${LETTER}](?:${SEPARATOR}[${LETTER}]){3}|[${LETTER}]${BREAK}[${LETTER}]${SEPARATOR}[${LETTER}]|[${LETTER}]${SEPARATOR}[${LETTER}]${BREAK}[${LETTER}])`,
  'g',
);

/** Round 43's `spelledRunsMayMatch`, with its tables made for each call. */
function tablesMayMatch(terms: readonly string[]): (plain: string) => boolean {
  const walk = lowerCaseLettersWalk(terms)!;
  const longest = terms.reduce((max, term) => Math.max(max, term.length), 0);
  const left = 2 * longest + 1;
  const right = 2 * longest + 8;
  const walkRight = 7;
  return plain => {
    const length = plain.length;
    const counted = new Int32Array(length + 1);
    const starts = new Int32Array(length);
    let count = 0;
    let blank = false;
    for (let at = 0; at < length; at++) {
      counted[at] = count;
      const code = plain.charCodeAt(at);
      const isBlank = code === 32 || code === 9 || code === 10 || code === 13;
      if (!(isBlank && blank)) count++;
      blank = isBlank;
    }
    let matches = 0;
    SPELLED_OUT_ALL.lastIndex = 0;
    for (let match = SPELLED_OUT_ALL.exec(plain); match !== null; ) {
      starts[matches++] = counted[match.index]!;
      SPELLED_OUT_ALL.lastIndex = match.index + 1;
      match = SPELLED_OUT_ALL.exec(plain);
    }
    let zone = 0;
    let walkZone = 0;
    for (let at = 0; at < length; at++) {
      const c = counted[at]!;
      while (zone < matches && starts[zone]! + right < c) zone++;
      if (zone === matches) return false;
      if (starts[zone]! - left > c) continue;
      const code = plain.charCodeAt(at);
      if (code === 32) continue;
      if (code < 97 || code > 122) return true;
      if (at > 0 && plain.charCodeAt(at - 1) !== 32) continue;
      while (walkZone < matches && starts[walkZone]! + walkRight < c) walkZone++;
      if (walkZone < matches && starts[walkZone]! - left <= c && walk(plain, at)) return true;
    }
    return false;
  };
}

/** Long texts of spaced letters (the ring wraps many times), entries spelled in them, a rare other character. */
function texts(count: number, seed: number, entries: readonly string[]): string[] {
  const random = seededRandom(seed);
  const pick = <T>(from: readonly T[]) => from[Math.floor(random() * from.length)]!;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = '';
    const pieces = 1 + Math.floor(random() * 40);
    for (let piece = 0; piece < pieces; piece++) {
      const kind = random();
      if (kind < 0.8) {
        const letters = 1 + Math.floor(random() * 60);
        for (let j = 0; j < letters; j++) {
          text += String.fromCharCode(97 + Math.floor(random() * 26));
          text += pick([' ', ' ', ' ', '  ', '   ', '']);
        }
      } else if (kind < 0.86) {
        text += `${[...pick(entries)].join(pick([' ', ' ', '']))} `;
      } else if (kind < 0.99) {
        text += `${pick(['the', 'skill', 'you', 'ab', 'killer'])} `;
      } else {
        text += pick(['K', '.', '\n', '4', 'é', ' x']);
      }
    }
    out.push(text);
  }
  return out;
}

describe('spelledRunsMayMatch in one pass (round 45)', () => {
  it.each([
    ['default', Object.values(DEFAULT_CONTENT_CATEGORIES).flat()],
    ['built-in', Object.values(BUILTIN_CONTENT_CATEGORIES).flat()],
    ['one short entry', ['ab']],
  ])('%s lists: the same answers as the tables, on 1,500 long texts', (_, terms) => {
    const ring = spelledRunsMayMatch(terms)!;
    const tables = tablesMayMatch(terms);
    const wrong: string[] = [];
    let maybe = 0;
    for (const text of texts(1_500, 45, terms)) {
      const expected = tables(text);
      if (expected) maybe++;
      if (ring(text) !== expected) wrong.push(text);
    }
    expect(wrong).toEqual([]);
    // Both answers occur often.
    expect(maybe).toBeGreaterThan(150);
    expect(maybe).toBeLessThan(1_350);
  });
});
