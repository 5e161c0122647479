/**
 * What a judge's reason quoted from the texts it judged, as `[quoted]`
 * (rounds 26 to 30; moved here from `llm-judge.ts` in round 30).
 */

import { decodedRuns } from './encoded-forms';
import {
  type EdgedSkeleton,
  edgedSkeletonOf,
  latinLetterOf,
  type MappedSkeleton,
  mappedSkeletonOf,
  skeletonOf,
} from './reason-skeleton';

/** Shortest run of a judged text that a reason may not repeat. */
const MIN_QUOTE_CHARS = 8;
/** Shortest token with a digit (a card's group, a PIN, `hunter2`) that a reason may not repeat. */
const MIN_DIGIT_TOKEN_CHARS = 4;
const QUOTED = '[quoted]';

/**
 * Rolling hashes: base 31 modulo 2^30 (`Math.imul`, masked: small integers
 * V8 keeps unboxed; a hit is compared, so a collision costs a compare).
 */
const HASH_BASE = 31;
const HASH_MASK = 0x3fffffff;
/** Most distinct windows sought one by one (`includes`) rather than by a rolling pass. */
const MAX_SEARCHED_PIECES = 16;
/** Bits of a hash that index the filter tried before the map (most windows of a text are no window of the reason). */
const FILTER_BITS = 16;

/**
 * Marks in `quoted` each window of `reason` (its start in `starts`, each
 * `length` characters) found in one of `judged`: one rolling hash over
 * each text, tried in a bit filter, then looked up among the windows and
 * compared. Linear in the texts.
 */
function markCopies(
  reason: string,
  judged: readonly string[],
  length: number,
  starts: readonly number[],
  quoted: Uint8Array,
): void {
  // Few distinct windows (the short ones of most reasons): a native search
  // each, much cheaper than a rolling pass over a long text.
  const pieces = new Map<string, number[]>();
  for (const start of starts) {
    const piece = reason.slice(start, start + length);
    pieces.set(piece, [...(pieces.get(piece) ?? []), start]);
    if (pieces.size > MAX_SEARCHED_PIECES) break;
  }
  if (pieces.size <= MAX_SEARCHED_PIECES) {
    for (const [piece, at] of pieces) {
      if (!judged.some(text => text.includes(piece))) continue;
      for (const start of at) quoted.fill(1, start, start + length);
    }
    return;
  }
  let top = 1;
  for (let power = 1; power < length; power++) top = Math.imul(top, HASH_BASE);
  const windows = new Map<number, number[]>();
  const filter = new Uint8Array(1 << FILTER_BITS);
  const mask = (1 << FILTER_BITS) - 1;
  for (const start of starts) {
    const hash = hashOf(reason, start, start + length);
    windows.set(hash, [...(windows.get(hash) ?? []), start]);
    filter[hash & mask] = 1;
  }
  for (const text of judged) {
    let hash = 0;
    for (let index = 0; index < text.length && windows.size > 0; index++) {
      const dropped = index >= length ? text.charCodeAt(index - length) : 0;
      hash =
        (Math.imul(hash - Math.imul(dropped, top), HASH_BASE) + text.charCodeAt(index)) & HASH_MASK;
      if (filter[hash & mask] === 0 || index < length - 1) continue;
      const found = windows.get(hash);
      if (!found) continue;
      const piece = text.slice(index - length + 1, index + 1);
      const open = found.filter(at => {
        if (!reason.startsWith(piece, at)) return true;
        quoted.fill(1, at, at + length);
        return false;
      });
      // A window found once is done: each text costs one pass whatever the reason holds.
      if (open.length === 0) windows.delete(hash);
      else windows.set(hash, open);
    }
  }
}

/**
 * The reason with every part it copied from the judged texts (the content
 * and the conversation the judge was shown) as `[quoted]`: each run of 8
 * characters or more found in one of them, and each token of 4 or more
 * with a digit found in one. A judge explains its verdict by quoting ("the
 * message contains the card 4111 1111 1111 1111"): the record would carry
 * what the guardrail kept from the model, into logs, events and a retry's
 * feedback. Linear: one rolling pass over each text, and a native search
 * for each short token with a digit.
 */
