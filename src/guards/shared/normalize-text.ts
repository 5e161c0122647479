/**
 * Text normalisation for detectors, with a map back to the original offsets.
 *
 * Detectors match on a canonical form of the text (NFKC, invisible characters
 * removed, look-alike digits and dashes folded) so that `4111\u200B1111...` or
 * full-width `４１１１...` cannot slip through, while the spans they report
 * (and the characters a redaction replaces) are those of the original text.
 */

import { argumentError, callerArgument, readingCallerArgument } from '../../core/caller-values';
import { booleanOption, validateOptionsOnce } from '../../core/options';
import { markFlat } from './flat-string';
import { isDefaultIgnorableOrControl } from './invisible-code-points';
import { isPrivateUse } from './private-use';

/** A normalised text and the way back to the original's offsets. */
export interface NormalizedText {
  /** The text detectors should match on. */
  text: string;
  /** The text that was normalised. */
  original: string;
  /** False when `text === original` and every offset maps to itself. */
  changed: boolean;
  /**
   * Maps an offset of `text` (0..text.length) to the offset of `original`
   * where the character at that offset starts. `text.length` maps to
   * `original.length`. Use it for span starts.
   */
  toOriginal(index: number): number;
  /**
   * Maps an exclusive end offset of `text` to the exclusive end offset in
   * `original`: just after the original characters that produced
   * `text[index - 1]`. Use it for span ends.
   */
  toOriginalEnd(index: number): number;
  /** Maps a span `[start, end)` of `text` to the span of `original` that produced it. */
  toOriginalSpan(start: number, end: number): { start: number; end: number };
  /**
   * An invisible character was removed between two others (not among a
   * character's marks): a value beside it may be glued to a word in `text`
   * (`findPiiInNormalForm` then reads the text with it as a blank too).
   */
  removedInvisible?: true;
}

/** The rules of `normalizeText`'s options. */
const normalizeOptionShape = {
  nfkc: booleanOption,
  removeInvisible: booleanOption,
  foldLookalikes: booleanOption,
};

/** The defaults of `normalizeText`'s options. */
const noOptions: NormalizeTextOptions = {};

/** Options of `normalizeText`. */
export interface NormalizeTextOptions {
  /** Apply NFKC (full-width forms, ligatures, compatibility digits). Default true. */
  nfkc?: boolean;
  /** Remove invisible characters (see `isInvisibleCodePoint`). Default true. */
  removeInvisible?: boolean;
  /**
   * Fold decimal digits of other scripts and Unicode dashes to ASCII, blanks
   * NFKC keeps (U+1680, U+2800) to a space and line breaks other than CR
   * and LF (VT, FF, NEL, U+2028, U+2029) to LF. Default true.
   */
  foldLookalikes?: boolean;
}

/**
 * True for characters that render as nothing (or only change direction) and
 * so can hide inside or between visible characters: every default-ignorable
 * code point (zero-width spaces and joiners, word joiner and invisible
 * operators, BOM, soft hyphen, fillers, bidirectional controls, variation
 * selectors, shorthand and musical format controls, the whole plane-14
 * block of tags and selectors U+E0000–E0FFF), control characters that are
 * not white space (NUL, ESC, DEL, C1 controls; jane.doe\0@corp.io passed
 * every finder), and U+1D159 (musical null notehead, drawn as nothing). The
 * list is `invisibleText`'s (see `invisible-code-points.ts`), plus the code
 * points that stand for no character (`isJunk`).
 */
export function isInvisibleCodePoint(codePoint: number): boolean {
  if (typeof codePoint !== 'number')
    callerArgument(codePoint, 'number', 'isInvisibleCodePoint', 'codePoint');
  return codePoint === 0x1d159 || isDefaultIgnorableOrControl(codePoint) || isJunk(codePoint);
}

/**
 * Code points that stand for no character, read through like invisible ones
 * (round 23: `4\uFFFD1\uFFFD1\uFFFD1…` passed as no card, a key with lone
 * surrogates between its characters as no key): a lone surrogate (half of a
 * UTF-16 pair; `codePointAt` gives the half alone), the noncharacters
 * U+FDD0–FDEF and U+xFFFE/xFFFF of every plane, the object replacement
 * character U+FFFC and the replacement character U+FFFD (what a decoder
 * writes for a byte it could not read). Not private-use characters: icon
 * fonts draw them as visible symbols between words and numbers
 * (`invisibleText` reports them). Not `invisibleText`'s list either.
 */
