import { EMPTY_WINDOW_LOGIT, maxWindowLogit } from '../harmful-content/harmful-model';
import type { HarmfulScorer } from '../harmful-content/harmful-scorer';

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
