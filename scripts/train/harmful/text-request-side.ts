/**
 * Round 48 (hM, issue 19; `TEXT_REQUEST_SIDE=1`): the "produce harmful
 * text" frame signals (src/guards/harmful-content/text-request.ts) as four
 * side inputs of a window's logit, outside the 1/√n sum of its hashed
 * n-grams: each present signal adds its own weight in full. The weights are
 * learned in the same AdaGrad visits as the model (`trainLogisticSide`),
 * with their own L2 and clipped to [−cap, cap] after every step. Training
 * and --loso; see the model card's "Round 48 (hM)" paragraph.
 */
import {
  TEXT_REQUEST_SIGNALS,
  textRequestLogit,
  textRequestMask,
} from '../../../src/guards/harmful-content/text-request';
import type { WindowVerdict } from '../../../src/guards/prompt-injection/injection-model';
import type { RealModel, SparseRows, TrainOptions } from '../logistic';
import { adagradStep, LinearPart, visitRows } from '../logistic';
import { ExperimentScorer } from './concept-features';

/** How the side weights are regularised. */
export interface SideOptions {
  /** L2 strength of the side weights (the n-grams use `TrainOptions.l2`). */
  l2: number;
  /** Each side weight is clipped to [−cap, cap] after every step. */
  cap: number;
  /** Bit mask of the `TEXT_REQUEST_SIGNALS` that are side inputs (the others are ignored). */
  signals: number;
}

const masks = new WeakMap<readonly string[], Uint8Array>();

/** The signal mask of each whole folded row (computed once per row list). */
export function rowMasks(folded: readonly string[]): Uint8Array {
  let out = masks.get(folded);
  if (out === undefined) {
    out = new Uint8Array(folded.length);
    for (const [index, text] of folded.entries())
      out[index] = textRequestMask(text, 0, text.length);
    masks.set(folded, out);
  }
  return out;
}

/** `trainLogistic` plus the side weights of the rows' signal masks. */
export function trainLogisticSide(
  data: SparseRows,
  rowMask: Uint8Array,
  rowIds: readonly number[],
  sampleWeights: Float64Array,
  { bits, epochs, learningRate, l2, seed }: TrainOptions,
  side: SideOptions,
): { model: RealModel; side: number[] } {
  const linear = new LinearPart(bits);
  const weights = TEXT_REQUEST_SIGNALS.map(() => 0);
  const squares = TEXT_REQUEST_SIGNALS.map(() => 0);
  visitRows(data, rowIds, epochs, seed, (row, start, end, scale, suffix) => {
    const mask = rowMask[row]! & side.signals;
    const logit =
      linear.logit(data, start, end, scale, suffix, true) + textRequestLogit(mask, weights);
    const probability = 1 / (1 + Math.exp(-logit));
    const gradient = (probability - data.labels[row]!) * sampleWeights[row]!;
    linear.step(data, start, end, scale, suffix, gradient, learningRate, l2, true);
    for (let at = 0; at < weights.length; at++) {
      if ((mask & (1 << at)) === 0) continue;
      adagradStep(weights, squares, at, gradient + side.l2 * weights[at]!, learningRate);
      weights[at] = Math.max(-side.cap, Math.min(side.cap, weights[at]!));
    }
  });
  return { model: linear.model(), side: weights.map(w => Number(w.toPrecision(8))) };
}

/** An ExperimentScorer whose windows' logits also carry the side weights of their signals. */
export class TextRequestSideScorer extends ExperimentScorer {
  /** The side weights (one per signal; the trainer sets them). */
  side: readonly number[] = [];
  /** Bit mask of the signals that are side inputs (the trainer sets it). */
  signals = 15;
  #mask = 0;

  override features(text: string, start: number, end: number): Int32Array {
    this.#mask = textRequestMask(text, start, end) & this.signals;
    return super.features(text, start, end);
  }

  override logit(features: Int32Array, surprisal: number): WindowVerdict {
    const verdict = super.logit(features, surprisal);
    return { ...verdict, logit: verdict.logit + textRequestLogit(this.#mask, this.side) };
  }
}
