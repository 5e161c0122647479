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

/**
 * Splits `text` into tokens, in order: an initial with its full stop
 * (`J.`), a word-ish run (letters, marks, digits, joined by one apostrophe
 * or hyphen; a possessive `'s` is a token of its own), or one other visible
 * character. One pass over the text.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const length = text.length;
  let index = 0;
  let newlineBefore = false;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === 10 || code === 13) {
      newlineBefore = true;
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
    tokens.push({
      start,
      end: index,
      text: text.slice(start, index - start > MAX_TOKEN_LENGTH ? start + MAX_TOKEN_LENGTH : index),
      newlineBefore,
    });
    newlineBefore = false;
  }
  return tokens;
}

/** FNV-1a over a string's UTF-16 code units, then a final mix. */
export function hashString(value: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let index = 0; index < value.length; index++) {
    hash ^= value.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return mix(hash);
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

/** The gazetteers a token is looked up in (lower-cased, diacritics kept). */
export interface Gazetteers {
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

/** Feature templates; their numbers are part of the model (do not renumber). */
enum T {
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
}

/** Per-token values computed once and read by its neighbours' features. */
export interface TokenInfo {
  /** What the token's word contributes whatever its neighbours (shared by equal words). */
  word: WordInfo;
  /** Bit set of lexical flags: the word's, plus line and sentence starts. */
  flags: number;
  /** Place-name run (0: none), as `1 + position * 4 + length`. */
  placeSpan: number;
}

enum Flag {
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
export interface WordInfo {
  lower: string;
  lowerHash: number;
  shapeHash: number;
  flags: number;
  prefixHash: number;
  suffix3Hash: number;
  suffix2Hash: number;
}

// Words repeat: their lookups are remembered per gazetteer set (bounded).
const wordCaches = new WeakMap<Gazetteers, Map<string, WordInfo>>();

function wordCache(gazetteers: Gazetteers): Map<string, WordInfo> {
  let cache = wordCaches.get(gazetteers);
  if (!cache) {
    cache = new Map();
    wordCaches.set(gazetteers, cache);
  }
  return cache;
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
    if (streetWords.has(lower)) flags |= Flag.Street;
    if (organisationWords.has(lower)) flags |= Flag.Organisation;
    if (titleWords.has(lower)) flags |= Flag.Honorific;
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

/** Computes the per-token values of `tokens` (lookups in the gazetteers included). */
export function tokenInfos(tokens: readonly Token[], gazetteers: Gazetteers): TokenInfo[] {
  const infos: TokenInfo[] = new Array(tokens.length);
  const cache = wordCache(gazetteers);
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    let word = cache.get(token.text);
    if (!word) {
      word = describeWord(token.text, gazetteers);
      if (cache.size >= 100_000) cache.clear();
      cache.set(token.text, word);
    }
    let flags = word.flags;
    if (token.newlineBefore) flags |= Flag.Newline;
    const previous = index > 0 ? tokens[index - 1]!.text : '';
    if (
      index === 0 ||
      token.newlineBefore ||
      previous === '.' ||
      previous === '!' ||
      previous === '?' ||
      previous === ':' ||
      previous === '"' ||
      previous === '“'
    ) {
      flags |= Flag.SentenceStart;
    }
    infos[index] = { word, flags, placeSpan: 0 };
  }
  // Multi-word places and countries ("new zealand", "san bernardino"): longest match first.
  for (let index = 0; index < tokens.length; index++) {
    if ((infos[index]!.flags & (Flag.Title | Flag.Upper)) === 0) continue;
    for (let length = 3; length >= 2; length--) {
      if (index + length > tokens.length) continue;
      // The last word of a place name is capitalised too ("New Zealand", "Port of Spain").
      if ((infos[index + length - 1]!.flags & (Flag.Title | Flag.Upper)) === 0) continue;
      let phrase = infos[index]!.word.lower;
      for (let step = 1; step < length; step++) phrase += ` ${infos[index + step]!.word.lower}`;
      if (gazetteers.places.has(phrase) || gazetteers.countries.has(phrase)) {
        for (let step = 0; step < length; step++) {
          infos[index + step]!.placeSpan = 1 + step * 4 + length;
        }
        index += length - 1;
        break;
      }
    }
  }
  return infos;
}

/** Coarse flags of a token for conjunctions (capitalisation and gazetteers only). */
function coarse(flags: number): number {
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
export function surelyOutside(info: TokenInfo): boolean {
  const flags = info.flags;
  if ((flags & Flag.Punct) !== 0) return true;
  return (
    (flags & (Flag.Lower | Flag.Common)) === (Flag.Lower | Flag.Common) && (flags & Flag.Name) === 0
  );
}

/** The bucket of a feature: its template and value hashed together. */
function bucket(template: T, value: number): number {
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
 * already given to the two tokens before it.
 */
export function tokenFeatures(
  infos: readonly TokenInfo[],
  index: number,
  previousLabel: number,
  previousLabel2: number,
  out: Int32Array,
): number {
  const info = infos[index]!;
  const before = index > 0 ? infos[index - 1] : undefined;
  const before2 = index > 1 ? infos[index - 2] : undefined;
  const after = index + 1 < infos.length ? infos[index + 1] : undefined;
  const after2 = index + 2 < infos.length ? infos[index + 2] : undefined;
  const none = 0x5bd1e995;
  const prevLower = before ? before.word.lowerHash : none;
  const nextLower = after ? after.word.lowerHash : none;
  let count = 0;
  out[count++] = bucket(T.Bias, 0);
  out[count++] = bucket(T.Shape, info.word.shapeHash);
  out[count++] = bucket(T.Flags, info.flags);
  out[count++] = bucket(T.PrevLower, prevLower);
  out[count++] = bucket(T.NextLower, nextLower);
  out[count++] = bucket(T.Prev2Lower, before2 ? before2.word.lowerHash : none);
  out[count++] = bucket(T.Next2Lower, after2 ? after2.word.lowerHash : none);
  out[count++] = bucket(T.PrevShape, before ? before.word.shapeHash : none);
  out[count++] = bucket(T.NextShape, after ? after.word.shapeHash : none);
  out[count++] = bucket(
    T.PrevFlags,
    before
      ? coarse(before.flags) | (before.flags & (Flag.Street | Flag.Honorific | Flag.Punct))
      : none,
  );
  out[count++] = bucket(
    T.NextFlags,
    after
      ? coarse(after.flags) | (after.flags & (Flag.Street | Flag.Organisation | Flag.Punct))
      : none,
  );
  out[count++] = bucket(T.PrevLabel, previousLabel);
  out[count++] = bucket(T.PrevLabels, previousLabel * 16 + previousLabel2);
  out[count++] = bucket(T.PrevLabelShape, mix(info.word.shapeHash ^ previousLabel));
  out[count++] = bucket(T.PrevLabelFlags, coarse(info.flags) * 16 + previousLabel);
  out[count++] = bucket(
    T.ShapeNextShape,
    mix(info.word.shapeHash ^ Math.imul(after ? after.word.shapeHash : none, 13)),
  );
  out[count++] = bucket(T.PrevLabelPrevLower, mix(prevLower ^ previousLabel));
  out[count++] = bucket(T.PlaceSpan, info.placeSpan);
  // The token's own word last: training may leave these out (LEXICAL_FEATURES).
  out[count++] = bucket(T.Lower, info.word.lowerHash);
  out[count++] = bucket(T.PrevLowerLower, mix(prevLower ^ Math.imul(info.word.lowerHash, 31)));
  out[count++] = bucket(T.LowerNextLower, mix(info.word.lowerHash ^ Math.imul(nextLower, 17)));
  out[count++] = bucket(T.Prefix3, info.word.prefixHash);
  out[count++] = bucket(T.Suffix3, info.word.suffix3Hash);
  out[count++] = bucket(T.Suffix2, info.word.suffix2Hash);
  return count;
}

/** How many of the last features `tokenFeatures` writes come from the token's own word. */
export const LEXICAL_FEATURES = 6;

/** Feature buckets per token (the most `tokenFeatures` writes). */
export const MAX_FEATURES = 24;
