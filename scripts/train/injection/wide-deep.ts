/**
 * Joint training of the linear (wide) detector and its deep part (hashed
 * n-gram embeddings averaged, one hidden layer of rectified units; see
 * deep-model.ts beside this file): AdaGrad on the logistic loss
 * of the summed logit, a seeded shuffle and seeded initial values, one
 * thread, so the result depends only on the data and the options.
 */

import { suffixFeatures } from '../../../src/guards/prompt-injection/injection-model';
import {
  adagradStep,
  LinearPart,
  prng,
  quantiseInt8,
  type RealModel,
  type SparseRows,
  shuffleInPlace,
  stable,
  type TrainOptions,
} from '../logistic';
import type { DeepModelSpec } from './deep-model';

/** Hyper-parameters of the deep part. */
export interface DeepOptions {
  embedBits: number;
  dim: number;
  hidden: number;
  learningRate: number;
  /** Plain SGD step of the embeddings (scaled by the number of features, as in fastText). */
  embedRate: number;
  l2: number;
  /** false: the linear weights stay zero (the deep part and the suffix features only). */
  wide: boolean;
}

/** Real-valued deep parameters. */
export interface RealDeep {
  embeddings: Float64Array;
  layer1: Float64Array;
  bias1: Float64Array;
  layer2: Float64Array;
}

/** Trains both parts on the rows listed in `rowIds` with per-row `sampleWeights`. */
export function trainWideDeep(
  data: SparseRows,
  rowIds: readonly number[],
  sampleWeights: Float64Array,
  { bits, epochs, learningRate, l2, seed }: TrainOptions,
  deepOptions: DeepOptions,
): { wide: RealModel; deep: RealDeep } {
  const { embedBits, dim, hidden, wide: useWide } = deepOptions;
  const linear = new LinearPart(bits);
  const random = prng(seed);
  const init = prng(seed ^ 0x5eed);
  const uniform = (range: number) => (init() * 2 - 1) * range;
  const rows = 1 << embedBits;
  const embeddings = new Float64Array(rows * dim);
  for (let index = 0; index < embeddings.length; index++) embeddings[index] = uniform(0.5);
  const layer1 = new Float64Array(hidden * dim);
  for (let index = 0; index < layer1.length; index++) layer1[index] = uniform(1 / Math.sqrt(dim));
  const layer1Squares = new Float64Array(hidden * dim);
  const bias1 = new Float64Array(hidden).fill(0.01);
  const bias1Squares = new Float64Array(hidden);
  const layer2 = new Float64Array(hidden);
  for (let index = 0; index < hidden; index++) layer2[index] = uniform(0.1);
  const layer2Squares = new Float64Array(hidden);
  const h = new Float64Array(dim);
  const dh = new Float64Array(dim);
  const pre = new Float64Array(hidden);
  const shift = bits - embedBits;
  const deepRate = deepOptions.learningRate;
  const deepL2 = deepOptions.l2;
  const embedRate = deepOptions.embedRate;
  const order = [...rowIds];
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffleInPlace(order, random);
    for (const row of order) {
      const start = data.offsets[row]!;
      const end = data.offsets[row + 1]!;
      const n = end - start;
      const scale = n > 0 ? 1 / Math.sqrt(n) : 0;
      const mean = n > 0 ? 1 / n : 0;
      const suffix = suffixFeatures(data.surprisal[row]!);
      let logit = linear.logit(data, start, end, scale, suffix, useWide);
      h.fill(0);
      for (let at = start; at < end; at++) {
        const base = (data.indices[at]! >>> shift) * dim;
        for (let k = 0; k < dim; k++) h[k]! += embeddings[base + k]!;
      }
      for (let k = 0; k < dim; k++) h[k]! *= mean;
      for (let j = 0; j < hidden; j++) {
        let a = bias1[j]!;
        for (let k = 0; k < dim; k++) a += layer1[j * dim + k]! * h[k]!;
        pre[j] = a;
        if (a > 0) logit += layer2[j]! * a;
      }
      const probability = 1 / (1 + Math.exp(-logit));
      const gradient = (probability - data.labels[row]!) * sampleWeights[row]!;
      // Deep part.
      dh.fill(0);
      for (let j = 0; j < hidden; j++) {
        const active = pre[j]! > 0;
        const g2 = gradient * (active ? pre[j]! : 0) + deepL2 * layer2[j]!;
        const da = active ? gradient * layer2[j]! : 0;
        if (da !== 0) {
          for (let k = 0; k < dim; k++) {
            const w = j * dim + k;
            dh[k]! += da * layer1[w]!;
            adagradStep(layer1, layer1Squares, w, da * h[k]! + deepL2 * layer1[w]!, deepRate);
          }
          adagradStep(bias1, bias1Squares, j, da, deepRate);
        }
        adagradStep(layer2, layer2Squares, j, g2, deepRate);
      }
      // Embeddings: plain SGD (fastText's update: each row moves by the
      // gradient of the average), AdaGrad would cost a square root per entry.
      for (let k = 0; k < dim; k++) dh[k]! *= mean * embedRate;
      for (let at = start; at < end; at++) {
        const base = (data.indices[at]! >>> shift) * dim;
        for (let k = 0; k < dim; k++) embeddings[base + k]! -= dh[k]!;
      }
      // Wide part, suffix hinges and bias.
      linear.step(data, start, end, scale, suffix, gradient, learningRate, l2, useWide);
    }
  }
  return {
    wide: linear.model(),
    deep: { embeddings, layer1, bias1, layer2 },
  };
}

/** int8 embeddings with one scale; the small layers as stable decimals. */
export function quantiseDeep(deep: RealDeep, options: DeepOptions): DeepModelSpec {
  const { values: embeddings, scale: embedScale } = quantiseInt8(deep.embeddings);
  return {
    embedBits: options.embedBits,
    dim: options.dim,
    hidden: options.hidden,
    embeddings,
    embedScale,
    layer1: [...deep.layer1].map(stable),
    bias1: [...deep.bias1].map(stable),
    layer2: [...deep.layer2].map(stable),
  };
}