function isJunk(codePoint: number): boolean {
  return (
    (codePoint >= 0xd800 && codePoint <= 0xdfff) ||
    (codePoint >= 0xfdd0 && codePoint <= 0xfdef) ||
    (codePoint & 0xfffe) === 0xfffe ||
    codePoint === 0xfffc ||
    codePoint === 0xfffd
  );
}

/**
 * First code point of each run of ten decimal digits (`\p{Nd}`) that NFKC
 * leaves alone, in order: the 35 runs of the Basic Multilingual Plane, then
 * the 33 past it (Osmanya to Adlam, Unicode 17; round 42: a card written in
 * Brahmi digits was found by no finder). A constant, not read from the
 * runtime's Unicode data (edge-safe, the same on every runtime);
 * `normalize-text.test.ts` derives the runs from `\p{Nd}` and fails on a
 * run missing here. An astral digit is two UTF-16 units and folds to one
 * ASCII digit that maps back onto both.
 */
export const digitZeros: readonly number[] = [
  0x0660, 0x06f0, 0x07c0, 0x0966, 0x09e6, 0x0a66, 0x0ae6, 0x0b66, 0x0be6, 0x0c66, 0x0ce6, 0x0d66,
  0x0de6, 0x0e50, 0x0ed0, 0x0f20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90,
  0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0,
  // Past the Basic Multilingual Plane.
  0x104a0, 0x10d30, 0x10d40, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650,
  0x116c0, 0x116d0, 0x116da, 0x11730, 0x118e0, 0x11950, 0x11bf0, 0x11c50, 0x11d50, 0x11da0, 0x11de0,
  0x11f50, 0x16130, 0x16a60, 0x16ac0, 0x16b50, 0x16d70, 0x1e140, 0x1e2f0, 0x1e4f0, 0x1e5f1, 0x1e950,
];

function foldLookalike(codePoint: number): string | undefined {
  // Hyphens, dashes and the minus sign read as '-' inside numbers.
  if ((codePoint >= 0x2010 && codePoint <= 0x2015) || codePoint === 0x2212 || codePoint === 0xfe63)
    return '-';
  // Blanks NFKC leaves alone (ogham space mark, braille blank) read as a
  // space, the other line breaks (VT, FF, NEL, line and paragraph
  // separators) as '\n': each finder treats them as it treats a space or a
  // line break (4111\u16801111… was no card, as 4111 1111… is).
  if (codePoint === 0x1680 || codePoint === 0x2800) return ' ';
  if (
    codePoint === 0x0b ||
    codePoint === 0x0c ||
    codePoint === 0x85 ||
    codePoint === 0x2028 ||
    codePoint === 0x2029
  )
    return '\n';
  for (const zero of digitZeros) {
    if (codePoint >= zero && codePoint < zero + 10)
      return String.fromCharCode(48 + codePoint - zero);
  }
  return undefined;
}

const combiningMark = /\p{M}/u;
// A printable ASCII character (after NFKC) followed by non-spacing marks only.
const decoratedAscii = /^[\x20-\x7e]\p{Mn}+$/u;

/**
 * A printable ASCII character with non-spacing marks NFKC could not compose
 * into it (`4\u0332` underlined, `a\u0336` struck through) reads as the
 * character alone: the marks decorate it, and a number or address written
 * that way (`4̲1̲1̲1̲ ̲1̲1̲1̲1̲…`) is the same value. Marks that compose
 * (`e\u0301`) were folded into one letter by NFKC already; marks on other
 * scripts' letters are part of the spelling and stay. Enclosing marks stay
 * too: a keycap (`4\uFE0F\u20E3`) is an emoji, the number of a heading or
 * list item in chat text far more often than a digit of a value (read as a
 * digit, `## 4️⃣ Title Deflation Strategy` became an address in the corpora).
 */
function withoutDecoration(segment: string): string {
  return decoratedAscii.test(segment) ? segment[0]! : segment;
}

/** `segment` without its invisible characters (see `isInvisibleCodePoint`). */
function withoutInvisible(segment: string): string {
  let kept = '';
  for (const char of segment) if (!isInvisibleCodePoint(char.codePointAt(0)!)) kept += char;
  return kept;
}

/**
 * Where the invisible characters from `at` on end (`at` when there are
 * none). After a copied run they are removed with it, unless a combining
 * mark follows them (a keycap `5\uFE0F\u20E3`): the run's last character
 * then takes its marks in one segment, which reads them again, so each
 * character is read at most twice.
 */
function invisibleRunEnd(text: string, at: number): number {
  let index = at;
  while (index < text.length) {
    const codePoint = text.codePointAt(index)!;
    if ((factsOf(codePoint) & INVISIBLE) === 0) break;
    index += codePoint > 0xffff ? 2 : 1;
  }
  return index;
}

