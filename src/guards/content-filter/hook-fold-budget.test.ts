import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { cut } from '../../../test/helpers';
import { contentFilterWindowMiddleware } from '../../../test/helpers/content-filter-cases';
import { generatedText, streamedTextDeltas } from '../../../test/helpers/window';
import { foldText } from '../prompt-injection/fold-text';
import { DEFAULT_CONTENT_CATEGORIES } from './content-filter';
import { contentFilterHookParts, isSolidLetter } from './potential-start';

// Round 29: the full hook folded the text from every candidate position to
// its end, and in a token of letters beyond ASCII without blanks (Cyrillic,
// CJK) every position is one: quadratic in `maxMatchLength` (pinned, per
// call, maxMatchLength 800 -> 1,600: Cyrillic 37 -> 134 ms, CJK 35 -> 128 ms).
// Now only candidates among the last `longest` solid letters are folded,
// at most 24 a call; past that the earliest candidate is the answer.

const TERMS = Object.values(DEFAULT_CONTENT_CATEGORIES).flat();
const LONG_ENTRY = 'a very long entry of many words that goes on and on';
const LONG_TERMS = [...TERMS, LONG_ENTRY];

/**
 * The full hook three ways: as shipped (`fast`), without the fold budget
 * (`bounded`: only the solid-letter bound), and folding every candidate
 * (`every`: the answer the others are held to).
 */
function hooksOf(terms: readonly string[], maxMatchLength: number) {
  const unbudgeted = { foldsPerCall: Number.POSITIVE_INFINITY };
  return {
    fast: contentFilterHookParts(terms, maxMatchLength).full,
    bounded: contentFilterHookParts(terms, maxMatchLength, unbudgeted).full,
    every: contentFilterHookParts(terms, maxMatchLength, { ...unbudgeted, solidBound: false }).full,
  };
}

const solidRanges: Array<[number, number]> = [
  [0x41, 0x5a],
  [0x61, 0x7a],
  [0xc0, 0xff],
  [0x391, 0x3c9],
  [0x400, 0x45f],
  [0x5d0, 0x5ea],
  [0x621, 0x64a],
  [0x3041, 0x3096],
  [0x30a1, 0x30fa],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7a3],
];
const solidLetters: string[] = [];
for (const [low, high] of solidRanges) {
  for (let code = low; code <= high; code++) {
    if (isSolidLetter(code)) solidLetters.push(String.fromCharCode(code));
  }
}

// What may stand around them: blanks, junk, marks, fillers, digits, symbols, controls, other scripts.
const OTHERS = [
  ' ',
  '  ',
  '\n',
  '.',
  '-',
  '_',
  '*',
  '0',
  '1',
  '3',
  '4',
  '@',
  '$',
  '|',
  '!',
  "'",
  '\u200b',
  '\u200d',
  '\u00ad',
  '\u0301',
  '\u0306',
  '\u0307',
  '\u3099',
  '\u309b',
  '\u3164',
  '\u1160',
  '\u11a8',
  '\u202e',
  '\u202c',
  '\u2067',
  '\u2069',
  '\ufe0f',
  '\u{e0041}',
  '\ue000',
  'ɐ',
  'ǝ',
  'ʞ',
  'ı',
  'ᴋ',
  'ⓚ',
  'ｋ',
  'ﬁ',
  'İ',
  'ς',
  'ก',
  'क',
  '😀',
  '🇫🇷',
];
const COMMON = ['а', 'е', 'о', 'р', 'с', 'у', 'х', 'і', 'ӏ', 'k', 'i', 'l', 'y', 'o', 'u'];

function randomText(next: () => number, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) {
    const pick = next();
    if (pick < 0.35) text += COMMON[Math.floor(next() * COMMON.length)];
    else if (pick < 0.7) text += solidLetters[Math.floor(next() * solidLetters.length)];
    else text += OTHERS[Math.floor(next() * OTHERS.length)];
  }
  return text;
}

