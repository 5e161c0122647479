/**
 * Where a text holds "upside-down" writing (`ɟlǝsɹnoʎ llıʞ` is `kill
 * yourself` turned), decided locally (round 26), so that a stream window,
 * which sees a bounded stretch of the answer, reads it as the whole answer
 * reads it. `foldText`'s second reading (`upsideDownReading` in
 * prompt-injection/fold-text) reads these regions turned back; the
 * contentFilter hook (`content-filter/potential-start`) holds back what a
 * region may still take in.
 *
 * Until round 26 three kinds of turned letter anywhere in the text turned
 * ALL of it: `Fun fact: ɐǝɹ is flipped.` made a `noʎ llıʞ` 160 characters on
 * read as `kill you`, which a window (the 48 characters before its pending
 * text) never saw, so `generateText` blocked and the stream released it;
 * and ordinary text far from any turned letter was read reversed too.
 *
 * Distances are counted in the code points detectors read (`isReadThrough`
 * ones not counted, as `countedStart` counts), so invisible characters
 * between turned letters do not spread them apart.
 */

import { isJsSpace } from './js-space';
import { isReadThrough } from './normalize-text';

/** Turned letters of "upside-down" text (`ı` is Turkish's: not one) and the letters they are. */
export const TURNED = 'ɐɔǝɟƃɥᴉɾʞɯɹʇʌʍʎ';
export const UNTURNED = 'acefghijkmrtvwy';
/**
 * The other alphabet flip generators write with (round 27): their turned
 * capitals (`∀ ᗺ Ɔ ᗡ Ǝ Ⅎ ⅁ ſ ꓘ ˥ Ԁ Ό ᴚ ⊥ ∩ Λ ⅄`: `∩O⅄ ˥˥Iꓘ` is `KILL YOU`
 * turned), Unicode's turned capitals (`Ɐ Ɥ Ʞ Ɯ Ʇ Ʌ Ꞁ`) and other turned
 * small letters (`ⅎ ᵷ ꞁ ↄ`), and the letters they are. A kind is the letter
 * a turned letter is (`ʞ` and `ꓘ` are one kind), so a phrase mixing both
 * alphabets counts its kinds across them; until round 27 only `TURNED`
 * counted, and a phrase in these was never read.
 */
export const TURNED_MORE = '∀Ɐᗺ\u0186\u2184\u2183ᗡ\u018EⅎℲ⅁ᵷꞍſꓘꞰ˥⅂ꞀꞁƜԀΌᴚ⊥Ʇ┴∩ΛɅ⅄';
export const UNTURNED_MORE = 'aabcccdeffgghjkkllllmpqrtttuvvy';

/**
 * A turned letter reads turned when the turned letters within this many
 * counted characters on either side of it are of three kinds or more (an
 * IPA transcription has one or two: it reads as noise), and two such
 * letters this near read in one region, with all between them.
 */
export const TURNED_NEIGHBOURHOOD = 16;
/**
 * A region reaches from its first turned letter back over the plain letters
 * flipped writing keeps (`PLAIN_IN_FLIPPED`: the `no` of `noʎ`, `you`), and
 * from its last one on to the end of its token, each at most this many
 * counted characters.
 */
export const TURNED_WORD = 16;
/**
 * How far, in counted characters, what stands at a position may change the
 * regions around it: a region char is within `TURNED_WORD` or
 * `TURNED_NEIGHBOURHOOD` of a turned letter, whose reading depends on the
 * letters `TURNED_NEIGHBOURHOOD` further. A stream window holds back this
 * much on each side of an entry's match (twice it, plus the match) whenever
 * a turned letter is near (see `heldFromTurnedLetters`).
 */
export const TURNED_REACH = TURNED_NEIGHBOURHOOD + Math.max(TURNED_NEIGHBOURHOOD, TURNED_WORD);

/** The kind of each BMP unit (the letter it is turned, 0 for `a` … 25), -1 for none. */
const KIND = new Int8Array(0x10000).fill(-1);
for (const [turned, letters] of [
  [TURNED, UNTURNED],
  [TURNED_MORE, UNTURNED_MORE],
]) {
  for (let index = 0; index < turned!.length; index++) {
    KIND[turned!.charCodeAt(index)] = letters!.charCodeAt(index) - 97;
  }
}

/** The kind of turned letter a unit is (the letter it is turned, 0 for `a`), -1 for none. */
export function turnedKind(code: number): number {
  return KIND[code]!;
}

/** Any turned letter, of either alphabet. */
export const TURNED_LETTER = new RegExp(`[${TURNED}${TURNED_MORE}]`, 'g');

