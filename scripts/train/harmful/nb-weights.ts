/**
 * NB-weighted logistic regression (an experiment of the harmful trainer,
 * `NB_ALPHA` / `NB_BETA`; Wang & Manning 2012, "NBSVM"): each hashed feature
 * j is scaled by its naive-Bayes log-count ratio
 *
 *   r_j = ln((p_j / |p|₁) / (q_j / |q|₁)),  p = α + Σ harmful rows' weights · x,  q = α + Σ benign rows' weights · x,
 *
 * counted on the training rows with their sample weights (so a large
 * source counts as much as it weighs, not as many rows as it has), and the
 * logistic regression learns w on the scaled features. A feature seen about
 * as often on both sides (r ≈ 0) can then hardly carry weight, and L2 costs
 * less on features the counts already call one-sided. Since the scaled
 * features are still linear in the binary ones, the effective weight of
 * bucket j is r_j · ((1 − β) w̄ + β w_j) (w̄: mean |w|, NBSVM's
 * interpolation towards naive Bayes; β = 1: plain NB-scaled regression;
 * a bucket no training row has stays 0),
 * which is what the model file stores: scoring is unchanged. Deterministic
 * (the visit order is `trainLogistic`'s seeded shuffle).
 */
import {
  adagradStep,
  LinearPart,
  type RealModel,
  type SparseRows,
  type TrainOptions,
  visitRows,
} from '../logistic';

/** Naive-Bayes log-count ratio of every bucket, from the weighted binary counts of `rowIds`. */
export function logCountRatios(
  data: SparseRows,
  rowIds: readonly number[],
  sampleWeights: Float64Array,
  bits: number,
  alpha: number,
): Float64Array {
  if (!(alpha > 0)) throw new RangeError(`NB smoothing alpha ${alpha} must be > 0`);
  const size = 1 << bits;
  const counts = [new Float64Array(size).fill(alpha), new Float64Array(size).fill(alpha)];
  const totals = [alpha * size, alpha * size];
  for (const row of rowIds) {
    const label = data.labels[row]!;
    const weight = sampleWeights[row]!;
    const side = counts[label]!;
    for (let at = data.offsets[row]!; at < data.offsets[row + 1]!; at++) {
      side[data.indices[at]!]! += weight;
      totals[label]! += weight;
    }
  }
  const ratios = new Float64Array(size);
  for (let j = 0; j < size; j++) {
    ratios[j] = Math.log(counts[1]![j]! / totals[1]! / (counts[0]![j]! / totals[0]!));
  }
  return ratios;
}

/** `trainLogistic` on features scaled by `ratios`, returned with the ratios folded into the weights. */
export function trainLogisticNb(
  data: SparseRows,
  rowIds: readonly number[],
  sampleWeights: Float64Array,
  { bits, epochs, learningRate, l2, seed }: TrainOptions,
  ratios: Float64Array,
  beta: number,
): RealModel {
  if (!(beta >= 0 && beta <= 1))
    throw new RangeError(`NB interpolation beta ${beta} is not in [0, 1]`);
  const linear = new LinearPart(bits);
  const { weights, squares } = linear;
  visitRows(data, rowIds, epochs, seed, (row, start, end, scale, suffix) => {
    let logit = linear.logit(data, start, end, scale, suffix, false);
    for (let at = start; at < end; at++) {
      const feature = data.indices[at]!;
      logit += weights[feature]! * ratios[feature]! * scale;
    }
    const gradient = (1 / (1 + Math.exp(-logit)) - data.labels[row]!) * sampleWeights[row]!;
    for (let at = start; at < end; at++) {
      const feature = data.indices[at]!;
      const g = gradient * ratios[feature]! * scale + l2 * weights[feature]!;
      adagradStep(weights, squares, feature, g, learningRate);
    }
    linear.step(data, start, end, scale, suffix, gradient, learningRate, l2, false);
  });
  let mean = 0;
  for (let j = 0; j < weights.length; j++) mean += Math.abs(weights[j]!);
  mean /= weights.length;
  const folded = new Float64Array(weights.length);
  // A bucket no training row has (never stepped) keeps weight 0, as in the plain regression.
  for (let j = 0; j < weights.length; j++) {
    if (squares[j] !== 0) folded[j] = ratios[j]! * ((1 - beta) * mean + beta * weights[j]!);
  }
  return { ...linear.model(), weights: folded };
}