/** Whether a surrogate pair (one astral code point) starts at `at`. */
function pairAt(text: string, at: number): boolean {
  const high = text.charCodeAt(at);
  if (high < 0xd800 || high > 0xdbff) return false;
  const low = text.charCodeAt(at + 1);
  return low >= 0xdc00 && low <= 0xdfff;
}

/**
 * Where the code point holding unit `at` of `text` starts and ends: a
 * copied unit maps as the character it is part of (both halves of an emoji
 * onto the emoji), as a segment does.
 */
function unitStart(text: string, at: number): number {
  return at > 0 && pairAt(text, at - 1) ? at - 1 : at;
}

function unitEnd(text: string, at: number): number {
  return pairAt(text, at) ? at + 2 : at + 1;
}

// The largest group kept of a strided run (see `normalizeText`'s map), and its largest stride.
const MAX_KEPT = 15;
const MAX_STRIDE = 2 ** 26;

// Anything outside printable ASCII (plus tab and newlines) may need work.
const needsWork = /[^\t\n\r\x20-\x7e]/;
// The same, searching from `lastIndex` (one per process; `normalizeText` never re-enters itself).
const needsWorkFrom = /[^\t\n\r\x20-\x7e]/g;
// What needs no work, as a run from `lastIndex` (`normalizationPoints`).
const plainRun = /[\t\n\r\x20-\x7e]*/y;

/**
 * Where a long text holds the characters `normalizeText` may change, found
 * once for all of it (`normalizationPoints`) and read by the normalisation
 * of each of its pieces (`chunked-scan.ts`) instead of a search of each:
 * `positions` are offsets into the whole text, and the piece starts at
 * `offset` in it.
 */
export interface NormalizationPoints {
  positions: Int32Array;
  offset: number;
}

/**
 * `points` read once and checked: its positions an Int32Array (never a
 * Proxy of one) in ascending order, none negative; its offset a safe integer
 * from 0; else a TypeError (`argumentError`). Round 42: positions and an
 * offset that said less than the text holds (none, an offset off the text)
 * gave back full-width digits and invisible characters unchanged, with no
 * error; `normalizeText` now checks them and normalises as without them
 * (what needs work is known only by reading the text).
 */
function readPoints(points: NormalizationPoints): void {
  readingCallerArgument('normalizeText', 'points', () => {
    const { positions, offset } = points;
    if (
      !ArrayBuffer.isView(positions) ||
      !(positions instanceof Int32Array) ||
      !Number.isSafeInteger(offset) ||
      offset < 0 ||
      !ascendingFromZero(positions)
    ) {
      throw argumentError(
        'normalizeText',
        'points',
        'an Int32Array of positions (ascending, from 0) and an offset (an integer from 0)',
        points,
      );
    }
  });
}

function ascendingFromZero(positions: Int32Array): boolean {
  let last = 0;
  for (const position of positions) {
    if (position < last) return false;
    last = position;
  }
  return true;
}

/**
 * The offsets of `text` holding a character outside printable ASCII, tab
 * and line breaks (what `normalizeText` may change), in order; undefined
 * once they are denser than one in 16 characters (text in another script,
 * which its pieces search as before). One regex search of the text.
 */
export function normalizationPoints(text: string): Int32Array | undefined {
  const found: number[] = [];
  // A sticky search for the run of characters that need no work, from each
  // point on: its greedy loop costs fewer instructions per character than
  // the class search restarted at every position (the dev sets' first MB:
  // 17.6 -> 15.1 M, round 23).
  for (let at = 0; ; at++) {
    plainRun.lastIndex = at;
    plainRun.test(text);
    at = plainRun.lastIndex;
    if (at >= text.length) break;
    if (found.length > 64 + (at >> 4)) return undefined;
    found.push(at);
  }
  return Int32Array.from(found);
}

// Per code point facts, computed once per process: bit 1 "known", 2 "a
// combining mark", 4 "NFKC leaves it alone", 8 "no look-alike fold", 16
// "invisible", and for `invisibleBreaks`, 32 "a letter" (`\p{L}`), 64 "a
// decimal digit" (`\p{Nd}`), 128 "a blank" (`\s`). A character with 4 and 8 and not 16 is copied as it is, so text in
// other scripts runs through the same copy loop as ASCII instead of paying
// a normalize() call and a regex per character.
const KNOWN = 1;
const MARK = 2;
const NFKC_STABLE = 4;
const NO_FOLD = 8;
const INVISIBLE = 16;
const LETTER = 32;
const DIGIT = 64;
const BLANK = 128;
const letterPattern = /\p{L}/u;
const digitPattern = /\p{Nd}/u;
const blankPattern = /\s/u;
const bmpFacts = new Uint8Array(0x10000);
const astralFacts = new Map<number, number>();