/**
 * Plain letters flipped writing keeps (`l o s x z`, and `u n p d b q`, which
 * stand for `n u d p q b`, and `ı`), in either case; the capitals `H I M W`
 * (`M` and `W` stand for `W` and `M`); and the leetspeak digits and symbols
 * that stand for such a letter (`0 1 5 $ |`: `n0ʎ` is `you`, round 27): a
 * region reaches back over them from its first turned letter. Round 28: `f`
 * and `i`, which flip generators and people typing by hand keep for `ɟ` and
 * `ᴉ` (`flǝsɹnoʎ lliʞ` read `kill yoursel`, `lliʞ` alone `k`); the letters
 * other generators write for `l` (Hebrew `ן`, Thai `ๅ`); the digits that
 * read as digits turned (`6 8 9`, `6` and `9` swapped) and the turned
 * digits (`Ɩ ⇂ ᄅ ↊ Ɛ ↋ ㄣ ϛ ㄥ`, `TURNED_DIGITS`), none a kind.
 */
export function isPlainInFlipped(code: number): boolean {
  if (code < 0x80) return PLAIN_ASCII[code] === 1;
  return code === 0x131 || TURNED_DIGIT_VALUES.has(code) || PLAIN_L.has(code); // ı
}

/** What flip generators write for `l` besides `l` and `ꞁ`: Hebrew final nun `ן`, Thai `ๅ`. */
const PLAIN_L = new Set([0x5df, 0xe45]);

/**
 * The ASCII plain in flipped writing, one byte per code (a lookup: a list's
 * `includes` cost the window processor 1.6% of its instructions): the letters
 * `b d f i l n o p q s u x z` in either case, the capitals `H I M W`, and
 * `0 1 5 6 8 9 $ |`.
 */
const PLAIN_ASCII = new Uint8Array(0x80);
for (const char of 'bdfilnopqsuxzBDFILNOPQSUXZHIMW015689$|') PLAIN_ASCII[char.charCodeAt(0)] = 1;

/**
 * Turned digits of flip generators and Unicode (`Ɩ ⇂` 1, `ᄅ ↊` 2, `Ɛ ↋` 3,
 * `ㄣ` 4, `ϛ` 5, `ㄥ` 7), and the digits they are. Plain in flipped writing
 * (a region takes them in, they make no kind): `ᄅ` and `ㄣ` are letters of
 * Korean and Chinese phonetic writing too.
 */
export const TURNED_DIGITS = 'Ɩ⇂ᄅ↊Ɛ↋ㄣϛㄥ';
export const UNTURNED_DIGITS = '112233457';
const TURNED_DIGIT_VALUES = new Map(
  [...TURNED_DIGITS].map((digit, index) => [
    digit.charCodeAt(0),
    UNTURNED_DIGITS.charCodeAt(index),
  ]),
);

/**
 * The letter a plain letter of flipped writing is read as (`n` → `u`), lower
 * case; `ı` as `i`; the capitals `N M W` as `n w m`; a leetspeak digit or
 * symbol as the letter `foldText` reads it as (`0` → `o`, `1` → `i`); `6`
 * and `9` as each other, a turned digit as its digit so read (`ㄣ` → `a`),
 * `ן ๅ` as `l`.
 */
export function plainTurned(code: number): number {
  if (code === 0x131) return 0x69;
  if (PLAIN_L.has(code)) return 0x6c;
  const digit = TURNED_DIGIT_VALUES.get(code);
  // As `foldText` reads the digit in a word: a leetspeak one as its letter.
  if (digit !== undefined) return digit === 0x32 ? digit : plainTurned(digit);
  switch (code) {
    case 0x4e:
      return 0x6e; // N → n
    case 0x4d:
      return 0x77; // M → w
    case 0x57:
      return 0x6d; // W → m
    case 0x30:
      return 0x6f; // 0 → o
    case 0x31:
      return 0x69; // 1 → i
    case 0x35:
    case 0x24:
      return 0x73; // 5 $ → s
    case 0x7c:
      return 0x6c; // | → l
    case 0x36:
      return 0x39; // 6 → 9
    case 0x39:
      return 0x36; // 9 → 6
    case 0x38:
      return 0x62; // 8 → b
    case 0x33:
      return 0x65; // 3 → e
    case 0x34:
      return 0x61; // 4 → a
    case 0x37:
      return 0x74; // 7 → t
  }
  const lower = code | 0x20;
  switch (lower) {
    case 0x75:
      return 0x6e; // u → n
    case 0x6e:
      return 0x75; // n → u
    case 0x70:
      return 0x64; // p → d
    case 0x64:
      return 0x70; // d → p
    case 0x62:
      return 0x71; // b → q
    case 0x71:
      return 0x62; // q → b
    default:
      return lower;
  }
}

