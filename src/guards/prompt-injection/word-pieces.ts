/**
 * Round 47 (hA, issue 15) word-piece test, moved here from the trainer by
 * round 49 (hD) for the word-piece suffix gate (`suffix-word-piece-gate.ts`).
 * Edge-safe (no Node built-ins). The test is for adversarial suffixes
 * written in one script. Round 46's
 * screen found that the suffixes round 44's gate misses are glued word
 * pieces, not symbols (`githubinst` is one; `teamsures` is not by this
 * test, `sures` being no word). A token of folded text is a *word piece* when
 *   - it is made of ASCII letters only (`a`–`z`; folded text is lower case),
 *     `WORD_PIECE_MIN` to `WORD_PIECE_MAX` of them,
 *   - it is not a word of the vocabulary, nor one with an English prefix or
 *     suffix (`AFFIX_SUFFIXES`, `AFFIX_PREFIXES`: `championships`,
 *     `discontinued` are words, not pieces),
 *   - and it splits into 2 or more words of the vocabulary, each of at least
 *     `PIECE_MIN` letters.
 * The vocabulary is a set of 32-bit hashes (`wordHash`) of lower-case words,
 * built at training time; see `word-vocabulary.ts`.
 * Round 47's screen variants D and E applied it to English text only
 * (`readsAsEnglish`, kept with the trainer); round 49's gate reads the
 * words outside the suffix instead.
 * Each test reads at most `WORD_PIECE_MAX` letters and tries at most
 * `PIECE_MAX` piece ends per start: constant work per token, linear in the
 * text; no RegExp.
 */

/** Fewest letters of a word-piece token. */
export const WORD_PIECE_MIN = 8;
/** Most letters of a token the test reads (longer ones are not word pieces). */
export const WORD_PIECE_MAX = 40;
/** Fewest letters of a piece. */
export const PIECE_MIN = 3;
/** Most letters of a piece. */
export const PIECE_MAX = 16;

/** Endings that make a word of a vocabulary word (`champion` + `ships`), longest first. */
export const AFFIX_SUFFIXES = [
  'ations',
  'ically',
  'ities',
  'ments',
  'ships',
  'ation',
  'ingly',
  'ness',
  'ment',
  'ship',
  'ists',
  'isms',
  'ions',
  'able',
  'ably',
  'ally',
  'less',
  'ized',
  'izes',
  'ity',
  'ing',
  'ers',
  'ist',
  'ism',
  'ion',
  'ful',
  'ize',
  'ive',
  'est',
  'ies',
  'ed',
  'es',
  'er',
  'ly',
  'al',
  'd',
  's',
];
/** Beginnings that make a word of a vocabulary word (`dis` + `continued`). */
export const AFFIX_PREFIXES = [
  'inter',
  'under',
  'micro',
  'multi',
  'super',
  'anti',
  'over',
  'semi',
  'self',
  'non',
  'pre',
  'dis',
  'mis',
  'sub',
  'out',
  'un',
  're',
  'co',
  'de',
];

