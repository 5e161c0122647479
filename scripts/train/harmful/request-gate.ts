/**
 * Training of the request-gated model (round 43, issue 19;
 * src/guards/harmful-content/request-gate.ts): the logit is
 * `bias + t + σ(t + offset) · r + suffix`, t the topic n-grams' weight and r
 * the request opening's (its features are one's complements of their
 * buckets). AdaGrad with L2 on the weights, as `trainLogistic`, through the
 * gate's chain rule; the offset is learned beside the bias. Deterministic:
 * the visits are `visitRows`'s seeded shuffles.
 */
import { gatedSum } from '../../../src/guards/harmful-content/request-gate';
import {
  adagradStep,
  LinearPart,
  type RealModel,
  type SparseRows,
  type TrainOptions,
  visitRows,
} from '../logistic';

/** A trained request-gated model: the weights (request buckets share the table) and the gate offset. */
export interface GatedModel {
  model: RealModel;
  offset: number;
}

/**
 * Partial derivatives of `t + σ(t + offset) · r` (gatedSum) with respect to
 * t, r and the offset, from r and the gate σ(t + offset).
 */
export function gatedPartials(
  request: number,
  gate: number,
): { topic: number; request: number; offset: number } {
  const slope = gate * (1 - gate);
  return { topic: 1 + slope * request, request: gate, offset: slope * request };
}

/** Trains the request-gated model on the rows `rowIds` with per-row `sampleWeights` (AdaGrad, L2 on the weights). */
export function trainGated(
  data: SparseRows,
  rowIds: readonly number[],
  sampleWeights: Float64Array,
  { bits, epochs, learningRate, l2, seed }: TrainOptions,
): GatedModel {
  // The bias and the suffix hinges are the plain model's (LinearPart, n-grams left to the loop below).
  const linear = new LinearPart(bits);
  const { weights, squares } = linear;
  const offset = [0];
  const offsetSquare = [0];
  const weight = (bucket: number) => weights[bucket]!;
  visitRows(data, rowIds, epochs, seed, (row, start, end, scale, suffix) => {
    const features = data.indices.subarray(start, end);
    const { request, gate, sum } = gatedSum(features, weight, offset[0]!);
    const logit = linear.logit(data, start, end, scale, suffix, false) + sum;
    const probability = 1 / (1 + Math.exp(-logit));
    const gradient = (probability - data.labels[row]!) * sampleWeights[row]!;
    const partial = gatedPartials(request, gate);
    // Each n-gram enters t or r scaled by 1/√n.
    const topicGradient = gradient * scale * partial.topic;
    const requestGradient = gradient * scale * partial.request;
    for (const feature of features) {
      const bucket = feature >= 0 ? feature : ~feature;
      const g = feature >= 0 ? topicGradient : requestGradient;
      adagradStep(weights, squares, bucket, g + l2 * weights[bucket]!, learningRate);
    }
    linear.step(data, start, end, scale, suffix, gradient, learningRate, l2, false);
    adagradStep(offset, offsetSquare, 0, gradient * partial.offset, learningRate);
  });
  return { model: linear.model(), offset: offset[0]! };
}
