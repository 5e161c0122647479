import { EMPTY_WINDOW_LOGIT, maxWindowLogit } from '../harmful-content/harmful-model';
import type { HarmfulScorer } from '../harmful-content/harmful-scorer';
import { foldText } from './fold-text';
import {
  SUFFIX_BANG_NEEDS_MIXED,
  SUFFIX_CUT_BACK_ON,
  SUFFIX_SCRIPT_MIX_ON,
  textOutsideSuffix,
  textsBeforeSuffix,
} from './suffix-gate';

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
 * the request that carries an adversarial suffix, read in windows as
 * `harmfulProbability` reads a text, when the suffix gate opens; 0
 * otherwise, without running the model (issue 15). `reading`: `'before'`
 * (round 45), the text before the first suffix by round 44's gate
 * (`textBeforeSuffix`); `'outside'` (round 46), the best of the stretches
 * before, between and after the suffixes by round 46's gate
 * (`textOutsideSuffix`). `bangNeedsMixed`: the `'before'` reading's gate
 * opens on lone `!` only beside a token mixing scripts
 * (`SUFFIX_BANG_NEEDS_MIXED`, round 46); `scriptMix`, round 51's script-mix
 * window opens it too (`SUFFIX_SCRIPT_MIX_ON`); `cutBack`, the best of the
 * texts before the cut and before each of the tokens before it
 * (`SUFFIX_CUT_BACK_ON`, `textsBeforeSuffix`). Shared with the training script;
 * `scorePromptInjection` reads the same text (from the folded pieces it
 * already has).
 */
export function suffixHarmfulProbability(
  text: string,
  harmful: HarmfulScorer,
  reading: 'before' | 'outside' = 'before',
  bangNeedsMixed = SUFFIX_BANG_NEEDS_MIXED,
  scriptMix = SUFFIX_SCRIPT_MIX_ON,
  cutBack = SUFFIX_CUT_BACK_ON,
): number {
  const folded = foldText(text);
  const requests =
    reading === 'outside'
      ? textOutsideSuffix(folded)
      : textsBeforeSuffix(folded, bangNeedsMixed, scriptMix, cutBack);
  if (requests === undefined) return 0;
  return bestHarmfulReading(requests, harmful).probability;
}
