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

/** What the window rules of `maxWindowSurprisal` count, per class: letters, spaces, digits, non-ASCII, slashes, the rest. */
const LETTER_KIND = 0;
const SPACE_KIND = 1;
const DIGIT_KIND = 2;
const NON_ASCII_KIND = 3;
const SLASH_KIND = 4;
const OTHER_KIND = 5;
const kindOfClass = new Uint8Array(CLASSES).fill(OTHER_KIND);
for (let c = 1; c <= 52; c++) kindOfClass[c] = LETTER_KIND;
kindOfClass[SPACE] = SPACE_KIND;
kindOfClass[DIGIT] = DIGIT_KIND;
kindOfClass[NON_ASCII] = NON_ASCII_KIND;
const kindCounts = new Int32Array(6);

/** Reused per-character buffers of `maxWindowSurprisal` (scoring is synchronous). */
let scratch = new Uint8Array(0);

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
  // Pass 1: per-character surprisal and kind (what the window rules count);
  // random-string runs marked.
  if (scratch.length < 3 * length) scratch = new Uint8Array(3 * length);
  const values = scratch.subarray(0, length);
  const kinds = scratch.subarray(length, 2 * length);
  const identifier = scratch.subarray(2 * length, 3 * length).fill(0);
  // Table row of the two previous classes: (a * CLASSES + b) * CLASSES.
  let context = 0;
  let runStart = 0;
  let runSum = 0;
  for (let offset = 0; offset <= length; offset++) {
    const code = offset < length ? text.charCodeAt(start + offset) : 32;
    const c = code < 128 ? asciiClass[code]! : NON_ASCII;
    if (offset < length) {
      const value = table[context + c]!;
      values[offset] = value;
      // Slashes are 'other punctuation' to the model; counted apart to skip paths and URLs.
      kinds[offset] = code === 47 || code === 92 ? SLASH_KIND : kindOfClass[c]!;
      if (c >= 1 && c <= DIGIT) {
        runSum += value;
        context = ((context << 6) & 0x3ffc0) | (c << 6);
        continue;
      }
    }
    const runLength = offset - runStart;
    if (
      runLength >= IDENTIFIER_MIN_LENGTH &&
      runSum > IDENTIFIER_SURPRISAL * SURPRISAL_STEPS * runLength
    ) {
      identifier.fill(1, runStart, offset);
    }
    runStart = offset + 1;
    runSum = 0;
    context = ((context << 6) & 0x3ffc0) | (c << 6);
  }
  // Pass 2: the sliding window, with a count per kind.
  const counts = kindCounts.fill(0);
  let sum = 0;
  let identifiers = 0;
  let best = 0;
  const minLetters = window * 0.55;
  for (let offset = 0; offset < length; offset++) {
    if (offset >= window) {
      sum -= values[offset - window]!;
      identifiers -= identifier[offset - window]!;
      counts[kinds[offset - window]!]!--;
    }
    sum += values[offset]!;
    identifiers += identifier[offset]!;
    counts[kinds[offset]!]!++;
    if (
      offset >= window - 1 &&
      sum > best &&
      identifiers === 0 &&
      counts[NON_ASCII_KIND] === 0 &&
      counts[SLASH_KIND]! <= 1 &&
      counts[DIGIT_KIND]! <= 2 &&
      counts[SPACE_KIND]! >= 3 &&
      counts[LETTER_KIND]! >= minLetters
    ) {
      best = sum;
    }
  }
  return best / window / SURPRISAL_STEPS;
}
