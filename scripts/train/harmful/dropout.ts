/**
 * Logistic regression with feature dropout (an experiment of the harmful
 * trainer, `FEATURE_DROPOUT`): each visit of a row trains on a seeded random
 * subset of its hashed features, each kept with probability `1 - rate` and
 * scaled by `1 / (1 - rate)`, so the expected logit is the full row's. A
 * weight can then not count on the other features of its row being there,
 * and the evidence of a row spreads over more of its n-grams instead of the
 * few that identify its source. Scoring is unchanged (every feature, scaled
 * by 1/√n). Deterministic: the visit order and the kept features come from
 * seeded PRNGs.
 */
import { suffixFeatures } from '../../../src/guards/prompt-injection/injection-model';
import {
  LinearPart,
  prng,
  type RealModel,
  type SparseRows,
  shuffleInPlace,
  type TrainOptions,
} from '../logistic';

/** `trainLogistic` with each feature of a visited row dropped with probability `rate` (0 ≤ rate < 1). */
export function trainLogisticDropout(
  data: SparseRows,
  rowIds: readonly number[],
  sampleWeights: Float64Array,
  { bits, epochs, learningRate, l2, seed }: TrainOptions,
  rate: number,
): RealModel {
  if (!(rate >= 0 && rate < 1)) throw new RangeError(`dropout rate ${rate} is not in [0, 1)`);
  const linear = new LinearPart(bits);
  const random = prng(seed);
  const drop = prng(seed ^ 0x5eed_d0);
  const order = [...rowIds];
  let longest = 0;
  for (const row of rowIds)
    longest = Math.max(longest, data.offsets[row + 1]! - data.offsets[row]!);
  // The kept features of one visit, read by LinearPart as rows 0..kept of a one-row view.
  const kept: SparseRows = { ...data, indices: new Int32Array(longest) };
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffleInPlace(order, random);
    for (const row of order) {
      const start = data.offsets[row]!;
      const end = data.offsets[row + 1]!;
      let count = 0;
      for (let at = start; at < end; at++) {
        if (drop() >= rate) kept.indices[count++] = data.indices[at]!;
      }
      const scale = end > start ? 1 / (Math.sqrt(end - start) * (1 - rate)) : 0;
      const suffix = suffixFeatures(data.surprisal[row]!);
      const logit = linear.logit(kept, 0, count, scale, suffix, true);
      const probability = 1 / (1 + Math.exp(-logit));
      const gradient = (probability - data.labels[row]!) * sampleWeights[row]!;
      linear.step(kept, 0, count, scale, suffix, gradient, learningRate, l2, true);
    }
  }
  return linear.model();
}
