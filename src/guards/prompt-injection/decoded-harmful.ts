import { EMPTY_WINDOW_LOGIT, maxWindowLogit } from '../harmful-content/harmful-model';
import type { HarmfulScorer } from '../harmful-content/harmful-scorer';
import { foldText } from './fold-text';
import { textBeforeSuffix } from './suffix-gate';

/**
 * The harmful-request detector's judgement of a text's decoded segments
 * (issue 15, round 42): the calibrated probability, rounded to 3 decimals,
 * of the best of the `folded` readings (each read in windows as
 * `harmfulProbability` reads a text), and that reading's index; probability
 * 0 and index -1 when there is none or none has a feature. Linear in the
 * readings' length. Shared with the training script.
 */
export function bestHarmfulReading(
  folded: readonly string[],
  harmful: HarmfulScorer,
): { probability: number; index: number } {
  let best = Number.NEGATIVE_INFINITY;
  let index = -1;
  for (const [at, reading] of folded.entries()) {
    const logit = maxWindowLogit(reading, harmful);
    if (logit > best) {
      best = logit;
      index = at;
    }
  }
  if (index < 0 || best <= EMPTY_WINDOW_LOGIT) return { probability: 0, index: -1 };
  return { probability: Math.round(harmful.probability(best) * 1000) / 1000, index };
}

/**
 * The harmful detector's calibrated probability (rounded to 3 decimals) of
 * the text before an adversarial suffix (`adversarialSuffixStart` on the
 * folded text, read in windows as `harmfulProbability` reads a text), when
 * the suffix gate opens; 0 otherwise, without running the model: a harmful
 * request that carries an optimised suffix (issue 15, round 44; round 43's
 * rule read the whole text behind a character-model gate). Shared with the
 * training script; `scorePromptInjection` reads the same text before the
 * suffix (from the folded pieces it already has).
 */
export function suffixHarmfulProbability(text: string, harmful: HarmfulScorer): number {
  const request = textBeforeSuffix(foldText(text));
  return request === undefined ? 0 : bestHarmfulReading([request], harmful).probability;
}
