import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { foldTermReadings } from '../prompt-injection/fold-text';
import { DEFAULT_CONTENT_CATEGORIES } from './content-filter';
import { contentFilterHookParts } from './potential-start';

// Round 39 (issue 16): on spaced letters (`q x b a …`, `4 b 3 $ …`) the full hook folded
// up to 24 suffixes a call, 29-55 µs. A suffix starting with ASCII
// letters, digits or leet characters one blank apart is now ruled out by a
// walk of the entries' trie over its first units, read joined or spaced,
// leetspeak read or not, before it is folded (about 9 µs a call;
// docs/streaming.md). The answers must not move.

const folded = (terms: readonly string[]) =>
  [...new Set(terms.flatMap(term => foldTermReadings(term).map(r => r.replace(/\s+/g, ' '))))].sort(
    (a, b) => b.length - a.length,
  );

const LISTS = {
  default: folded(Object.values(DEFAULT_CONTENT_CATEGORIES).flat()),
  custom: folded(['kill', 'x y z', 'ab cd', 'q x b a', 'b', "don't", 'i am', 'abcd']),
};

function hooksOf(terms: readonly string[]) {
  const longest = terms.reduce((max, term) => Math.max(max, term.length), 0);
  const maxMatchLength = Math.max(16, longest * 4);
  return {
    fast: contentFilterHookParts(terms, maxMatchLength).full,
    folded: contentFilterHookParts(terms, maxMatchLength, { spacedLetters: false }).full,
  };
}

const LEET_OF: Record<string, string> = { a: '4', e: '3', i: '1', l: '|', o: '0', s: '$', t: '7' };
const UNITS = 'abcdefghijklmnopqrstuvwxyzKILY01345@$|';
const SEPARATORS = [
  ' ',
  ' ',
  ' ',
  ' ',
  '  ',
  '   ',
  '.',
  '-',
  '*',
  '\n',
  '\t',
  '\u0301',
  '\u200b',
  'é',
  '',
];

function spacedText(next: () => number, entries: readonly string[]): string {
  let text = '';
  const length = 1 + Math.floor(next() * 50);
  for (let i = 0; i < length; i++) {
    const pick = next();
    if (pick < 0.25) {
      // An entry spelled out, or as written (its blanks among spaced letters).
      const entry = entries[Math.floor(next() * entries.length)]!;
      // Some of its letters written as leetspeak (`k 1 l l`).
      const written = entry.replace(/[aeilost]/g, letter =>
        next() < 0.4 ? (LEET_OF[letter] ?? letter) : letter,
      );
      text += `${pick < 0.15 ? written.split('').join(next() < 0.7 ? ' ' : '  ') : written} `;
    } else {
      const unit = UNITS[Math.floor(next() * (next() < 0.7 ? 26 : UNITS.length))]!;
      text += unit + SEPARATORS[Math.floor(next() * SEPARATORS.length)]!;
    }
  }
  return next() < 0.5 ? text.trimEnd() : text;
}

describe('contentFilter hook: spaced letters ruled out before folding', () => {
  it('holds where it held: spaced runs beginning an entry, read joined or spaced', () => {
    const { fast } = hooksOf(LISTS.default);
    // Four letters or more join (`kill`); three stay spaced and begin no entry.
    expect(fast('q x k i l l')).toBe(4);
    expect(fast('q k i l l')).toBe(2);
    expect(fast('q x k i l')).toBe(9);
    expect(fast('q x b a k i l l y o u')).toBe(21);
    // The run's last letter alone (`s` of `shoot`, …).
    expect(fast('k i l l y o u r s')).toBe(16);
    const custom = hooksOf(LISTS.custom).fast;
    // `x y z` read spaced, `q x b a` spaced or joined.
    expect(custom('a x y')).toBe(2);
    expect(custom('e f x y')).toBe(4);
    expect(custom('c q x b a')).toBe(2);
    expect(custom('c d e')).toBe(5);
    // Leetspeak read as its letter too (`4 b c d` reads `abcd`, `k 1 l l` `kill`).
    expect(custom('x 4 b c d')).toBe(2);
    expect(fast('q x k 1 l l')).toBe(4);
    expect(fast('q x k 1 l 7')).toBe(11);
  });

  it('the same answers as folding every suffix, on 3,000 spaced texts a list', () => {
    for (const [name, terms] of Object.entries(LISTS)) {
      const { fast, folded: every } = hooksOf(terms);
      const next = seededRandom(39);
      for (let i = 0; i < 3_000; i++) {
        const text = spacedText(next, terms);
        expect(fast(text), `${name} ${JSON.stringify(text)}`).toBe(every(text));
      }
    }
  });
});