const solidCount = (text: string) => {
  let count = 0;
  for (let at = 0; at < text.length; at++) if (isSolidLetter(text.charCodeAt(at))) count++;
  return count;
};

describe('contentFilter hook: solid letters and the fold budget', () => {
  it('each solid letter folds to a character of its own that is no blank, alone and among others, both readings', () => {
    for (const letter of solidLetters) {
      for (const leet of [true, false]) {
        expect(foldText(letter, { leet }).trim().length, letter).toBeGreaterThan(0);
      }
    }
    const next = seededRandom(29);
    for (let i = 0; i < 4_000; i++) {
      const text = randomText(next, 1 + Math.floor(next() * 24));
      for (const leet of [true, false]) {
        const read = foldText(text, { leet }).trim().replace(/\s+/g, ' ');
        expect(read.replace(/ /g, '').length, JSON.stringify(text)).toBeGreaterThanOrEqual(
          solidCount(text),
        );
      }
    }
  });

  it('the solid-letter bound: the same answers as folding every candidate, on two ends of 800 random texts', () => {
    const { fast, bounded, every } = hooksOf(TERMS, 76);
    const next = seededRandom(2929);
    for (let i = 0; i < 800; i++) {
      const text = randomText(next, 1 + Math.floor(next() * 120));
      let end = Math.floor(next() * text.length);
      if (/[\ud800-\udbff]/.test(text[end - 1] ?? '')) end++;
      for (const piece of [text, text.slice(0, end)]) {
        const expected = every(piece);
        expect(bounded(piece), JSON.stringify(piece)).toBe(expected);
        // The budget only ever holds back more.
        expect(fast(piece), JSON.stringify(piece)).toBeLessThanOrEqual(expected);
      }
    }
  });

  it('the default lists on prose of solid letters (Cyrillic, CJK, look-alikes, blanks): the budget changes no answer (1,500 texts)', () => {
    const { fast, every } = hooksOf(TERMS, 76);
    const next = seededRandom(292929);
    // Solid letters only ('ӏ', U+04CF, is none: a token of them meets the budget).
    const solidCommon = COMMON.filter(letter => isSolidLetter(letter.charCodeAt(0)));
    const pieces = [...solidCommon, ...solidCommon, ' ', ' ', '.', 'kill', 'yourself', 'кіll'];
    for (let i = 0; i < 1_500; i++) {
      let text = '';
      const length = 1 + Math.floor(next() * 120);
      for (let k = 0; k < length; k++) {
        text +=
          next() < 0.5
            ? pieces[Math.floor(next() * pieces.length)]
            : solidLetters[Math.floor(next() * solidLetters.length)];
      }
      expect(fast(text), JSON.stringify(text)).toBe(every(text));
    }
  });

  it('an entry longer than the budget: never later than folding every candidate', () => {
    const { fast, every } = hooksOf(LONG_TERMS, 204);
    const next = seededRandom(929);
    for (let i = 0; i < 200; i++) {
      const text = randomText(next, 1 + Math.floor(next() * 250));
      expect(fast(text), JSON.stringify(text)).toBeLessThanOrEqual(every(text));
    }
  });

  it('a Cyrillic and a CJK answer without blanks stream as generate, in many deltas', async () => {
    const middleware = () => contentFilterWindowMiddleware({ blocklist: [LONG_ENTRY] });
    for (const unit of ['приветмирздравствуйтеспасибо', '你好世界谢谢再见朋友']) {
      const answer = `${unit.repeat(60)} kіll yourself`;
      expect(await generatedText(middleware(), answer)).toBe('BLOCKED');
      const deltas = await streamedTextDeltas(middleware(), answer, cut(answer, [4]));
      expect(deltas.at(-1)).toBe('BLOCKED');
      expect(answer.startsWith(deltas.slice(0, -1).join(''))).toBe(true);
      expect(deltas.length).toBeGreaterThan(3);
      const clean = unit.repeat(60);
      expect((await streamedTextDeltas(middleware(), clean, cut(clean, [4]))).join('')).toBe(clean);
    }
  });
});
