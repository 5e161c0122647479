/**
 * Text normalisation for detectors, with a map back to the original offsets.
 *
 * Detectors match on a canonical form of the text (NFKC, invisible characters
 * removed, look-alike digits and dashes folded) so that `4111\u200B1111...` or
 * full-width `４１１１...` cannot slip through, while the spans they report
 * (and the characters a redaction replaces) are those of the original text.
 */

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
}

/** Options of `normalizeText`. */
export interface NormalizeTextOptions {
  /** Apply NFKC (full-width forms, ligatures, compatibility digits). Default true. */
  nfkc?: boolean;
  /** Remove invisible characters (see `isInvisibleCodePoint`). Default true. */
  removeInvisible?: boolean;
  /** Fold decimal digits of other scripts and Unicode dashes to ASCII. Default true. */
  foldLookalikes?: boolean;
}

/**
 * True for characters that render as nothing (or only change direction) and
 * so can hide inside or between visible characters: zero-width spaces and
 * joiners, word joiner and invisible operators, BOM, soft hyphen, Mongolian
 * vowel separator, bidirectional controls, variation selectors, and Unicode
 * tag characters (U+E0000–E007F, used for "ASCII smuggling").
 */
export function isInvisibleCodePoint(codePoint: number): boolean {
  return (
    codePoint === 0x00ad || // soft hyphen
    codePoint === 0x034f || // combining grapheme joiner
    codePoint === 0x061c || // Arabic letter mark
    codePoint === 0x115f ||
    codePoint === 0x1160 || // Hangul fillers
    codePoint === 0x17b4 ||
    codePoint === 0x17b5 ||
    codePoint === 0x180e || // Mongolian vowel separator
    (codePoint >= 0x180b && codePoint <= 0x180f) ||
    (codePoint >= 0x200b && codePoint <= 0x200f) || // ZWSP, ZWNJ, ZWJ, LRM, RLM
    (codePoint >= 0x202a && codePoint <= 0x202e) || // bidi embeddings and overrides
    (codePoint >= 0x2060 && codePoint <= 0x206f) || // word joiner, invisible operators, isolates
    codePoint === 0x3164 || // Hangul filler
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) || // variation selectors
    codePoint === 0xfeff || // BOM / zero-width no-break space
    codePoint === 0xffa0 ||
    (codePoint >= 0xfff0 && codePoint <= 0xfff8) ||
    (codePoint >= 0x1d173 && codePoint <= 0x1d17a) || // musical invisible formatting
    (codePoint >= 0xe0000 && codePoint <= 0xe007f) || // tags
    (codePoint >= 0xe0100 && codePoint <= 0xe01ef) // variation selectors supplement
  );
}

/** First code point of each run of ten decimal digits that NFKC leaves alone. */
const digitZeros = [
  0x0660, 0x06f0, 0x07c0, 0x0966, 0x09e6, 0x0a66, 0x0ae6, 0x0b66, 0x0be6, 0x0c66, 0x0ce6, 0x0d66,
  0x0de6, 0x0e50, 0x0ed0, 0x0f20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90,
  0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0,
];

function foldLookalike(codePoint: number): string | undefined {
  // Hyphens, dashes and the minus sign read as '-' inside numbers.
  if ((codePoint >= 0x2010 && codePoint <= 0x2015) || codePoint === 0x2212 || codePoint === 0xfe63)
    return '-';
  for (const zero of digitZeros) {
    if (codePoint >= zero && codePoint < zero + 10)
      return String.fromCharCode(48 + codePoint - zero);
  }
  return undefined;
}

const combiningMark = /\p{M}/u;
// Anything outside printable ASCII (plus tab and newlines) may need work.
const needsWork = /[^\t\n\r\x20-\x7e]/;

function isPlainAscii(code: number): boolean {
  return (code >= 0x20 && code <= 0x7e) || code === 0x0a || code === 0x09 || code === 0x0d;
}

function identity(original: string): NormalizedText {
  return {
    text: original,
    original,
    changed: false,
    toOriginal: index => index,
    toOriginalEnd: index => index,
    toOriginalSpan: (start, end) => ({ start, end }),
  };
}

/**
 * Normalises `text` for matching and keeps a map back to the original
 * offsets: NFKC (per character with its combining marks), invisible
 * characters removed, other scripts' decimal digits and Unicode dashes folded
 * to ASCII. Linear in the length of the text; plain ASCII costs one regex test.
 *
 * @example
 * const normalized = normalizeText('card ４１１１\u200B1111');
 * normalized.text; // 'card 41111111'
 * normalized.toOriginalSpan(5, 13); // { start: 5, end: 14 }
 */
