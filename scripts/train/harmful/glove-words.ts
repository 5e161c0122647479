/**
 * GloVe-smoothed word weights (round 44, issue 19; `GLOVE=1`): words never
 * seen in training get a weight from their neighbours in GloVe space.
 *
 * Training adds one dense group to the hashed features: E, the sum of the
 * GloVe vectors (scripts/train/embeddings/glove.ts) of the `top` most
 * frequent GloVe words over the row's distinct word-unigram buckets
 * (`gloveBuckets`, `gloveRows`), scaled by the row's 1/√n like every hashed
 * feature, with 100 weights u learned beside the rest (same AdaGrad, L2
 * and visits as `trainLogistic`). Since u·E/√n = Σ s(word)/√n with
 * s(word) = u·GloVe(word), the dense group is a word-unigram feature:
 * `mergeGloveWords` adds s(word) into each word's unigram bucket (the
 * bucket `collectFeatures` gives the word), so the shipped scorer and
 * model format are unchanged. E is summed over buckets, not words, so a
 * bucket shared with another n-gram (a hash collision) adds its vector
 * whenever that n-gram is present, as the merged table will: the trained
 * model and the merged one are the same model (before int8 quantisation),
 * and a bucket's own weight can learn to offset a collision it sees in
 * training.
 *
 * Words are runs of word units of folded text, as the hashed word
 * features split them.
 */

import { isWordUnit, UNIGRAM_SEED } from '../../../src/guards/prompt-injection/hashed-features';
import type { WordVectors } from '../embeddings/glove';
import {
  adagradStep,
  LinearPart,
  type RealModel,
  type SparseRows,
  type TrainOptions,
  visitRows,
} from '../logistic';

/** The distinct words of folded `text`, in order of first appearance. */
export function foldedWords(text: string): string[] {
  const words = new Set<string>();
  let start = -1;
  for (let at = 0; at <= text.length; at++) {
    const word = at < text.length && isWordUnit(text.charCodeAt(at));
    if (word && start < 0) start = at;
    else if (!word && start >= 0) {
      words.add(text.slice(start, at));
      start = -1;
    }
  }
  return [...words];
}

/** The hashed word-unigram bucket of `word` (as `collectFeatures` computes it). */
export function unigramBucket(word: string, bits: number): number {
  let hash = UNIGRAM_SEED;
  for (let at = 0; at < word.length; at++) hash = Math.imul(hash ^ word.charCodeAt(at), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> (32 - bits);
}

/** The GloVe vectors summed per hashed bucket: the top words' vectors, each added into its word-unigram bucket. */
export interface GloveBuckets {
  readonly dimensions: number;
  /** Row of each bucket's summed vector in `vectors`, or -1 when no top word hashes there. */
  readonly rowOf: Int32Array;
  readonly vectors: Float32Array;
  /** How many words were added. */
  readonly words: number;
}

/**
 * Sums the vectors of the `top` most frequent GloVe words per word-unigram
 * bucket (a word the fold never yields as one run of word units, "don't",
 * never fires its bucket and is left out; a repeated word counts once).
 */
export function gloveBuckets(glove: WordVectors, top: number, bits: number): GloveBuckets {
  const { dimensions, vectors, words } = glove;
  const rowOf = new Int32Array(1 << bits).fill(-1);
  const sums: number[] = [];
  const seen = new Set<string>();
  for (let at = 0; at < Math.min(top, words.length); at++) {
    const word = words[at]!;
    if (seen.has(word) || foldedWords(word)[0] !== word) continue;
    seen.add(word);
    const bucket = unigramBucket(word, bits);
    if (rowOf[bucket] === -1) {
      rowOf[bucket] = sums.length / dimensions;
      for (let d = 0; d < dimensions; d++) sums.push(0);
    }
    const base = rowOf[bucket]! * dimensions;
    for (let d = 0; d < dimensions; d++) sums[base + d]! += vectors[at * dimensions + d]!;
  }
  return { dimensions, rowOf, vectors: Float32Array.from(sums), words: seen.size };
}

/**
 * Row i's E (`dimensions` floats from i × dimensions): the sum of the
 * bucket vectors of its distinct hashed features. A bucket shared by a
 * word and another n-gram counts whenever either is present, exactly as
 * the merged table reads it, so training sees the collisions the shipped
 * model has.
 */
export function gloveRows(data: SparseRows, buckets: GloveBuckets): Float32Array {
  const { dimensions, rowOf, vectors } = buckets;
  const rows = data.offsets.length - 1;
  const dense = new Float32Array(rows * dimensions);
  for (let row = 0; row < rows; row++) {
    for (let at = data.offsets[row]!; at < data.offsets[row + 1]!; at++) {
      const from = rowOf[data.indices[at]!]!;
      if (from < 0) continue;
      for (let d = 0; d < dimensions; d++)
        dense[row * dimensions + d]! += vectors[from * dimensions + d]!;
    }
  }
  return dense;
}

/** `trainLogistic` with the dense GloVe group `dense` (row-major, `dimensions` per row): the real model and u. */
export function trainLogisticGlove(
  data: SparseRows,
  dense: Float32Array,
  dimensions: number,
  rowIds: readonly number[],
  sampleWeights: Float64Array,
  { bits, epochs, learningRate, l2, seed }: TrainOptions,
): { model: RealModel; u: Float64Array } {
  const linear = new LinearPart(bits);
  const u = new Float64Array(dimensions);
  const squares = new Float64Array(dimensions);
  visitRows(data, rowIds, epochs, seed, (row, start, end, scale, suffix) => {
    const base = row * dimensions;
    let dot = 0;
    for (let d = 0; d < dimensions; d++) dot += u[d]! * dense[base + d]!;
    const logit = linear.logit(data, start, end, scale, suffix, true) + dot * scale;
    const probability = 1 / (1 + Math.exp(-logit));
    const gradient = (probability - data.labels[row]!) * sampleWeights[row]!;
    linear.step(data, start, end, scale, suffix, gradient, learningRate, l2, true);
    if (scale === 0) return;
    for (let d = 0; d < dimensions; d++)
      adagradStep(u, squares, d, gradient * scale * dense[base + d]! + l2 * u[d]!, learningRate);
  });
  return { model: linear.model(), u };
}

/**
 * Adds u·V(bucket) to each bucket of `model` (a copy) that top words hash
 * into, skipping |u·V| ≤ `floor`: the dense group of `trainLogisticGlove`
 * written into the hashed table. Returns the merged model and how many
 * buckets changed.
 */
export function mergeGloveWords(
  model: RealModel,
  u: Float64Array,
  buckets: GloveBuckets,
  floor: number,
): { model: RealModel; merged: number } {
  const weights = Float64Array.from(model.weights);
  const { dimensions, rowOf, vectors } = buckets;
  let merged = 0;
  for (let bucket = 0; bucket < rowOf.length; bucket++) {
    const from = rowOf[bucket]!;
    if (from < 0) continue;
    let s = 0;
    for (let d = 0; d < dimensions; d++) s += u[d]! * vectors[from * dimensions + d]!;
    if (Math.abs(s) <= floor) continue;
    weights[bucket]! += s;
    merged++;
  }
  return { model: { ...model, weights }, merged };
}
