/**
 * A reading of a text for `findSecrets` with Latin look-alike letters from
 * other scripts (Cyrillic `р`, Greek `Ο`, IPA `ɑ`: foldText's `homoglyphs`
 * and `latinLookAlikes`, capitals too) read as the ASCII letters they are
 * drawn like, one unit for one (round 28: `ghp_q8Zr…Yр1Kd…` with one
 * Cyrillic `р`, `AKIAIОSF…` with a Cyrillic `О`, passed: the ASCII
 * patterns stopped at the letter; `ghр_…` was shown as
 * `ghр[HIGH_ENTROPY_STRING]`, its prefix visible). Only the letters in a
 * key-like word are read so (`lookAlikeSites`): a Russian, Greek or Turkish
 * word stays as it is.
 */
import { homoglyphs, latinLookAlikes } from '../prompt-injection/fold-text';
import { firstPointOfPiece } from '../shared/invisible-breaks';
import type { NormalizationPoints } from '../shared/normalize-text';
import type { ReadingSites } from './escaped-reading';
import { isTokenCode } from './prefix-literals';

/** Per BMP unit, the ASCII letter it is read as (0: none). */
const asciiOf = new Uint8Array(0x10000);
for (const [from, to] of [...Object.entries(homoglyphs), ...Object.entries(latinLookAlikes)]) {
  const code = from.charCodeAt(0);
  if (from.length !== 1 || code < 0x80) continue;
  asciiOf[code] = to.charCodeAt(0);
  // Its capital (`Р`, `Ο`, `Ɑ`), read as the ASCII capital, when one unit and not ASCII.
  const capital = from.toUpperCase();
  const capitalCode = capital.charCodeAt(0);
  if (capital.length === 1 && capitalCode >= 0x80 && capital !== from && !asciiOf[capitalCode]) {
    asciiOf[capitalCode] = to.toUpperCase().charCodeAt(0);
  }
}

/** The lowest unit `asciiOf` reads (`ı`, U+0131): no unit below it is a look-alike. */
const lowestLookAlike = Math.max(
  0x80,
  asciiOf.findIndex((ascii, code) => code >= 0x80 && ascii !== 0),
);

/**
 * A unit from `lowestLookAlike` up: where a look-alike may be. Found by a
 * regex search, V8's own loop (round 29: the loop reading `asciiOf` at every
 * unit cost 1.2-1.8 ms a megabyte, a tenth of `findSecrets` on ASCII text;
 * on an ASCII or Latin-1 string this search fails at once, on the dev sets'
 * first MB it costs about 0.6 ms).
 */
const mayBeLookAlike = new RegExp(
  `[\\u${lowestLookAlike.toString(16).padStart(4, '0')}-\\uffff]`,
  'g',
);

/**
 * How many units below `lowestLookAlike` in a row send the reading back to
 * `mayBeLookAlike`: text in another script (Russian, Greek, Chinese) is read
 * unit by unit, as a search a unit cost ten times as much there.
 */
const plainStretch = 32;

/** The fewest units of a word whose look-alikes are read (an AWS key id has 20, a short password 8). */
const keyWordLength = 8;

/** An ASCII letter or digit, `_`, `-`, or a look-alike: what a key's word is made of. */
function isWordUnit(code: number): boolean {
  return isTokenCode(code) || asciiOf[code] !== 0;
}

/** Whether `text[from, to)` holds an ASCII digit. */
function holdsDigit(text: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) {
    const code = text.charCodeAt(at);
    if (code >= 48 && code <= 57) return true;
  }
  return false;
}