export function withoutQuotes(reason: string, judged: readonly string[]): string {
  // Base64 and hex (round 29): the reason's runs are read decoded too,
  // after it (a run whose decoded text quotes is masked whole), and the
  // judged texts' decoded runs are judged texts too.
  const runs = decodedRuns(reason);
  const decodedJudged = judged
    .map(text =>
      decodedRuns(text, true)
        .map(run => run.text)
        .join('\n'),
    )
    .filter(text => text !== '');
  const texts = decodedJudged.length > 0 ? [...judged, ...decodedJudged] : judged;
  // ROT13 (round 30): the reason read so, after its runs, letter for letter.
  const rotated = rot13(reason);
  const quoted = quotedMarks(
    `${reason + runs.map(run => `${RUN_SEPARATOR}${run.text}`).join('')}${RUN_SEPARATOR}${rotated}`,
    texts,
    hiddenValues(reason, texts),
  );
  let at = reason.length;
  for (const run of runs) {
    at += RUN_SEPARATOR.length;
    if (quoted.subarray(at, at + run.text.length).includes(1)) quoted.fill(1, run.start, run.end);
    at += run.text.length;
  }
  at += RUN_SEPARATOR.length;
  for (let index = 0; index < reason.length; index++)
    quoted[index] = quoted[index]! | quoted[at + index]!;
  // A surrogate pair is masked whole or not at all (the ROT13 reading
  // writes one letter and U+200B for it, and marks may end between them).
  for (let index = 0; index + 1 < reason.length; index++) {
    const code = reason.charCodeAt(index);
    if (code < 0xd800 || code > 0xdbff || (reason.charCodeAt(index + 1) & 0xfc00) !== 0xdc00)
      continue;
    quoted[index] = quoted[index + 1] = quoted[index]! | quoted[index + 1]!;
    index++;
  }
  // A quoted run's blanks at either end stay, so the sentence keeps its spaces.
  for (let index = 0; index < reason.length; index++) {
    const starts = quoted[index] === 1 && (index === 0 || quoted[index - 1] !== 1);
    if (!starts) continue;
    let end = index;
    while (end < reason.length && quoted[end] === 1) end++;
    for (let at = index; at < end && /\s/.test(reason[at]!); at++) quoted[at] = 0;
    for (let at = end - 1; at >= index && /\s/.test(reason[at]!); at--) quoted[at] = 0;
    index = end - 1;
  }
  let shown = '';
  for (let index = 0; index < reason.length; index++) {
    if (quoted[index] !== 1) shown += reason[index];
    else if (index === 0 || quoted[index - 1] !== 1) shown += QUOTED;
  }
  return shown;
}

/**
 * Between a reason and its decoded runs: NUL, which no bounded reason holds
 * (controls are spaces there) and a skeleton keeps as itself, so no window
 * and no stretch runs from one into the other; blanks, so each is its own word.
 */
const RUN_SEPARATOR = ' \u0000 ';

/** Marks of what `reason` copied from `judged` (see {@link withoutQuotes}), one per character. */
function quotedMarks(
  reason: string,
  judged: readonly string[],
  hidden: ReadonlySet<string>,
): Uint8Array {
  const quoted = new Uint8Array(reason.length);
  const runs = Array.from(
    { length: Math.max(0, reason.length - MIN_QUOTE_CHARS + 1) },
    (_, at) => at,
  );
  markCopies(reason, judged, MIN_QUOTE_CHARS, runs, quoted);
  // Shorter tokens with a digit (a longer one is made of runs): a native
  // search each, linear (at most 7 characters sought).
  for (const token of reason.matchAll(/\S+/g)) {
    // The token's letters and digits, without the punctuation a sentence puts around it.
    const core = /[\p{L}\p{N}](?:.*[\p{L}\p{N}])?/u.exec(token[0]);
    const length = core?.[0].length ?? 0;
    if (!core || length < MIN_DIGIT_TOKEN_CHARS || length >= MIN_QUOTE_CHARS) continue;
    if (!/\d/.test(core[0]) || !judged.some(text => text.includes(core[0]))) continue;
    const at = token.index + core.index;
    quoted.fill(1, at, at + length);
  }
  // Round 34: a number glued to other characters (`PIN=4821`, `x4821`,
  // `4821st`) was no token of its own, and shown. Each run of 4 to 7
  // digits found in a judged text, and of 3 that is a hidden value (`the
  // pin of 482`), is masked wherever it stands.
  for (const run of reason.matchAll(DIGIT_RUN)) {
    const digits = run[0];
    const found =
      digits.length < MIN_DIGIT_TOKEN_CHARS
        ? hidden.has(digits)
        : judged.some(text => text.includes(digits));
    if (found) quoted.fill(1, run.index, run.index + digits.length);
  }
  markRewrittenCopies(reason, judged, quoted, hidden);
  // By code point: both halves of a mathematical `𝐬` are a letter of the word (round 41:
  // read a half at a time they parted words, and `quote[s 𝐬𝐰𝐨𝐫𝐝𝐟𝐢𝐬𝐡]` was unmarked whole
  // as the `s` of `quotes` and what parts it from the rest of the stretch).
  const wordy = new Uint8Array(reason.length);
  for (let index = 0; index < reason.length; ) {
    const point = reason.codePointAt(index)!;
    const size = point > 0xffff ? 2 : 1;
    if (WORDY.test(String.fromCodePoint(point))) wordy.fill(1, index, index + size);
    index += size;
  }
  withoutEdgeOverlaps(wordy, quoted);
  toWordEnds(wordy, quoted);
  return quoted;
}

