import { GatheredText } from './gathered-text';
import { codePointBefore } from './invisible-code-points';
import {
  BESIDE_BLANK,
  BESIDE_DIGIT,
  BESIDE_LETTER,
  BESIDE_OTHER,
  besideKindOf,
  isCountedCodePoint,
  isInvisibleCodePointCached,
  type NormalizationPoints,
  type NormalizedText,
} from './normalize-text';
import { privateUseReadThrough } from './private-use';
import { lowerBound } from './sorted-search';
import type { DetectedSpan } from './spans';

/**
 * A code point beside a run of invisible characters as a blank (`\s`, or
 * no character: a value beside it is not glued to anything), a letter of
 * any script (`\p{L}`), a decimal digit of any script (`\p{Nd}`; the
 * normaliser folds them to ASCII) or another character.
 */
function besideKind(codePoint: number | undefined): number {
  if (codePoint === undefined) return BESIDE_BLANK;
  if (codePoint < 0x80) {
    if (codePoint === 32 || (codePoint >= 9 && codePoint <= 13)) return BESIDE_BLANK;
    if ((codePoint >= 65 && codePoint <= 90) || (codePoint >= 97 && codePoint <= 122)) {
      return BESIDE_LETTER;
    }
    return codePoint >= 48 && codePoint <= 57 ? BESIDE_DIGIT : BESIDE_OTHER;
  }
  return besideKindOf(codePoint);
}

/**
 * The characters that may be invisible (`isInvisibleCodePoint` is true of
 * none outside it): a native search skips the printable ASCII between them,
 * where a loop over every character cost about 3 ms per MB (round 25: the
 * bench's megabyte holds zero-width characters beside blanks, so it was
 * walked whole, `findPii` 8.0 -> 11.4 ms, and breaks nothing).
 */
const maybeInvisible = /[^\t\n\r\x20-\x7e]/g;

/** A text to read with its breaks as blanks (`brokenText`), and where they are. */
export interface BrokenReading {
  /** The text read (the original, or the one with private-use characters read through). */
  source: string;
  /** How many breaks there are. */
  count: number;
  /**
   * Each break's `[start, end)` in the text, flat (`start0, end0, start1, …`),
   * in order; the first `2 * count` entries (the array may be longer).
   */
  breaks: Int32Array;
  /**
   * Each break's kind (the first `count` entries): 0 beside a letter (round
   * 24), 1 beside a digit and no letter, 2 between two digits (round 25).
   */
  kinds: Uint8Array;
  /** Whether a break is of kind 1 or 2. */
  beyondLetters: boolean;
}

/**
 * Where `text`'s runs of invisible characters (`isInvisibleCodePoint`:
 * zero-width and format characters, controls, code points that stand for
 * no character) between two characters that are no blanks, a letter or a
 * digit one of them, break it (`brokenText` writes them as blanks, one
 * per UTF-16 unit: same length, same offsets; between two digits as line
 * breaks, which no finder reads a number across), or undefined when there
 * is none. Round 24: the
 * normaliser reads through such characters, so one between a word and a
 * value glued the value to the word, and a value glued to letters is none:
 * `cc\u200B4111 1111 1111 1111`, `ssn\uFFFD536-22-1234` passed. Round 25:
 * between two digits too (`12\u200B4111 1111 1111 1111` read as one run
 * of 18 digits, no card; with a space there the card finder reads the run
 * from `12`, and a line break ends it); a value with such a character inside
 * (`4111\u200B1111…`) is still found whole by the first reading, and this
 * one only adds what lies apart from that reading's values. Called only
 * for a text the normaliser removed such a character from.
 */
