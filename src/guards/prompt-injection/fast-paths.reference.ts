/**
 * The folding, decoding, feature and surprisal code of the injection and
 * harmful-content detectors as it was before the speed work of issues 15 and
 * 19 (commit 6c5141d), kept verbatim as a plain reference: fast-paths.test.ts
 * checks that the fast implementations give byte-identical results on
 * generated adversarial strings. Only the code the speed work changed is
 * here; the tables, constants and helpers it left as they were are imported
 * from the fast modules (the test compares algorithms, not copies of
 * tables). Test support only; nothing in the package imports it.
 */
import { normalizeText } from '../shared/normalize-text';
import {
  asciiClass,
  CLASSES,
  charClass,
  DIGIT,
  IDENTIFIER_MIN_LENGTH,
  IDENTIFIER_SURPRISAL,
  NON_ASCII,
  punctuation,
  SPACE,
  SURPRISAL_STEPS,
  SURPRISAL_WINDOW,
} from './char-language-model';
import {
  base64Run,
  base64RunBytes,
  decodeTags,
  hexRun,
  looksLikeText,
  pieces,
  tagRuns,
  urlEncodedRun,
  utf8,
} from './decode-segments';
import {
  homoglyphs,
  isSeparator,
  joinSpaced,
  LookAlikeWordReading,
  leet,
  secondReadings,
  withFillersAsSpaces,
  withLookAlikeWordsFolded,
  withoutEnclosedLetters,
  withoutLatinDiacritics,
  withoutLatinLookAlikes,
  withoutSmallCapitals,
  withoutTurkishDot,
  withPrivateUseReadThrough,
} from './fold-text';
import { BIGRAM_SEED, CHAR_SEED, UNIGRAM_SEED } from './hashed-features';
import { FILTER, NEAR, PAIR_SLOTS, pairHash, SLOT_COUNT, WORD_SLOTS } from './slot-features';

// ---- fold-text.ts ----

const latinLetter = /[a-z]/;
const leetChars = /[0134578@$|]/g;
// A word-like token: letters, digits and the leet symbols, at most 64 long so a
// single regex step stays cheap.
const wordToken = /[\p{L}\p{N}@$|]{2,64}/gu;
// Single letters (or leet digits) separated by one space or dot, e.g.
// "i g n o r e", "i.g.n.o.r.e" or "1 g n 0 r 3": found by `joinSpacedRuns`.
const letter = /\p{L}/u;

function isSpacedUnit(code: number): boolean {
  if (code < 0x80) {
    return (
      (code >= 97 && code <= 122) ||
      (code >= 65 && code <= 90) ||
      code === 48 ||
      code === 49 ||
      code === 51 ||
      code === 52 ||
      code === 53 ||
      code === 55 ||
      code === 56 ||
      code === 64 ||
      code === 36
    );
  }
  return code < 0xd800 || code > 0xdfff ? letter.test(String.fromCharCode(code)) : false;
}

function isLetterOrNumber(code: number): boolean {
  if (code < 0x80)
    return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
  return letterOrNumber.test(String.fromCharCode(code));
}

/**
 * Joins runs of at least four single characters separated by one
 * separator ("i g n o r e"), where the run spells a word (`joinSpaced`).
 * One pass: each character is looked at a bounded number of times.
 */