/** A letter or digit: a unit of a word (a code point: a surrogate pair's two halves alike). */
const WORDY = /[\p{L}\p{N}]/u;

/**
 * Most letters and digits of a word at either end of a marked stretch
 * that are left out of it when the stretch goes on past that word (round
 * 40). A window of 8 letters and digits runs across words: `name
 * ｓｅｃｒｅｔ９９` reads `namesecret99`, and when the judged text wrote
 * `time secret99`, the window `esecret9` made the whole of `name` read
 * `[quoted]` (the reason's ROT13 reading, `anzr`, did so after a text's
 * `secret99 and`). One letter of another word continues a judged text by
 * chance about once in 20, two about once in 400, three about once in
 * 8,000: so up to 2 letters are taken for chance, and the word is shown.
 * A stretch inside one word (`hunter2x` of `hunter2xyz`) still marks the
 * whole word, and 3 letters or more of a word mark it whole.
 */
const MAX_EDGE_OVERLAP = 2;

/**
 * Unmarks, at either end of each marked stretch of `quoted` that goes on
 * past the word it starts or ends in, the part of that word (at most
 * {@link MAX_EDGE_OVERLAP} letters and digits) and what parts it from the
 * rest of the stretch. Linear: each stretch is read at most three times.
 */
function withoutEdgeOverlaps(wordy: Uint8Array, quoted: Uint8Array): void {
  const length = quoted.length;
  for (let start = 0; start < length; start++) {
    if (quoted[start] !== 1) continue;
    let end = start;
    while (end < length && quoted[end] === 1) end++;
    if (start > 0 && wordy[start - 1] === 1 && wordy[start] === 1) {
      let wordEnd = start;
      while (wordEnd < end && wordy[wordEnd] === 1) wordEnd++;
      if (wordEnd < end && wordEnd - start <= MAX_EDGE_OVERLAP) {
        let next = wordEnd;
        while (next < end && wordy[next] !== 1) next++;
        quoted.fill(0, start, next);
        start = next;
      }
    }
    if (end < length && wordy[end] === 1 && wordy[end - 1] === 1) {
      let wordStart = end;
      while (wordStart > start && wordy[wordStart - 1] === 1) wordStart--;
      if (wordStart > start && end - wordStart <= MAX_EDGE_OVERLAP) {
        let last = wordStart;
        while (last > start && wordy[last - 1] !== 1) last--;
        quoted.fill(0, last, end);
      }
    }
    start = end;
  }
}

/** Marks to the ends of the words a stretch touches: no half word of a value is shown. */
function toWordEnds(wordy: Uint8Array, quoted: Uint8Array): void {
  for (let index = 1; index < quoted.length; index++) {
    if (quoted[index - 1] === 1 && quoted[index] !== 1 && wordy[index - 1]! & wordy[index]!) {
      quoted[index] = 1;
    }
  }
  for (let index = quoted.length - 2; index >= 0; index--) {
    if (quoted[index + 1] === 1 && quoted[index] !== 1 && wordy[index + 1]! & wordy[index]!) {
      quoted[index] = 1;
    }
  }
}

/** A run of 3 to 7 ASCII digits between no other digits (longer runs are runs of 8). */
const DIGIT_RUN = /(?<!\d)\d{3,7}(?!\d)/g;

/**
 * Marks in `quoted` what `reason` copied from the judged texts written
 * otherwise (round 27): compared by their skeletons (`reason-skeleton.ts`:
 * letters and digits, escapes decoded, case and compatibility forms
 * folded), each run of 8 skeleton characters of the reason found in a
 * judged text's skeleton, forward or written backwards, and each run of
 * whole words of 4 to 7 skeleton characters with a digit found there
 * either way (a value spelled out over words of any length, round 28:
 * `hu nt er 2` was shown, only words of one letter were joined). A
 * marked stretch takes the characters between its letters (the spaces of
 * `4111 1111 …`); {@link quotedMarks} then runs it to the ends of the
 * words it touches by 3 letters or more (round 40). Linear:
 * one rolling pass over each skeleton for each length from 4 to 8.
 */
