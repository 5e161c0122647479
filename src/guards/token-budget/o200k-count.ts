import bpe from 'gpt-tokenizer/bpeRanks/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';

/**
 * The o200k_base count of a text (the default of `tokenBudget`), linear in
 * the text's length whatever it holds.
 *
 * gpt-tokenizer's own `countTokens` keeps its byte-pair merges in an LRU
 * `Map` of 100,000 pre-tokens, and moves a pre-token to the end on every
 * hit (a `delete` and a `set`). Once that map holds a few thousand entries,
 * V8 makes each such move cost time in proportion to the map's size
 * (measured: 5 µs a hit at 1,000 entries, 57 µs at 10,000): after 1 MB of
 * ordinary text, `a@` repeated to 1 MB (half a million hits of `@a`) took
 * 7.6 s, `Xy` repeated 7.6 s, `a\u200b` 7.5 s, against 0.1 s for the
 * ordinary MB (round 29's hostile bench).
 *
 * Its merge of one pre-token is quadratic too (round 32): each step scans
 * every pair for the lowest rank, splices two arrays and decodes each pair's
 * bytes to a string to look its rank up. A 256-character slice of random
 * lowercase letters is one pre-token, so 1 MB of them took 2.0 s, random
 * CJK 4.5 s and random punctuation 1.6 s, against 0.15 s for ordinary text.
 *
 * Here the text is split into pre-tokens with the same expression, each
 * pre-token's count is kept in a plain map (never reordered, emptied when
 * full), and a pre-token not seen yet is merged by `mergedCount`: the same
 * byte-pair merges in the same order (lowest rank first, the leftmost of
 * equal ranks), from a heap over a linked list of parts, with each pair's
 * rank read from a table of the ranks' bytes (no string made). The count is
 * gpt-tokenizer's: a text's tokens are its pre-tokens' tokens, and a
 * pre-token split again on its own is itself (the expression has no anchors
 * and its only look-ahead belongs to a later alternative, so a prefix of the
 * text matches no other way). Text that spells a special token
 * (`<|endoftext|>`) is counted as the text it is, as a provider encodes a
 * user's text, where `countTokens` threw.
 */

/** Our own copy of the split expression: its `lastIndex` is no one else's. */
const SPLIT = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags);

/**
 * The ranks by their bytes: `bytes` holds every token's bytes one after
 * the other, token `rank` at `start[rank]` to `start[rank + 1]`; `slots` is
 * an open-addressing hash table of rank + 1 (0: empty).
 */
interface RankTable {
  bytes: Uint8Array;
  start: Int32Array;
  slots: Int32Array;
  mask: number;
  /** Most bytes a token has: a longer pair is no token, unhashed. */
  longest: number;
  /** The rank of each two-byte token by its bytes (`first << 8 | second`), -1 for none. */
  pairs: Int32Array;
}

/** The table, built on first use (in half the time of gpt-tokenizer's encoder; 6.7 MB against its 7.9 MB). */
let table: RankTable | undefined;

/** FNV-1a of `bytes[from..to)`. */
function hashOf(bytes: Uint8Array, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

function tableOf(): RankTable {
  if (table !== undefined) return table;
  const encoder = new TextEncoder();
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const ranks = bpe.length;
  let bytes = new Uint8Array(1 << 21);
  const start = new Int32Array(ranks + 1);
  let used = 0;
  let longest = 0;
  for (let rank = 0; rank < ranks; rank++) {
    start[rank] = used;
    // The list may have holes (unused ranks): no bytes, never found.
    const value = bpe[rank];
    if (value === undefined || (typeof value !== 'string' && isUtf8(utf8, value))) continue;
    const length = typeof value === 'string' ? value.length * 3 : value.length;
    if (used + length > bytes.length) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, used + length));
      grown.set(bytes);
      bytes = grown;
    }
    if (typeof value === 'string') {
      used += encoder.encodeInto(value, bytes.subarray(used)).written;
    } else {
      bytes.set(value, used);
      used += value.length;
    }
    longest = Math.max(longest, used - start[rank]!);
  }
  start[ranks] = used;
  let size = 1;
  while (size < ranks * 2) size *= 2;
  const slots = new Int32Array(size);
  const mask = size - 1;
  for (let rank = 0; rank < ranks; rank++) {
    const from = start[rank]!;
    const to = start[rank + 1]!;
    if (to === from) continue;
    let slot = hashOf(bytes, from, to) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = rank + 1;
  }
  const pairs = new Int32Array(1 << 16).fill(-1);
  for (let rank = 0; rank < ranks; rank++) {
    const from = start[rank]!;
    if (start[rank + 1]! - from === 2) pairs[(bytes[from]! << 8) | bytes[from + 1]!] = rank;
  }
  table = { bytes: bytes.slice(0, used), start, slots, mask, longest, pairs };
  return table;
}