/**
 * Where `text`'s look-alike letters are read as ASCII (`ReadingSites`, one
 * unit each), or undefined when none is in a key-like word. A word here is
 * a run of ASCII letters and digits, `_`, `-` and look-alikes; it is read
 * when it mixes look-alikes with ASCII, is at least `keyWordLength` units
 * long and holds a digit, as keys do (Turkish `kullanılır`, with its
 * dotless `ı`, and `2024г.` stay as they are: the reading would find what
 * the first did, at twice the cost). Linear: one pass over the units,
 * by `mayBeLookAlike` over plain text and a unit at a time beside units it
 * finds (a regex search for a look-alike beside ASCII cost 20 ms a MB of
 * ASCII text, a search a word of look-alikes at a time 60 ns a character of
 * Russian), each word measured once.
 */
export function lookAlikeSites(
  text: string,
  points?: NormalizationPoints,
): ReadingSites | undefined {
  const length = text.length;
  let bounds: number[] | undefined;
  let values: string[] | undefined;
  let wordEnd = 0;
  const next = points ? lookAlikeAtPoints(text, points) : lookAlikeBySearch(text);
  // At the points the next unit from `lowestLookAlike` up costs no search:
  // the units below it after one are not read one by one.
  const stretch = points ? 1 : plainStretch;
  for (let found = next(0); found >= 0; ) {
    let plain = 0;
    let index = found;
    for (; index < length && plain < stretch; index++) {
      const code = text.charCodeAt(index);
      if (code < lowestLookAlike) {
        plain++;
        continue;
      }
      plain = 0;
      if (asciiOf[code] === 0) continue;
      // A look-alike beside an ASCII letter, digit, `_` or `-`: a word that mixes them.
      if (
        !(index > 0 && isTokenCode(text.charCodeAt(index - 1))) &&
        !(index + 1 < length && isTokenCode(text.charCodeAt(index + 1)))
      ) {
        continue;
      }
      let wordStart = index;
      while (wordStart > wordEnd && isWordUnit(text.charCodeAt(wordStart - 1))) wordStart--;
      wordEnd = index;
      while (wordEnd < length && isWordUnit(text.charCodeAt(wordEnd))) wordEnd++;
      // Read on after the word (the unit at `wordEnd` is no look-alike: a look-alike is a word's unit).
      index = wordEnd;
      if (wordEnd - wordStart < keyWordLength || !holdsDigit(text, wordStart, wordEnd)) continue;
      bounds ??= [];
      values ??= [];
      for (let at = wordStart; at < wordEnd; at++) {
        const ascii = asciiOf[text.charCodeAt(at)]!;
        if (ascii === 0) continue;
        bounds.push(at, at + 1);
        values.push(String.fromCharCode(ascii));
      }
    }
    found = next(index);
  }
  return bounds && values ? { bounds, values } : undefined;
}

/** The first unit from `lowestLookAlike` up at or after an offset of `text` (-1: none), by `mayBeLookAlike`. */
function lookAlikeBySearch(text: string): (from: number) => number {
  return from => {
    mayBeLookAlike.lastIndex = from;
    // `test`, not `exec`: no match object a search.
    return mayBeLookAlike.test(text) ? mayBeLookAlike.lastIndex - 1 : -1;
  };
}

/**
 * As `lookAlikeBySearch`, reading only the normaliser's `points` for
 * `text` (a piece of a longer text, see `NormalizationPoints`): a unit from
 * `lowestLookAlike` up is outside printable ASCII, so it is at one of them
 * (round 33: the search cost about 2% of the chain's CPU profile on the dev
 * sets' first MB, whose pieces are two-byte strings; `mayHoldPrivateUse`
 * reads the points so too). Offsets asked for only grow.
 */
function lookAlikeAtPoints(text: string, points: NormalizationPoints): (from: number) => number {
  const { positions, offset } = points;
  let index = firstPointOfPiece(points);
  const end = offset + text.length;
  return from => {
    while (index < positions.length && positions[index]! < offset + from) index++;
    for (; index < positions.length && positions[index]! < end; index++) {
      if (text.charCodeAt(positions[index]! - offset) >= lowestLookAlike)
        return positions[index]! - offset;
    }
    return -1;
  };
}
