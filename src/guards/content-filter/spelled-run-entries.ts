/**
 * contentFilter's reading of an entry inside a spelled-out run (round 44,
 * issue 16). `foldText` joins a run of single letters (`u k i l l   y o u
 * r s e l f`) into words (`ukill yourself`), and the matcher reads whole
 * words, so an entry spelled inside a longer run (a letter before it, or
 * its words written without the word break: `j u s t k i l l y o u r s e
 * l f`) matched nothing, where the entry spelled alone is blocked.
 * Spelling a word out drops its edges, so inside a run an entry is read
 * by its letters, not as a whole word:
 * - an entry of one word, anywhere inside one word of the run (`s k i l
 *   l` holds `kill`);
 * - an entry of several words, with its blanks dropped, anywhere in the
 *   run's letters, its word breaks dropped too (`j u s t k i l l y o u r s
 *   e l f`, `u k i l l   y o u r s e l f`).
 * An entry of one word does not read across a word break of the run
 * (`t h i s   h i t` is no `shit`). Written text is read by whole words as
 * before, and an entry only part of which is spelled out (`u k i l l
 * yourself`) is not read so.
 *
 * Both are read with the same matcher (`termMatcher`): each letter of the
 * runs is written as a word of its own (`u k i l l`), so an entry spelled
 * so (`k i l l`) matches at any letter; a word break of the run is a NUL
 * in the first reading, which no entry of one word crosses (nor one run
 * into the next, in either reading). Linear: the
 * runs are at most the folded text, read twice.
 */

import { termMatcher } from './term-matcher';

/** Whether `code` is a blank (`\s`) of a joined run (its word breaks are single spaces). */
function isBlank(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0;
}

/** What a word break of a run reads as in the first reading: no letter, digit or blank, and in no run. */
const BREAK = '\u0000';

/**
 * The letters of `text` as words of their own (one blank between), its
 * blanks as `BREAK` (`withBreaks`) or dropped. Written into a buffer of
 * code units and turned into a string in slices: an array of its
 * characters cost a fifth of the check on a spaced-out text, and a string
 * grown by `+=` (a rope of one node per letter) made a 1 MB run (the
 * hostile `a.b.c.…` text is one) cost 8x its 0.25 MB in garbage collection.
 */
function spelled(text: string, withBreaks: boolean): string {
  // At most a blank and a letter per code unit, or a blank and a break.
  const units = new Uint16Array(text.length * 2);
  let length = 0;
  let broken = true;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (isBlank(code)) {
      if (withBreaks && !broken) {
        units[length++] = 32;
        units[length++] = 0; // BREAK
      }
      broken = true;
      continue;
    }
    if (length > 0) units[length++] = 32;
    units[length++] = code;
    // A surrogate pair is one letter.
    if (code >= 0xd800 && code <= 0xdbff && at + 1 < text.length) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        units[length++] = next;
        at++;
      }
    }
    broken = false;
  }
  return stringOf(units, length);
}

/** The first `length` code units of `units` as a string, in slices (no argument list past 8,192). */
function stringOf(units: Uint16Array, length: number): string {
  const parts: string[] = [];
  for (let from = 0; from < length; from += 8192) {
    parts.push(
      String.fromCharCode.apply(
        null,
        units.subarray(from, Math.min(length, from + 8192)) as unknown as number[],
      ),
    );
  }
  return parts.join('');
}

/**
 * The reading of `terms` (contentFilter's, folded, blanks single) inside
 * spelled-out runs: a function giving the index in `terms` of an entry
 * read in one of `runs` (as `withJoinedRuns` gives them), else undefined.
 */
export function spelledRunEntries(
  terms: readonly string[],
): (runs: readonly string[]) => number | undefined {
  const words: number[] = [];
  const phrases: number[] = [];
  terms.forEach((term, index) => {
    // (A run holds no NUL: an entry with one is spelled in none.)
    if (!term.includes(BREAK)) (term.includes(' ') ? phrases : words).push(index);
  });
  const matcherOf = (indexes: number[]) =>
    indexes.length === 0
      ? undefined
      : termMatcher(indexes.map(index => spelled(terms[index]!, false)));
  const wordMatcher = matcherOf(words);
  const phraseMatcher = matcherOf(phrases);
  return runs => {
    if (runs.length === 0) return undefined;
    if (wordMatcher) {
      const text = runs.map(run => spelled(run, true)).join(` ${BREAK} `);
      const found = wordMatcher(text);
      if (found) return words[found.term];
    }
    if (phraseMatcher) {
      const text = runs.map(run => spelled(run, false)).join(` ${BREAK} `);
      const found = phraseMatcher(text);
      if (found) return phrases[found.term];
    }
    return undefined;
  };
}