function markRewrittenCopies(
  reason: string,
  judged: readonly string[],
  quoted: Uint8Array,
  hidden: ReadonlySet<string>,
): void {
  const skeleton = mappedSkeletonOf(reason);
  const length = skeleton.text.length;
  if (length < MIN_HIDDEN_CHARS) return;
  const edged = judged.map(edgedSkeletonOf);
  const texts = edged.map(text => text.text);
  // Forward and backwards in one pass over each judged skeleton: windows of
  // `forward + separator + backward` that do not cross the separator.
  const both = `${skeleton.text}\n${[...skeleton.text].reverse().join('')}`;
  const starts: number[] = [];
  for (let at = 0; at + MIN_QUOTE_CHARS <= both.length; at++) {
    if (at + MIN_QUOTE_CHARS <= length || at > length) starts.push(at);
  }
  const copied = new Uint8Array(both.length);
  markCopies(both, texts, MIN_QUOTE_CHARS, starts, copied);
  const inSkeleton = new Uint8Array(length);
  for (let index = 0; index < length; index++) {
    inSkeleton[index] = copied[index]! | copied[both.length - 1 - index]!;
  }
  markShortQuotes(skeleton, edged, inSkeleton);
  // Each run of whole words whose skeleton is 4 to 7 characters with a
  // digit: a word (`hunter2`), or a value spelled out over several
  // (`h u n t e r 2`, and round 28: `hu nt er 2`, `hunt er2`). As [first,
  // last) of the skeleton; the words' skeletons follow each other there.
  const words: number[] = [];
  for (const token of reason.matchAll(/\S+/g)) {
    let first = words.length === 0 ? 0 : words[words.length - 1]!;
    while (first < length && skeleton.from[first]! < token.index) first++;
    words.push(first);
  }
  words.push(length);
  const shortStarts = new Map<number, number[]>();
  for (let word = 0; word + 1 < words.length; word++) {
    const first = words[word]!;
    for (let next = word + 1; next < words.length; next++) {
      const size = words[next]! - first;
      if (size >= MIN_QUOTE_CHARS) break;
      const piece = skeleton.text.slice(first, first + size);
      // A hidden value (round 30), as one word or spelled over several, either way round.
      if (size >= MIN_HIDDEN_CHARS && (hidden.has(piece) || hidden.has(reversed(piece)))) {
        inSkeleton.fill(1, first, first + size);
      }
      if (size < MIN_DIGIT_TOKEN_CHARS) continue;
      if (!/\d/.test(piece)) continue;
      // Forward at `first` of `both`, and backwards where the reversed skeleton holds it.
      const starts = shortStarts.get(size) ?? [];
      starts.push(first, both.length - first - size);
      shortStarts.set(size, starts);
    }
  }
  // One rolling pass over each judged skeleton per length (4 to 7): linear.
  for (const [size, starts] of shortStarts) {
    const found = new Uint8Array(both.length);
    markCopies(both, texts, size, [...new Set(starts)], found);
    for (let index = 0; index < length; index++) {
      inSkeleton[index] = inSkeleton[index]! | found[index]! | found[both.length - 1 - index]!;
    }
  }
  for (let index = 0; index < length; index++) {
    if (inSkeleton[index] !== 1) continue;
    const next = index + 1 < length && inSkeleton[index + 1] === 1;
    quoted.fill(1, skeleton.from[index]!, next ? skeleton.from[index + 1]! : skeleton.to[index]!);
  }
}

/** Fewest skeleton characters of a quote of whole words found by {@link markShortQuotes} (5 letters and 4 breaks are 9 as written). */
const MIN_SHORT_QUOTE_LETTERS = 5;

/**
 * Marks in `inSkeleton` each run of whole words of the reason whose
 * skeleton is 5 to 7 characters and is a run of whole words of a judged
 * text that makes 8 characters or more there with one blank between words
 * (round 39): the rule of a copy as written (8 characters), read in the
 * skeletons. `Jane Roe` is 7 letters, so a reason that wrote it `JANE
 * ROE`, `Jane  Roe`, `Jane-Roe`, `J a n e R o e` or `Jane\u200bRoe` was
 * shown; now each is masked. A shorter run, or one that is part of a word
 * on either side, is not (`the`, `asks`, `another` in `an other word`...
 * as one word is: both are whole). Linear: the reason's runs (at most 3
 * per character of a bounded reason) in a map, and each word start of a
 * judged skeleton tries 3 lengths, each a slice of at most 7.
 */