/** FNV-1a (32 bits) of the char codes of `text` from `from` to `to`. */
export function wordHash(text: string, from = 0, to = text.length): number {
  let hash = 0x811c9dc5;
  for (let index = from; index < to; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A set of word hashes: a sorted `Uint32Array`, looked up by bisection. */
export class WordSet {
  constructor(private readonly hashes: Uint32Array) {}

  /** Whether the hash `hash` is in the set. */
  hasHash(hash: number): boolean {
    const hashes = this.hashes;
    let low = 0;
    let high = hashes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const value = hashes[middle]!;
      if (value === hash) return true;
      if (value < hash) low = middle + 1;
      else high = middle;
    }
    return false;
  }

  /** How many hashes the set holds. */
  get size(): number {
    return this.hashes.length;
  }
}

/** The set of the hashes of `words`, sorted and without repeats. */
export function wordSetOf(words: Iterable<string>): WordSet {
  const hashes = [...new Set([...words].map(word => wordHash(word)))].sort((a, b) => a - b);
  return new WordSet(Uint32Array.from(hashes));
}

/** Whether `token[from, to)` holds only ASCII lower-case letters. */
function lowerLetters(token: string, from: number, to: number): boolean {
  for (let index = from; index < to; index++) {
    const code = token.charCodeAt(index);
    if (code < 97 || code > 122) return false;
  }
  return true;
}

/**
 * Whether `token[from, to)` (folded, lower case) is a word-piece token of
 * `vocabulary` (the header's definition).
 */
export function isWordPieceToken(
  vocabulary: WordSet,
  token: string,
  from = 0,
  to = token.length,
): boolean {
  const length = to - from;
  if (length < WORD_PIECE_MIN || length > WORD_PIECE_MAX) return false;
  if (!lowerLetters(token, from, to)) return false;
  if (vocabulary.hasHash(wordHash(token, from, to))) return false;
  if (isAffixedWord(vocabulary, token, from, to)) return false;
  // reach[i]: the first i letters split into vocabulary pieces.
  const reach = new Uint8Array(length + 1);
  reach[0] = 1;
  for (let start = 0; start < length; start++) {
    if (reach[start] === 0) continue;
    let hash = 0x811c9dc5;
    const last = Math.min(length, start + PIECE_MAX);
    for (let end = start + 1; end <= last; end++) {
      hash ^= token.charCodeAt(from + end - 1);
      hash = Math.imul(hash, 0x01000193) >>> 0;
      if (end - start >= PIECE_MIN && vocabulary.hasHash(hash)) reach[end] = 1;
    }
  }
  return reach[length] === 1;
}

/** Whether `token[from, to)` (lower-case letters) is a vocabulary word, or one with an English affix. */
export function isVocabularyWord(
  vocabulary: WordSet,
  token: string,
  from = 0,
  to = token.length,
): boolean {
  return (
    vocabulary.hasHash(wordHash(token, from, to)) || isAffixedWord(vocabulary, token, from, to)
  );
}

/** Whether `token[from, to)` is a vocabulary word (of `PIECE_MIN`+ letters) with an affix. */
function isAffixedWord(vocabulary: WordSet, token: string, from: number, to: number): boolean {
  for (const suffix of AFFIX_SUFFIXES) {
    if (to - from - suffix.length < PIECE_MIN || !token.endsWith(suffix, to)) continue;
    if (vocabulary.hasHash(wordHash(token, from, to - suffix.length))) return true;
  }
  for (const prefix of AFFIX_PREFIXES) {
    if (to - from - prefix.length < PIECE_MIN || !token.startsWith(prefix, from)) continue;
    if (vocabulary.hasHash(wordHash(token, from + prefix.length, to))) return true;
  }
  return false;
}

/** The hashes of a vocabulary as base64 of their little-endian bytes (the model file's form). */
export function encodeWordSet(hashes: Uint32Array): string {
  const bytes = new Uint8Array(hashes.length * 4);
  for (const [index, hash] of hashes.entries()) {
    bytes[index * 4] = hash & 255;
    bytes[index * 4 + 1] = (hash >>> 8) & 255;
    bytes[index * 4 + 2] = (hash >>> 16) & 255;
    bytes[index * 4 + 3] = hash >>> 24;
  }
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The `WordSet` that `encodeWordSet` wrote. */
export function decodeWordSet(base64: string): WordSet {
  const binary = atob(base64);
  const hashes = new Uint32Array(binary.length >>> 2);
  for (let index = 0; index < hashes.length; index++) {
    hashes[index] =
      (binary.charCodeAt(index * 4) |
        (binary.charCodeAt(index * 4 + 1) << 8) |
        (binary.charCodeAt(index * 4 + 2) << 16) |
        (binary.charCodeAt(index * 4 + 3) << 24)) >>>
      0;
  }
  return new WordSet(hashes);
}
