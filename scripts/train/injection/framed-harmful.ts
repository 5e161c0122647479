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
 * prompts in one inner fold; see the model card's round-45 entry).
 */
import type { HarmfulScorer } from '../../../src/guards/harmful-content/harmful-scorer';
import { foldText } from '../../../src/guards/prompt-injection/fold-text';
import {
  framedHarmfulProbability,
  framedPieces,
  hasTaskFrame,
} from '../../../src/guards/prompt-injection/framed-harmful';
import type { PlainBenign } from './decoded-harmful';

/** Round 45's rule (experiment): see the file's comment. */
export const FRAMED_HARMFUL = process.env.FRAMED_HARMFUL === '1';

/** Each harmful model's framed cutoff, picked once. */
const cutoffs = new WeakMap<HarmfulScorer, number>();

/**
 * Picks the framed rule's cutoff with `pick` (the
 * trainer's `pickThreshold`: the lowest probability whose mean of the
 * groups' false-positive rates is within `targetFpr`) on the held-apart
 * benign prompts that open the gate; returns it and how many prompts it was
 * picked on.
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
  // No gated prompt to pick on: the rule never counts.
  const cutoff = gated.length === 0 ? 2 : pick(gated, targetFpr);
  cutoffs.set(harmful, cutoff);
  return { cutoff, gated: gated.length };
}

/**
 * `p`, or the framed probability of `text` when that reaches the cutoff
 * picked for `harmful` (`pickFramedCutoff`); `p` when none was picked.
 */
export function withFramedHarmful(p: number, text: string, harmful: HarmfulScorer): number {
  const cutoff = cutoffs.get(harmful);
  // None picked, or none to pick on (2): the rule does not count.
  if (cutoff === undefined || cutoff > 1) return p;
  const framed = framedHarmfulProbability(text, harmful);
  return framed >= cutoff ? Math.max(p, framed) : p;
}