// The last astral code point asked about in each of 4,096 slots (by its
// low bits) and its facts, in front of `astralFacts`: a text of emoji asks
// about each one two or three times, and a map lookup cost more than the
// rest of the character's work (round 32).
const astralSlotCodes = new Int32Array(4096);
const astralSlotFacts = new Uint8Array(4096);

function factsOf(codePoint: number): number {
  if (codePoint >= 0x10000) {
    const slot = codePoint & 4095;
    if (astralSlotCodes[slot] === codePoint) return astralSlotFacts[slot]!;
    const facts = astralFactsOf(codePoint);
    astralSlotCodes[slot] = codePoint;
    astralSlotFacts[slot] = facts;
    return facts;
  }
  return bmpFacts[codePoint] || computeFacts(codePoint);
}

function astralFactsOf(codePoint: number): number {
  return astralFacts.get(codePoint) ?? computeFacts(codePoint);
}

function computeFacts(codePoint: number): number {
  const char = String.fromCodePoint(codePoint);
  const facts =
    KNOWN |
    (combiningMark.test(char) ? MARK : 0) |
    (char.normalize('NFKC') === char ? NFKC_STABLE : 0) |
    (foldLookalike(codePoint) === undefined ? NO_FOLD : 0) |
    (isInvisibleCodePoint(codePoint) ? INVISIBLE : 0) |
    (letterPattern.test(char) ? LETTER : 0) |
    (digitPattern.test(char) ? DIGIT : 0) |
    (blankPattern.test(char) ? BLANK : 0);
  if (codePoint < 0x10000) bmpFacts[codePoint] = facts;
  else astralFacts.set(codePoint, facts);
  return facts;
}

// What a character without combining marks becomes, per option set: a flood
// of one full-width digit pays for one normalize() call, not one per character.
const LONE_CHAR_FORMS_SIZE = 65_536;
/**
 * Pieces of the output up to this many units are gathered (below), longer
 * ones appended as slices: each slice also writes out what was gathered, and
 * round 33's copied runs of emoji make pieces of 5-12 units (a ZWJ family
 * and a space: 1 MB 77 -> 41 ms with 16 rather than 4).
 */
const SLICE_FROM = 16;
/** The offset map's runs, three numbers each (see `normalizeText`), reused by every call. */
let runScratch = new Int32Array(3 * 1024);
/** Short pieces of `normalizeText`'s output, gathered as UTF-16 units. */
const gatheredUnits: number[] = new Array<number>(4096).fill(0);
const loneCharForms = new Map<number, string>();
// What a character with its marks (and invisible characters among them)
// becomes, by its text, for segments of up to MARKED_FORM_LENGTH units, per
// setting of `removeInvisible` and `foldLookalikes`; at most
// MARKED_FORMS_SIZE entries each.
const MARKED_FORM_LENGTH = 16;
const MARKED_FORMS_SIZE = 4096;
const markedFormsByOptions = [0, 1, 2, 3].map(() => new Map<string, string>());

function isPlainAscii(code: number): boolean {
  return (code >= 0x20 && code <= 0x7e) || code === 0x0a || code === 0x09 || code === 0x0d;
}

/** Kinds of `besideKindOf`: none of the others. */
export const BESIDE_OTHER = 0;
/** A blank (`\s`). */
export const BESIDE_BLANK = 1;
/** A letter (`\p{L}`). */
export const BESIDE_LETTER = 2;
/** A decimal digit (`\p{Nd}`). */
export const BESIDE_DIGIT = 3;

/**
 * What `invisibleBreaks` asks of a code point beside a run of invisible
 * ones (read from a string: 0..0x10FFFF), from the per-code-point facts:
 * each fact tested once per code point, not by a regex over a fresh string
 * per question (round 32), and one lookup answers them all (round 33: the
 * joiners of 1 MB of ZWJ emoji asked six).
 */
export function besideKindOf(codePoint: number): number {
  const facts = factsOf(codePoint);
  if ((facts & BLANK) !== 0) return BESIDE_BLANK;
  if ((facts & LETTER) !== 0) return BESIDE_LETTER;
  return (facts & DIGIT) !== 0 ? BESIDE_DIGIT : BESIDE_OTHER;
}

/** `isInvisibleCodePoint` of a code point read from a string, from its facts (one lookup). */
export const isInvisibleCodePointCached = (codePoint: number) =>
  (factsOf(codePoint) & INVISIBLE) !== 0;
