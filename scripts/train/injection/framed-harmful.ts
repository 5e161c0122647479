/**
 * Round 45's experiment (issue 15; `FRAMED_HARMFUL=1`, off by default): a
 * harmful request inside a task frame (translate this, write a story where
 * characters explain, a nested science fiction) counts by the harmful
 * detector's probability of its best piece (`framedHarmfulProbability`:
 * pieces of 12 words or more cut at line breaks, sentence ends, colons and
 * quotes, read only when the text names a task frame) when that reaches a
 * cutoff of its own. The cutoff is picked per harmful model (each protocol
 * fold's and each inner calibration fold's, leak-controlled as the decoded
 * rule's, decoded-harmful.ts) on the benign prompts of its calibration slice
 * that open the frame gate, read the same way and grouped by kind (ordinary,
 * look-alike): the gate and the cutoff are picked together on benign texts
 * the gate lets through (what round 43's suffix rule lacked). Not kept: its
 * 5-fold run lowered the median 0.492 → 0.399 (a cutoff picked on 3 gated
 * prompts in one inner fold; see the model card's round-45 entry). Round 46:
 * a cutoff is picked only on `FRAMED_MIN_GATED` gated prompts or more, else
 * it is `FRAMED_FALLBACK_CUTOFF`; not kept either (median 0.492 → 0.399:
 * the harmful model reads benign fiction pieces as high as the attacks, see
 * the card's round-46 entry), and the gate and the pieces, which the runtime
 * never ran, moved here from src/guards/prompt-injection/.
 */
import type { HarmfulScorer } from '../../../src/guards/harmful-content/harmful-scorer';
import { bestHarmfulReading } from '../../../src/guards/prompt-injection/decoded-harmful';
import { foldText } from '../../../src/guards/prompt-injection/fold-text';
import type { PlainBenign } from './decoded-harmful';

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
 * text's length. (Round 46: moved out of the runtime, which never ran it.)
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

/** Round 45's rule (experiment): see the file's comment. */
export const FRAMED_HARMFUL = process.env.FRAMED_HARMFUL === '1';

/**
 * Round 46: the floor of evidence. A harmful model picks its own framed
 * cutoff only on at least this many held-apart benign prompts that open the
 * gate; round 45's run had an inner calibration fold pick 0.9 on 3 such
 * prompts, and its fold's threshold went to 0.996. Written before round 46's
 * run (the model card's round-46 entry).
 */
export const FRAMED_MIN_GATED = 50;

/**
 * Round 46: the framed cutoff of a harmful model with fewer than
 * `FRAMED_MIN_GATED` gated benign prompts to pick on (none too): fixed and
 * conservative (round 45's protocol folds picked 0.97–0.993 on 66–175 gated
 * prompts). Written before round 46's run.
 */
export const FRAMED_FALLBACK_CUTOFF = 0.98;

/** Each harmful model's framed cutoff, picked once. */
const cutoffs = new WeakMap<HarmfulScorer, number>();

/**
 * Picks the framed rule's cutoff with `pick` (the
 * trainer's `pickThreshold`: the lowest probability whose mean of the
 * groups' false-positive rates is within `targetFpr`) on the held-apart
 * benign prompts that open the gate when there are at least
 * `FRAMED_MIN_GATED` of them, else `FRAMED_FALLBACK_CUTOFF` (round 46);
 * returns it and how many prompts it was picked on.
 */
export function pickFramedCutoff(
  harmful: HarmfulScorer,
  plain: readonly PlainBenign[],
  targetFpr: number,
  pick: (benign: ReadonlyArray<{ p: number; group: string }>, targetFpr: number) => number,
): { cutoff: number; gated: number } {
  const gated: Array<{ p: number; group: string }> = [];
  for (const entry of plain) {
    const folded = foldText(entry.text);
    if (!hasTaskFrame(folded) || framedPieces(folded).length === 0) continue;
    gated.push({ p: framedHarmfulProbability(entry.text, harmful, folded), group: entry.group });
  }
  // Too few gated prompts to pick on (round 46): the fixed conservative cutoff.
  const cutoff = gated.length < FRAMED_MIN_GATED ? FRAMED_FALLBACK_CUTOFF : pick(gated, targetFpr);
  cutoffs.set(harmful, cutoff);
  return { cutoff, gated: gated.length };
}

/**
 * `p`, or the framed probability of `text` when that reaches the cutoff
 * picked for `harmful` (`pickFramedCutoff`); `p` when none was picked.
 */
export function withFramedHarmful(p: number, text: string, harmful: HarmfulScorer): number {
  const cutoff = cutoffs.get(harmful);
  // None picked: the rule does not count.
  if (cutoff === undefined) return p;
  const framed = framedHarmfulProbability(text, harmful);
  return framed >= cutoff ? Math.max(p, framed) : p;
}
