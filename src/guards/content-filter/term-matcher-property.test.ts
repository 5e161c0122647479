import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { termMatcher } from './term-matcher';

/**
 * The pattern contentFilter compiled before round 21, the reference the
 * Aho–Corasick matcher stands in for: a term's blank is `\s+`, no letter or
 * digit on either side, flag `u`, the terms longest first.
 */
function referencePattern(terms: readonly string[]) {
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${terms
      .map(term => escaped(term).replace(/ /g, '\\s+'))
      .join('|')})(?![\\p{L}\\p{N}])`,
    'u',
  );
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
];

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
