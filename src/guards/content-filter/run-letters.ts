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
