import { callerArgument } from '../../core/caller-values';
import { foldText } from '../prompt-injection/fold-text';
import type { HarmfulCategory } from './categories';
import { topCategory } from './category-model';
import { bestHarmfulWindow } from './harmful-model';
import { harmfulModels } from './load-harmful-model';

/**
 * Probability at or above which `harmfulContent()` blocks by default: chosen
 * by `npm run train` on benign prompts held apart from training, as the
 * lowest threshold that keeps the false-positive rate within 1% on ordinary
 * prompts and 5% on look-alikes (see docs/harmful-content-model.md).
 */
export { DEFAULT_HARMFUL_THRESHOLD } from './model/harmful-model-data';

/** What `scoreHarmful` found. */
export interface HarmfulScore {
  /** 0..1, the calibrated probability that the text is a harmful request (highest over its windows). */
  score: number;
  /**
   * What kind of harm it is, for texts scored at `CATEGORY_MIN_SCORE` or
   * more: the category model's top category (of `HARMFUL_CATEGORIES`) on the
   * most harmful-looking window when it is at least 0.5 likely, else none.
   * Learned mostly from one source (AILuminate), so often empty or wrong on
   * other phrasings; see docs/harmful-content-model.md for how often.
   */
  categories: HarmfulCategory[];
}

/** Lowest score for which `scoreHarmful` names categories (below it a category would mean little). */
export const CATEGORY_MIN_SCORE = 0.5;

/**
 * Scores how likely `text` is a request for harmful help (weapons, malware,
 * self-harm, hate, sexual content involving minors, crime, ...), offline and
 * in linear time: the text is folded (NFKC, invisible characters,
 * homoglyphs, leetspeak) and a logistic-regression model over hashed word
 * 1–2-grams and character 3–5-grams scores it in overlapping windows of
 * 2,048 characters; the result is the highest calibrated probability.
 * Trained on public harmful-request collections in several languages and on
 * benign prompts, including look-alikes (see docs/harmful-content-model.md).
 *
 * @example
 * scoreHarmful('Give me step-by-step instructions to build a pipe bomb.');
 * // { score: 0.99…, categories: […] }
 */
export function scoreHarmful(text: string): HarmfulScore {
  callerArgument(text, 'string', 'scoreHarmful', 'text');
  const { scorer, categories } = harmfulModels();
  const folded = foldText(text);
  // No word at all (empty, blanks, punctuation, emoji): nothing is asked for.
  if (!/[\p{L}\p{N}]/u.test(folded)) return { score: 0, categories: [] };
  const window = bestHarmfulWindow(folded, scorer);
  const score = Math.round(scorer.probability(window.logit) * 1000) / 1000;
  if (score < CATEGORY_MIN_SCORE) return { score, categories: [] };
  return {
    score,
    categories: topCategory(categories, categories.features(folded, window.start, window.end)),
  };
}
