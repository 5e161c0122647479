/**
 * Tokens and hashed features of the named-entity tagger, shared by the
 * tagger and its trainer (`scripts/train/train-ner.ts`) so both see the
 * same thing. Every feature is a 32-bit hash of a template id and a value
 * hash: no strings are built per feature, so a token costs a fixed number
 * of integer operations.
 */

/** One token: `[start, end)` offsets into the tagged text. */
export interface Token {
  start: number;
  end: number;
  /** The token's text. */
  text: string;
  /** Whether a line break sits between the previous token and this one. */
  newlineBefore: boolean;
}

/** The longest token text kept; longer runs (ids, base64) are cut, so one token stays cheap to describe. */
export const MAX_TOKEN_LENGTH = 40;

const asciiWord = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  asciiWord[code] = /[A-Za-z0-9]/.test(String.fromCharCode(code)) ? 1 : 0;
}
const unicodeWord = /^[\p{L}\p{M}\p{N}]$/u;
const unicodeUpper = /^\p{Lu}$/u;
const unicodeSpace = /^\s$/u;

/** Code-point length of the character at `index` (2 for a surrogate pair). */
function charLength(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? 2 : 1;
}

/** Whether the code point at `index` is a letter, mark or digit. */
function isWordAt(text: string, index: number): boolean {
  if (index >= text.length) return false;
  const code = text.charCodeAt(index);
  if (code < 128) return asciiWord[code] === 1;
  return unicodeWord.test(text.slice(index, index + charLength(text, index)));
}

function isSpaceAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return unicodeSpace.test(text[index]!);
}

function isUpperAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 128) return code >= 65 && code <= 90;
  return unicodeUpper.test(text.slice(index, index + charLength(text, index)));
}

/** An apostrophe (straight or curly). */
const isApostrophe = (code: number) => code === 39 || code === 0x2019;

/** `'s` / `’s` at `index`, not followed by a letter: a possessive, its own token. */
function possessiveAt(text: string, index: number): boolean {
  const next = text.charCodeAt(index + 1);
  return (
    isApostrophe(text.charCodeAt(index)) &&
    (next === 115 || next === 83) &&
    !isWordAt(text, index + 2)
  );
}

/** Token boundaries of one text, in parallel typed arrays (grown as needed). */
export interface TokenBounds {
  count: number;
  /** `[start, end)` offsets of each token. */
  start: Int32Array;
  end: Int32Array;
  /** 1 where a line break sits between the previous token and this one. */
  newline: Uint8Array;
}

function grow<A extends Int32Array | Uint8Array>(array: A, size: number): A {
  const grown = new (array.constructor as new (size: number) => A)(size);
  grown.set(array);
  return grown;
}

/**
 * Splits `text` into tokens, in order: an initial with its full stop
 * (`J.`), a word-ish run (letters, marks, digits, joined by one apostrophe
 * or hyphen; a possessive `'s` is a token of its own), or one other visible
 * character. One pass over the text; no string is built.
 */
export function tokenBounds(text: string): TokenBounds {
  const length = text.length;
  let capacity = Math.max(16, Math.min(length, 1 << 16) >> 2);
  let starts = new Int32Array(capacity);
  let ends = new Int32Array(capacity);
  let newlines = new Uint8Array(capacity);
  let count = 0;
  let index = 0;
  let newlineBefore = 0;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === 10 || code === 13) {
      newlineBefore = 1;
      index++;
      continue;
    }
    if (code === 32 || code === 9 || (code > 127 && isSpaceAt(text, index))) {
      index++;
      continue;
    }
    const start = index;
    if (code < 128 ? asciiWord[code] === 1 : isWordAt(text, index)) {
      // An initial: one capital, a full stop, then a blank, a comma or the end.
      if (
        text.charCodeAt(index + 1) === 46 &&
        isUpperAt(text, index) &&
        (index + 2 >= length || text.charCodeAt(index + 2) === 44 || isSpaceAt(text, index + 2))
      ) {
        index += 2;
      } else {
        index += charLength(text, index);
        for (;;) {
          const next = text.charCodeAt(index); // NaN past the end
          if (next < 128) {
            if (asciiWord[next] === 1) {
              index++;
              continue;
            }
          } else if (isWordAt(text, index)) {
            index += charLength(text, index);
            continue;
          }
          if (
            (next === 45 || (isApostrophe(next) && !possessiveAt(text, index))) &&
            isWordAt(text, index + 1)
          ) {
            index += 1;
            continue;
          }
          break;
        }
      }
    } else if (possessiveAt(text, index)) {
      index += 2;
    } else if (code < 9 || code > 13 || !isSpaceAt(text, index)) {
      index += charLength(text, index);
    } else {
      index++; // another ASCII blank (vertical tab, form feed)
      continue;
    }
    if (count === capacity) {
      capacity *= 2;
      starts = grow(starts, capacity);
      ends = grow(ends, capacity);
      newlines = grow(newlines, capacity);
    }
    starts[count] = start;
    ends[count] = index;
    newlines[count] = newlineBefore;
    count++;
    newlineBefore = 0;
  }
  return { count, start: starts, end: ends, newline: newlines };
}