/** Neither invisible nor a combining mark: counted by a match's length bound. */
export const isCountedCodePoint = (codePoint: number) =>
  (factsOf(codePoint) & (INVISIBLE | MARK)) === 0;

function isCombiningMark(codePoint: number): boolean {
  return codePoint >= 0x300 && (factsOf(codePoint) & MARK) !== 0;
}

/**
 * True for a code point a detector may read through inside a value: an
 * invisible one (`isInvisibleCodePoint`), a combining mark, or a
 * private-use character (pii and secrets read through them too, in a
 * second reading: `private-use.ts`). A bound on
 * a match's length counts the other code points only (round 24: a card
 * with 3 zero-width characters between its digits was longer than twice
 * its longest form, the stream window's bound, and went out in part).
 */
export function isReadThrough(codePoint: number): boolean {
  return isInvisibleCodePoint(codePoint) || isCombiningMark(codePoint) || isPrivateUse(codePoint);
}

// The maps of a text that is its own normal form, shared by every call.
const sameOffset = (index: number) => index;
const sameSpan = (start: number, end: number) => ({ start, end });

function identity(original: string): NormalizedText {
  return {
    text: original,
    original,
    changed: false,
    toOriginal: sameOffset,
    toOriginalEnd: sameOffset,
    toOriginalSpan: sameSpan,
  };
}

/**
 * Normalises `text` for matching and keeps a map back to the original
 * offsets: NFKC (per character with its combining marks), invisible
 * characters removed, other scripts' decimal digits and Unicode dashes folded
 * to ASCII. Linear in the length of the text; plain ASCII costs one regex test,
 * and runs of it between other characters one regex search each.
 *
 * @example
 * const normalized = normalizeText('card ４１１１\u200B1111');
 * normalized.text; // 'card 41111111'
 * normalized.toOriginalSpan(5, 13); // { start: 5, end: 14 }
 */
export function normalizeText(
  text: string,
  options?: NormalizeTextOptions,
  points?: NormalizationPoints,
): NormalizedText {
  callerArgument(text, 'string', 'normalizeText', 'text');
  // A caller's points are checked, not trusted: the text is read for what needs work.
  if (points !== undefined) readPoints(points);
  return normalizeWith(text, options, undefined);
}

/**
 * `normalizeText` of a piece of a long text with the points
 * `normalizationPoints` found in all of it (`chunked-scan.ts`): the
 * characters to look at are read from them, not searched for. Trusted: for
 * the library's own points only.
 */
export function normalizePiece(piece: string, points: NormalizationPoints): NormalizedText {
  return normalizeWith(piece, undefined, points);
}

