import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { termMatcher } from './term-matcher';

const UNSPACED_SCRIPTS =
  /[\p{scx=Thai}\p{scx=Lao}\p{scx=Khmr}\p{scx=Mymr}\p{scx=Tibt}\p{scx=Hani}\p{scx=Hira}\p{scx=Kana}\p{scx=Bopo}\p{scx=Yiii}\p{scx=Lana}\p{scx=Talu}\p{scx=Tale}\p{scx=Tavt}\p{scx=Java}\p{scx=Bali}]/u;
/** A character of a script written without blanks, from U+0E00 on (`isUnspaced`). */
const isUnspacedCharacter = (character: string) =>
  character.codePointAt(0)! >= 0xe00 && UNSPACED_SCRIPTS.test(character);

/**
 * The pattern contentFilter compiled before round 21, the reference the
 * Aho–Corasick matcher stands in for: a term's blank is `\s+`, no letter or
 * digit on either side, flag `u`, the terms longest first. Since
 * round 38 the look-arounds apply only where the term's edge and the
 * character beside it are both of scripts written with blanks: a term
 * whose first (last) character is of a script written without them has no
 * look-behind (look-ahead), and a letter of such a script beside a term
 * joins nothing.
 */
function referencePattern(terms: readonly string[]) {
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const alternative = (term: string) => {
    const [first] = [...term];
    const last = [...term].at(-1)!;
    const behind = isUnspacedCharacter(first!) ? '' : `(?<!${JOINING})`;
    const ahead = isUnspacedCharacter(last) ? '' : `(?!${JOINING})`;
    return `${behind}${escaped(term).replace(/ /g, '\\s+')}${ahead}`;
  };
  return new RegExp(`(?:${terms.map(alternative).join('|')})`, 'u');
}

// Units an attacker would reach for: letters that are prefixes of one
// another, surrogate pairs (a math letter, an emoji) and their lone halves,
// every blank JavaScript's `\s` takes and look-alikes it does not (U+180E,
// U+200B, NEL, U+2800), combining marks, letters with case oddities (ß ẞ İ
// ı ς σ Σ), a digit, punctuation and U+FFFF.
const UNITS = [
  'a',
  'b',
  'ab',
  'ba',
  '1',
  '-',
  '.',
  '\u{1D41A}',
  '\u{1F600}',
  '\uD835',
  '\uDC1A',
  ' ',
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  '\u00A0',
  '\u1680',
  '\u2000',
  '\u200A',
  '\u2028',
  '\u2029',
  '\u202F',
  '\u205F',
  '\u3000',
  '\uFEFF',
  '\u180E',
  '\u200B',
  '\u0085',
  '\u2800',
  '\u0301',
  '\u0307',
  'ß',
  'ẞ',
  'İ',
  'ı',
  'ς',
  'σ',
  'Σ',
  'é',
  '\uFFFF',
  // Letters of scripts written without blanks (Thai, a Thai mark, Han, an
  // astral Han, the Japanese prolonged sound mark, Khmer) and U+02BC, a
  // modifier letter Bopomofo shares that counts as one written with blanks.
  'ก',
  '\u0E49',
  '中',
  '\u{20000}',
  'ー',
  'ក',
  '\u02BC',
];

/**
 * The letters and digits of `UNITS` that join a word (of a script written
 * with blanks), as a class: the texts hold no others. (`[\p{L}\p{N}]` less
 * the scripts without blanks, compiled into each pattern, took minutes.)
 */
const JOINING = `[${[...new Set(UNITS.flatMap(text => [...text]))]
  .filter(character => /[\p{L}\p{N}]/u.test(character) && !isUnspacedCharacter(character))
  .map(character => `\\u{${character.codePointAt(0)!.toString(16)}}`)
  .join('')}]`;

const unit = fc.constantFrom(...UNITS);
/** A term as contentFilter hands it over: blanks single, trimmed, not empty. */
const term = fc
  .array(unit, { minLength: 1, maxLength: 6 })
  .map(units => units.join('').replace(/\s+/g, ' ').trim())
  .filter(text => text !== '');
/** A list of terms, some of them prefixes or suffixes of others, longest first, distinct. */
const terms = fc
  .array(
    fc.tuple(term, fc.nat(6), fc.boolean()).map(([text, cut, prefix]) => {
      const part = prefix ? text.slice(0, cut + 1) : text.slice(-(cut + 1));
      return [text, part.trim()];
    }),
    { minLength: 1, maxLength: 5 },
  )
  .map(pairs => {
    const list = [...new Set(pairs.flat().filter(text => text !== ''))];
    return list.sort((a, b) => b.length - a.length);
  });
/** A text of the same units, with some terms written into it (blanks widened). */
const textWith = (list: readonly string[]) =>
  fc
    .array(
      fc.oneof(
        unit,
        fc.constantFrom(...list).map(text => text.replace(/ /g, ' \u00A0\t')),
        fc.constantFrom(...list),
      ),
      { maxLength: 24 },
    )
    .map(pieces => pieces.join(''));

describe('termMatcher against the pattern it replaced (fast-check)', () => {
  it('finds the same start and term on any list and text, surrogates, blanks and marks included', () => {
    fc.assert(
      fc.property(
        terms.chain(list => fc.tuple(fc.constant(list), textWith(list))),
        ([list, text]) => {
          const expected = referencePattern(list).exec(text);
          const found = termMatcher(list)(text);
          expect(found && { index: found.index, term: list[found.term] }).toEqual(
            expected
              ? {
                  index: expected.index,
                  // The term the pattern matched: its text with blanks single.
                  term: list.find(candidate => candidate === expected[0]!.replace(/\s+/g, ' ')),
                }
              : undefined,
          );
        },
      ),
      { numRuns: 5_000, seed: 22 },
    );
  }, 120_000);
});