function joinSpacedRuns(text: string, aggressive: boolean): string {
  const pieces: string[] = [];
  let copied = 0;
  const length = text.length;
  let index = 0;
  while (index < length - 6) {
    if (
      !isSeparator(text.charCodeAt(index + 1)) ||
      !isSpacedUnit(text.charCodeAt(index)) ||
      (index > 0 && isLetterOrNumber(text.charCodeAt(index - 1)))
    ) {
      index++;
      continue;
    }
    // Units at index, then one separator or (round 38) two or three blanks apart; the run ends at
    // the last unit not followed by a letter or digit, with a separator of one before it.
    let last = index;
    let end = -1;
    let units = 1;
    let single = false;
    for (;;) {
      const at = (offset: number) => (last + offset < length ? text[last + offset]! : '');
      if (' .-_*'.includes(at(1) || '#') && isSpacedUnit(text.charCodeAt(last + 2))) {
        single = true;
        last += 2;
      } else if (at(1) === ' ' && at(2) === ' ' && isSpacedUnit(text.charCodeAt(last + 3))) {
        last += 3;
      } else if (at(1) + at(2) + at(3) === '   ' && isSpacedUnit(text.charCodeAt(last + 4))) {
        last += 4;
      } else {
        break;
      }
      units++;
      const after = last + 1 < length ? text.charCodeAt(last + 1) : -1;
      if (units >= 4 && single && (after < 0 || !isLetterOrNumber(after))) end = last + 1;
    }
    if (end < 0) {
      index = last + 1;
      continue;
    }
    pieces.push(text.slice(copied, index), joinSpaced(text.slice(index, end), aggressive));
    copied = end;
    index = end;
  }
  if (copied === 0) return text;
  pieces.push(text.slice(copied));
  return pieces.join('');
}

function foldWord(
  word: string,
  offset: number,
  whole: string,
  foldLeet: boolean | 'aggressive',
): string {
  let folded = word;
  if (latinLetter.test(folded) && /[^ -~]/.test(folded)) {
    folded = Array.from(folded, char => homoglyphs[char] ?? char).join('');
  }
  // 'name@example.com' is an address, not leetspeak.
  const isAddress = folded.includes('@') && whole[offset + word.length] === '.';
  // Only words that are mostly letters: "h4ck3r" folds, "2134@gmail" or "1st" do not.
  const letters = folded.match(/\p{L}/gu)?.length ?? 0;
  const leetCount = folded.match(leetChars)?.length ?? 0;
  const leetWord =
    foldLeet === 'aggressive'
      ? letters > 0
      : letters > leetCount && !/\d{3}|^\d+(?:st|nd|rd|th)$/.test(folded);
  if (foldLeet && !isAddress && leetCount > 0 && leetWord) {
    folded = Array.from(folded, char => leet[char] ?? char).join('');
  }
  return folded;
}

/**
 * The canonical form injection signals are matched on: the shared
 * normalisation (NFKC, invisible characters removed), lower case, Cyrillic
 * and Greek homoglyphs and leetspeak folded inside Latin words, letters
 * spelled out with spaces joined, and whitespace collapsed (line breaks
 * kept, one per run). Linear time. `{ leet: false }` keeps digits and
 * symbols, for matchers that try both readings (`$project` is not `sproject`);
 * `{ leet: 'aggressive' }` folds every word with a letter in it ("1n57ruc710n5"
 * too) and joins spaced runs that are a third letters, for a second reading
 * of text that looks like heavy leetspeak.
 *
 * @example
 * foldText('1gn0re   аll previous'); // 'ignore all previous'
 */
export function referenceFoldText(
  text: string,
  options: { leet?: boolean | 'aggressive' } = {},
): string {
  // Round 24: what a right-to-left override shows and upside-down text turned, after the text's own reading.
  const folded = foldLogical(text, options);
  const reversed = secondReadings(text);
  const reading = reversed === '' ? '' : foldLogical(reversed, options);
  return [folded, reading].filter(part => part !== '').join('\n');
}

function foldLogical(text: string, options: { leet?: boolean | 'aggressive' } = {}): string {
  // Round 25: look-alike words the first reading kept as written, folded in a second reading.
  const first = foldReading(text, options, new LookAlikeWordReading(text, 'first'));
  const all = foldReading(text, options, new LookAlikeWordReading(text, 'all'));
  return all === first ? first : `${first}\n${all}`;
}

function foldReading(
  text: string,
  { leet: foldLeet = true }: { leet?: boolean | 'aggressive' },
  reading: LookAlikeWordReading,
): string {
  let folded = withoutLatinDiacritics(
    withoutLatinLookAlikes(
      withoutSmallCapitals(
        withoutTurkishDot(
          normalizeText(
            withPrivateUseReadThrough(withFillersAsSpaces(withoutEnclosedLetters(text))),
          ).text.toLowerCase(),
        ),
      ),
    ),
  );
  if (/[\u2018\u2019\u201b\u2032\u201c\u201d\u201f\u2033]/.test(folded)) {
    folded = folded
      .replace(/[\u2018\u2019\u201b\u2032]/g, "'")
      .replace(/[\u201c\u201d\u201f\u2033]/g, '"');
  }
  return collapseWhitespace(
    joinSpacedRuns(
      foldWords(withLookAlikeWordsFolded(folded, reading), foldLeet),
      foldLeet === 'aggressive',
    ),
  );
}

