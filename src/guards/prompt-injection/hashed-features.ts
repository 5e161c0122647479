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

/** Seeds that keep the n-gram kinds apart in the hashed space. */
export const CHAR_SEED = 0x811c9dc5;
export const UNIGRAM_SEED = 0x2f6b1d3d;
export const BIGRAM_SEED = 0x5bd1e995;

/** True for a UTF-16 unit that belongs to a word: ASCII letters and digits, and letters of other scripts. */
export function isWordUnit(code: number): boolean {
  if (code < 0x80) return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
  // General punctuation, CJK symbols and punctuation, and surrogate halves of
  // emoji are not word units; other non-ASCII units (letters of other
  // scripts, CJK ideographs) are.
  if (code >= 0x2000 && code <= 0x2bff) return false;
  if (code >= 0x3000 && code <= 0x303f) return false;
  if (code >= 0xd800 && code <= 0xdfff) return false;
  return code !== 0xa0 && code !== 0xff0c && code !== 0xff0e;
}

/** `isWordUnit` of every UTF-16 unit (1: a word unit), built on first use. */
let wordUnits: Uint8Array | undefined;

function wordUnitTable(): Uint8Array {
  if (!wordUnits) {
    wordUnits = new Uint8Array(0x10000);
    for (let code = 0; code < 0x10000; code++) wordUnits[code] = isWordUnit(code) ? 1 : 0;
  }
  return wordUnits;
}

/** Final mix so that nearby hashes spread over the buckets. */
function mix(hash: number): number {
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
export function collectFeatures(
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

  // Character 3..5-grams, with a space on either side so word edges count:
  // the gram of length k + 1 at `position` hashes the units at position ..
  // position + k, a space outside [start, end), none past `end`. The five
  // units are kept in locals (-1 past `end`) and moved along by one read per
  // position. (Hashing and deduplication are written out inline: this loop
  // is the detector's hot path. A gram's index is always written at
  // `out[count]` and `count` moves on only when the stamp was not yet set:
  // no branch to mispredict on whether a gram is new.)
  const unitAt = (at: number): number => {
    if (at > end) return -1;
    if (at < start || at >= end) return 32;
    const unit = text.charCodeAt(at);
    return unit === 10 ? 32 : unit;
  };
  let u0 = 32;
  let u1 = unitAt(start);
  let u2 = unitAt(start + 1);
  let u3 = unitAt(start + 2);
  let u4 = unitAt(start + 3);
  for (let position = start - 1; position < end - 1; position++) {
    // Three units: position + 2 <= end always holds here.
    let hash = Math.imul(
      Math.imul(Math.imul(CHAR_SEED ^ u0, 0x01000193) ^ u1, 0x01000193) ^ u2,
      0x01000193,
    );
    let h = hash ^ (2 << 29);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    let index = h >>> shift;
    const seen = stamp[index]! ^ generation;
    stamp[index] = generation;
    out[count] = index;
    count += (seen | -seen) >>> 31;
    if (u3 >= 0) {
      hash = Math.imul(hash ^ u3, 0x01000193);
      h = hash ^ (3 << 29);
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      index = h >>> shift;
      const seen = stamp[index]! ^ generation;
      stamp[index] = generation;
      out[count] = index;
      count += (seen | -seen) >>> 31;
      if (u4 >= 0) {
        hash = Math.imul(hash ^ u4, 0x01000193);
        h = hash ^ (4 << 29);
        h ^= h >>> 16;
        h = Math.imul(h, 0x85ebca6b);
        h ^= h >>> 13;
        index = h >>> shift;
        const seen = stamp[index]! ^ generation;
        stamp[index] = generation;
        out[count] = index;
        count += (seen | -seen) >>> 31;
      }
    }
    u0 = u1;
    u1 = u2;
    u2 = u3;
    u3 = u4;
    const next = position + 5;
    if (next < end) {
      const unit = text.charCodeAt(next);
      u4 = unit === 10 ? 32 : unit;
    } else {
      u4 = next === end ? 32 : -1;
    }
  }

  // Word 1-grams and 2-grams. (No read past `end`: `charCodeAt` past the
  // string would give NaN and slow every comparison of the loop.)
  const isWord = wordUnitTable();
  let previous = 0;
  let hasPrevious = false;
  let index = start;
  while (index < end) {
    let unit = text.charCodeAt(index);
    if (isWord[unit] === 0) {
      index++;
      continue;
    }
    let hash = UNIGRAM_SEED;
    while (true) {
      hash = Math.imul(hash ^ unit, 0x01000193);
      if (++index === end) break;
      unit = text.charCodeAt(index);
      if (isWord[unit] === 0) break;
    }
    const unigram = mix(hash) >>> shift;
    if (stamp[unigram] !== generation) {
      stamp[unigram] = generation;
      out[count++] = unigram;
    }
    if (hasPrevious) {
      const bigram = mix(Math.imul(previous ^ BIGRAM_SEED, 0x01000193) ^ hash) >>> shift;
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

/** Index of a named extra feature (a phrase signal, say) in the same hashed space. */
export function namedFeature(name: string, bits: number): number {
  let hash = 0x1b873593;
  for (let index = 0; index < name.length; index++) {
    hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193);
  }
  return mix(hash) >>> (32 - bits);
}
