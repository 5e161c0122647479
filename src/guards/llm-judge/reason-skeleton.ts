import { homoglyphs, latinLookAlikes, smallCapitals } from '../prompt-injection/fold-text';

/**
 * The letters and digits of a text as `llmJudge`'s reason masking compares
 * them (round 27): escapes decoded (JSON `\u0040` / `\u{40}`, `\x40`, URL
 * `%40`, HTML `&#64;` / `&#x40;`), compatibility forms folded (fullwidth
 * digits, ligatures), marks dropped, lower case, and everything else (blanks,
 * line breaks, dashes, punctuation) left out. A judge that writes a value
 * otherwise than the judged text did (a card's digits without their
 * spaces or over two lines, an address with its `@` escaped) writes the
 * same skeleton.
 */

const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;

/**
 * Letters drawn like a Latin one, as the Latin letter (round 28): Cyrillic,
 * Greek, Armenian and Cherokee look-alikes, Latin ones (`ɑ`, `ı`) and small
 * capitals, as `foldText` reads them. A judge that wrote `һunter2` with a
 * Cyrillic `һ`, or `ʜᴜɴᴛᴇʀ2`, quoted the text's `hunter2` unmasked.
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  ...homoglyphs,
  ...latinLookAlikes,
  ...smallCapitals,
};

/**
 * Folds one character: compatibility forms and marks out, lower case, final
 * sigma as sigma, a look-alike as the Latin letter it is drawn like.
 */
function folded(char: string): string {
  const fold = char
    .normalize('NFKD')
    .toLowerCase()
    .replace(NOT_LETTER_OR_DIGIT, '')
    .replaceAll('ς', 'σ');
  let latin = '';
  for (const unit of fold) latin += LOOK_ALIKES[unit] ?? unit;
  return latin === fold ? fold : latin.normalize('NFKD').replace(NOT_LETTER_OR_DIGIT, '');
}

/** ASCII letters and digits as a skeleton holds them (lower case); 0 for other ASCII. */
const ASCII_SKELETON = new Uint16Array(128);
for (let code = 0x30; code <= 0x39; code++) ASCII_SKELETON[code] = code;
for (let code = 0x61; code <= 0x7a; code++) ASCII_SKELETON[code] = code;
for (let code = 0x41; code <= 0x5a; code++) ASCII_SKELETON[code] = code + 0x20;

/** Folded code points past ASCII seen lately (a text of many kinds pays `normalize` once a kind). */
const foldedPoints = new Map<number, string>();

/** What code point `point` stands for in a skeleton ('' for none). */
function foldedPoint(point: number): string {
  if (point < 0x80) {
    return ASCII_SKELETON[point] === 0 ? '' : String.fromCharCode(ASCII_SKELETON[point]!);
  }
  let fold = foldedPoints.get(point);
  if (fold === undefined) {
    fold = folded(String.fromCodePoint(point));
    if (foldedPoints.size >= 4_096) foldedPoints.clear();
    foldedPoints.set(point, fold);
  }
  return fold;
}

/** The value of the hex digit at `index` of `text`, or -1. */
function hexAt(text: string, index: number): number {
  const code = text.charCodeAt(index) | 0x20;
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  return -1;
}

/** The escape's code point and end, read by `escapeAt` (one result, reused). */
const lastRead = { point: 0, end: 0 };

/**
 * Whether an escape starts at `index` (`\u{…}`, `\uXXXX`, `\xXX`, `%XX`,
 * `&#x…;`, `&#…;`); its code point and end are left in `lastRead`. Read by
 * hand: a callback per match of a regular expression cost microseconds
 * each on a text made of escapes.
 */
function escapeAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  let at = index + 1;
  let point = 0;
  let digits = 0;
  let most: number;
  let base = 16;
  let close = -1;
  if (code === 0x5c) {
    const kind = text.charCodeAt(at++);
    if (kind === 0x75 && text.charCodeAt(at) === 0x7b) {
      at++;
      most = 6;
      close = 0x7d;
    } else if (kind === 0x75) most = 4;
    else if (kind === 0x78) most = 2;
    else return false;
  } else if (code === 0x25) most = 2;
  else if (code === 0x26 && text.charCodeAt(at) === 0x23) {
    at++;
    close = 0x3b;
    if ((text.charCodeAt(at) | 0x20) === 0x78) {
      at++;
      most = 6;
    } else {
      base = 10;
      most = 7;
    }
  } else return false;
  // The closed forms take any number of leading zeros (`&#x0000000032;`,
  // `\u{00000032}`), as HTML and JavaScript read them (round 28).
  const zerosFrom = at;
  if (close >= 0) while (text.charCodeAt(at) === 0x30) at++;
  const zeros = at - zerosFrom;
  for (; digits < most; digits++, at++) {
    const digit = hexAt(text, at);
    if (digit < 0 || digit >= base) break;
    point = point * base + digit;
  }
  // Fixed-width forms need every digit; the closed ones at least one and
  // `\u{…}` its brace. An HTML reference is read without its `;`, as a
  // browser shows `&#x75nter2` (round 28: it was left as written).
  if (close < 0) {
    if (digits !== most) return false;
  } else if (digits + zeros === 0) return false;
  else if (text.charCodeAt(at) === close) at++;
  else if (close === 0x7d) return false;
  if (point > 0x10ffff) return false;
  lastRead.point = point;
  lastRead.end = at;
  return true;
}

/** The code point at `index`, decoding an escape there; its end in `lastRead.end`. */
function pointAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  const escapes = code === 0x5c || code === 0x25 || code === 0x26;
  if (escapes && escapeAt(text, index)) return lastRead.point;
  const point = text.codePointAt(index)!;
  lastRead.end = index + (point > 0xffff ? 2 : 1);
  return point;
}

const utf16 = new TextDecoder('utf-16le');

/**
 * The skeleton of a judged text: one pass over its characters (ASCII by a
 * table, others folded once a kind, escapes decoded by hand), written into
 * a buffer decoded at once. Linear.
 */
export function skeletonOf(text: string): string {
  let buffer = new Uint16Array(text.length + 16);
  let size = 0;
  for (let index = 0; index < text.length; ) {
    const code = text.charCodeAt(index);
    if (code < 0x80 && code !== 0x5c && code !== 0x25 && code !== 0x26) {
      const kept = ASCII_SKELETON[code]!;
      if (kept !== 0) buffer[size++] = kept;
      index++;
      continue;
    }
    const fold = foldedPoint(pointAt(text, index));
    index = lastRead.end;
    if (size + fold.length > buffer.length) {
      const grown = new Uint16Array(buffer.length * 2 + fold.length);
      grown.set(buffer.subarray(0, size));
      buffer = grown;
    }
    for (let unit = 0; unit < fold.length; unit++) buffer[size++] = fold.charCodeAt(unit);
  }
  return utf16.decode(buffer.subarray(0, size));
}

/** A reason's skeleton, each of its characters with the range of the reason it came from. */
export interface MappedSkeleton {
  text: string;
  from: number[];
  to: number[];
}

/** The skeleton of a (short, bounded) reason, mapped back to it character by character. */
export function mappedSkeletonOf(reason: string): MappedSkeleton {
  const skeleton: MappedSkeleton = { text: '', from: [], to: [] };
  for (let index = 0; index < reason.length; ) {
    const fold = foldedPoint(pointAt(reason, index));
    const end = lastRead.end;
    skeleton.text += fold;
    for (let unit = 0; unit < fold.length; unit++) {
      skeleton.from.push(index);
      skeleton.to.push(end);
    }
    index = end;
  }
  return skeleton;
}