/**
 * Whether a rank listed as bytes is UTF-8 text (9 of o200k's, all of them
 * starting with U+FEFF, as `\uFEFFusing`). gpt-tokenizer looks text up by
 * its string only, so it never finds those: they are left out, and its
 * counts kept.
 */
function isUtf8(utf8: TextDecoder, value: readonly number[]): boolean {
  try {
    utf8.decode(new Uint8Array(value));
    return true;
  } catch {
    return false;
  }
}

/** The rank of the token whose bytes are exactly `bytes[from..to)`, or -1. */
function exactRank(ranks: RankTable, bytes: Uint8Array, from: number, to: number): number {
  const length = to - from;
  if (length === 0 || length > ranks.longest) return -1;
  const { bytes: pool, start, slots, mask } = ranks;
  let slot = hashOf(bytes, from, to) & mask;
  for (let found = slots[slot]!; found !== 0; found = slots[slot]!) {
    const rank = found - 1;
    const at = start[rank]!;
    if (start[rank + 1]! - at === length) {
      let i = 0;
      while (i < length && pool[at + i] === bytes[from + i]) i++;
      if (i === length) return rank;
    }
    slot = (slot + 1) & mask;
  }
  return -1;
}

/**
 * The rank gpt-tokenizer finds for the bytes `bytes[from..to)` of a
 * pre-token `length` bytes long: the exact bytes' rank, except that a range
 * of whole characters that begins with U+FEFF (EF BB BF) is decoded by a
 * `TextDecoder`, which drops that leading byte-order mark, and looked up
 * without it. So it counts U+FEFF as 2 tokens where tiktoken counts 1, and
 * `\uFEFF`-led words as one more (never fewer tokens than the provider
 * bills); the count here is kept identical.
 */
function rankOf(ranks: RankTable, bytes: Uint8Array, from: number, to: number, length: number) {
  if (
    bytes[from] === 0xef &&
    bytes[from + 1] === 0xbb &&
    bytes[from + 2] === 0xbf &&
    to - from >= 3 &&
    (to === length || (bytes[to]! & 0xc0) !== 0x80)
  ) {
    return exactRank(ranks, bytes, from + 3, to);
  }
  return exactRank(ranks, bytes, from, to);
}

/** Scratch space of the merge, grown as needed (one pre-token at a time). */
let scratch = new Uint8Array(1_024);
let next = new Int32Array(1_025);
let previous = new Int32Array(1_025);
let pairRank = new Float64Array(1_025);
let heap = new Float64Array(2_050);

/** Room for a pre-token of `length` bytes. */
function reserve(length: number): void {
  if (next.length > length + 1) return;
  const size = Math.max(length + 2, next.length * 2);
  next = new Int32Array(size);
  previous = new Int32Array(size);
  pairRank = new Float64Array(size);
  heap = new Float64Array(size * 2);
}

/**
 * `text` as UTF-8 in `scratch` (a lone surrogate as U+FFFD, as a
 * `TextEncoder` writes it); its length, negative when `text` held a lone
 * surrogate.
 */
function encodeScratch(text: string): number {
  if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3);
  let length = 0;
  let wellFormed = true;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      scratch[length++] = code;
      continue;
    }
    if (code < 0x800) {
      scratch[length++] = 0xc0 | (code >> 6);
      scratch[length++] = 0x80 | (code & 0x3f);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const low = text.charCodeAt(i + 1);
      if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i++;
        scratch[length++] = 0xf0 | (code >> 18);
        scratch[length++] = 0x80 | ((code >> 12) & 0x3f);
        scratch[length++] = 0x80 | ((code >> 6) & 0x3f);
        scratch[length++] = 0x80 | (code & 0x3f);
        continue;
      }
      code = 0xfffd;
      wellFormed = false;
    }
    scratch[length++] = 0xe0 | (code >> 12);
    scratch[length++] = 0x80 | ((code >> 6) & 0x3f);
    scratch[length++] = 0x80 | (code & 0x3f);
  }
  return wellFormed ? length : -length;
}

/** Heap keys: the lowest rank first, then the leftmost part (ranks are under 2^21). */
const POSITION = 2 ** 32;
/** Keys in the heap. */
let queued = 0;

function push(key: number): void {
  let i = queued++;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const above = heap[parent]!;
    if (above <= key) break;
    heap[i] = above;
    i = parent;
  }
  heap[i] = key;
}

/** Puts `key` at `i` or below, where it belongs among the keys under `i`. */
function siftDown(at: number, key: number): void {
  let i = at;
  for (;;) {
    let child = 2 * i + 1;
    if (child >= queued) break;
    if (child + 1 < queued && heap[child + 1]! < heap[child]!) child++;
    if (heap[child]! >= key) break;
    heap[i] = heap[child]!;
    i = child;
  }
  heap[i] = key;
}

function pop(): number {
  const top = heap[0]!;
  const last = heap[--queued]!;
  if (queued > 0) siftDown(0, last);
  return top;
}

