/**
 * The letters of a spelled-out run that window mode's hold reads in more
 * than one code unit, or as no letter (round 45, issue 16). `foldText`
 * reads enclosed letters (`🅚`, `⒦`) as their letters, then NFKC writes
 * mathematical letters (`𝐤`, U+1D400 on) as ASCII ones, before it joins a
 * spelled-out run, so `𝐚 𝐛 𝐤 𝐢 𝐥 𝐥 𝐲 𝐨 𝐮 𝐫 𝐬 𝐞 𝐥 𝐟` is `abkillyourself`,
 * which holds `kill yourself` (`spelled-run-entries.ts`). The hold
 * (`spelledRunHold`) reads a run a code unit at a time, and a surrogate
 * pair is no unit of a run: it saw no run, and released the entry up to
 * its last letters. Now it reads the text with each such letter written
 * as the unit the fold reads (a pair as the letter and U+2060, which the
 * hold reads through as the fold drops it): one unit for one, so a
 * position the hold gives is one of the text, and one it gives inside a
 * run is a letter's first unit, never between the halves of a pair.
 */

import { isSpacedUnit, withoutEnclosedLetters } from '../prompt-injection/fold-text';
import { BLANK_MARK_CLASS } from './spelled-blanks';

/** A character that may read as a letter of a run only once folded: an enclosed letter or a surrogate pair. */
const FOLDED_LETTER = /[\u249c-\u24b5]|[\ud800-\udbff][\udc00-\udfff]/;
const FOLDED_LETTERS = new RegExp(FOLDED_LETTER.source, 'g');

/** What a character of `FOLDED_LETTER` reads as, kept (facts about characters, never text; at most `KEPT`). */
const readings = new Map<string, string>();
const KEPT = 4096;

/** `char` as the one unit the fold reads it as when that is a unit of a run (`isSpacedUnit`), padded to its length with U+2060; else `char`. */
function readingOf(char: string): string {
  let reading = readings.get(char);
  if (reading !== undefined) return reading;
  const folded = withoutEnclosedLetters(char).normalize('NFKC');
  reading =
    folded.length === 1 && isSpacedUnit(folded.charCodeAt(0))
      ? folded.padEnd(char.length, '\u2060')
      : char;
  if (readings.size < KEPT) readings.set(char, reading);
  return reading;
}

/** `text` with each letter of a run the fold reads only once folded written as that unit (`readingOf`), one unit for one. Linear. */
export function withRunLettersAsUnits(text: string): string {
  return FOLDED_LETTER.test(text) ? text.replace(FOLDED_LETTERS, readingOf) : text;
}

/**
 * The characters NFKC maps to a space (U+00A0, U+2000-U+200A, U+202F,
 * U+205F, U+3000), and the tabs and line breaks the check reads as spaces
 * between spelled-out letters (round 45, `spelled-blanks.ts`).
 */
const COMPATIBILITY_BLANK = new RegExp(
  `[\\u00a0\\u2000-\\u200a\\u202f\\u205f\\u3000${BLANK_MARK_CLASS}]`,
);
const COMPATIBILITY_BLANKS = new RegExp(COMPATIBILITY_BLANK.source, 'g');

/**
 * `text` as window mode's hold of a spelled-out run reads it
 * (`spelledRunHold`): each blank NFKC writes as a space, and each tab and
 * line break, as a space (the fold joins `s\u00a0e` as `s e`; round 45's
 * second reading joins over tabs), then each letter the fold reads only
 * once folded as that unit (`withRunLettersAsUnits`). One unit for one, so
 * positions hold, and each unit's reading depends on it alone (a pair's on
 * both halves): the reading of a part of `text` that does not begin
 * between the halves of a pair is that part of the reading of `text`.
 * Round 46: the hold hands it only the tail it reads.
 */
export function heldRunReading(text: string): string {
  const blanked = COMPATIBILITY_BLANK.test(text) ? text.replace(COMPATIBILITY_BLANKS, ' ') : text;
  return withRunLettersAsUnits(blanked);
}

/**
 * Whether `text` from `from` reads as written (`heldRunReading` changes
 * none of its units): no tab, line break or other blank the reading writes
 * as a space, no enclosed letter, no half of a pair: then
 * `heldRunReading(text.slice(from))` is that slice. One pass, no
 * allocation (the reading's two tests and a slice were most of the hold's
 * cost a check of prose, round 46's profile; round 47).
 */
export function readsAsWritten(text: string, from: number): boolean {
  for (let at = from; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80 ? code >= 9 && code <= 13 : code >= 0x85 && mayReadOtherwise(code)) {
      return false;
    }
  }
  return true;
}

/** A unit at or past U+0085 that `heldRunReading` may write otherwise (a superset is safe: it is then written). */
function mayReadOtherwise(code: number): boolean {
  return (
    code === 0x85 ||
    code === 0xa0 ||
    (code >= 0x2000 && code <= 0x202f) ||
    code === 0x205f ||
    (code >= 0x249c && code <= 0x24b5) ||
    code === 0x3000 ||
    (code >= 0xd800 && code <= 0xdfff)
  );
}
