import { foldText } from '../prompt-injection/fold-text';
import {
  decodeInjectionModel,
  type EncodedInjectionModel,
  MODEL_WINDOW,
  windowStarts,
} from '../prompt-injection/injection-model';
import { HarmfulScorer } from './harmful-scorer';
import { type HarmfulReadingOptions, NO_EXTRA_READING } from './readings';
import { noisyTailStart } from './suffix-noise';

/**
 * Highest window logit of folded text under a hashed n-gram model (the
 * injection detector's features, harmful-scorer.ts):
 * windows of `MODEL_WINDOW` characters overlapping by 512, so the cost is
 * linear in the length and a request inside a long text is judged on its own
 * neighbourhood. Shared with the training script.
 */
export function maxWindowLogit(folded: string, scorer: HarmfulScorer): number {
  return bestHarmfulWindow(folded, scorer).logit;
}

/** Logit of a window without features (far below any threshold, finite so calibration stays defined). */
export const EMPTY_WINDOW_LOGIT = -20;

/** The window of folded text with the highest logit, and that logit. */
export function bestHarmfulWindow(
  folded: string,
  scorer: HarmfulScorer,
): { logit: number; start: number; end: number } {
  let best = { logit: Number.NEGATIVE_INFINITY, start: 0, end: 0 };
  const read = (start: number, end: number) => {
    const features = scorer.features(folded, start, end);
    // A window with no feature (a non-Latin window naming no concept, with
    // the script gate) carries no evidence: it is not scored at the bias.
    const logit =
      features.length === 0
        ? EMPTY_WINDOW_LOGIT
        : scorer.logit(features, scorer.suffixInput()).logit;
    if (logit > best.logit) best = { logit, start, end };
  };
  for (const start of windowStarts(folded.length)) {
    read(start, Math.min(folded.length, start + MODEL_WINDOW));
  }
  // The text before a noisy tail (an adversarial suffix; suffix-noise.ts), when the model was calibrated with it.
  if (folded.length <= scorer.readings.noisyTailMaxLength) {
    const cut = noisyTailStart(folded, scorer.readings.noisyTailSymbols !== false);
    if (cut > 0) {
      for (const start of windowStarts(cut)) read(start, Math.min(cut, start + MODEL_WINDOW));
    }
  }
  // Extra windows of a training experiment's scorer (none for the shipped one).
  const spans = scorer.extraSpans(folded);
  for (let index = 0; index < spans.length; index += 2) read(spans[index]!, spans[index + 1]!);
  return best;
}

/** Calibrated probability (rounded to 3 decimals) that `text` is a harmful request. */
export function harmfulProbability(text: string, scorer: HarmfulScorer): number {
  const probability = scorer.probability(maxWindowLogit(foldText(text), scorer));
  return Math.round(probability * 1000) / 1000;
}

/**
 * Decodes a model file (for the runtime's lazy loader and the training
 * script), with the extra readings it was calibrated with (readings.ts).
 */
export function decodeHarmfulModel(
  encoded: EncodedInjectionModel,
  readings: HarmfulReadingOptions = NO_EXTRA_READING,
): HarmfulScorer {
  return new HarmfulScorer(decodeInjectionModel(encoded), readings);
}