export function invisibleBreaks(
  text: string,
  points?: NormalizationPoints,
): BrokenReading | undefined {
  // Round 30: one walk over the code units, where a run of 16 plain ASCII
  // ones hands over to a native search; the breaks go into typed arrays
  // that double as they fill. Before, each break cost a regex search
  // restarted after it and pushes onto number arrays: 1 MB of `a\u200B`
  // (512 Ki breaks) took about 200 ms here.
  let breaks: Int32Array | undefined;
  let kinds: Uint8Array | undefined;
  let count = 0;
  let beyondLetters = false;
  const length = text.length;
  let at = 0;
  let plainInRow = 0;
  // With the normaliser's points (`text` a piece of a longer text), the
  // next unit outside plain ASCII is the next point (round 33).
  const positions = points?.positions;
  const offset = points?.offset ?? 0;
  let point = points ? firstPointOfPiece(points) : 0;
  while (at < length) {
    const unit = text.charCodeAt(at);
    if ((unit >= 0x20 && unit <= 0x7e) || unit === 9 || unit === 10 || unit === 13) {
      if (positions !== undefined) {
        while (point < positions.length && positions[point]! - offset <= at) point++;
        at = point < positions.length ? Math.min(positions[point]! - offset, length) : length;
        continue;
      }
      at++;
      if (++plainInRow === 16) {
        plainInRow = 0;
        maybeInvisible.lastIndex = at;
        at = maybeInvisible.test(text) ? maybeInvisible.lastIndex - 1 : length;
      }
      continue;
    }
    plainInRow = 0;
    const codePoint = unit >= 0xd800 && unit <= 0xdbff ? text.codePointAt(at)! : unit;
    if (!isInvisibleCodePointCached(codePoint)) {
      // A visible character outside printable ASCII (CJK, accents): stepped over.
      at += codePoint > 0xffff ? 2 : 1;
      continue;
    }
    // The run of invisible characters this one starts, and what is on each side of it.
    const start = at;
    let runEnd = at + (codePoint > 0xffff ? 2 : 1);
    while (runEnd < length) {
      const next = text.codePointAt(runEnd)!;
      if (!isInvisibleCodePointCached(next)) break;
      runEnd += next > 0xffff ? 2 : 1;
    }
    at = runEnd;
    // Between two characters that are no blanks, a letter or digit one of them: else nothing is glued.
    const before = besideKind(codePointBefore(text, start));
    const after = besideKind(text.codePointAt(runEnd));
    if (before === BESIDE_BLANK || after === BESIDE_BLANK) continue;
    const letterBeside = before === BESIDE_LETTER || after === BESIDE_LETTER;
    const digitBefore = before === BESIDE_DIGIT;
    const digitAfter = after === BESIDE_DIGIT;
    if (!letterBeside && !digitBefore && !digitAfter) continue;
    const kind = letterBeside ? 0 : digitBefore && digitAfter ? 2 : 1;
    if (breaks === undefined || kinds === undefined) {
      breaks = new Int32Array(32);
      kinds = new Uint8Array(16);
    } else if (2 * count === breaks.length) {
      const moreBreaks = new Int32Array(2 * breaks.length);
      moreBreaks.set(breaks);
      breaks = moreBreaks;
      const moreKinds = new Uint8Array(2 * kinds.length);
      moreKinds.set(kinds);
      kinds = moreKinds;
    }
    breaks[2 * count] = start;
    breaks[2 * count + 1] = runEnd;
    kinds[count] = kind;
    count++;
    beyondLetters ||= kind !== 0;
  }
  maybeInvisible.lastIndex = 0;
  return breaks === undefined || kinds === undefined
    ? undefined
    : { source: text, count, breaks, kinds, beyondLetters };
}

/**
 * `reading.source[from, to)` with the breaks in it written as spaces (one
 * per unit), as one flat string: with `all`, every break, those between
 * two digits as line breaks; else only those beside a letter (round 24's
 * reading), the others read through as the first reading does
 * (`cc\u200B4111\u200B1111…` is a card after a word). `firstBreak`: the index (of a pair) of the
 * first break ending after `from`. Round 30: built by `GatheredText`, not
 * a slice and a run of blanks per break joined (about 290 ms on 1 MB of
 * `a\u200B`, 512 Ki breaks).
 */
export function brokenText(
  reading: BrokenReading,
  all: boolean,
  from = 0,
  to = reading.source.length,
  firstBreak = 0,
): string {
  const { source, breaks, kinds, count } = reading;
  const built = new GatheredText();
  let cursor = from;
  for (let index = firstBreak; index < count && breaks[2 * index]! < to; index++) {
    const kind = kinds[index]!;
    if (!all && kind !== 0) continue;
    const start = Math.max(from, breaks[2 * index]!);
    const end = Math.min(to, breaks[2 * index + 1]!);
    built.copy(source, cursor, start);
    built.fill(kind === 2 ? 10 : 32, end - start);
    cursor = end;
  }
  built.copy(source, cursor, to);
  return built.finish();
}

/** True when `source[at]` counts towards a window's reach: not invisible, not a combining mark. */
function countsAt(source: string, at: number): boolean {
  const unit = source.charCodeAt(at);
  if (unit < 0x7f) return unit >= 0x20 || unit === 9 || unit === 10 || unit === 13;
  if (unit >= 0xdc00 && unit <= 0xdfff) return false; // the second half of a pair counts with its first
  return isCountedCodePoint(source.codePointAt(at)!);
}

