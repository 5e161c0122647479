import { describe, expect, it } from 'vitest';
// Training-time experiments of the harmful trainer (scripts/train/harmful/), tested here.
import { trainLogisticDropout } from '../../scripts/train/harmful/dropout';
import {
  hardLookalikes,
  trainingLogit,
  weighHard,
} from '../../scripts/train/harmful/hard-negatives';
import type { HarmfulRow } from '../../scripts/train/harmful/harmful-data';
import { type RealModel, type SparseRows, trainLogistic } from '../../scripts/train/logistic';

/** Four rows over eight features: 0–1 harmful, 2–3 benign; feature 7 is shared by all. */
const data: SparseRows = {
  indices: Int32Array.from([0, 1, 7, 0, 2, 7, 3, 4, 7, 4, 5, 6, 7]),
  offsets: Uint32Array.from([0, 3, 6, 9, 13]),
  surprisal: new Float64Array(4),
  labels: Uint8Array.from([1, 1, 0, 0]),
};
const options = { bits: 3, epochs: 5, learningRate: 0.2, l2: 1e-4, seed: 7 };
const rowIds = [0, 1, 2, 3];
const weights = Float64Array.from([1, 1, 1, 1]);

describe('trainLogisticDropout', () => {
  it('is trainLogistic when nothing is dropped', () => {
    const plain = trainLogistic(data, rowIds, weights, options);
    const dropout = trainLogisticDropout(data, rowIds, weights, options, 0);
    expect(Array.from(dropout.weights)).toEqual(Array.from(plain.weights));
    expect(dropout.bias).toBe(plain.bias);
  });

  it('is deterministic, and dropping features changes what is learnt', () => {
    const a = trainLogisticDropout(data, rowIds, weights, options, 0.5);
    const b = trainLogisticDropout(data, rowIds, weights, options, 0.5);
    expect(Array.from(a.weights)).toEqual(Array.from(b.weights));
    const plain = trainLogistic(data, rowIds, weights, options);
    expect(Array.from(a.weights)).not.toEqual(Array.from(plain.weights));
    // Still separates the classes: harmful-only features positive, benign-only negative.
    expect(a.weights[1]! > 0 && a.weights[5]! < 0).toBe(true);
  });

  it('refuses a rate outside [0, 1) with a RangeError', () => {
    for (const rate of [1, -0.1, Number.NaN]) {
      expect(() => trainLogisticDropout(data, rowIds, weights, options, rate)).toThrow(RangeError);
    }
  });
});

describe('hard look-alikes', () => {
  const row = (id: string, label: 0 | 1, kind?: 'lookalike' | 'general', augmentOf?: string) =>
    ({ id, text: id, label, group: 'g', family: '', kind, augmentOf }) as HarmfulRow;
  const rows = [
    row('h', 1),
    row('a', 0, 'lookalike'),
    row('b', 0, 'lookalike'),
    row('c', 0, 'general'),
    row('b~tense', 0, 'lookalike', 'b'),
  ];
  // Row i has the single feature i; features 0..4 weigh 5, 3, 4, 9, 8.
  const sparse: SparseRows = {
    indices: Int32Array.from([0, 1, 2, 3, 4]),
    offsets: Uint32Array.from([0, 1, 2, 3, 4, 5]),
    surprisal: new Float64Array(5),
    labels: Uint8Array.from([1, 0, 0, 0, 0]),
  };
  const model: RealModel = {
    weights: Float64Array.from([5, 3, 4, 9, 8, 0, 0, 0]),
    bias: -1,
    suffixWeights: [],
  };

  it('reads a row as training does: bias plus weights over √n', () => {
    expect(trainingLogit(data, { ...model, bias: 0.5 }, 0)).toBe(0.5 + (5 + 3 + 0) / Math.sqrt(3));
  });

  it('ranks only original look-alikes of the training set, highest first', () => {
    // Look-alikes a (3 − 1) and b (4 − 1): the ordinary prompt c (9) and the twin (8) are not ranked.
    expect([...hardLookalikes(rows, sparse, [0, 1, 2, 3, 4], model, 0.5)]).toEqual(['b']);
    expect([...hardLookalikes(rows, sparse, [0, 1, 2, 3, 4], model, 1)]).toEqual(['b', 'a']);
    // A look-alike outside the training rows is never chosen.
    expect([...hardLookalikes(rows, sparse, [0, 1, 3], model, 1)]).toEqual(['a']);
  });

  it('weighs a hard row and its twins by the factor, and nothing else', () => {
    const before = Float64Array.from([1, 2, 3, 4, 5]);
    const after = weighHard(rows, [0, 1, 2, 3, 4], before, new Set(['b']), 3);
    expect(Array.from(after)).toEqual([1, 2, 9, 4, 15]);
    expect(Array.from(before)).toEqual([1, 2, 3, 4, 5]);
  });
});
