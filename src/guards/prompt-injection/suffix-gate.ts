import { dominantScript } from '../harmful-content/script';

/**
 * The adversarial-suffix gate (issue 15, round 44): does a text carry an
 * optimised suffix (GCG, random search), told by the shape of its tokens
 * rather than by an English character model, so that natural text in any
 * language passes? Round 43's gate (a window of the character model at
 * 2.5 nats/char or more) let through a third of XQuAD's and GPTeacher's
 * benign paragraphs: other Latin-script languages read as gibberish to an
 * English model.
 *
 * A token (a whitespace-separated word of folded text) is odd when it mixes
 * letters of the Latin script with letters of another script inside the
 * token (`годиultatslass`, `aboutFloat時`, `heartали`) in a text mostly in
 * Latin letters, or is a lone `!` (GCG's initial suffix is twenty of them,
 * and what the search leaves of it). Natural text in another script, or a
 * Latin text quoting one, keeps its scripts in separate tokens; emoji,
 * symbols and punctuation are not letters. The gate opens at the first odd
 * token of the first run of `SUFFIX_WINDOW` tokens holding at least
 * `SUFFIX_ODD` odd tokens. Both numbers were set by a screen on the corpora
 * (every source seen; see the model card's round-44 entry), not fitted to
 * rows. One pass over the text: linear.
 */

/** Tokens per window of the gate. */
export const SUFFIX_WINDOW = 10;
/** Fewest odd tokens in a window that opens the gate. */
export const SUFFIX_ODD = 3;

/** 1 for a Latin letter, 2 for a letter of another script, 0 for anything else. */
function letterKind(code: number): 0 | 1 | 2 {
  if (code < 0x80) return (code | 32) >= 97 && (code | 32) <= 122 ? 1 : 0;
  if (code < 0x250) return code >= 0xc0 && code !== 0xd7 && code !== 0xf7 ? 1 : 0;
  if (code >= 0x1e00 && code <= 0x1eff) return 1;
  // Combining marks, punctuation and symbol blocks, surrogates (emoji), specials: not letters.
  if (code < 0x370) return 0;
  if (code >= 0x2000 && code <= 0x33ff) return 0;
  if (code >= 0xd800 && code <= 0xdfff) return 0;
  if (code >= 0xfe00) return 0;
  return 2;
}

/**
 * Offset in `folded` (folded text, `foldText`) where its adversarial suffix
 * starts by the gate above, or -1 when the gate stays shut.
 */
export function adversarialSuffixStart(folded: string): number {
  let latinText: boolean | undefined;
  const odd: boolean[] = [];
  const starts: number[] = [];
  let inWindow = 0;
  let start = -1;
  let kinds = 0;
  // One pass; a blank (or the end) closes the token that runs before it.
  for (let index = 0; index <= folded.length; index++) {
    const code = index < folded.length ? folded.charCodeAt(index) : 32;
    if (code > 32) {
      if (start < 0) start = index;
      kinds |= letterKind(code);
      continue;
    }
    if (start < 0) continue;
    let isOdd = index - start === 1 && folded.charCodeAt(start) === 33;
    if (kinds === 3) {
      // The text's script is read once, and only when a token mixes scripts.
      latinText ??= dominantScript(folded) === 'latin';
      isOdd = latinText;
    }
    odd.push(isOdd);
    starts.push(start);
    start = -1;
    kinds = 0;
    const at = odd.length - 1;
    if (isOdd) inWindow++;
    if (at >= SUFFIX_WINDOW && odd[at - SUFFIX_WINDOW]) inWindow--;
    if (inWindow >= SUFFIX_ODD) {
      for (let first = Math.max(0, at - SUFFIX_WINDOW + 1); first <= at; first++) {
        if (odd[first]) return starts[first]!;
      }
    }
  }
  return -1;
}