/**
 * The spans `read` finds in the broken reading (`brokenText` with `all`), read only
 * in windows around its breaks: what the reading finds apart from the
 * first reading's values lies within `reach` (the longest match and the
 * context a finder reads) of a break, so the text farther away is the
 * first reading again. Each window holds `reach` counted characters
 * (neither invisible nor marks) on each side of its breaks, kept, and
 * `2 * reach` more on each side for context, whose spans are dropped
 * (`read` saw them cut); breaks closer than twice that share a window.
 * `read` gets the window's text and returns spans in it, in order; the
 * spans come back in text order, offsets in the source. Linear: a
 * character is walked at most three times and read in at most one window.
 */
export function spansAroundBreaks<T extends DetectedSpan>(
  reading: BrokenReading,
  all: boolean,
  reach: number,
  read: (text: string) => T[],
): T[] {
  const { source, breaks } = reading;
  const length = source.length;
  const margin = 2 * reach;
  const found: T[] = [];
  let index = 0;
  const count = reading.count;
  while (index < count) {
    const first = index;
    // Back from the first break: `reach` counted characters kept, `margin` more read.
    let at = breaks[2 * first]!;
    let counted = 0;
    let keepFrom = -1;
    while (at > 0 && counted < reach + margin) {
      at--;
      if (countsAt(source, at)) {
        counted++;
        if (counted === reach) keepFrom = at;
      }
    }
    const from = at;
    if (keepFrom < 0 || from === 0) keepFrom = 0;
    // Forward from the last break: a break met within twice the window's
    // reach joins it and the count starts again after it.
    let last = first;
    at = breaks[2 * last + 1]!;
    counted = 0;
    let keepTo = -1;
    let to = -1;
    while (at < length && counted < 2 * (reach + margin)) {
      if (last + 1 < count && at === breaks[2 * (last + 1)]) {
        last++;
        at = breaks[2 * last + 1]!;
        counted = 0;
        keepTo = -1;
        to = -1;
        continue;
      }
      const size = source.codePointAt(at)! > 0xffff ? 2 : 1;
      if (countsAt(source, at)) {
        counted++;
        if (counted === reach) keepTo = at + size;
        if (counted === reach + margin) to = at + size;
      }
      at += size;
    }
    if (to < 0 || to >= length) {
      to = length;
      keepTo = length;
    } else if (keepTo < 0) {
      keepTo = to;
    }
    const spans = read(brokenText(reading, all, from, to, first));
    for (const span of spans) {
      const start = span.start + from;
      const end = span.end + from;
      if (end <= keepFrom || start >= keepTo) continue;
      found.push({ ...span, start, end });
    }
    index = last + 1;
  }
  return found;
}

/** The index of the first of `points`' positions in their piece (at or after its offset): a binary search. */
export function firstPointOfPiece({ positions, offset }: NormalizationPoints): number {
  return lowerBound(positions, offset);
}

/**
 * False when `points` (the normaliser's, for `text` as a piece of a longer
 * text) show that `text` holds no private-use character: such a character
 * is outside printable ASCII, so it is at one of the points, and only they
 * are read. True when there are no points to read (then a search decides).
 */
function mayHoldPrivateUse(text: string, points: NormalizationPoints | undefined): boolean {
  if (points === undefined) return true;
  const { positions, offset } = points;
  let index = firstPointOfPiece(points);
  const end = offset + text.length;
  for (; index < positions.length && positions[index]! < end; index++) {
    const unit = text.charCodeAt(positions[index]! - offset);
    if ((unit >= 0xe000 && unit <= 0xf8ff) || (unit >= 0xdb80 && unit <= 0xdbff)) return true;
  }
  return false;
}

/**
 * The texts `findPii` and `findSecrets` read besides `normalized`, same
 * offsets: `readThrough`, with its private-use characters as zero-width
 * spaces (when it holds one); `broken`, with the invisible characters
 * beside letters (of it, or of the text read through) as blanks (when the
 * normaliser removed one and one is beside a letter). `points`: those
 * `normalized` was made with (a piece of a longer text): the private-use
 * characters are looked for at them only, not by a search of the whole
 * piece (round 26: that search, in `pii` and again in `secrets`, was 4% of
 * the chain's CPU profile on the dev sets' first MB).
 */
export function otherReadings(
  normalized: NormalizedText,
  points?: NormalizationPoints,
): {
  readThrough: string | undefined;
  broken: BrokenReading | undefined;
} {
  const readThrough = mayHoldPrivateUse(normalized.original, points)
    ? privateUseReadThrough(normalized.original)
    : undefined;
  const broken =
    readThrough !== undefined
      ? invisibleBreaks(readThrough)
      : normalized.removedInvisible
        ? invisibleBreaks(normalized.original, points)
        : undefined;
  return { readThrough, broken };
}