/** The code point at `at` (a surrogate pair read whole). */
function codePointAt(text: string, at: number): number {
  return text.codePointAt(at)!;
}

/**
 * The upside-down regions of `text`, `[start, end)` pairs flat in text
 * order: around each turned letter that reads turned (three kinds within
 * `TURNED_NEIGHBOURHOOD`), from the plain letters before the first of a
 * region (`isPlainInFlipped`, at most `TURNED_WORD` counted) to the end of
 * the last one's token (at most `TURNED_WORD` counted), two such letters
 * at most `TURNED_NEIGHBOURHOOD` apart in one region. Empty when there is
 * none. Linear: one pass to find and count, two pointers for the kinds,
 * and walks of at most `TURNED_WORD` counted characters at a region's ends.
 */
export function upsideDownRegions(text: string): number[] {
  const regions: number[] = [];
  // The region open: its last turned-reading letter (position, counted before it), -1: none.
  let lastAt = -1;
  let lastCounted = 0;
  turnedReadingLetters(text, (at, countedBefore) => {
    if (lastAt >= 0 && countedBefore - lastCounted <= TURNED_NEIGHBOURHOOD) {
      lastAt = at;
      lastCounted = countedBefore;
      return;
    }
    const start = plainRunStart(text, at);
    if (lastAt >= 0) {
      const end = tokenEndAfter(text, lastAt + 1);
      if (start > end) regions.push(end, start);
    } else {
      regions.push(start);
    }
    lastAt = at;
    lastCounted = countedBefore;
  });
  if (lastAt >= 0) regions.push(tokenEndAfter(text, lastAt + 1));
  return regions;
}

/**
 * Calls `turned` with each turned letter that reads turned (three kinds
 * within `TURNED_NEIGHBOURHOOD` counted characters on either side), in
 * order: its position and the counted characters before it. One pass; the
 * letters near the one decided are kept in a ring (at most
 * 2 × `TURNED_NEIGHBOURHOOD` + 2 of them).
 */
export function turnedReadingLetters(
  text: string,
  turned: (at: number, countedBefore: number) => void,
): void {
  // Three kinds anywhere first: nearly every text has none.
  if (!threeKinds(text)) return;
  // The turned letters within TURNED_NEIGHBOURHOOD counted characters of the
  // one being decided, in a ring (at most 2 × TURNED_NEIGHBOURHOOD + 2 of them):
  // position, counted characters before it, kind.
  const ringAt = RING_AT;
  const ringCounted = RING_COUNTED;
  const ringKind = RING_KIND;
  const inWindow = new Int32Array(26);
  let distinct = 0;
  let low = 0; // the oldest letter in the window
  let right = 0; // the window is [low, right)
  let decide = 0; // the next letter to decide
  let high = 0; // the next letter to come
  const decideUpTo = (limit: number) => {
    // Decides the letters whose right neighbourhood ends before `limit` counted characters.
    while (decide < high && ringCounted[decide & RING_MASK]! + TURNED_NEIGHBOURHOOD < limit) {
      const centre = ringCounted[decide & RING_MASK]!;
      while (right < high && ringCounted[right & RING_MASK]! <= centre + TURNED_NEIGHBOURHOOD) {
        if (inWindow[ringKind[right & RING_MASK]!]!++ === 0) distinct++;
        right++;
      }
      while (ringCounted[low & RING_MASK]! < centre - TURNED_NEIGHBOURHOOD) {
        if (--inWindow[ringKind[low & RING_MASK]!]! === 0) distinct--;
        low++;
      }
      if (distinct >= 3) turned(ringAt[decide & RING_MASK]!, centre);
      decide++;
    }
  };
  let count = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code >= 0x20 && code < 0x7f) {
      count++;
      continue;
    }
    const kind = turnedKind(code);
    if (kind >= 0) {
      decideUpTo(count);
      const slot = high & RING_MASK;
      ringAt[slot] = at;
      ringCounted[slot] = count;
      ringKind[slot] = kind;
      high++;
      count++;
      continue;
    }
    const codePoint = codePointAt(text, at);
    if (codePoint > 0xffff) at++;
    if (!isReadThrough(codePoint)) count++;
  }
  decideUpTo(Number.POSITIVE_INFINITY);
}

/**
 * True when `text` holds turned letters of three kinds or more: a native
 * search for the blocks they stand in (`TURNED_BLOCK`, a few wide ranges),
 * each unit found read in a table. Round 27: a search for the turned
 * letters of both alphabets themselves (46 ranges) cost 15–20 ms a MB of
 * text kept two bytes a unit (Russian prose, fillers), against 2 ms for
 * the first alphabet's alone (measured alternating in one process).
 */
