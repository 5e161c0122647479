/**
 * The characters that render as nothing: every default-ignorable code point
 * and the control characters that are not white space. One list for both
 * readers of it, `isInvisibleCodePoint` (the shared normaliser that folds
 * text before the detectors) and `invisibleText` (which reports them), so a
 * character the guardrail reports is never one the detectors read past.
 */

/** Controls but tab and line breaks (C0), DEL, C1 but NEL: `[first, last]` ranges. */
export const INVISIBLE_CONTROL_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x0008],
  [0x000e, 0x001f],
  [0x007f, 0x0084],
  [0x0086, 0x009f],
];

/**
 * Default-ignorable code points: soft hyphen, combining grapheme joiner,
 * Arabic letter mark, Hangul and Khmer fillers, Mongolian selectors and
 * vowel separator, zero-width characters and bidi marks, bidi embeddings and
 * overrides, word joiner, invisible operators and isolates, BMP variation
 * selectors, BOM, reserved U+FFF0–FFF8, shorthand format controls, musical
 * invisible formatting, and the whole plane-14 block of tags and selectors.
 * Also the interlinear annotation controls U+FFF9–FFFB, which are format
 * characters but not default-ignorable: renderers draw nothing for them, so
 * `k\uFFF9ill yourself` read as `kill yourself` to a person and a model
 * while no detector matched it (round 22). And the Egyptian hieroglyph
 * format controls U+13430–1343F (joiners, inserts, segments, enclosures):
 * they only arrange the signs around them, so between other letters a
 * renderer draws nothing (round 38: `k\u{13430}ill yourself` passed
 * contentFilter, and invisibleText left it in); `invisibleText` keeps them
 * where they join signs. The Khitan small script filler U+16FE4 (a
 * non-spacing mark with no ink, which fills a block's empty place) is
 * read as nothing too: after a Cyrillic `і`, `кі\u{16FE4}ll yourself`
 * passed (after ASCII, the normaliser already dropped it as a mark).
 * The other format characters (Cf) not listed here
 * are drawn: Arabic number signs and end of ayah (U+0600–0605, U+06DD,
 * U+0890–0891, U+08E2), the Syriac abbreviation mark (U+070F), the Kaithi
 * number signs (U+110BD, U+110CD); invisible-code-points.test.ts checks the
 * list against this Node's `\p{Cf}` and `\p{Default_Ignorable_Code_Point}`.
 */
export const INVISIBLE_FORMAT_RANGES: readonly (readonly [number, number])[] = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfffb],
  [0x13430, 0x1343f],
  [0x16fe4, 0x16fe4],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];

/**
 * The BMP part of both lists, one bit per code point (8 KB), made on first
 * use: the normaliser asks at every character outside printable ASCII it
 * reads, two or three times, and a walk over the ranges cost a few hundred
 * instructions a question (round 23).
 */
let bmpBits: Uint8Array | undefined;

function bmpTable(): Uint8Array {
  const bits = new Uint8Array(0x2000);
  for (const [first, last] of [...INVISIBLE_CONTROL_RANGES, ...INVISIBLE_FORMAT_RANGES]) {
    for (let code = first; code <= Math.min(last, 0xffff); code++) {
      bits[code >> 3] = bits[code >> 3]! | (1 << (code & 7));
    }
  }
  return bits;
}

/**
 * The astral part of both lists (five ranges), `[first, last]` pairs in
 * order, as plain numbers: an emoji asked about two or three times while a
 * text is normalised walked all 21 ranges as destructured pairs (round 32:
 * 1 MB of ZWJ emoji spent a third of `normalizeText` here).
 */
const astralRanges = Int32Array.from(
  [...INVISIBLE_CONTROL_RANGES, ...INVISIBLE_FORMAT_RANGES]
    .filter(([, last]) => last > 0xffff)
    .sort(([first], [other]) => first - other)
    .flatMap(([first, last]) => [Math.max(first, 0x10000), last]),
);

/** True when `codePoint` is in one of `INVISIBLE_CONTROL_RANGES` or `INVISIBLE_FORMAT_RANGES`. */
export function isDefaultIgnorableOrControl(codePoint: number): boolean {
  if (codePoint <= 0xffff) {
    if (codePoint < 0) return false;
    bmpBits ??= bmpTable();
    return (bmpBits[codePoint >> 3]! & (1 << (codePoint & 7))) !== 0;
  }
  for (let index = 0; index < astralRanges.length; index += 2) {
    if (codePoint < astralRanges[index]!) return false;
    if (codePoint <= astralRanges[index + 1]!) return true;
  }
  return false;
}

const escapeCodePoint = (codePoint: number) => `\\u{${codePoint.toString(16).toUpperCase()}}`;

/** A RegExp character class (for the `u` flag) of `ranges`. */
export function rangesClassSource(ranges: readonly (readonly [number, number])[]): string {
  let source = '';
  for (const [first, last] of ranges) {
    source +=
      first === last
        ? escapeCodePoint(first)
        : `${escapeCodePoint(first)}-${escapeCodePoint(last)}`;
  }
  return `[${source}]`;
}

/** The code point that ends just before `index`, if any (a surrogate pair read whole). */
export function codePointBefore(text: string, index: number): number | undefined {
  if (index === 0) return undefined;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(index - 2);
  }
  return low;
}
