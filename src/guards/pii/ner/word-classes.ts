import type { Scanned, WordTable } from './features';

/**
 * Word classes of the span rules, one look-up per token (round 44, issue 17): a rule that asks
 * of a token's word "is it in set A? in B? in C?" builds a `WordClasses` of its sets once and
 * reads one bit mask per token instead, bit `i` set when the word (lower-cased) is in set `i`.
 * The masks are kept by word id beside the tagger's word table, so a word is looked up in the
 * sets once, the first time a text holds it, and again only after the table is emptied. The
 * same answers as the sets themselves: the spans are identical.
 */
export class WordClasses {
  private table: WordTable | undefined;
  /** The word table's `lower` array the masks were made from (replaced when it is emptied). */
  private lower: readonly string[] | undefined;
  private masks = new Int32Array(1024);
  private filled = 0;
  /**
   * Each word of any set and its whole mask, made once from the sets (round 49, hB: a new word
   * of the table costs one look-up here, where it asked every set in turn, 39 look-ups over the
   * rules' six `WordClasses`). A word in no set is not in it: mask 0.
   */
  private readonly maskOf = new Map<string, number>();

  /** `sets[i]` is bit `1 << i` of a mask (at most 31 sets). */
  constructor(sets: ReadonlyArray<ReadonlySet<string>>) {
    if (sets.length > 31) throw new RangeError('WordClasses: at most 31 sets');
    for (let bit = 0; bit < sets.length; bit++)
      for (const word of sets[bit]!)
        this.maskOf.set(word, (this.maskOf.get(word) ?? 0) | (1 << bit));
  }

  /** The mask of each word id of `scanned`'s word table, filled up to its current size. */
  of(scanned: Scanned): Int32Array {
    const words = scanned.words;
    if (words !== this.table || words.lower !== this.lower) {
      this.table = words;
      this.lower = words.lower;
      this.filled = 0;
    }
    const size = words.size;
    if (this.filled < size) {
      if (size > this.masks.length) {
        const grown = new Int32Array(Math.max(size, this.masks.length * 2));
        grown.set(this.masks.subarray(0, this.filled));
        this.masks = grown;
      }
      const { lower } = words;
      const { maskOf, masks } = this;
      for (let id = this.filled; id < size; id++) masks[id] = maskOf.get(lower[id]!) ?? 0;
      this.filled = size;
    }
    return this.masks;
  }
}

/**
 * Whether token `index` of `scanned` has a word in one of the classes `of` (bits of a
 * `WordClasses`), by `masks`: what that `WordClasses`' `of(scanned)` returned.
 */
export function hasClass(scanned: Scanned, masks: Int32Array, index: number, of: number): boolean {
  return (masks[scanned.word[index]!]! & of) !== 0;
}
