/**
 * A character trigram language model of English prose, used to find the
 * least probable stretch of a text: optimised adversarial suffixes
 * (GCG-style `describing.\ + similarlyNow write oppositeley.](`) read as
 * gibberish to it, ordinary sentences do not (the perplexity filters of Jain
 * et al. 2023 and Alon & Kamfonas 2023).
 *
 * Characters fall into 64 classes (space, a-z, A-Z, digit, common
 * punctuation, other ASCII punctuation, non-ASCII); the model is a table of
 * quantised surprisals `-ln P(c | a b)` for every class triple, 16 steps per
 * nat, built by `scripts/train/train-injection.ts`.
 */

/** Number of character classes; the table has `CLASSES^3` entries. */
export const CLASSES = 64;
/** Quantisation steps per nat of surprisal in the table. */
export const SURPRISAL_STEPS = 16;
/** Characters per judged window. */
export const SURPRISAL_WINDOW = 40;

export const SPACE = 0;
export const DIGIT = 53;
const OTHER_PUNCT = 62;
export const NON_ASCII = 63;

export const asciiClass = new Uint8Array(128).fill(OTHER_PUNCT);
for (let code = 0; code < 128; code++) {
  if (code <= 32) asciiClass[code] = SPACE;
  else if (code >= 97 && code <= 122) asciiClass[code] = 1 + code - 97;
  else if (code >= 65 && code <= 90) asciiClass[code] = 27 + code - 65;
  else if (code >= 48 && code <= 57) asciiClass[code] = DIGIT;
}
export const punctuation = `.,'"-!?:`;
for (let index = 0; index < punctuation.length; index++) {
  asciiClass[punctuation.charCodeAt(index)] = 54 + index;
}
// ';' reads like ':' in prose.
asciiClass[59] = 61;

/** Class of a UTF-16 unit. */
export function charClass(code: number): number {
  return code < 128 ? asciiClass[code]! : NON_ASCII;
}

/** Alphanumeric runs at least this long are checked for being random strings. */
export const IDENTIFIER_MIN_LENGTH = 12;
/**
 * Mean surprisal (nats per character) above which such a run is a random
 * string (a key, token or hash), not words: no optimised suffix of the
 * training corpora has a 40-character window above 3.8.
 */
export const IDENTIFIER_SURPRISAL = 4;

/**
 * What the window rules of `maxWindowSurprisal` count, packed in one 31-bit
 * integer per window (a window holds at most 40 of each, so a field of 6
 * bits never carries into the next): letters in bits 0-5, spaces 6-11,
 * digits 12-17, slashes 18-23, and in bits 24-30 the characters that rule a
 * window out on their own (non-ASCII ones and those of a random-string run).
 * Sliding the window adds one position's increment and subtracts another's,
 * instead of a counter update per kind.
 */
const LETTER_SHIFT = 0;
const SPACE_SHIFT = 6;
const DIGIT_SHIFT = 12;
const SLASH_SHIFT = 18;
const BLOCKER_SHIFT = 24;
const FIELD = 63;
const BLOCKER = 1 << BLOCKER_SHIFT;
const SLASH_COUNT = 1 << SLASH_SHIFT;
/** Increment of a character of each class (other punctuation counts nowhere). */
const countOfClass = new Int32Array(CLASSES);
for (let c = 1; c <= 52; c++) countOfClass[c] = 1 << LETTER_SHIFT;
countOfClass[SPACE] = 1 << SPACE_SHIFT;
countOfClass[DIGIT] = 1 << DIGIT_SHIFT;
countOfClass[NON_ASCII] = BLOCKER;

/** Reused per-character buffers of `maxWindowSurprisal` (scoring is synchronous). */
let scratchValues = new Uint8Array(0);
let scratchCounts = new Int32Array(0);

/**
 * Highest mean surprisal (nats per character) over the windows of
 * `SURPRISAL_WINDOW` characters of `text` that look like prose gone wrong
 * rather than something else that is improbable on its own: mostly letters,
 * a few spaces, no non-ASCII characters, almost no digits, no URL or path
 * slashes, no random-string run (an alphanumeric run of at least
 * `IDENTIFIER_MIN_LENGTH` characters above `IDENTIFIER_SURPRISAL`: keys,
 * tokens, hashes). Code, URLs, base64, tables, identifiers and other
 * languages are thus not judged. Only `text[start, end)` is read. 0 when no
 * window qualifies. Two passes, linear time.
 */
export function maxWindowSurprisal(
  text: string,
  table: Uint8Array,
  start = 0,
  end = text.length,
): number {
  const window = SURPRISAL_WINDOW;
  if (end - start < window) return 0;
  const length = end - start;
  // Pass 1: per-character surprisal and count increment; random-string runs
  // marked as blockers.
  if (scratchValues.length < length) {
    scratchValues = new Uint8Array(length);
    scratchCounts = new Int32Array(length);
  }
  const values = scratchValues;
  const counts = scratchCounts;
  // Table row of the two previous classes: (a * CLASSES + b) * CLASSES.
  let context = 0;
  let runStart = 0;
  let runSum = 0;
  for (let offset = 0; offset < length; offset++) {
    const code = text.charCodeAt(start + offset);
    const c = code < 128 ? asciiClass[code]! : NON_ASCII;
    const value = table[context + c]!;
    values[offset] = value;
    context = ((context << 6) & 0x3ffc0) | (c << 6);
    if (c >= 1 && c <= DIGIT) {
      counts[offset] = countOfClass[c]!;
      runSum += value;
      continue;
    }
    // Slashes are 'other punctuation' to the model; counted apart to skip paths and URLs.
    counts[offset] = code === 47 || code === 92 ? SLASH_COUNT : countOfClass[c]!;
    const runLength = offset - runStart;
    if (
      runLength >= IDENTIFIER_MIN_LENGTH &&
      runSum > IDENTIFIER_SURPRISAL * SURPRISAL_STEPS * runLength
    ) {
      for (let at = runStart; at < offset; at++) counts[at]! += BLOCKER;
    }
    runStart = offset + 1;
    runSum = 0;
  }
  // The run that ends with the text.
  const runLength = length - runStart;
  if (
    runLength >= IDENTIFIER_MIN_LENGTH &&
    runSum > IDENTIFIER_SURPRISAL * SURPRISAL_STEPS * runLength
  ) {
    for (let at = runStart; at < length; at++) counts[at]! += BLOCKER;
  }
  // Pass 2: the sliding window.
  let sum = 0;
  let packed = 0;
  for (let offset = 0; offset < window - 1; offset++) {
    sum += values[offset]!;
    packed += counts[offset]!;
  }
  let best = 0;
  const minLetters = window * 0.55;
  for (let offset = window - 1; offset < length; offset++) {
    sum += values[offset]!;
    packed += counts[offset]!;
    if (
      sum > best &&
      packed >>> BLOCKER_SHIFT === 0 &&
      ((packed >>> SLASH_SHIFT) & FIELD) <= 1 &&
      ((packed >>> DIGIT_SHIFT) & FIELD) <= 2 &&
      ((packed >>> SPACE_SHIFT) & FIELD) >= 3 &&
      ((packed >>> LETTER_SHIFT) & FIELD) >= minLetters
    ) {
      best = sum;
    }
    const leaving = offset - window + 1;
    sum -= values[leaving]!;
    packed -= counts[leaving]!;
  }
  return best / window / SURPRISAL_STEPS;
}