/** The text of a token as features see it: at most `MAX_TOKEN_LENGTH` characters. */
function tokenText(text: string, start: number, end: number): string {
  return text.slice(start, end - start > MAX_TOKEN_LENGTH ? start + MAX_TOKEN_LENGTH : end);
}

/** `tokenBounds` as objects (for the trainer and tests; the tagger reads the arrays). */
export function tokenize(text: string): Token[] {
  const bounds = tokenBounds(text);
  const tokens: Token[] = new Array(bounds.count);
  for (let index = 0; index < bounds.count; index++) {
    const start = bounds.start[index]!;
    const end = bounds.end[index]!;
    tokens[index] = {
      start,
      end,
      text: tokenText(text, start, end),
      newlineBefore: bounds.newline[index] === 1,
    };
  }
  return tokens;
}

/** FNV-1a over a string's UTF-16 code units, then a final mix. */
export function hashString(value: string, seed = 0x811c9dc5): number {
  return mix(fnv(value, seed));
}

/** The FNV-1a state after `value`, continuing from `hash` (no final mix). */
function fnv(value: string, hash: number): number {
  hash >>>= 0;
  for (let index = 0; index < value.length; index++) {
    hash ^= value.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash;
}

/** A 32-bit avalanche (murmur3's finaliser). */
export function mix(value: number): number {
  let hash = value >>> 0;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** Combines a template id with a value hash. */
export function combine(template: number, value: number): number {
  return mix(Math.imul(template + 1, 0x9e3779b1) ^ value);
}

/**
 * A Bloom filter over lower-cased strings: a gazetteer of a hundred
 * thousand names in a few hundred kilobytes, at the cost of about one false
 * hit in a hundred (the tagger learns how far to trust each list).
 */
export class BloomFilter {
  constructor(
    readonly bits: Uint8Array,
    readonly hashes: number,
  ) {}

  /** An empty filter sized for `count` items at about 1% false hits. */
  static sized(count: number): BloomFilter {
    const bitCount = Math.max(64, Math.ceil((count * 9.6) / 8) * 8);
    return new BloomFilter(new Uint8Array(bitCount / 8), 7);
  }

  /** The two hashes of `value` the filter probes with (shared by every filter). */
  static hashesOf(value: string): [number, number] {
    return [hashString(value), hashString(value, 0x9747b28c) | 1];
  }

  add(value: string): void {
    const [first, second] = BloomFilter.hashesOf(value);
    const size = this.bits.length * 8;
    for (let round = 0; round < this.hashes; round++) {
      const bit = ((first + Math.imul(round, second)) >>> 0) % size;
      this.bits[bit >>> 3]! |= 1 << (bit & 7);
    }
  }

  has(value: string): boolean {
    const [first, second] = BloomFilter.hashesOf(value);
    return this.hasHashes(first, second);
  }

  /** `has` for a value whose `hashesOf` are known. */
  hasHashes(first: number, second: number): boolean {
    const size = this.bits.length * 8;
    const bits = this.bits;
    for (let round = 0; round < this.hashes; round++) {
      const bit = ((first + Math.imul(round, second)) >>> 0) % size;
      if ((bits[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
    }
    return true;
  }
}

/**
 * Word clusters from unlabelled text (scripts/train/ner/clusters.ts): the
 * hashes of lower-cased words (`hashString`), sorted, and each word's
 * cluster (1 to 255). A word not in the table is in cluster 0.
 */
export class WordClusters {
  constructor(
    readonly hashes: Uint32Array,
    readonly ids: Uint8Array,
  ) {}

  /** The cluster of the word whose lower-cased `hashString` is `hash` (binary search). */
  clusterOf(hash: number): number {
    const hashes = this.hashes;
    const wanted = hash >>> 0;
    let low = 0;
    let high = hashes.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = hashes[middle]!;
      if (value === wanted) return this.ids[middle]!;
      if (value < wanted) low = middle + 1;
      else high = middle - 1;
    }
    return 0;
  }
}

/** The gazetteers a token is looked up in (lower-cased, diacritics kept). */
export interface Gazetteers {
  /** Word clusters, when the model has them (a feature of the token and its neighbours). */
  clusters?: WordClusters;
  /** First and last names (less the common words and country names). */
  names: BloomFilter;
  /** Common English first names. */
  firstNames: BloomFilter;
  /** Cities and towns, one word or the words of a multi-word name joined by a space. */
  places: BloomFilter;
  /** Country names (several languages). */
  countries: BloomFilter;
  /** Words that English prose mostly writes in lower case. */
  common: BloomFilter;
}

/** Street-type words of many countries (a feature, not a rule: the model weighs them). */
const streetWords = new Set(
  `street st str strasse straße road rd avenue ave av avenida boulevard blvd lane ln drive dr
  court ct place pl square sq way highway hwy parkway pkwy terrace crescent close row alley
  rue chemin allée allee impasse quai via viale piazza corso vicolo calle carrera plaza paseo
  rua travessa praça largo ul ulica utca út tér körút gasse weg platz allee laan straat gracht
  plein kade vej gade vägen gatan gata veien gate tie katu tee väg suite apt apartment unit box
  floor fl building bldg po p.o psc fpo apo dpo usns usnv uss`.split(/\s+/),
);

/** Words that end or mark organisation names. */
const organisationWords = new Set(
  `inc incorporated ltd limited llc llp plc corp corporation company co gmbh ag sa sas sarl
  srl spa bv nv oy ab as asa kg group holdings technologies technology systems solutions
  partners associates labs laboratories bank university institute foundation agency
  international industries services consulting software networks media research`.split(/\s+/),
);

/** Honorifics and titles that precede a name. */
const titleWords = new Set(
  `mr mrs ms miss mx dr prof sir madam dame lord lady herr frau señor señora sr sra monsieur
  madame mme mlle signor signora don doña`.split(/\s+/),
);

/** Feature templates; their numbers are part of the model (do not renumber). Exported for the trainer's experiments. */
export enum T {
  Bias = 0,
  Lower,
  Shape,
  Prefix3,
  Suffix3,
  Suffix2,
  PrevLower,
  NextLower,
  Prev2Lower,
  Next2Lower,
  PrevShape,
  NextShape,
  Flags,
  PrevFlags,
  NextFlags,
  PrevLabel,
  PrevLabels,
  PrevLabelShape,
  PrevLabelFlags,
  PrevLowerLower,
  LowerNextLower,
  ShapeNextShape,
  PrevLabelPrevLower,
  PlaceSpan,
  /** Structured decoding (a trainer experiment, scripts/train/ner/pair-features.ts): the label before (value) scores the label of this token. */
  Transition,
  Cluster,
  PrevCluster,
  NextCluster,
}

export enum Flag {
  Title = 1,
  Upper = 2,
  Lower = 4,
  Digit = 8,
  Name = 16,
  Place = 32,
  Country = 64,
  Common = 128,
  Street = 256,
  Organisation = 512,
  Honorific = 1024,
  SentenceStart = 2048,
  Newline = 4096,
  Punct = 8192,
  FirstName = 16384,
}

/**
 * The flags `streetWords`, `organisationWords` and `titleWords` give a word (round 49, hB: one
 * look-up per new word, where it asked the three sets in turn).
 */
const listFlags = new Map<string, number>();
for (const [words, flag] of [
  [streetWords, Flag.Street],
  [organisationWords, Flag.Organisation],
  [titleWords, Flag.Honorific],
] as const) {
  for (const word of words) listFlags.set(word, (listFlags.get(word) ?? 0) | flag);
}

function shapeOf(text: string): string {
  let shape = '';
  let previous = '';
  for (const char of text) {
    let kind: string;
    if (char >= '0' && char <= '9') kind = 'd';
    else if (char.toLowerCase() !== char) kind = 'X';
    else if (char.toUpperCase() !== char) kind = 'x';
    else if (/[\p{L}\p{M}]/u.test(char)) kind = 'l';
    else kind = char;
    if (kind !== previous) shape += kind;
    previous = kind;
    if (shape.length >= 6) break;
  }
  return shape;
}

/** What a word contributes whatever its neighbours. */
interface WordInfo {
  lower: string;
  lowerHash: number;
  shapeHash: number;
  flags: number;
  prefixHash: number;
  suffix3Hash: number;
  suffix2Hash: number;
}

/** Values per word in `WordTable.rows`. */
const ROW = 16;

/**
 * Where each value sits in a word's row (module constants: the hot loop
 * reads no object): the bucket of each feature that reads this word alone,
 * as the token (`Shape` … `Suffix2`) or as a neighbour (`PrevLower` …
 * `NextCluster`), then the word's hashes and cluster, which the features
 * mixing two words read.
 */
const rowShape = 0;
const rowLower = 1;
const rowPrefix3 = 2;
const rowSuffix3 = 3;
const rowSuffix2 = 4;
const rowPrevLower = 5;
const rowNextLower = 6;
const rowPrev2Lower = 7;
const rowNext2Lower = 8;
const rowPrevShape = 9;
const rowNextShape = 10;
const rowPrevCluster = 11;
const rowNextCluster = 12;
const rowLowerHash = 13;
const rowShapeHash = 14;
const rowCluster = 15;

/** Writes the row of a word described by `info` (cluster `cluster`) at `at`. */
function fillRow(rows: Int32Array, at: number, info: WordInfo, cluster: number): void {
  rows[at + rowShape] = bucket(T.Shape, info.shapeHash);
  rows[at + rowLower] = bucket(T.Lower, info.lowerHash);
  rows[at + rowPrefix3] = bucket(T.Prefix3, info.prefixHash);
  rows[at + rowSuffix3] = bucket(T.Suffix3, info.suffix3Hash);
  rows[at + rowSuffix2] = bucket(T.Suffix2, info.suffix2Hash);
  rows[at + rowPrevLower] = bucket(T.PrevLower, info.lowerHash);
  rows[at + rowNextLower] = bucket(T.NextLower, info.lowerHash);
  rows[at + rowPrev2Lower] = bucket(T.Prev2Lower, info.lowerHash);
  rows[at + rowNext2Lower] = bucket(T.Next2Lower, info.lowerHash);
  rows[at + rowPrevShape] = bucket(T.PrevShape, info.shapeHash);
  rows[at + rowNextShape] = bucket(T.NextShape, info.shapeHash);
  rows[at + rowPrevCluster] = bucket(T.PrevCluster, cluster);
  rows[at + rowNextCluster] = bucket(T.NextCluster, cluster);
  rows[at + rowLowerHash] = info.lowerHash;
  rows[at + rowShapeHash] = info.shapeHash;
  rows[at + rowCluster] = cluster;
}

/**
 * The words seen so far and what each contributes, in typed arrays indexed
 * by a word id, found through an open-addressing table keyed by a hash of
 * the token's characters: a word seen before costs one hash and one compare,
 * no string and no object.
 */
export class WordTable {
  size = 0;
  texts: string[] = [];
  lower: string[] = [];
  lowerHash = new Int32Array(1024);
  shapeHash = new Int32Array(1024);
  flags = new Int32Array(1024);
  prefixHash = new Int32Array(1024);
  suffix3Hash = new Int32Array(1024);
  suffix2Hash = new Int32Array(1024);
  cluster = new Int32Array(1024);
  /**
   * Round 47: per word id, `ROW` values in one run (one or two cache lines): the buckets of the
   * features that read this word alone (see `fillRow`) and its hashes, made once when the word is
   * added. `contextFeatures` reads five words' rows per token where it read five to seven
   * arrays per word and hashed every bucket again.
   */
  rows = new Int32Array(1024 * ROW);
  /**
   * The open-addressing table, two values a slot: the token's hash, then its word id + 1 (0:
   * empty). Round 47: one array, so a probe reads one cache line, not one in each of two.
   */
  private slots = new Int32Array(2 * 4096);

  constructor(readonly gazetteers: Gazetteers) {}

  /** Forgets every word (ids handed out before are no longer valid). */
  clear(): void {
    this.size = 0;
    this.texts = [];
    this.lower = [];
    this.slots.fill(0);
  }

  /** The id of the token `text[start, end)` (cut at `MAX_TOKEN_LENGTH`), describing it if new. */
  idOf(text: string, start: number, end: number): number {
    if (end - start > MAX_TOKEN_LENGTH) end = start + MAX_TOKEN_LENGTH;
    const length = end - start;
    let hash = 0x811c9dc5 | 0;
    for (let index = start; index < end; index++) {
      hash ^= text.charCodeAt(index);
      hash = Math.imul(hash, 0x01000193);
    }
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    let slot = hash & mask;
    for (;;) {
      const stored = slots[2 * slot + 1]!;
      if (stored === 0) break;
      if (slots[2 * slot] === hash) {
        const word = this.texts[stored - 1]!;
        if (word.length === length) {
          let same = true;
          for (let offset = 0; offset < length; offset++) {
            if (word.charCodeAt(offset) !== text.charCodeAt(start + offset)) {
              same = false;
              break;
            }
          }
          if (same) return stored - 1;
        }
      }
      slot = (slot + 1) & mask;
    }
    const id = this.add(copyOfWord(text, start, end));
    slots[2 * slot] = hash;
    slots[2 * slot + 1] = id + 1;
    if (this.size * 4 > slots.length) this.rehash();
    return id;
  }

  private add(text: string): number {
    const id = this.size++;
    if (id === this.lowerHash.length) {
      const size = id * 2;
      this.lowerHash = grow(this.lowerHash, size);
      this.shapeHash = grow(this.shapeHash, size);
      this.flags = grow(this.flags, size);
      this.prefixHash = grow(this.prefixHash, size);
      this.suffix3Hash = grow(this.suffix3Hash, size);
      this.suffix2Hash = grow(this.suffix2Hash, size);
      this.cluster = grow(this.cluster, size);
      this.rows = grow(this.rows, size * ROW);
    }
    const info = describeWord(text, this.gazetteers);
    this.texts[id] = text;
    this.lower[id] = info.lower;
    this.lowerHash[id] = info.lowerHash;
    this.shapeHash[id] = info.shapeHash;
    this.flags[id] = info.flags;
    this.prefixHash[id] = info.prefixHash;
    this.suffix3Hash[id] = info.suffix3Hash;
    this.suffix2Hash[id] = info.suffix2Hash;
    const cluster = this.gazetteers.clusters?.clusterOf(info.lowerHash) ?? 0;
    this.cluster[id] = cluster;
    fillRow(this.rows, id * ROW, info, cluster);
    return id;
  }

  private rehash(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 1) - 1;
    for (let at = 0; at < old.length; at += 2) {
      const stored = old[at + 1]!;
      if (stored === 0) continue;
      let slot = old[at]! & mask;
      while (slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = old[at]!;
      slots[2 * slot + 1] = stored;
    }
    this.slots = slots;
  }
}

/**
 * `text[start, end)` as a string of its own. Round 51 (hF): V8 makes a slice of 13 or more
 * code units a view of the whole string it was cut from, so the shared word table, which
 * outlives a call, kept every text that brought it a new long word (20 texts of 2 MB, each
 * with one: 41 MB held after the calls). A string joined to a blank is copied when it is
 * sliced, and only the copy (one unit longer than the word) is kept.
 */
function copyOfWord(text: string, start: number, end: number): string {
  const word = text.slice(start, end);
  return word.length < 13 ? word : ` ${word}`.slice(1);
}

// Words repeat: one table per gazetteer set, emptied when it holds this many words.
const WORD_LIMIT = 100_000;
const wordTables = new WeakMap<Gazetteers, WordTable>();

/** The shortest part of a compound `isCompound` looks for. */
const COMPOUND_PART = 3;

/**
 * Whether `lower` (letters only, 7 to 24 of them) is two common words
 * joined, each at least `COMPOUND_PART` letters (`dataweave`,
 * `opencounter`): brand names are often made so, and so are some surnames
 * (`goodman`, which the name lists also hold). At most 19 splits, two
 * filter look-ups each.
 */
export function isCompound(lower: string, gazetteers: Gazetteers): boolean {
  const length = lower.length;
  if (length < 2 * COMPOUND_PART + 1 || length > 24 || !/^\p{L}+$/u.test(lower)) return false;
  const common = gazetteers.common;
  const has = (part: string) =>
    common.hasHashes(hashString(part), hashString(part, 0x9747b28c) | 1);
  for (let cut = COMPOUND_PART; cut <= length - COMPOUND_PART; cut++) {
    if (has(lower.slice(0, cut)) && has(lower.slice(cut))) return true;
  }
  return false;
}

function describeWord(text: string, gazetteers: Gazetteers): WordInfo {
  const lower = text.toLowerCase();
  const lowerHash = hashString(lower);
  let flags = 0;
  const first = text[0]!;
  if (first.toLowerCase() !== first.toUpperCase()) {
    if (text === text.toUpperCase() && text.length > 1) flags |= Flag.Upper;
    else if (first !== first.toLowerCase()) flags |= Flag.Title;
    if (text === lower) flags |= Flag.Lower;
    const second = hashString(lower, 0x9747b28c) | 1;
    if (gazetteers.names.hasHashes(lowerHash, second)) flags |= Flag.Name;
    if (gazetteers.firstNames.hasHashes(lowerHash, second)) flags |= Flag.FirstName;
    if (gazetteers.places.hasHashes(lowerHash, second)) flags |= Flag.Place;
    if (gazetteers.countries.hasHashes(lowerHash, second)) flags |= Flag.Country;
    if (gazetteers.common.hasHashes(lowerHash, second)) flags |= Flag.Common;
    flags |= listFlags.get(lower) ?? 0;
  } else if (first >= '0' && first <= '9') {
    flags |= Flag.Digit;
  } else {
    flags |= Flag.Punct;
  }
  return {
    lower,
    lowerHash,
    shapeHash: hashString(shapeOf(text)),
    flags,
    prefixHash: hashString(lower.slice(0, 3)),
    suffix3Hash: hashString(lower.slice(-3)),
    suffix2Hash: hashString(lower.slice(-2)),
  };
}

/** A tokenised text with what the features read per token. */
export interface Scanned extends TokenBounds {
  /** Word id of each token (in `words`). */
  word: Int32Array;
  /** Lexical flags of each token: its word's, plus line and sentence starts. */
  flags: Int32Array;
  /** Place-name run (0: none), as `1 + position * 4 + length`. */
  placeSpan: Uint8Array;
  words: WordTable;
}

/** One code unit of sentence-ending or quoting punctuation: the token after it starts a sentence. */
function endsSentence(code: number): boolean {
  return code === 46 || code === 33 || code === 63 || code === 58 || code === 34 || code === 0x201c;
}

/**
 * Tokenises `text` and computes the per-token values (lookups in the
 * gazetteers included). `words` is the word table to use; by default one
 * shared per gazetteer set, emptied past `WORD_LIMIT` words before a text.
 */
export function scanText(text: string, gazetteers: Gazetteers, words?: WordTable): Scanned {
  if (!words) {
    words = wordTables.get(gazetteers);
    if (!words) {
      words = new WordTable(gazetteers);
      wordTables.set(gazetteers, words);
    }
    if (words.size >= WORD_LIMIT) words.clear();
  }
  const bounds = tokenBounds(text);
  const count = bounds.count;
  const ids = new Int32Array(count);
  const flags = new Int32Array(count);
  const placeSpan = new Uint8Array(count);
  const starts = bounds.start;
  const ends = bounds.end;
  for (let index = 0; index < count; index++) {
    const start = starts[index]!;
    const id = words.idOf(text, start, ends[index]!);
    ids[index] = id;
    let flag = words.flags[id]!;
    if (bounds.newline[index] === 1) flag |= Flag.Newline | Flag.SentenceStart;
    else if (index === 0) flag |= Flag.SentenceStart;
    else {
      const previous = starts[index - 1]!;
      if (ends[index - 1]! - previous === 1 && endsSentence(text.charCodeAt(previous)))
        flag |= Flag.SentenceStart;
    }
    flags[index] = flag;
  }
  // Multi-word places and countries ("new zealand", "san bernardino"): longest match first.
  const capital = Flag.Title | Flag.Upper;
  const lower = words.lower;
  for (let index = 0; index < count; index++) {
    if ((flags[index]! & capital) === 0) continue;
    for (let length = 3; length >= 2; length--) {
      if (index + length > count) continue;
      // The last word of a place name is capitalised too ("New Zealand", "Port of Spain").
      if ((flags[index + length - 1]! & capital) === 0) continue;
      let first = fnv(lower[ids[index]!]!, 0x811c9dc5);
      let second = fnv(lower[ids[index]!]!, 0x9747b28c);
      for (let step = 1; step < length; step++) {
        const word = lower[ids[index + step]!]!;
        first = fnv(word, Math.imul(first ^ 32, 0x01000193));
        second = fnv(word, Math.imul(second ^ 32, 0x01000193));
      }
      first = mix(first);
      second = mix(second) | 1;
      if (
        gazetteers.places.hasHashes(first, second) ||
        gazetteers.countries.hasHashes(first, second)
      ) {
        for (let step = 0; step < length; step++) placeSpan[index + step] = 1 + step * 4 + length;
        index += length - 1;
        break;
      }
    }
  }
  // Round 51 (hF): every field written out, never `{ ...bounds, … }`: V8 gave each object made
  // by that spread a map of its own, so every span rule reading a `Scanned` met a new map per
  // chunk (megamorphic loads, its optimised code thrown away again and again).
  return {
    count,
    start: starts,
    end: ends,
    newline: bounds.newline,
    word: ids,
    flags,
    placeSpan,
    words,
  };
}

/** Coarse flags of a token for conjunctions (capitalisation and gazetteers only). */
export function coarse(flags: number): number {
  return (
    flags &
    (Flag.Title | Flag.Upper | Flag.Lower | Flag.Digit | Flag.Name | Flag.Place | Flag.Common)
  );
}

/**
 * Whether a token is outside every entity whatever the model says, when
 * the token before it is outside too: punctuation (a span never starts
 * with it) and lower-case common words that are not in the name list. Most tokens of prose are such, and
 * skipping their scoring is most of the tagger's speed. Training applies
 * the same rule, so the model never learns to rely on them.
 */
export function surelyOutside(flags: number): boolean {
  if ((flags & Flag.Punct) !== 0) return true;
  return (
    (flags & (Flag.Lower | Flag.Common)) === (Flag.Lower | Flag.Common) && (flags & Flag.Name) === 0
  );
}

/** The bucket of a feature: its template and value hashed together. */
export function bucket(template: T, value: number): number {
  let hash = Math.imul(template + 1, 0x9e3779b1) ^ value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash & FEATURE_MASK;
}

/** Buckets of the hashed weight table (a power of two). */
export const FEATURE_BITS = 16;
const FEATURE_MASK = (1 << FEATURE_BITS) - 1;

/**
 * Writes the feature buckets of token `index` into `out` and returns how
 * many. Features look at the token, two tokens either side, and the labels
 * already given to the two tokens before it (greedy decoding).
 */
export function tokenFeatures(
  scanned: Scanned,
  index: number,
  previousLabel: number,
  previousLabel2: number,
  out: Int32Array,
): number {
  historyFeatures(scanned, index, previousLabel, previousLabel2, out);
  return contextFeatures(scanned, index, out, HISTORY_FEATURES);
}

/** How many buckets `historyFeatures` writes (the first ones of `tokenFeatures`). */
export const HISTORY_FEATURES = 5;

/**
 * Writes the `HISTORY_FEATURES` buckets of token `index` that depend on the labels of the two
 * tokens before it into `out[0..4]` (`tokenFeatures` is these and `contextFeatures`).
 */
export function historyFeatures(
  scanned: Scanned,
  index: number,
  previousLabel: number,
  previousLabel2: number,
  out: Int32Array,
): void {
  const ids = scanned.word;
  const rows = scanned.words.rows;
  const shapeHash = rows[ids[index]! * ROW + rowShapeHash]!;
  const prevLower = index > 0 ? rows[ids[index - 1]! * ROW + rowLowerHash]! : NONE;
  out[0] = bucket(T.PrevLabel, previousLabel);
  out[1] = bucket(T.PrevLabels, previousLabel * 16 + previousLabel2);
  out[2] = bucket(T.PrevLabelShape, mix(shapeHash ^ previousLabel));
  out[3] = bucket(T.PrevLabelFlags, coarse(scanned.flags[index]!) * 16 + previousLabel);
  out[4] = bucket(T.PrevLabelPrevLower, mix(prevLower ^ previousLabel));
}

/** The value hashed for a neighbour past either end of the text. */
export const NONE = 0x5bd1e995;

/**
 * Writes the buckets of token `index` that do not depend on any label (the
 * token, two tokens either side, gazetteers) into `out` from `offset`, the
 * token's own word last (training may leave those out: `LEXICAL_FEATURES`),
 * and returns the new end. The trainer's structured-decoding experiment
 * scores tokens with these and the label pairs with its own pair features
 * (scripts/train/ner/pair-features.ts).
 */
export function contextFeatures(
  scanned: Scanned,
  index: number,
  out: Int32Array,
  offset = 0,
): number {
  const { words, word: ids, flags } = scanned;
  // Round 47: a word's own buckets and hashes come from its row (`WordTable.rows`), made once.
  const rows = words.rows;
  const count = scanned.count;
  const own = ids[index]! * ROW;
  const none = NONE;
  const hasBefore = index > 0;
  const hasAfter = index + 1 < count;
  const before = hasBefore ? ids[index - 1]! * ROW : -1;
  const after = hasAfter ? ids[index + 1]! * ROW : -1;
  const beforeFlags = hasBefore ? flags[index - 1]! : 0;
  const afterFlags = hasAfter ? flags[index + 1]! : 0;
  const ownFlags = flags[index]!;
  const lowerHash = rows[own + rowLowerHash]!;
  const shapeHash = rows[own + rowShapeHash]!;
  const prevLower = hasBefore ? rows[before + rowLowerHash]! : none;
  const nextLower = hasAfter ? rows[after + rowLowerHash]! : none;
  const nextShape = hasAfter ? rows[after + rowShapeHash]! : none;
  let n = offset;
  out[n++] = biasBucket;
  out[n++] = rows[own + rowShape]!;
  out[n++] = bucket(T.Flags, ownFlags);
  out[n++] = hasBefore ? rows[before + rowPrevLower]! : noPrevLower;
  out[n++] = hasAfter ? rows[after + rowNextLower]! : noNextLower;
  out[n++] = index > 1 ? rows[ids[index - 2]! * ROW + rowPrev2Lower]! : noPrev2Lower;
  out[n++] = index + 2 < count ? rows[ids[index + 2]! * ROW + rowNext2Lower]! : noNext2Lower;
  out[n++] = hasBefore ? rows[before + rowPrevShape]! : noPrevShape;
  out[n++] = hasAfter ? rows[after + rowNextShape]! : noNextShape;
  out[n++] = bucket(
    T.PrevFlags,
    hasBefore
      ? coarse(beforeFlags) | (beforeFlags & (Flag.Street | Flag.Honorific | Flag.Punct))
      : none,
  );
  out[n++] = bucket(
    T.NextFlags,
    hasAfter
      ? coarse(afterFlags) | (afterFlags & (Flag.Street | Flag.Organisation | Flag.Punct))
      : none,
  );
  out[n++] = bucket(T.ShapeNextShape, mix(shapeHash ^ Math.imul(nextShape, 13)));
  out[n++] = bucket(T.PlaceSpan, scanned.placeSpan[index]!);
  if (words.gazetteers.clusters !== undefined) {
    const capital = ownFlags & (Flag.Title | Flag.Upper);
    out[n++] = bucket(
      T.Cluster,
      rows[own + rowCluster]! * 4 + (capital === 0 ? 0 : capital === 1 ? 1 : 2),
    );
    out[n++] = hasBefore ? rows[before + rowPrevCluster]! : noPrevCluster;
    out[n++] = hasAfter ? rows[after + rowNextCluster]! : noNextCluster;
  }
  out[n++] = rows[own + rowLower]!;
  out[n++] = bucket(T.PrevLowerLower, mix(prevLower ^ Math.imul(lowerHash, 31)));
  out[n++] = bucket(T.LowerNextLower, mix(lowerHash ^ Math.imul(nextLower, 17)));
  out[n++] = rows[own + rowPrefix3]!;
  out[n++] = rows[own + rowSuffix3]!;
  out[n++] = rows[own + rowSuffix2]!;
  return n;
}

/** The buckets of the features past either end of the text, and the bias's (the same for every token). */
const biasBucket = bucket(T.Bias, 0);
const noPrevLower = bucket(T.PrevLower, NONE);
const noNextLower = bucket(T.NextLower, NONE);
const noPrev2Lower = bucket(T.Prev2Lower, NONE);
const noNext2Lower = bucket(T.Next2Lower, NONE);
const noPrevShape = bucket(T.PrevShape, NONE);
const noNextShape = bucket(T.NextShape, NONE);
const noPrevCluster = bucket(T.PrevCluster, 256);
const noNextCluster = bucket(T.NextCluster, 256);

/** How many of the last features `tokenFeatures` writes come from the token's own word. */
export const LEXICAL_FEATURES = 6;

/** Feature buckets per token (the most `tokenFeatures` writes). */
export const MAX_FEATURES = 27;

/** Label-free feature buckets per token (the most `contextFeatures` writes). */
export const CONTEXT_FEATURES = 22;
