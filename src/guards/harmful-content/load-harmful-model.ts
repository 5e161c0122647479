import { CategoryModel } from './category-model';
import { decodeHarmfulModel } from './harmful-model';
import type { HarmfulScorer } from './harmful-scorer';
import { HARMFUL_READINGS, harmfulCategoryModel, harmfulModel } from './model/harmful-model-data';

let loaded: { scorer: HarmfulScorer; categories: CategoryModel } | undefined;

/**
 * The shipped models, decoded on first use and kept: importing the
 * guardrail costs nothing until it scores a text.
 */
export function harmfulModels(): { scorer: HarmfulScorer; categories: CategoryModel } {
  loaded ??= {
    scorer: decodeHarmfulModel(harmfulModel, HARMFUL_READINGS),
    categories: new CategoryModel(harmfulCategoryModel),
  };
  return loaded;
}