const letterOrNumber = /[\p{L}\p{N}]/u;

/** True for a code point that `wordToken` takes into a word. */
function isTokenCodePoint(code: number): boolean {
  if (code < 0x80) {
    return (
      (code >= 97 && code <= 122) ||
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      code === 64 ||
      code === 36 ||
      code === 124
    );
  }
  return letterOrNumber.test(String.fromCodePoint(code));
}

/** True for an ASCII code `leetChars` matches: 0 1 3 4 5 7 8 @ $ |. */
function isLeetCode(code: number): boolean {
  return (
    code === 48 ||
    code === 49 ||
    (code >= 51 && code <= 53) ||
    code === 55 ||
    code === 56 ||
    code === 64 ||
    code === 36 ||
    code === 124
  );
}

/**
 * `wordToken` folding, applied only to runs of word characters that
 * `foldWord` can change: runs with a non-ASCII character (homoglyphs), or
 * with both a letter and a leet character. Plain words and numbers (nearly
 * all of a text) fold to themselves, so they are not handed to a callback
 * one by one.
 */
function foldWords(text: string, foldLeet: boolean | 'aggressive'): string {
  return shortLeetFolded(foldWordRuns(text, foldLeet), text, foldLeet);
}

/**
 * Round 38: a token of one or two ASCII letters and leet digits, with a
 * digit (`4`, `0n`, `t0`), read as leetspeak when the word right before or
 * after it, with only spaces and tabs between, reads as leetspeak
 * (`foldWord` changes it with leet folded, and it is 2 to 64 ASCII units). Runs
 * of word characters are found in `text`; `folded` is `foldWordRuns(text)`,
 * which changes no short token and keeps every other run's length.
 */
function shortLeetFolded(folded: string, text: string, foldLeet: boolean | 'aggressive'): string {
  if (foldLeet === false) return folded;
  const runs = [...text.matchAll(/[\p{L}\p{N}@$|]+/gu)].map(match => ({
    start: match.index,
    word: match[0],
  }));
  const readsAsLeet = (index: number) => {
    const run = runs[index];
    if (run === undefined || run.word.length < 2 || run.word.length > 64) return false;
    if (/[^ -~]/.test(run.word)) return false;
    return (
      foldWord(run.word, run.start, text, foldLeet) !== foldWord(run.word, run.start, text, false)
    );
  };
  const blanksBetween = (left: number, right: number) =>
    /^[ \t]+$/.test(text.slice(runs[left]!.start + runs[left]!.word.length, runs[right]!.start));
  let result = folded;
  runs.forEach((run, index) => {
    if (!/^[a-z0134578]{1,2}$/i.test(run.word) || !/[0134578]/.test(run.word)) return;
    const before = index > 0 && blanksBetween(index - 1, index) && anchors(index - 1);
    const after = index + 1 < runs.length && blanksBetween(index, index + 1) && anchors(index + 1);
    if (!before && !after) return;
    const read = Array.from(run.word, char => leet[char] ?? char).join('');
    result = result.slice(0, run.start) + read + result.slice(run.start + read.length);
  });
  if (foldLeet !== true) return result;
  // Round 39: digit-heavy words of leetspeak in a line of it.
  runs.forEach((run, index) => {
    const shape = heavyShape(index);
    if (shape === undefined) return;
    const linked = [-1, 1].some(side => {
      const near = index + side;
      if (near < 0 || near >= runs.length) return false;
      const [left, right] = side < 0 ? [near, index] : [index, near];
      if (!blanksBetween(left, right)) return false;
      if (/[a-z]{2}$/i.test(runs[left]!.word) && /^[a-z]{2}/i.test(runs[right]!.word)) return false;
      if (anchors(near)) return true;
      if (shape === 'inside' && (isShort(near) || heavyShape(near) !== undefined)) return true;
      const far = near + side;
      if (!isShort(near) || far < 0 || far >= runs.length) return false;
      return blanksBetween(Math.min(near, far), Math.max(near, far)) && anchors(far);
    });
    if (!linked) return;
    const read = Array.from(run.word, char => leet[char] ?? char).join('');
    result = result.slice(0, run.start) + read + result.slice(run.start + read.length);
  });
  return result;

  function isShort(index: number): boolean {
    const word = runs[index]!.word;
    return /^[a-z0134578]{1,2}$/i.test(word) && /[0134578]/.test(word);
  }

  function heavyShape(index: number): 'inside' | 'edges' | undefined {
    const word = runs[index]!.word;
    if (!/^[a-z0134578]{3,64}$/i.test(word) || /\d{4}/.test(word) || !/[g-z]/i.test(word)) {
      return undefined;
    }
    const letters = word.replace(/\d/g, '').length;
    if (letters === 0 || word.length - letters < letters) return undefined;
    if (/^\d+(?:st|nd|rd|th)$|^0x/.test(word)) return undefined;
    return /\d/.test(word.replace(/^\d+|\d+$/g, '')) ? 'inside' : 'edges';
  }

  function anchors(index: number): boolean {
    return readsAsLeet(index) || (foldLeet === true && heavyShape(index) === 'inside');
  }
}

