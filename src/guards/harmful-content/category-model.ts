import { InjectionScorer } from '../prompt-injection/injection-model';
import { HARMFUL_CATEGORIES, type HarmfulCategory } from './categories';

/** A softmax regression over `HARMFUL_CATEGORIES` on the same hashed features (fewer buckets), as stored in a model file. */
export interface EncodedCategoryModel {
  bits: number;
  scale: number;
  /** One bias per category, in the order of `categories`. */
  biases: readonly number[];
  categories: readonly string[];
  /** base64 of int8 weights, category-major: `weights[c * 2^bits + feature]`. */
  weights: string;
}

/** Lowest category probability that names a category. */
export const CATEGORY_MIN_PROBABILITY = 0.5;

/** Decoded category model: scores the kind of harm of a text. */
export class CategoryModel {
  readonly bits: number;
  readonly scale: number;
  readonly biases: readonly number[];
  readonly categories: readonly HarmfulCategory[];
  readonly weights: Int8Array;
  readonly #extractor: InjectionScorer;

  constructor(encoded: EncodedCategoryModel) {
    for (const category of encoded.categories) {
      if (!(HARMFUL_CATEGORIES as readonly string[]).includes(category)) {
        throw new Error(`unknown harmful category in model: ${category}`);
      }
    }
    this.bits = encoded.bits;
    this.scale = encoded.scale;
    this.biases = encoded.biases;
    this.categories = encoded.categories as HarmfulCategory[];
    const binary = atob(encoded.weights);
    this.weights = new Int8Array(binary.length);
    for (let index = 0; index < binary.length; index++) {
      this.weights[index] = (binary.charCodeAt(index) << 24) >> 24;
    }
    this.#extractor = featureExtractor(encoded.bits);
  }

  /** Distinct feature indices of `folded[start, end)` (a reused buffer). */
  features(folded: string, start: number, end: number): Int32Array {
    return this.#extractor.features(folded, start, end);
  }

  /** Softmax probabilities of each category from a window's features. */
  probabilities(features: Int32Array): number[] {
    const size = 1 << this.bits;
    const norm = features.length === 0 ? 0 : this.scale / Math.sqrt(features.length);
    const logits = this.categories.map((_, c) => {
      let sum = 0;
      const base = c * size;
      for (let index = 0; index < features.length; index++)
        sum += this.weights[base + features[index]!]!;
      return this.biases[c]! + sum * norm;
    });
    return softmax(logits);
  }
}

/** Softmax of logits (numerically stable). */
export function softmax(logits: readonly number[]): number[] {
  const max = Math.max(...logits);
  const exps = logits.map(logit => Math.exp(logit - max));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map(value => value / total);
}

/** A feature extractor for `bits` hashed buckets (the scorer's weights are unused). */
export function featureExtractor(bits: number): InjectionScorer {
  return new InjectionScorer({
    bits,
    weights: new Int8Array(0),
    scale: 1,
    bias: 0,
    suffixWeights: [],
    plattA: 1,
    plattB: 0,
  });
}

/** The softmax's top category when its probability is at least `CATEGORY_MIN_PROBABILITY`, else none. */
export function topCategory(model: CategoryModel, features: Int32Array): HarmfulCategory[] {
  const probabilities = model.probabilities(features);
  let top = 0;
  for (let c = 1; c < probabilities.length; c++)
    if (probabilities[c]! > probabilities[top]!) top = c;
  return probabilities[top]! >= CATEGORY_MIN_PROBABILITY ? [model.categories[top]!] : [];
}
