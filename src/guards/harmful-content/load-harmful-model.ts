import type { InjectionScorer } from '../prompt-injection/injection-model';
import { CategoryModel } from './category-model';
import { decodeHarmfulModel } from './harmful-model';
import {
  HARMFUL_CONCEPT_COPIES,
  harmfulCategoryModel,
  harmfulModel,
} from './model/harmful-model-data';

let loaded: { scorer: InjectionScorer; categories: CategoryModel } | undefined;

/**
 * The shipped models, decoded on first use and kept: importing the
 * guardrail costs nothing until it scores a text.
 */
export function harmfulModels(): { scorer: InjectionScorer; categories: CategoryModel } {
  loaded ??= {
    scorer: decodeHarmfulModel(harmfulModel, HARMFUL_CONCEPT_COPIES),
    categories: new CategoryModel(harmfulCategoryModel),
  };
  return loaded;
}