function foldWordRuns(text: string, foldLeet: boolean | 'aggressive'): string {
  const pieces: string[] = [];
  let copied = 0;
  let index = 0;
  const length = text.length;
  while (index < length) {
    const start = index;
    let nonAscii = false;
    let hasLetter = false;
    let hasLeet = false;
    while (index < length) {
      const unit = text.charCodeAt(index);
      if (unit < 0x80) {
        if ((unit >= 97 && unit <= 122) || (unit >= 65 && unit <= 90)) hasLetter = true;
        else if (unit >= 48 && unit <= 57) hasLeet ||= isLeetCode(unit);
        else if (unit === 64 || unit === 36 || unit === 124) hasLeet = true;
        else break;
        index++;
        continue;
      }
      const code = text.codePointAt(index)!;
      if (!isTokenCodePoint(code)) break;
      nonAscii = true;
      index += code > 0xffff ? 2 : 1;
    }
    if ((nonAscii || (hasLetter && hasLeet)) && index - start >= 2) {
      pieces.push(text.slice(copied, start));
      pieces.push(
        text
          .slice(start, index)
          .replace(wordToken, (word, offset: number) =>
            foldWord(word, start + offset, text, foldLeet),
          ),
      );
      copied = index;
    }
    if (index === start) index += text.codePointAt(index)! > 0xffff ? 2 : 1;
  }
  if (copied === 0) return text;
  pieces.push(text.slice(copied));
  return pieces.join('');
}

/** Runs of blanks become one space (single spaces are left as they are); line breaks are kept, one per run. */
function collapseWhitespace(text: string): string {
  return (
    text
      .replace(/[^\S\n ][^\S\n]*| [^\S\n]+/g, ' ')
      // Only line breaks with blanks around them: a plain '\n' is left alone,
      // so text made of many short lines is not rebuilt piece by piece.
      .replace(/ \n\s*|\n\s+/g, '\n')
      .trim()
  );
}

// ---- decode-segments.ts ----

/** One encoded run found in a text and what it decodes to. */
interface DecodedSegment {
  encoding: 'base64' | 'hex' | 'url' | 'tags';
  text: string;
}