export function normalizeText(
  text: string,
  { nfkc = true, removeInvisible = true, foldLookalikes = true }: NormalizeTextOptions = {},
): NormalizedText {
  if (!needsWork.test(text)) return identity(text);

  const pieces: string[] = [];
  // The offset map, one entry per run rather than per character: a run maps
  // output [runOut[r], runOut[r + 1]) either one-to-one onto the original from
  // runOrig[r] (runOrigEnd[r] === -1: a copied ASCII run) or, every unit of
  // it, onto the original segment [runOrig[r], runOrigEnd[r]).
  const runOut: number[] = [];
  const runOrig: number[] = [];
  const runOrigEnd: number[] = [];
  let outLength = 0;
  let index = 0;
  const length = text.length;

  while (index < length) {
    const codePoint = text.codePointAt(index)!;
    const unitLength = codePoint > 0xffff ? 2 : 1;
    // Fast path for plain ASCII: one output unit per input unit.
    if (isPlainAscii(codePoint)) {
      let runEnd = index + 1;
      while (runEnd < length && isPlainAscii(text.charCodeAt(runEnd))) runEnd++;
      // A combining mark after the run's last char belongs to that char's segment.
      const next = runEnd < length ? text.codePointAt(runEnd)! : -1;
      const takeLast = next >= 0 && nfkc && combiningMark.test(String.fromCodePoint(next));
      const plainEnd = takeLast ? runEnd - 1 : runEnd;
      if (plainEnd > index) {
        pieces.push(text.slice(index, plainEnd));
        runOut.push(outLength);
        runOrig.push(index);
        runOrigEnd.push(-1);
        outLength += plainEnd - index;
      }
      index = plainEnd;
      if (!takeLast) continue;
    }
    const segmentStart = index;
    const first = text.codePointAt(index)!;
    if (removeInvisible && isInvisibleCodePoint(first)) {
      index += first > 0xffff ? 2 : 1;
      continue;
    }
    let segmentEnd = index + (first > 0xffff ? 2 : 1);
    if (nfkc) {
      // Keep the base character with its combining marks so NFKC can compose them.
      while (segmentEnd < length) {
        const mark = text.codePointAt(segmentEnd)!;
        if (removeInvisible && isInvisibleCodePoint(mark)) break;
        if (!combiningMark.test(String.fromCodePoint(mark))) break;
        segmentEnd += mark > 0xffff ? 2 : 1;
      }
    }
    let segment = text.slice(segmentStart, segmentEnd);
    if (foldLookalikes && segmentEnd - segmentStart === unitLength) {
      segment = foldLookalike(first) ?? segment;
    }
    if (nfkc) segment = segment.normalize('NFKC');
    if (foldLookalikes && segment.length === 1) {
      segment = foldLookalike(segment.charCodeAt(0)) ?? segment;
    }
    if (segment.length > 0) {
      pieces.push(segment);
      runOut.push(outLength);
      runOrig.push(segmentStart);
      runOrigEnd.push(segmentEnd);
      outLength += segment.length;
    }
    index = segmentEnd;
  }

  const normalized = pieces.join('');
  if (normalized === text) return identity(text);
  const originalLength = text.length;
  /** The run holding output unit `unit` (0 <= unit < outLength): binary search. */
  const runOf = (unit: number) => {
    let low = 0;
    let high = runOut.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (runOut[middle]! <= unit) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  const startOf = (unit: number) => {
    const run = runOf(unit);
    return runOrigEnd[run] === -1 ? runOrig[run]! + (unit - runOut[run]!) : runOrig[run]!;
  };
  const endOf = (unit: number) => {
    const run = runOf(unit);
    return runOrigEnd[run] === -1 ? runOrig[run]! + (unit - runOut[run]!) + 1 : runOrigEnd[run]!;
  };
  const firstStart = runOrig[0] ?? 0;
  const toOriginal = (position: number) =>
    position >= outLength ? originalLength : position <= 0 ? firstStart : startOf(position);
  const toOriginalEnd = (position: number) =>
    position <= 0 ? firstStart : position > outLength ? originalLength : endOf(position - 1);
  return {
    text: normalized,
    original: text,
    changed: true,
    toOriginal,
    toOriginalEnd,
    toOriginalSpan: (start, end) => ({ start: toOriginal(start), end: toOriginalEnd(end) }),
  };
}