function normalizeWith(
  text: string,
  options: NormalizeTextOptions | undefined,
  points: NormalizationPoints | undefined,
): NormalizedText {
  const {
    nfkc = true,
    removeInvisible = true,
    foldLookalikes = true,
  } = options === undefined
    ? noOptions
    : validateOptionsOnce(options, {
        prefix: 'normalizeText',
        root: 'normalizeText.options',
        shape: normalizeOptionShape,
      });
  // With `points`, the characters to look at are known: the next one from
  // `from` on is read from them rather than searched for.
  let nextPoint = -1;
  const pointFrom = (from: number) => {
    const { positions, offset } = points!;
    if (nextPoint < 0) {
      // The first point of this piece: binary search (a text has many pieces).
      let high = positions.length;
      nextPoint = 0;
      while (nextPoint < high) {
        const middle = (nextPoint + high) >> 1;
        if (positions[middle]! < offset) nextPoint = middle + 1;
        else high = middle;
      }
    }
    while (nextPoint < positions.length && positions[nextPoint]! - offset < from) nextPoint++;
    const end = text.length;
    return nextPoint < positions.length ? Math.min(positions[nextPoint]! - offset, end) : end;
  };
  if (points ? pointFrom(0) === text.length : !needsWork.test(text)) return identity(text);

  // The output is a rope grown by `+=`, written out once when first read
  // (`normalized === text` below, or a detector's first regex), rather than
  // an array of slices joined: on real text (a character to change every
  // 350 or so) that is the cheaper copy (the dev sets' first MB in pieces:
  // 2.5-4.2 -> 2.0-3.7 ms CPU, paired runs; 1.9% fewer instructions).
  let output = '';
  // A piece of a long text (`points` given) is read next by character
  // loops that want it flat (`flatString`): its parts are gathered and
  // joined once, a flat string marked as such, instead of a rope its reader
  // writes out and then copies (round 29: one copy of each piece, not two).
  const parts: string[] | undefined = points ? [] : undefined;
  // Short pieces (a replaced character, a copied run of a few) are gathered
  // as UTF-16 units and added to `output` 4,096 at a time: a text that
  // alternates copied and replaced characters (`a\u00A0a\u00A0…`) would
  // otherwise make a piece per character (1 MB of it: 350 -> 100 ms).
  // Round 30: into one typed array reused by every call (`normalizeText`
  // calls nothing that normalises while it fills it), not a fresh number array.
  let unitCount = 0;
  const flushUnits = () => {
    if (unitCount === 0) return;
    const gathered = String.fromCharCode.apply(
      null,
      unitCount === gatheredUnits.length ? gatheredUnits : gatheredUnits.slice(0, unitCount),
    );
    if (parts) parts.push(gathered);
    else output += gathered;
    unitCount = 0;
  };
  const emit = (source: string, from: number, to: number) => {
    if (to - from > SLICE_FROM) {
      flushUnits();
      const part = from === 0 && to === source.length ? source : source.slice(from, to);
      if (parts) parts.push(part);
      else output += part;
      return;
    }
    if (unitCount + (to - from) > gatheredUnits.length) flushUnits();
    let count = unitCount;
    for (let unit = from; unit < to; unit++) gatheredUnits[count++] = source.charCodeAt(unit);
    unitCount = count;
  };
  // The offset map, one entry per run rather than per character: run r is
  // the three numbers at 3r of `runs` (out, orig, origEnd), and maps output
  // [out(r), out(r + 1)) either one-to-one onto the original from orig(r)
  // (origEnd(r) === -1: a copied run), or in groups of k units copied from
  // every s of the original (origEnd(r) === -(s * 16 + k), 1 <= k < s,
  // k <= MAX_KEPT: the first k units of each s kept, the others removed
  // invisible characters), or, every unit of it, onto the original segment
  // [orig(r), origEnd(r)). Round 30: the strided runs keep
  // `a\u200Ba\u200B…` (a character, then one removed) at one run, where
  // it made one per character: 512 Ki runs for 1 MB, about 190 ms. Round 33:
  // copied units are whole code points, astral ones too, and a unit of a
  // copied run or group maps as its code point does (both halves of a
  // surrogate pair onto the pair, `unitStart`/`unitEnd`), so emoji, flags
  // and ZWJ sequences (`👩\u200D💻…`: groups of 2 of every 3) need no
  // entry each (1 MB of them made 350-512 Ki entries and paths through the
  // segment code below, 8-11x the time of 1 MB of real text). The runs are
  // written to a typed array reused by every call and copied out at the end:
  // three number arrays grown by push cost more than the rest of the loop
  // on text that changes every few characters (a ZWJ family and a space).
  let runs = runScratch;
  let runCount = 0;
  const addRun = (out: number, orig: number, origEnd: number) => {
    if (3 * runCount === runs.length) {
      const more = new Int32Array(2 * runs.length);
      more.set(runs);
      runs = more;
    }
    runs[3 * runCount] = out;
    runs[3 * runCount + 1] = orig;
    runs[3 * runCount + 2] = origEnd;
    runCount++;
  };
  let outLength = 0;
  let index = 0;
  const length = text.length;
  // Whether any piece differs from the original it stands for: when none
  // does, the text is its own normal form and is not copied (a fresh 1 MB
  // string is the largest single cost of normalising mostly-ASCII text).
  let differs = false;
  let removedInvisible = false;

  // A character that every enabled step leaves as it is, as a test of its
  // facts: `(facts & copyMask) === copyWant`.
  const copyMask =
    MARK |
    (nfkc ? NFKC_STABLE : 0) |
    (foldLookalikes ? NO_FOLD : 0) |
    (removeInvisible ? INVISIBLE : 0);
  const copyWant = (nfkc ? NFKC_STABLE : 0) | (foldLookalikes ? NO_FOLD : 0);
  // Segments with marks are made only with `nfkc`; their forms depend on the other two options.
  const markedForms = markedFormsByOptions[(removeInvisible ? 2 : 0) + (foldLookalikes ? 1 : 0)]!;
  // True when `size` units of output, each for one unit of the original
  // from offset `from` on, continue the last run, so they need no run of
  // their own: a text of full-width digits keeps one run, not one per
  // character; `size` units after a copied run of as many, or after a
  // strided run of groups of `size`, at its stride, make or extend a
  // strided run.
  const extendsRun = (from: number, size: number): boolean => {
    if (runCount === 0) return false;
    const last = 3 * (runCount - 1);
    const code = -runs[last + 2]!;
    if (code < 1) return false;
    const runLength = outLength - runs[last]!;
    const runStart = runs[last + 1]!;
    if (code === 1) {
      const next = runStart + runLength;
      if (next === from) return true;
      const stride = from - runStart;
      if (runLength !== size || size > MAX_KEPT || from < next || stride > MAX_STRIDE) return false;
      runs[last + 2] = -(stride * 16 + size);
      return true;
    }
    const kept = code & 15;
    return size === kept && runStart + (runLength / kept) * (code >>> 4) === from;
  };

  // The map entry of `size` output units standing for the original segment
  // `[start, end)`. One unit for one unit (a folded digit) maps like a copied character.
  const mapSegment = (start: number, end: number, size: number) => {
    const oneToOne = size === 1 && end - start === 1;
    if (!(oneToOne && extendsRun(start, 1))) {
      addRun(outLength, start, oneToOne ? -1 : end);
    }
    outLength += size;
  };

  while (index < length) {
    // Copy a run of characters no step changes: one output unit per input unit.
    // With `points`, an ASCII character skips at once to the next point (all
    // before it is plain ASCII): reading 16 in a row first, as the search
    // below does, cost each point 16 character reads (round 23: the chain on
    // the dev sets' first MB, where a piece is normalised by pii and again
    // by secrets, 410.6 -> 402.8 M warm instructions). Without them, past
    // 16 printable ASCII characters in a row, the rest of the ASCII run is
    // skipped by one native regex search (a loop over every character costs
    // several ms per MB); other characters are judged one by one.
    let runEnd = index;
    let asciiInRow = 0;
    while (runEnd < length) {
      const unit = text.charCodeAt(runEnd);
      if (unit < 0x80) {
        if (!isPlainAscii(unit)) break;
        runEnd += 1;
        if (points) {
          // Every character before the next point is plain ASCII: skipped at once.
          runEnd = pointFrom(runEnd);
          continue;
        }
        if (++asciiInRow === 16) {
          needsWorkFrom.lastIndex = runEnd;
          runEnd = needsWorkFrom.test(text) ? needsWorkFrom.lastIndex - 1 : length;
          asciiInRow = 0;
        }
        continue;
      }
      asciiInRow = 0;
      if (unit >= 0xd800 && unit <= 0xdfff) {
        // A surrogate pair is copied whole (an emoji), a lone half as a BMP character.
        const codePoint = text.codePointAt(runEnd)!;
        if ((factsOf(codePoint) & copyMask) !== copyWant) break;
        runEnd += codePoint > 0xffff ? 2 : 1;
        continue;
      }
      if (((bmpFacts[unit] || factsOf(unit)) & copyMask) !== copyWant) break;
      runEnd += 1;
    }
    // The invisible characters right after the run, removed with it (the
    // joiners of `👩\u200D💻…`, round 33: not a turn of this loop each);
    // but a combining mark after them, or right after the run, belongs to
    // the run's last char (both halves of a pair) and its segment.
    let removedTo = runEnd;
    if (runEnd > index && runEnd < length) {
      if (removeInvisible) removedTo = invisibleRunEnd(text, runEnd);
      if (nfkc && removedTo < length && isCombiningMark(text.codePointAt(removedTo)!)) {
        runEnd -= runEnd - 2 >= index && pairAt(text, runEnd - 2) ? 2 : 1;
        removedTo = runEnd;
      }
    }
    if (runEnd > index) {
      emit(text, index, runEnd);
      if (!extendsRun(index, runEnd - index)) {
        addRun(outLength, index, -1);
      }
      outLength += runEnd - index;
      index = runEnd;
      if (removedTo > index) {
        differs = true;
        removedInvisible = true;
        index = removedTo;
        continue;
      }
      if (index >= length) break;
    }
    const segmentStart = index;
    const first = text.codePointAt(index)!;
    const unitLength = first > 0xffff ? 2 : 1;
    const firstFacts = factsOf(first);
    if (removeInvisible && (firstFacts & INVISIBLE) !== 0) {
      differs = true;
      removedInvisible = true;
      index += unitLength;
      continue;
    }
    let segmentEnd = index + unitLength;
    // Invisible characters among the marks (`5\uFE0F\u20E3`, a keycap) are
    // taken into the segment and dropped from it, so the marks after them
    // stay with their base character.
    let invisibleInside = false;
    if (nfkc) {
      // Keep the base character with its combining marks so NFKC can compose them.
      let markEnd = segmentEnd;
      while (markEnd < length) {
        const mark = text.codePointAt(markEnd)!;
        const size = mark > 0xffff ? 2 : 1;
        const markFacts = factsOf(mark);
        if (removeInvisible && (markFacts & INVISIBLE) !== 0) {
          markEnd += size;
          continue;
        }
        if (mark < 0x300 || (markFacts & MARK) === 0) break;
        markEnd += size;
        if (markEnd - size !== segmentEnd) invisibleInside = true;
        segmentEnd = markEnd;
      }
    }
    const lone = segmentEnd - segmentStart === unitLength;
    if (lone && (firstFacts & copyWant) === copyWant) {
      // A character no enabled step changes, alone (a combining mark with
      // no character before it): copied as it is, with the map entry a
      // segment gets, and no lookup of its form.
      emit(text, segmentStart, segmentEnd);
      mapSegment(segmentStart, segmentEnd, unitLength);
      index = segmentEnd;
      continue;
    }
    const cacheKey = first * 4 + (nfkc ? 2 : 0) + (foldLookalikes ? 1 : 0);
    let segment = lone ? loneCharForms.get(cacheKey) : undefined;
    // A short character with marks (a keycap `4\uFE0F\u20E3`) is looked up
    // by its text: 1 MB of keycaps paid a normalize() call and a regex each.
    const segmentKey =
      !lone && segmentEnd - segmentStart <= MARKED_FORM_LENGTH
        ? text.slice(segmentStart, segmentEnd)
        : undefined;
    if (segmentKey !== undefined) segment = markedForms.get(segmentKey);
    if (segment === undefined) {
      segment = segmentKey ?? text.slice(segmentStart, segmentEnd);
      if (invisibleInside) segment = withoutInvisible(segment);
      if (foldLookalikes && lone) segment = foldLookalike(first) ?? segment;
      if (nfkc) segment = segment.normalize('NFKC');
      if (foldLookalikes && segment.length === 1) {
        segment = foldLookalike(segment.charCodeAt(0)) ?? segment;
      } else if (foldLookalikes && !lone) segment = withoutDecoration(segment);
      if (lone && loneCharForms.size < LONE_CHAR_FORMS_SIZE) loneCharForms.set(cacheKey, segment);
      else if (segmentKey !== undefined && markedForms.size < MARKED_FORMS_SIZE) {
        markedForms.set(segmentKey, segment);
      }
    }
    if (
      !differs &&
      (segment.length !== segmentEnd - segmentStart || !text.startsWith(segment, segmentStart))
    ) {
      differs = true;
    }
    if (segment.length > 0) {
      emit(segment, 0, segment.length);
      mapSegment(segmentStart, segmentEnd, segment.length);
    }
    index = segmentEnd;
  }

  // The scratch array kept for the next call, unless it grew past 64 Ki runs.
  if (runs.length <= 3 * 65_536) runScratch = runs;
  if (!differs) return identity(text);
  flushUnits();
  // A join of one part is that part (perhaps a slice): not marked flat.
  const normalized = parts
    ? parts.length > 1
      ? markFlat(parts.join(''))
      : (parts[0] ?? '')
    : output;
  if (normalized === text) return identity(text);
  const originalLength = text.length;
  const map = runs.slice(0, 3 * runCount);
  /** The run holding output unit `unit` (0 <= unit < outLength), times 3: binary search. */
  const runOf = (unit: number) => {
    let low = 0;
    let high = runCount - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (map[3 * middle]! <= unit) low = middle;
      else high = middle - 1;
    }
    return 3 * low;
  };
  /** The original unit a unit of copied run `run` (times 3) is a copy of. */
  const copiedFrom = (run: number, unit: number) => {
    const code = -map[run + 2]!;
    const offset = unit - map[run]!;
    if (code === 1) return map[run + 1]! + offset;
    const kept = code & 15;
    return map[run + 1]! + Math.floor(offset / kept) * (code >>> 4) + (offset % kept);
  };
  const startOf = (unit: number) => {
    const run = runOf(unit);
    return map[run + 2]! < 0 ? unitStart(text, copiedFrom(run, unit)) : map[run + 1]!;
  };
  const endOf = (unit: number) => {
    const run = runOf(unit);
    const end = map[run + 2]!;
    return end < 0 ? unitEnd(text, copiedFrom(run, unit)) : end;
  };
  const firstStart = runCount > 0 ? map[1]! : 0;
  const toOriginal = (position: number) =>
    position >= outLength ? originalLength : position <= 0 ? firstStart : startOf(position);
  const toOriginalEnd = (position: number) =>
    position <= 0 ? firstStart : position > outLength ? originalLength : endOf(position - 1);
  const result: NormalizedText = {
    text: normalized,
    original: text,
    changed: true,
    toOriginal,
    toOriginalEnd,
    toOriginalSpan: (start, end) => ({ start: toOriginal(start), end: toOriginalEnd(end) }),
  };
  // Set apart, not spread into the literal: a plain literal is what most calls build.
  if (removedInvisible) result.removedInvisible = true;
  return result;
}