/** Sets (and queues) the rank of part `at`'s pair with the next part, in a pre-token of `length` bytes. */
function rankPair(ranks: RankTable, at: number, length: number): void {
  const after = next[at]!;
  const rank = after < length ? rankOf(ranks, scratch, at, next[after]!, length) : -1;
  pairRank[at] = rank;
  if (rank !== -1) push(rank * POSITION + at);
}

/**
 * The tokens byte-pair merging makes of `scratch[0..length)`, as
 * gpt-tokenizer's `bytePairMerge` merges them: while some pair of adjacent
 * parts is a token, the pair of lowest rank (the leftmost of equal ranks)
 * becomes one part. Parts form a linked list by their first byte, and each
 * part's pair with the next waits in a min-heap keyed by (rank, position);
 * a key whose part was merged away or whose pair changed since is skipped
 * when it comes up. O(n log n) in the bytes, against the O(n²) of a scan of
 * every pair per merge.
 */
function mergedCount(ranks: RankTable, length: number): number {
  reserve(length);
  queued = 0;
  for (let i = 0; i < length; i++) {
    next[i] = i + 1;
    previous[i] = i - 1;
  }
  // The first pairs are two bytes each: read from the pair table, and heaped at once.
  const { pairs } = ranks;
  for (let i = 0; i + 1 < length; i++) {
    const rank = pairs[(scratch[i]! << 8) | scratch[i + 1]!]!;
    pairRank[i] = rank;
    if (rank !== -1) heap[queued++] = rank * POSITION + i;
  }
  pairRank[length - 1] = -1;
  for (let i = (queued >> 1) - 1; i >= 0; i--) siftDown(i, heap[i]!);
  let parts = length;
  while (queued > 0) {
    const key = pop();
    const rank = Math.floor(key / POSITION);
    const at = key - rank * POSITION;
    // Stale: the part was merged into the one before it, or its pair changed.
    if (pairRank[at] !== rank) continue;
    const gone = next[at]!;
    const after = next[gone]!;
    next[at] = after;
    if (after < length) previous[after] = at;
    pairRank[gone] = -2;
    parts--;
    rankPair(ranks, at, length);
    if (at > 0) rankPair(ranks, previous[at]!, length);
  }
  return parts;
}

/** The o200k_base tokens of one pre-token: 1 when it is a token, else its merges. */
function preTokenCount(piece: string): number {
  const ranks = tableOf();
  const encoded = encodeScratch(piece);
  const length = Math.abs(encoded);
  if (length <= 1) return length;
  // gpt-tokenizer looks the pre-token up as a string first (one with a lone surrogate is none).
  if (encoded > 0 && exactRank(ranks, scratch, 0, length) !== -1) return 1;
  return mergedCount(ranks, length);
}

/**
 * Counts of pre-tokens seen, by pre-token: a repeated pre-token is merged
 * once. Bounded in entries and in the characters of their keys; emptied
 * when full, never reordered. Only pre-tokens of at most CACHED_LENGTH
 * characters are kept (words, numbers, punctuation runs: what real text
 * repeats); a longer one (a run of random letters, cut at 256 characters)
 * is merged each time, in time linear in its length up to a log factor.
 * Keeping those made a text's cost depend on what came before it: a text
 * whose long pre-tokens fit the map cost a fifth of one whose pre-tokens
 * overflowed it and emptied it on every call (CI, round 32: 1 MB of random
 * lowercase letters read 11.2x 0.25 MB, the 0.25 MB text counted from the
 * map and the 1 MB one merged again).
 */
const counts = new Map<string, number>();
const MAX_COUNTS = 65_536;
const MAX_COUNTED_CHARS = 1 << 20;
let countedChars = 0;
/** Longest pre-token V8 copies when it is cut from a text (a longer one is a view of the whole text). */
const COPIED_LENGTH = 12;
/** Longest pre-token whose count is kept in `counts`. */
const CACHED_LENGTH = 32;

/** The o200k_base tokens of `text`: gpt-tokenizer's count, in linear time. */
export function countO200k(text: string): number {
  let total = 0;
  for (const [piece] of text.matchAll(SPLIT)) {
    if (piece.length > CACHED_LENGTH) {
      total += preTokenCount(piece);
      continue;
    }
    let count = counts.get(piece);
    if (count === undefined) {
      count = preTokenCount(piece);
      if (counts.size >= MAX_COUNTS || countedChars + piece.length > MAX_COUNTED_CHARS) {
        counts.clear();
        countedChars = 0;
      }
      // A long key is kept as a copy of its own, not as a view that holds the whole prompt.
      counts.set(
        piece.length > COPIED_LENGTH ? (JSON.parse(JSON.stringify(piece)) as string) : piece,
        count,
      );
      countedChars += piece.length;
    }
    total += count;
  }
  return total;
}
