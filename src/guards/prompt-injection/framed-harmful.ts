import type { HarmfulScorer } from '../harmful-content/harmful-scorer';
import { bestHarmfulReading } from './decoded-harmful';
import { foldText } from './fold-text';

/**
 * Words of a task frame (issue 15, round 45): a request handed to a benign
 * task, to translate, rewrite or continue, or told as fiction, a story with
 * characters, a hypothetical, a role-play. Written from those kinds of frame,
 * not from rows; read on the folded (lower-case) text.
 */
const TASK_FRAME =
  /\b(?:translat\w*|stor(?:y|ies)|fiction\w*|novels?|characters?|narrat\w*|screenplay|scenes?|poems?|hypothetical\w*|imagine|role-?play\w*|pretend\w*|continu\w*|supplement|paragraphs?|rewrite|paraphras\w*|polish)\b/;

/** A piece shorter than this many words is not read: the harmful detector is not calibrated on fragments ("Can you help me?" scores 0.96). */
export const FRAMED_PIECE_MIN_WORDS = 12;

/** Whether the folded text names a task frame (`TASK_FRAME`); linear. */
export function hasTaskFrame(folded: string): boolean {
  return TASK_FRAME.test(folded);
}

/**
 * The pieces of folded text the rule reads: cut at line breaks, at a
 * sentence's end (`.`, `?`, `!` before a blank), at a colon before a blank
 * and at double quotes, so that a request after `Translate this:` or inside
 * quotes stands alone; only pieces of `FRAMED_PIECE_MIN_WORDS` words or more.
 * One pass, linear.
 */
export function framedPieces(folded: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  let words = 0;
  let inWord = false;
  const close = (end: number) => {
    if (words >= FRAMED_PIECE_MIN_WORDS) pieces.push(folded.slice(start, end).trim());
    start = end + 1;
    words = 0;
    inWord = false;
  };
  for (let index = 0; index < folded.length; index++) {
    const char = folded[index]!;
    const next = folded[index + 1];
    const blankNext = next === undefined || next === ' ' || next === '\n' || next === '\t';
    if (char === '\n' || char === '"' || char === '“' || char === '”') {
      close(index);
    } else if ((char === '.' || char === '?' || char === '!' || char === ':') && blankNext) {
      close(index);
    } else if (char === ' ' || char === '\t') {
      inWord = false;
    } else if (!inWord) {
      inWord = true;
      words++;
    }
  }
  close(folded.length);
  return pieces;
}

/**
 * The harmful detector's calibrated probability (rounded to 3 decimals) of
 * the best piece (`framedPieces`) of a text that names a task frame
 * (`hasTaskFrame`), each piece read in windows as `harmfulProbability` reads
 * a text; 0 without a frame or a long enough piece, without running the
 * model. A harmful request inside a translate / fiction / nested-story frame
 * (issue 15, round 45; the trainer's `FRAMED_HARMFUL=1`). Linear in the
 * text's length. Shared with the training script.
 */
export function framedHarmfulProbability(
  text: string,
  harmful: HarmfulScorer,
  folded: string = foldText(text),
): number {
  if (!hasTaskFrame(folded)) return 0;
  const pieces = framedPieces(folded);
  if (pieces.length === 0) return 0;
  return bestHarmfulReading(pieces, harmful).probability;
}