function markShortQuotes(
  skeleton: MappedSkeleton,
  judged: readonly EdgedSkeleton[],
  inSkeleton: Uint8Array,
): void {
  const length = skeleton.text.length;
  const runs = new Map<string, number[]>();
  // The runs' hashes in a bit filter: most word starts of a text slice nothing.
  const filter = new Uint8Array(1 << FILTER_BITS);
  const mask = (1 << FILTER_BITS) - 1;
  for (let first = 0; first < length; first++) {
    if (skeleton.edges[first] !== 1) continue;
    for (let size = MIN_SHORT_QUOTE_LETTERS; size < MIN_QUOTE_CHARS; size++) {
      if (first + size > length || skeleton.edges[first + size] !== 1) continue;
      const piece = skeleton.text.slice(first, first + size);
      if (piece.includes('\u0000')) continue;
      // Forward and written backwards (round 40: `eoR enaJ`, `EORENAJ` for `Jane Roe`).
      for (const read of new Set([piece, reversed(piece)])) {
        runs.set(read, [...(runs.get(read) ?? []), first]);
        filter[hashOf(read, 0, size) & mask] = 1;
      }
    }
  }
  for (const { text, edges } of judged) {
    for (let first = 0; first < text.length && runs.size > 0; first++) {
      if (edges[first] !== 1) continue;
      // Breaks inside the run so far: its length as written with one blank each.
      let breaks = 0;
      let hash = 0;
      for (let size = 1; size < MIN_QUOTE_CHARS && first + size <= text.length; size++) {
        const end = first + size;
        hash = (Math.imul(hash, HASH_BASE) + text.charCodeAt(end - 1)) & HASH_MASK;
        if (edges[end] !== 1) continue;
        if (
          size >= MIN_SHORT_QUOTE_LETTERS &&
          size + breaks >= MIN_QUOTE_CHARS &&
          filter[hash & mask] === 1
        ) {
          const piece = text.slice(first, end);
          for (const at of runs.get(piece) ?? []) inSkeleton.fill(1, at, at + size);
          runs.delete(piece);
        }
        breaks++;
      }
    }
  }
}

/** The rolling hash of `text`'s units from `start` to `end` (as {@link markCopies} rolls it). */
function hashOf(text: string, start: number, end: number): number {
  let hash = 0;
  for (let index = start; index < end; index++) {
    hash = (Math.imul(hash, HASH_BASE) + text.charCodeAt(index)) & HASH_MASK;
  }
  return hash;
}

/** `text` written backwards (by UTF-16 unit: skeletons of hidden values are short). */
function reversed(text: string): string {
  return [...text].reverse().join('');
}

/**
 * `text` in ROT13, of the same length: each ASCII letter 13 places on, and
 * since round 40 each other character a skeleton reads as one Latin letter
 * too (fullwidth `ｓ`, a look-alike, `𝐬`: as the ASCII letter 13 places
 * on, then U+200B for a surrogate pair's second half). Before, such a
 * letter stayed as written among rotated ones: a fullwidth quote
 * (`ｓｅｃｒｅｔ９９`) stayed a quote in this reading, and a rotated word
 * beside it could continue it as the judged text did (`name` read `anzr`
 * after `secret99` of `secret99 and`), so that word was masked too.
 */
function rot13(text: string): string {
  const read: string[] = [];
  for (let index = 0; index < text.length; ) {
    const point = text.codePointAt(index)!;
    const size = point > 0xffff ? 2 : 1;
    const ascii = point < 0x80 && /[a-z]/i.test(String.fromCharCode(point));
    const letter = ascii
      ? String.fromCharCode(point | 0x20)
      : point < 0x80
        ? ''
        : latinLetterOf(point);
    if (letter === '') read.push(text.slice(index, index + size));
    else {
      const rotated = String.fromCharCode(((letter.charCodeAt(0) - 97 + 13) % 26) + 97);
      // An ASCII letter keeps its case (the reading is also compared as written).
      read.push(
        ascii && point < 0x61 ? rotated.toUpperCase() : rotated,
        size === 2 ? '\u200b' : '',
      );
    }
    index += size;
  }
  return read.join('');
}

