/**
 * Round 48 (hE, issue 15; `WRAPPED_HARMFUL=whole|payload`, off by default):
 * a harmful request handed to an ordinary task or told as fiction (the
 * latent-jailbreak and DeepInception kinds) counts by the harmful-content
 * detector's probability of the request. Two readings of a text, one
 * signal each:
 *
 * - `whole`: the text as `scoreHarmful` reads it (windows of the folded
 *   text): a bare harmful request, or one whose wrapper is short enough
 *   that the request dominates its window;
 * - `payload`: the higher of `whole` and, when the text names a task frame
 *   (`hasTaskFrame`: translate, paraphrase, story, characters, …), its best
 *   piece (`framedPieces`: cut at line breaks, sentence ends, colons and
 *   quotes, 12 words or more), so a request after `Translate this:` or in a
 *   character's line stands alone.
 *
 * The signal fires at `WRAPPED_HARMFUL_CUTOFF`; the trainer's rule uses the
 * suffix-harmful cutoff that each harmful model picks on its held-apart
 * benign prompts (the same prompts read as written). Screened before any
 * training (`wrapped-harmful-screen.ts`; the model card's round-48 hE entry).
 */
import type { HarmfulScorer } from '../../../src/guards/harmful-content/harmful-scorer';
import { bestHarmfulReading } from '../../../src/guards/prompt-injection/decoded-harmful';
import { foldText } from '../../../src/guards/prompt-injection/fold-text';
import { SUFFIX_HARMFUL_CUTOFF } from '../../../src/guards/prompt-injection/model/direct-model';
import { framedPieces, hasTaskFrame } from './framed-harmful';

/** Which reading the trainer's rule uses (`WRAPPED_HARMFUL`), or undefined (off). */
export type WrappedReading = 'whole' | 'payload';

/**
 * Where the signal fires in the screen: the shipped suffix-harmful cutoff
 * (0.95), picked by round 45's trainer on held-apart benign prompts read
 * as written, i.e. as `whole` reads them. Not picked on the screen's data.
 */
export const WRAPPED_HARMFUL_CUTOFF = SUFFIX_HARMFUL_CUTOFF;

/** The trainer's option: `WRAPPED_HARMFUL=whole` or `=payload`; anything else is off. */
export const WRAPPED_HARMFUL: WrappedReading | undefined =
  process.env.WRAPPED_HARMFUL === 'whole' || process.env.WRAPPED_HARMFUL === 'payload'
    ? process.env.WRAPPED_HARMFUL
    : undefined;

/**
 * The harmful detector's calibrated probability (rounded to 3 decimals) of
 * `text` by `reading` (see the file's comment). Linear in the text's
 * length: one windowed pass over the folded text, and with `payload` one
 * over its pieces (each character in at most one piece).
 */
export function wrappedHarmfulProbability(
  text: string,
  harmful: HarmfulScorer,
  reading: WrappedReading,
  folded: string = foldText(text),
): number {
  const readings = [folded];
  if (reading === 'payload' && hasTaskFrame(folded)) readings.push(...framedPieces(folded));
  return bestHarmfulReading(readings, harmful).probability;
}