function bytesToText(bytes: Uint8Array): string | undefined {
  try {
    const text = utf8.decode(bytes);
    return looksLikeText(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

// The bytes come from the shared decoder (decode-segments' base64RunBytes:
// it reads base64url as base64 and drops a last partial byte's bits, as
// `atob` over the rewritten run did; base64-decoding.test.ts checks it
// against `atob`).
function decodeBase64(run: string): string | undefined {
  const bytes = base64RunBytes(run);
  return bytes && bytesToText(bytes);
}

function decodeHex(run: string): string | undefined {
  const digits = run.replace(/[ :]/g, '');
  if (digits.length % 2 === 1 || !/[a-fA-F]/.test(digits)) return undefined;
  const bytes = new Uint8Array(digits.length / 2);
  for (let index = 0; index < bytes.length; index++) {
    bytes[index] = Number.parseInt(digits.slice(index * 2, index * 2 + 2), 16);
  }
  return bytesToText(bytes);
}

function decodeUrl(run: string): string | undefined {
  try {
    const text = decodeURIComponent(run.replace(/\+/g, ' '));
    return looksLikeText(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds base64, hex, URL-encoded and Unicode-tag runs in `text` and returns
 * every one that decodes to readable text, so that it can be judged too.
 * Long runs are decoded in pieces of `MAX_SEGMENT_LENGTH`; the total work is
 * linear in the length of the text.
 */
export function referenceDecodeSegments(text: string): DecodedSegment[] {
  const found: DecodedSegment[] = [];
  const scans: Array<[DecodedSegment['encoding'], RegExp, (run: string) => string | undefined]> = [
    ['base64', base64Run, decodeBase64],
    ['hex', hexRun, decodeHex],
  ];
  if (text.includes('%')) scans.push(['url', urlEncodedRun, decodeUrl]);

  for (const [encoding, pattern, decode] of scans) {
    for (const match of text.matchAll(pattern)) {
      let run = match[0];
      if (encoding === 'url') {
        // Widen to the start of the word, at most 64 characters back.
        let start = match.index;
        while (start > 0 && match.index - start < 64 && !/[\s%]/.test(text[start - 1]!)) start--;
        run = text.slice(start, match.index) + run;
      }
      for (const piece of encoding === 'tags' ? [run] : pieces(run)) {
        const decoded = decode(piece);
        if (decoded !== undefined) found.push({ encoding, text: decoded });
      }
    }
  }
  for (const run of tagRuns(text)) {
    const decoded = decodeTags(run);
    if (decoded !== undefined) found.push({ encoding: 'tags', text: decoded });
  }
  return found;
}

// ---- hashed-features.ts ----
/**
 * Hashed n-gram features of folded text, shared by the detector and its
 * training script so both see exactly the same feature indices.
 *
 * A window of text yields: word 1-grams and 2-grams (runs of letters and
 * digits) and character 3-, 4- and 5-grams (spaces and punctuation
 * included), each hashed (FNV-1a style, per-kind seed) into `2^bits`
 * buckets. Each index is counted once per window (binary features), so the
 * cost is a fixed number of multiplications per character: linear time.
 */

/** True for a UTF-16 unit that belongs to a word: ASCII letters and digits, and letters of other scripts. */
function isWordUnitOld(code: number): boolean {
  if (code < 0x80) return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
  // General punctuation, CJK symbols and punctuation, and surrogate halves of
  // emoji are not word units; other non-ASCII units (letters of other
  // scripts, CJK ideographs) are.
  if (code >= 0x2000 && code <= 0x2bff) return false;
  if (code >= 0x3000 && code <= 0x303f) return false;
  if (code >= 0xd800 && code <= 0xdfff) return false;
  return code !== 0xa0 && code !== 0xff0c && code !== 0xff0e;
}

/** Final mix so that nearby hashes spread over the buckets. */
function mixOld(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h;
}

/**
 * Collects the distinct hashed feature indices of `text[start, end)` into
 * `out` (from index 0) and returns how many there are. `stamp` (length
 * `2^bits`) and `generation` deduplicate without clearing: an index is new
 * when `stamp[index] !== generation`. Callers pass a fresh generation per
 * window (a byte stamp keeps the table small enough to stay in cache; the
 * caller clears it when the generation wraps). `out` must hold `6 * (end - start) + 8` entries. `maxCharGram`
 * (3 to 5) is the longest character n-gram taken.
 */
export function referenceCollectFeatures(
  text: string,
  start: number,
  end: number,
  bits: number,
  stamp: Uint8Array | Int32Array,
  generation: number,
  out: Int32Array,
): number {
  const shift = 32 - bits;
  let count = 0;

  // Character 3..5-grams, with a space on either side so word edges count.
  // (Hashing and deduplication are written out inline: this loop is the
  // detector's hot path.)
  for (let position = start - 1; position < end - 1; position++) {
    let hash = CHAR_SEED;
    for (let offset = 0; offset < 5; offset++) {
      const at = position + offset;
      if (at > end) break;
      const unit = at < start || at >= end ? 32 : text.charCodeAt(at);
      hash = Math.imul(hash ^ (unit === 10 ? 32 : unit), 0x01000193);
      if (offset >= 2) {
        let h = hash ^ (offset << 29);
        h ^= h >>> 16;
        h = Math.imul(h, 0x85ebca6b);
        h ^= h >>> 13;
        const index = h >>> shift;
        if (stamp[index] !== generation) {
          stamp[index] = generation;
          out[count++] = index;
        }
      }
    }
  }

  // Word 1-grams and 2-grams.
  let previous = 0;
  let hasPrevious = false;
  let index = start;
  while (index < end) {
    while (index < end && !isWordUnitOld(text.charCodeAt(index))) index++;
    if (index >= end) break;
    let hash = UNIGRAM_SEED;
    while (index < end && isWordUnitOld(text.charCodeAt(index))) {
      hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
      index++;
    }
    const unigram = mixOld(hash) >>> shift;
    if (stamp[unigram] !== generation) {
      stamp[unigram] = generation;
      out[count++] = unigram;
    }
    if (hasPrevious) {
      const bigram = mixOld(Math.imul(previous ^ BIGRAM_SEED, 0x01000193) ^ hash) >>> shift;
      if (stamp[bigram] !== generation) {
        stamp[bigram] = generation;
        out[count++] = bigram;
      }
    }
    previous = hash;
    hasPrevious = true;
  }
  return count;
}

// ---- char-language-model.ts ----
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

for (let code = 0; code < 128; code++) {
  if (code <= 32) asciiClass[code] = SPACE;
  else if (code >= 97 && code <= 122) asciiClass[code] = 1 + code - 97;
  else if (code >= 65 && code <= 90) asciiClass[code] = 27 + code - 65;
  else if (code >= 48 && code <= 57) asciiClass[code] = DIGIT;
}
for (let index = 0; index < punctuation.length; index++) {
  asciiClass[punctuation.charCodeAt(index)] = 54 + index;
}
// ';' reads like ':' in prose.
asciiClass[59] = 61;

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
export function referenceMaxWindowSurprisal(
  text: string,
  table: Uint8Array,
  start = 0,
  end = text.length,
): number {
  const window = SURPRISAL_WINDOW;
  if (end - start < window) return 0;
  const length = end - start;
  // Pass 1: per-character surprisal and class; random-string runs marked.
  if (scratch.length < 3 * length) scratch = new Uint8Array(3 * length);
  const values = scratch.subarray(0, length);
  const kinds = scratch.subarray(length, 2 * length);
  const identifier = scratch.subarray(2 * length, 3 * length).fill(0);
  let a = SPACE;
  let b = SPACE;
  let runStart = 0;
  let runSum = 0;
  for (let offset = 0; offset <= length; offset++) {
    const code = offset < length ? text.charCodeAt(start + offset) : 32;
    const c = charClass(code);
    if (offset < length) {
      values[offset] = table[(a * CLASSES + b) * CLASSES + c]!;
      // Slashes are 'other punctuation' to the model; marked apart to skip paths and URLs.
      kinds[offset] = code === 47 || code === 92 ? 255 : c;
    }
    if (offset < length && c >= 1 && c <= DIGIT) {
      runSum += values[offset]!;
    } else {
      const runLength = offset - runStart;
      if (
        runLength >= IDENTIFIER_MIN_LENGTH &&
        runSum > IDENTIFIER_SURPRISAL * SURPRISAL_STEPS * runLength
      ) {
        identifier.fill(1, runStart, offset);
      }
      runStart = offset + 1;
      runSum = 0;
    }
    a = b;
    b = c;
  }
  // Pass 2: the sliding window.
  let sum = 0;
  let letters = 0;
  let spaces = 0;
  let digits = 0;
  let nonAscii = 0;
  let slashes = 0;
  let identifiers = 0;
  let best = 0;
  for (let offset = 0; offset < length; offset++) {
    if (offset >= window) {
      const old = kinds[offset - window]!;
      sum -= values[offset - window]!;
      identifiers -= identifier[offset - window]!;
      if (old >= 1 && old <= 52) letters--;
      else if (old === SPACE) spaces--;
      else if (old === DIGIT) digits--;
      else if (old === NON_ASCII) nonAscii--;
      else if (old === 255) slashes--;
    }
    const c = kinds[offset]!;
    sum += values[offset]!;
    identifiers += identifier[offset]!;
    if (c >= 1 && c <= 52) letters++;
    else if (c === SPACE) spaces++;
    else if (c === DIGIT) digits++;
    else if (c === NON_ASCII) nonAscii++;
    else if (c === 255) slashes++;
    if (
      offset >= window - 1 &&
      sum > best &&
      identifiers === 0 &&
      nonAscii === 0 &&
      slashes <= 1 &&
      digits <= 2 &&
      spaces >= 3 &&
      letters >= window * 0.55
    ) {
      best = sum;
    }
  }
  return best / window / SURPRISAL_STEPS;
}

// ---- slot-features.ts ----

/** The slot feature ids of folded `text[start, end)`, in the order found. */
export function referenceSlotFeatureIds(text: string, start: number, end: number): number[] {
  const K = SLOT_COUNT;
  const ids: number[] = [];
  const emit = (id: number) => ids.push(id);
  // Word number of each slot's last occurrence; -1: not seen.
  const last = new Int32Array(K).fill(-1);
  const seen = new Uint8Array(K + 2 * K * K);
  const add = (id: number) => {
    if (seen[id] === 1) return;
    seen[id] = 1;
    emit(id);
  };
  const mark = (slot: number, position: number) => {
    for (let other = 0; other < K; other++) {
      if (other === slot || last[other]! < 0) continue;
      const pair = slot < other ? slot * K + other : other * K + slot;
      add(K + pair);
      if (position - last[other]! <= NEAR) add(K + K * K + pair);
    }
    if (last[slot]! < 0) add(slot);
    last[slot] = position;
  };
  // The previous word (start and hash), if it was short enough to be listed.
  let previousStart = -1;
  let previousEnd = -1;
  let previousHash = 0;
  let position = 0;
  let index = start;
  while (index < end) {
    let code = text.charCodeAt(index);
    while (index < end && !(code >= 97 && code <= 122)) code = text.charCodeAt(++index);
    if (index >= end) break;
    const wordStart = index;
    let hash = 0x811c9dc5;
    while (index < end && code >= 97 && code <= 122) {
      hash = Math.imul(hash ^ code, 0x01000193);
      code = text.charCodeAt(++index);
    }
    hash >>>= 0;
    const length = index - wordStart;
    // Words longer than any listed one are neither a slot nor half of a pair.
    if (length <= 16) {
      const filter = FILTER[hash & 4095]!;
      const entry = (filter & 1) !== 0 ? WORD_SLOTS.get(hash) : undefined;
      if (entry && entry.word.length === length && text.startsWith(entry.word, wordStart)) {
        mark(entry.slot, position);
      }
      if ((filter & 4) !== 0 && previousStart >= 0 && (FILTER[previousHash & 4095]! & 2) !== 0) {
        const pair = PAIR_SLOTS.get(pairHash(previousHash, hash));
        if (
          pair &&
          pair.first.length === previousEnd - previousStart &&
          pair.second.length === length &&
          text.startsWith(pair.first, previousStart) &&
          text.startsWith(pair.second, wordStart)
        ) {
          mark(pair.slot, position);
        }
      }
      previousStart = wordStart;
      previousEnd = index;
      previousHash = hash;
    } else {
      previousStart = -1;
    }
    position++;
  }
  return ids;
}
