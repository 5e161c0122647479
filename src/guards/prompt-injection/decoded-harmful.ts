import {
  EMPTY_WINDOW_LOGIT,
  harmfulProbability,
  maxWindowLogit,
} from '../harmful-content/harmful-model';
import type { HarmfulScorer } from '../harmful-content/harmful-scorer';
import { SURPRISAL_KNOTS } from './injection-model';

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
 * Surprisal (nats per character, the character language model's mean over
 * a window) from which a text holds a stretch of gibberish for the
 * suffix-harmful rule (issue 15, round 43): the first of the suffix
 * features' knots (`SURPRISAL_KNOTS`), not a level fitted to rows.
 */
export const SUFFIX_HARMFUL_SURPRISAL = SURPRISAL_KNOTS[0];

/**
 * The harmful detector's calibrated probability of `text` itself (rounded to
 * 3 decimals, as `harmfulProbability` reads it) when some window of it reads
 * as gibberish (`peakSurprisal`, the highest window surprisal, at or above
 * `SUFFIX_HARMFUL_SURPRISAL`); 0 otherwise, without running the model: a
 * harmful request that carries an adversarial suffix (issue 15, round 43).
 * Shared with the training script.
 */
export function suffixHarmfulProbability(
  text: string,
  peakSurprisal: number,
  harmful: HarmfulScorer,
): number {
  return peakSurprisal >= SUFFIX_HARMFUL_SURPRISAL ? harmfulProbability(text, harmful) : 0;
}
