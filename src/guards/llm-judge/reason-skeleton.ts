import { homoglyphs, latinLookAlikes, smallCapitals } from '../prompt-injection/fold-text';
import { isInvisibleCodePoint } from '../shared/normalize-text';

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

/** A decimal digit of any script (`٤`, `४`, `๔`; ASCII's and NFKD's own are folded before). */
const DECIMAL_DIGIT = /^\p{Nd}$/u;

/**
 * The ASCII digit a script's decimal digit stands for (round 42: a judge
 * that wrote a card's digits in Arabic-Indic `٤١١١` or Devanagari `४१११`,
 * or a judged text written so and quoted in ASCII, was kept whole). Unicode
 * encodes decimal digits only in runs of whole blocks `0`..`9`, so a
 * digit's value is how far it stands into its run, modulo 10.
 */
function digitValue(point: number): string {
  let into = 0;
  while (into < 100 && DECIMAL_DIGIT.test(String.fromCodePoint(point - into - 1))) into++;
  return String(into % 10);
}

/**
 * Folds one character: compatibility forms and marks out, lower case, final
 * sigma as sigma, a look-alike as the Latin letter it is drawn like, a
 * decimal digit of any script as its ASCII digit.
 */
function folded(char: string): string {
  if (DECIMAL_DIGIT.test(char) && char.normalize('NFKD') === char) {
    return digitValue(char.codePointAt(0)!);
  }
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

/**
 * The ASCII letter (lower case) code point `point` stands for in a
 * skeleton, or '' when it stands for none or for more than one character
 * (a digit, `ﬁ`, a letter of another script): fullwidth `ｓ`, Cyrillic
 * `ѕ`, mathematical `𝐬` are `s` (round 40, for the reason's ROT13 reading).
 */
export function latinLetterOf(point: number): string {
  const fold = foldedPoint(point);
  return fold.length === 1 && fold >= 'a' && fold <= 'z' ? fold : '';
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
  else if (code === 0x26 && text.slice(at, at + 4).toLowerCase() === 'amp;') {
    // `&amp;`: an ampersand, which may start an escape in turn (`&amp;#50;`).
    lastRead.point = 0x26;
    lastRead.end = at + 4;
    return true;
  } else if (code === 0x26 && text.charCodeAt(at) === 0x23) {
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

/** Whether `code` starts an escape (`\\`, `%`, `&`). */
function startsEscape(code: number): boolean {
  return code === 0x5c || code === 0x25 || code === 0x26;
}

/** Longest text after an escaped escape character read as the rest of an escape. */
const MAX_ESCAPE_TAIL = 32;

/**
 * The code point at `index`, decoding an escape there; its end in
 * `lastRead.end`. An escape that decodes to an escape's first character
 * reads on as that escape (round 29): `%2532` (a percent-encoded `%32`) is
 * `2`, as are `&amp;#50;` and `\u005cu0032`; a judge that escaped a value
 * twice wrote `hunter%2532` for `hunter2`, read as `hunter32`. Each step
 * reads at least two characters more: linear.
 */
function pointAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (startsEscape(code) && escapeAt(text, index)) {
    while (startsEscape(lastRead.point)) {
      const { point, end } = lastRead;
      const tail = String.fromCharCode(point) + text.slice(end, end + MAX_ESCAPE_TAIL);
      if (!escapeAt(tail, 0)) {
        lastRead.point = point;
        lastRead.end = end;
        break;
      }
      lastRead.end += end - 1;
    }
    return lastRead.point;
  }
  const point = text.codePointAt(index)!;
  lastRead.end = index + (point > 0xffff ? 2 : 1);
  return point;
}

/** The English names of the digits, by digit. */
const DIGIT_NAMES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
];
/** Ten to nineteen, by their last digit. */
const TEEN_NAMES = [
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
/** Twenty to ninety, by their first digit ('' for 0 and 1). */
const TENS_NAMES = [
  '',
  '',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
];

/** Whether `code` is an ASCII letter. */
function isAsciiLetter(code: number): boolean {
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

/** The end of `name` (lower case) written at `index` in any case, or -1; with `whole`, no ASCII letter may follow. */
function nameEnd(text: string, index: number, name: string, whole: boolean): number {
  for (let at = 0; at < name.length; at++) {
    if ((text.charCodeAt(index + at) | 0x20) !== name.charCodeAt(at)) return -1;
  }
  const end = index + name.length;
  return whole && isAsciiLetter(text.charCodeAt(end)) ? -1 : end;
}

/** Where the next word starts after one `-` or blank at `index`, or -1. */
function afterSeparator(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code === 0x2d || code === 0x20 ? index + 1 : -1;
}

/** The index in `names` of the whole word at `index` (its end in `lastRead.end`), or -1. */
function nameAt(text: string, index: number, names: readonly string[]): number {
  for (let value = 0; value < names.length; value++) {
    const name = names[value]!;
    const end = name === '' ? -1 : nameEnd(text, index, name, true);
    if (end < 0) continue;
    lastRead.end = end;
    return value;
  }
  return -1;
}

/**
 * The digits of a number below a hundred written as a whole word at
 * `index` (`four`, `twelve`, `forty`, `forty-two`, `forty two`,
 * `fortytwo`), its end in `lastRead.end`; '' for none.
 */
function smallNumberAt(text: string, index: number): string {
  for (let tens = 2; tens < 10; tens++) {
    const end = nameEnd(text, index, TENS_NAMES[tens]!, false);
    if (end < 0) continue;
    const next = isAsciiLetter(text.charCodeAt(end)) ? end : afterSeparator(text, end);
    const unit = next < 0 ? -1 : nameAt(text, next, DIGIT_NAMES);
    if (unit > 0) return `${tens}${unit}`;
    if (isAsciiLetter(text.charCodeAt(end))) return '';
    lastRead.end = end;
    return `${tens}0`;
  }
  const teen = nameAt(text, index, TEEN_NAMES);
  if (teen >= 0) return `1${teen}`;
  const digit = nameAt(text, index, DIGIT_NAMES);
  return digit >= 0 ? String(digit) : '';
}

/**
 * The digits a whole word, or words, at `index` name, else '' (round 29:
 * the digits' names, `four`, `One`, `NINE`; round 30: every number below
 * a thousand, `eleven`, `forty-two`, `Forty Two`, `seven hundred and
 * twelve`), the words' end in `lastRead.end`. A judge that spelled a card
 * out (`four one one one …`), wrote `hunter two` or a PIN as `forty-two
 * forty-two` quoted it unmasked. A word is whole when no ASCII letter
 * stands right before or after it; words are parted by one `-` or blank.
 * Both the reason and the judged texts are read so, so a value written in
 * digits in one and in words in the other is found either way.
 */
function numberWordAt(text: string, index: number): string {
  if (index > 0 && isAsciiLetter(text.charCodeAt(index - 1))) return '';
  const second = text.charCodeAt(index + 1) | 0x20;
  if (second >= 0x80 || NAME_STARTS[((text.charCodeAt(index) | 0x20) << 7) | second] !== 1)
    return '';
  const small = smallNumberAt(text, index);
  if (small.length !== 1 || small === '0') return small;
  const end = lastRead.end;
  const next = afterSeparator(text, end);
  const hundred = next < 0 ? -1 : nameEnd(text, next, 'hundred', true);
  if (hundred < 0) {
    lastRead.end = end;
    return small;
  }
  let rest = afterSeparator(text, hundred);
  const and = rest < 0 ? -1 : nameEnd(text, rest, 'and', true);
  if (and >= 0 && afterSeparator(text, and) >= 0) rest = afterSeparator(text, and);
  const tail = rest < 0 ? '' : smallNumberAt(text, rest);
  if (tail === '' || tail === '0') {
    lastRead.end = hundred;
    return `${small}00`;
  }
  return tail.length === 1 ? `${small}0${tail}` : `${small}${tail}`;
}

/** 1 at `first << 7 | second` for the first two letters (lower case) of each number's name: most words are passed over at one lookup. */
const NAME_STARTS = new Uint8Array(128 * 128);
for (const name of [...DIGIT_NAMES, ...TEEN_NAMES, ...TENS_NAMES.slice(2)]) {
  NAME_STARTS[(name.charCodeAt(0) << 7) | name.charCodeAt(1)] = 1;
}

/** 1 for each ASCII code, either case, that starts a number's name: most words are passed over at one lookup. */
const STARTS_DIGIT_NAME = new Uint8Array(128);
for (const name of [...DIGIT_NAMES, ...TEEN_NAMES, ...TENS_NAMES.slice(2)]) {
  STARTS_DIGIT_NAME[name.charCodeAt(0)] = 1;
  STARTS_DIGIT_NAME[name.charCodeAt(0) - 0x20] = 1;
}

/**
 * The end of `at` or `dot` written as a whole word at `index` (any case),
 * else -1 (round 36): an address spelled out, `jane dot doe at example dot
 * com`, stands for `jane.doe@example.com`, whose `@` and `.` a skeleton
 * leaves out, so these words are left out too.
 */
function spokenSymbolEnd(text: string, index: number): number {
  if (index > 0 && isAsciiLetter(text.charCodeAt(index - 1))) return -1;
  const first = text.charCodeAt(index) | 0x20;
  const name = first === 0x61 ? 'at' : first === 0x64 ? 'dot' : undefined;
  return name === undefined ? -1 : nameEnd(text, index, name, true);
}

const utf16 = new TextDecoder('utf-16le');

/** A combining mark: part of the letter before it, no word break. */
const MARK = /^\p{M}$/u;

/**
 * Whether code point `point`, which a skeleton leaves out, parts words
 * (round 39): a blank, punctuation or a symbol does; an invisible character
 * (`Jane\u200bRoe`, as the shared normaliser reads it) or a combining mark
 * does not.
 */
function partsWords(point: number): boolean {
  if (point < 0x80) return true;
  return !isInvisibleCodePoint(point) && !MARK.test(String.fromCodePoint(point));
}

/** A judged text's skeleton, with 1 in `edges` at each skeleton index a word starts or ends at (`edges[text.length]` is 1). */
export interface EdgedSkeleton {
  text: string;
  edges: Uint8Array;
}

/**
 * The skeleton of a judged text: one pass over its characters (ASCII by a
 * table, others folded once a kind, escapes decoded by hand), written into
 * a buffer decoded at once. Linear.
 */
export function skeletonOf(text: string): string {
  return readSkeleton(text, false).text;
}

/** {@link skeletonOf} with where its words start (a blank, punctuation or a symbol before them; round 39). */
export function edgedSkeletonOf(text: string): EdgedSkeleton {
  return readSkeleton(text, true);
}

function readSkeleton(text: string, withEdges: boolean): EdgedSkeleton {
  let buffer = new Uint16Array(text.length + 16);
  let edges = new Uint8Array(withEdges ? buffer.length + 1 : 0);
  let size = 0;
  // A word starts at the first character, and after each separator.
  let parted = true;
  for (let index = 0; index < text.length; ) {
    const code = text.charCodeAt(index);
    if (code < 0x80 && code !== 0x5c && code !== 0x25 && code !== 0x26) {
      const spoken = spokenSymbolEnd(text, index);
      if (spoken >= 0) {
        index = spoken;
        parted = true;
        continue;
      }
      const kept = ASCII_SKELETON[code]!;
      if (
        STARTS_DIGIT_NAME[code] === 1 &&
        (index === 0 || !isAsciiLetter(text.charCodeAt(index - 1)))
      ) {
        const digits = numberWordAt(text, index);
        if (digits !== '') {
          if (parted && withEdges) edges[size] = 1;
          parted = false;
          for (let at = 0; at < digits.length; at++) buffer[size++] = digits.charCodeAt(at);
          index = lastRead.end;
          continue;
        }
      }
      if (kept === 0) parted = true;
      else {
        if (parted && withEdges) edges[size] = 1;
        parted = false;
        buffer[size++] = kept;
      }
      index++;
      continue;
    }
    const point = pointAt(text, index);
    const fold = foldedPoint(point);
    index = lastRead.end;
    if (size + fold.length > buffer.length) {
      const grown = new Uint16Array(buffer.length * 2 + fold.length);
      grown.set(buffer.subarray(0, size));
      buffer = grown;
      if (withEdges) {
        const grownEdges = new Uint8Array(grown.length + 1);
        grownEdges.set(edges.subarray(0, size));
        edges = grownEdges;
      }
    }
    if (fold === '') {
      parted ||= partsWords(point);
      continue;
    }
    if (parted && withEdges) edges[size] = 1;
    parted = false;
    for (let unit = 0; unit < fold.length; unit++) buffer[size++] = fold.charCodeAt(unit);
  }
  if (withEdges) edges[size] = 1;
  return {
    text: utf16.decode(buffer.subarray(0, size)),
    edges: withEdges ? edges.subarray(0, size + 1) : edges,
  };
}

/** A reason's skeleton, each of its characters with the range of the reason it came from. */
export interface MappedSkeleton {
  text: string;
  from: number[];
  to: number[];
  /** 1 at each skeleton index a word starts or ends at (`edges[text.length]` is 1; round 39). */
  edges: number[];
}

/** The skeleton of a (short, bounded) reason, mapped back to it character by character. */
export function mappedSkeletonOf(reason: string): MappedSkeleton {
  const skeleton: MappedSkeleton = { text: '', from: [], to: [], edges: [] };
  let parted = true;
  for (let index = 0; index < reason.length; ) {
    const code = reason.charCodeAt(index);
    const spoken = code < 0x80 ? spokenSymbolEnd(reason, index) : -1;
    const digits =
      spoken < 0 && code < 0x80 && STARTS_DIGIT_NAME[code] === 1 ? numberWordAt(reason, index) : '';
    // NUL stays: it parts a reason from the decoded runs read after it.
    let fold: string;
    if (spoken >= 0) {
      fold = '';
      lastRead.end = spoken;
      parted = true;
    } else if (digits !== '') fold = digits;
    else if (code === 0) {
      fold = '\u0000';
      lastRead.end = index + 1;
    } else {
      const point = pointAt(reason, index);
      fold = foldedPoint(point);
      if (fold === '') parted ||= partsWords(point);
    }
    const end = lastRead.end;
    skeleton.text += fold;
    for (let unit = 0; unit < fold.length; unit++) {
      skeleton.from.push(index);
      skeleton.to.push(end);
      skeleton.edges.push(parted ? 1 : 0);
      parted = false;
    }
    index = end;
  }
  skeleton.edges.push(1);
  return skeleton;
}