/** Shortest skeleton of a hidden value (`Bob`); from 8 on, every copy is masked anyway. */
const MIN_HIDDEN_CHARS = 3;

/**
 * A value after a key that names a password, PIN, secret, token, user or
 * login name, or a name (`password: letmein`, `DB_PASS=sunset`, `my
 * name is Alice`, `pin was "abcd"`), and since round 31 a key, code or
 * one-time password (`api key: sunset`, `API_KEY=orange`, `recovery code
 * = maple`, `the OTP is qwerty`), and since round 32 an answer or a
 * phrase (`security answer: maple`, `phrase=sunset`), and since round 34
 * a hint (`password hint: maple`): the key, `:` / `=` (or ` is `, ` was `,
 * since round 32 an arrow: `->`, `=>`, `→`, and since round 34 ` of `
 * before a value with a digit: `the pin of 482`), an
 * optional quote, and the value up to a blank, quote, comma or semicolon. The key may end a longer word (`DB_PASS`, `username`,
 * `nickname`): no boundary is sought before it, so the regular expression
 * starts at a key's first letter only (a few milliseconds a megabyte).
 */
const VALUE_AFTER_KEY =
  /(?:pass(?:word|wd|code|phrase)?|pwd|pin|secret|token|login|user|name|key|code|otp|answer|phrase|hint)["']?(?:[ \t]*(?:[:=]+>?|-+>|\u2192)[ \t]*| +(?:is|was) +| +of +(?=[^\s"'`,;]*\d))["'`]?([^\s"'`,;]{1,64})/gi;

/** Words that follow such a key as prose, not as its value (`the password is required`). */
const NOT_VALUES = new Set([
  'the',
  'and',
  'not',
  'set',
  'yes',
  'true',
  'false',
  'null',
  'none',
  'nil',
  'empty',
  'same',
  'your',
  'mine',
  'this',
  'that',
  'here',
  'there',
  'below',
  'above',
  'wrong',
  'correct',
  'invalid',
  'changed',
  'secret',
  'hidden',
  'unknown',
  'redacted',
  'masked',
  'removed',
  'password',
  'token',
  'name',
  'user',
  'login',
  'key',
  'code',
  'answer',
  'phrase',
  'hint',
  'also',
  'still',
  'now',
  'too',
  'very',
  'weak',
  'strong',
  'short',
  'long',
  'missing',
  'needed',
  'required',
  'expired',
  'valid',
  'new',
  'old',
]);

/** The skeleton of a value read after a key, when it is one to hide (3 to 7 characters, no prose word). */
function hiddenSkeleton(value: string): string | undefined {
  const skeleton = skeletonOf(value.replace(/[.!?:)\]}>]+$/, ''));
  if (skeleton.length < MIN_HIDDEN_CHARS || skeleton.length >= MIN_QUOTE_CHARS) return undefined;
  return NOT_VALUES.has(skeleton) ? undefined : skeleton;
}

/**
 * The skeletons of the short values the judged texts hold after a key
 * (round 30: `password: letmein`, `my name is Alice`): a value of 3 to 7
 * letters without a digit, which the other checks leave to the reason's
 * own words. Also the values the reason itself writes after such a key
 * (`the user's name is Alice`) when a judged text holds that word whole.
 * The reason writes them verbatim, in upper case or spaced out
 * (`L E T M E I N`): each is masked. Linear: one regular-expression pass
 * over each text.
 */
function hiddenValues(reason: string, judged: readonly string[]): Set<string> {
  const hidden = new Set<string>();
  for (const text of judged) {
    for (const match of text.matchAll(VALUE_AFTER_KEY)) {
      const skeleton = hiddenSkeleton(match[1]!);
      if (skeleton !== undefined && hidden.size < MAX_HIDDEN_VALUES) hidden.add(skeleton);
    }
  }
  for (const match of reason.matchAll(VALUE_AFTER_KEY)) {
    const value = match[1]!.replace(/[.!?:)\]}>]+$/, '');
    const skeleton = hiddenSkeleton(value);
    if (skeleton === undefined || hidden.has(skeleton)) continue;
    const whole = new RegExp(
      `(?<![\\p{L}\\p{N}])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
      'iu',
    );
    if (judged.some(text => whole.test(text))) hidden.add(skeleton);
  }
  return hidden;
}

/** Most hidden values kept (a text of a million keys costs a bounded set). */
const MAX_HIDDEN_VALUES = 10_000;