function threeKinds(text: string): boolean {
  TURNED_BLOCK.lastIndex = 0;
  let seen = 0;
  let kinds = 0;
  while (TURNED_BLOCK.test(text)) {
    const kind = KIND[text.charCodeAt(TURNED_BLOCK.lastIndex - 1)]!;
    if (kind < 0 || (seen & (1 << kind)) !== 0) continue;
    seen |= 1 << kind;
    if (++kinds === 3) return true;
  }
  return false;
}
/** Every turned letter's block: a superset of `TURNED_LETTER`, in few ranges. */
const TURNED_BLOCK =
  /[\u017f-\u02e5\u038c-\u039b\u0500\u15e1-\u15fa\u1d09-\u1d77\u2132-\u2184\u2200-\u22a5\u2534\u2c6f\ua4d8\ua780-\ua7b1]/g;

/** The ring of `upsideDownRegions` (a power of two above 2 × TURNED_NEIGHBOURHOOD + 2). */
const RING_MASK = 127;
const RING_AT = new Int32Array(RING_MASK + 1);
const RING_COUNTED = new Float64Array(RING_MASK + 1);
const RING_KIND = new Int8Array(RING_MASK + 1);

/**
 * Where a region whose first turned letter stands at `at` starts: back over
 * the plain letters of flipped writing before it in its token
 * (`isPlainInFlipped`: the `no` of `noʎ`), and over whole tokens before
 * that made only of them (`sn` of `sn llıʞ`, `kill us`), at most
 * `TURNED_WORD` counted characters (blanks count); characters read through
 * are walked over. Never before a blank or a character read through.
 */
export function plainRunStart(text: string, at: number): number {
  let start = at;
  let good = at; // the start of what is taken for sure
  let taken = 0;
  let adjacent = true; // in the token of `at` (a part of it may be taken)
  while (start > 0) {
    let size = 1;
    let codePoint = text.charCodeAt(start - 1);
    if (codePoint >= 0xdc00 && codePoint <= 0xdfff && start > 1) {
      const high = text.charCodeAt(start - 2);
      if (high >= 0xd800 && high <= 0xdbff) {
        codePoint = ((high - 0xd800) << 10) + (codePoint - 0xdc00) + 0x10000;
        size = 2;
      }
    }
    if (isPlainInFlipped(codePoint)) {
      if (taken === TURNED_WORD) break;
      taken++;
      if (adjacent) good = start - size;
    } else if (isJsSpace(codePoint) && codePoint !== 0xfeff) {
      if (taken === TURNED_WORD) break;
      taken++;
      // The token after this blank is whole: taken.
      good = Math.min(good, start);
      adjacent = false;
    } else if (codePoint < 0x80 || !isReadThrough(codePoint)) {
      break;
    }
    start -= size;
  }
  // A whole token reached its start (the text's start).
  if (start === 0 && !adjacent) good = 0;
  start = Math.min(good, at);
  // Blanks and characters read through before the first letter are not the region's.
  while (start < at && !isPlainInFlipped(text.charCodeAt(start))) {
    start += codePointAt(text, start) > 0xffff ? 2 : 1;
  }
  return start;
}

/**
 * Where a region whose last turned letter ends at `at` ends: the end of its
 * token, then of each whole token after it made only of plain letters of
 * flipped writing (the `ı` of `noʎ llıʞ llıʍ ı`), at most `TURNED_WORD`
 * counted characters (blanks count).
 */
function tokenEndAfter(text: string, at: number): number {
  let end = at;
  let good = at; // the end of what is taken for sure
  let taken = 0;
  let adjacent = true; // in the token of the last turned letter (all of it is taken)
  while (end < text.length) {
    const codePoint = codePointAt(text, end);
    const size = codePoint > 0xffff ? 2 : 1;
    if (isJsSpace(codePoint) && codePoint !== 0xfeff) {
      // The token before this blank ends whole: the adjacent one, or one of plain letters.
      good = end;
      adjacent = false;
      if (taken === TURNED_WORD) break;
      taken++;
    } else if (codePoint < 0x80 || !isReadThrough(codePoint)) {
      if (!adjacent && !isPlainInFlipped(codePoint)) break;
      if (taken === TURNED_WORD) break;
      taken++;
    }
    end += size;
  }
  // The adjacent token up to the bound; a later token only whole (the text's end ends it).
  if (adjacent || end === text.length) good = end;
  // Not past its last character (blanks after a whole token).
  while (
    good > at &&
    isJsSpace(text.charCodeAt(good - 1)) &&
    text.charCodeAt(good - 1) !== 0xfeff
  ) {
    good--;
  }
  return good;
}
