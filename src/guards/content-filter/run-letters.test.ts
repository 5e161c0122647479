import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { cut } from '../../../test/helpers';
import { generated, streamed } from '../../../test/helpers/window';
import { guardrails } from '../../middleware/guardrails-middleware';
import { contentFilter } from './content-filter';
import { spelledRunHold } from './potential-start';
import { heldRunReading, readsAsWritten, withRunLettersAsUnits } from './run-letters';

/*
 * Round 45 (hH's finding, `attack-r45-spelled-astral-stream.test.ts`): an
 * entry spelled out in letters the fold reads only once folded
 * (mathematical letters past U+FFFF, enclosed letters), inside a longer
 * run. Window mode's hold now reads each such letter as the unit the fold
 * reads (`run-letters.ts`).
 */

const MESSAGE = 'This content is not allowed.';
const ENTRIES = ['kill yourself', 'kill', 'pipe bomb', 'send nudes'];
/** Window mode with one entry blocked (with several, the hook held more: `kill` held all of `𝐚 𝐛 𝐤 𝐢 𝐥 …`). */
const MIDDLEWARES = new Map(
  ENTRIES.map(entry => [
    entry,
    guardrails({
      output: [contentFilter({ blocklist: [entry], categories: [] })],
      stream: { mode: 'window' },
    }),
  ]),
);

describe('withRunLettersAsUnits', () => {
  it('writes each letter the fold reads only once folded as that unit, one unit for one', () => {
    expect(withRunLettersAsUnits('𝐤 🅘 ⒧ 𝕝 ｙ y')).toBe('k\u2060 i\u2060 l l\u2060 ｙ y');
    // Not letters once folded: kept as written (an emoji, a parenthesized digit, a lone surrogate).
    expect(withRunLettersAsUnits('\u{1F600} \u2474 \ud835 \udc24')).toBe(
      '\u{1F600} \u2474 \ud835 \udc24',
    );
    expect(withRunLettersAsUnits('plain text')).toBe('plain text');
  });

  it('holds a run of mathematical letters from its first letter that may begin an entry, at a pair start', () => {
    const hold = spelledRunHold(['kill yourself']);
    const text = 'ok so 𝐚 𝐛 𝐤 𝐢 𝐥';
    // Before: nothing held (a surrogate pair was no unit of a run).
    expect(hold(text)).toBe('ok so 𝐚 𝐛 '.length);
  });
});

/** Ways of writing a letter the fold reads as that ASCII letter. */
const STYLES: Array<(letter: string, upper: boolean) => string> = [
  (letter, upper) => (upper ? letter.toUpperCase() : letter),
  (letter, upper) => String.fromCharCode((upper ? 0xff21 : 0xff41) + letter.charCodeAt(0) - 97),
  // Mathematical bold, sans-serif, monospace (no holes in these alphabets).
  (letter, upper) => String.fromCodePoint((upper ? 0x1d400 : 0x1d41a) + letter.charCodeAt(0) - 97),
  (letter, upper) => String.fromCodePoint((upper ? 0x1d5a0 : 0x1d5ba) + letter.charCodeAt(0) - 97),
  (letter, upper) => String.fromCodePoint((upper ? 0x1d670 : 0x1d68a) + letter.charCodeAt(0) - 97),
  // Negative circled capitals.
  letter => String.fromCodePoint(0x1f150 + letter.charCodeAt(0) - 97),
];
const BLANKS = [' ', ' ', ' ', '\u00a0', '\u2002'];
const WORD_BREAKS = ['', '  ', '   ', '\u00a0\u00a0\u00a0', '\t\t'];

interface Case {
  /** The entry blocked. */
  entry: string;
  text: string;
  /** The text up to the entry's first letter: all a stream may release before it blocks. */
  beforeEntry: string;
}

