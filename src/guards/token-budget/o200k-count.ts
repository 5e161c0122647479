import bpe from 'gpt-tokenizer/bpeRanks/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';

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
 * Here the text is split into pre-tokens with the same expression, each
 * pre-token's count is kept in a plain map (never reordered, emptied when
 * full) and an encoder of our own, without that cache, counts the ones not
 * seen yet. The count is the tokenizer's: a text's tokens are its
 * pre-tokens' tokens, and a pre-token split again on its own is itself
 * (the expression has no anchors and its only look-ahead belongs to a later
 * alternative, so a prefix of the text matches no other way). Text that
 * spells a special token (`<|endoftext|>`) is counted as the text it is,
 * as a provider encodes a user's text, where `countTokens` threw.
 */

/** The encoder, built on first use (its tables take about 100 ms and 20 MB). */
let encoder: GptEncoding | undefined;

function encoderOf(): GptEncoding {
  if (encoder === undefined) {
    encoder = GptEncoding.getEncodingApi('o200k_base', () => bpe);
    encoder.setMergeCacheSize(0);
  }
  return encoder;
}

/** Our own copy of the split expression: its `lastIndex` is no one else's. */
const SPLIT = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags);

/**
 * Counts of pre-tokens seen, by pre-token: a long run (256 spaces, flags,
 * one letter repeated) costs the byte-pair merge time quadratic in its
 * length, and an attacker repeats it. Bounded in entries and in the
 * characters of their keys; emptied when full, never reordered.
 */
const counts = new Map<string, number>();
const MAX_COUNTS = 65_536;
const MAX_COUNTED_CHARS = 1 << 20;
let countedChars = 0;
/** Longest pre-token V8 copies when it is cut from a text (a longer one is a view of the whole text). */
const COPIED_LENGTH = 12;

/** The o200k_base tokens of one pre-token, through the encoder. */
function preTokenCount(piece: string): number {
  // No pre-token holds a special token's whole text (`<|` and `|>` are
  // pre-tokens of their own), so the encoder's check of them never throws.
  return encoderOf().countTokens(piece);
}

/** The o200k_base tokens of `text`: gpt-tokenizer's count, in linear time. */
export function countO200k(text: string): number {
  let total = 0;
  for (const [piece] of text.matchAll(SPLIT)) {
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