/** A random entry (or a near miss, one letter changed) spelled in random letters and blanks, letters before and after it in the run. */
function randomCase(random: () => number): Case {
  const pick = <T>(from: readonly T[]) => from[Math.floor(random() * from.length)]!;
  const letter = () => String.fromCharCode(97 + Math.floor(random() * 26));
  // One style for the whole run (half the cases), or a mix.
  const style = random() < 0.5 ? pick(STYLES) : undefined;
  const spell = (letters: string) =>
    [...letters].map(unit => (style ?? pick(STYLES))(unit, random() < 0.3)).join('');
  const listed = pick(ENTRIES);
  let entry = listed;
  if (random() < 0.25) {
    const at = Math.floor(random() * entry.length);
    if (entry[at] !== ' ')
      entry = entry.slice(0, at) + (entry[at] === 'q' ? 'x' : 'q') + entry.slice(at + 1);
  }
  const before = Array.from({ length: Math.floor(random() * 5) }, letter).join('');
  const after = Array.from({ length: Math.floor(random() * 3) }, letter).join('');
  const gap = () => pick(BLANKS);
  const spelledLetters = (letters: string) =>
    [...spell(letters)].map(unit => unit + gap()).join('');
  const prefix = `${pick(['ok so ', 'Well: ', ''])}${spelledLetters(before)}`;
  const words = entry.split(' ').map(word => spelledLetters(word).trimEnd());
  const spelledEntry = words.reduce((all, word) => {
    const wordBreak = pick(WORD_BREAKS);
    return `${all}${wordBreak === '' ? gap() : wordBreak}${word}`;
  });
  return {
    entry: listed,
    text: `${prefix}${spelledEntry}${gap()}${spelledLetters(after)}${pick([' now', '.', ''])}`,
    beforeEntry: prefix,
  };
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

describe('readsAsWritten (round 47: the hold reads such a tail in place)', () => {
  it('flags every unit the hold reading may write otherwise, from the position asked', () => {
    expect(readsAsWritten('so k i l', 0)).toBe(true);
    expect(readsAsWritten('so\tk i l', 0)).toBe(false);
    // Only from `from` on: the tab before it is not read.
    expect(readsAsWritten('so\tk i l', 3)).toBe(true);
    expect(readsAsWritten('k\u00a0i', 0)).toBe(false);
    expect(readsAsWritten('\u{1d424} i', 0)).toBe(false);
    // A lone low half (a tail never starts inside a pair; a half alone is flagged all the same).
    expect(readsAsWritten('\udc24 i', 0)).toBe(false);
    expect(readsAsWritten('\u24a6 i', 0)).toBe(false);
    expect(readsAsWritten('', 0)).toBe(true);
  });

  it('is false for every code unit the reading writes otherwise, alone or beside letters (2,131 flagged of 65,536)', () => {
    let flagged = 0;
    const missed: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const unit = String.fromCharCode(code);
      if (!readsAsWritten(unit, 0)) {
        flagged++;
        continue;
      }
      for (const text of [unit, `k${unit}i`, `${unit} ${unit}`]) {
        if (heldRunReading(text) !== text) missed.push(code);
      }
    }
    expect(missed).toEqual([]);
    // 9-13, U+0085, U+00A0, U+2000-U+202F, U+205F, U+249C-U+24B5, U+3000 and the 2,048 halves of pairs.
    expect(flagged).toBe(5 + 1 + 1 + 48 + 1 + 26 + 1 + 2048);
  });
});

describe('an entry spelled in mixed letters inside a run, window mode against generate', () => {
  it('trips exactly when generate blocks, releases nothing of the entry, splits no pair', async () => {
    const random = seededRandom(45_13);
    let blocked = 0;
    let passed = 0;
    for (let index = 0; index < 80; index++) {
      const { entry, text, beforeEntry } = randomCase(random);
      const middleware = MIDDLEWARES.get(entry)!;
      const whole = await generated(middleware, text);
      const blocks = whole === MESSAGE;
      if (blocks) blocked++;
      else {
        expect(whole).toBe(text);
        passed++;
      }
      const sizes = Array.from({ length: 16 }, () => 1 + Math.floor(random() * 5));
      for (const deltas of [cut(text, sizes), cut(text, [1 + Math.floor(random() * 5)]), [text]]) {
        const out = await streamed(middleware, text, deltas);
        const joined = out.join('');
        expect({ text, trips: joined.endsWith(MESSAGE) }).toEqual({ text, trips: blocks });
        if (blocks) {
          const released = joined.slice(0, -MESSAGE.length);
          expect({ text, prefix: beforeEntry.startsWith(released) }).toEqual({
            text,
            prefix: true,
          });
        } else {
          expect(joined).toBe(text);
        }
        for (const delta of out) {
          expect(isLow(delta.charCodeAt(0))).toBe(false);
          expect(isHigh(delta.charCodeAt(delta.length - 1))).toBe(false);
        }
      }
    }
    // Both kinds were drawn.
    expect(blocked).toBeGreaterThan(40);
    expect(passed).toBeGreaterThan(3);
  });
});
