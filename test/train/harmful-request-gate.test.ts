import { describe, expect, it } from 'vitest';
// The gated trainer is training-time code (scripts/train/harmful/), tested here.
import { gatedPartials, trainGated } from '../../scripts/train/harmful/request-gate';
import { type SparseRows, trainLogistic } from '../../scripts/train/logistic';
import { gatedSum } from '../../src/guards/harmful-content/request-gate';

const options = { bits: 4, epochs: 20, learningRate: 0.2, l2: 1e-4, seed: 7 };

/** Sparse rows from feature lists (request features as one's complements) and labels. */
function rows(features: number[][], labels: number[]): SparseRows {
  const offsets = new Uint32Array(features.length + 1);
  features.forEach((row, index) => {
    offsets[index + 1] = offsets[index]! + row.length;
  });
  return {
    indices: Int32Array.from(features.flat()),
    offsets,
    surprisal: new Float64Array(features.length),
    labels: Uint8Array.from(labels),
  };
}

describe('gatedPartials', () => {
  it('are the derivatives of the gated sum (central differences)', () => {
    const table = [0.7, -1.3];
    const sumAt = (topicWeight: number, requestWeight: number, offset: number) =>
      gatedSum([0, ~1], bucket => [topicWeight, requestWeight][bucket]!, offset).sum;
    const { request, gate } = gatedSum([0, ~1], bucket => table[bucket]!, 0.4);
    const partial = gatedPartials(request, gate);
    const h = 1e-6;
    const scale = 1 / Math.sqrt(2);
    const d = (f: (step: number) => number) => (f(h) - f(-h)) / (2 * h);
    expect(d(step => sumAt(0.7 + step, -1.3, 0.4))).toBeCloseTo(partial.topic * scale, 8);
    expect(d(step => sumAt(0.7, -1.3 + step, 0.4))).toBeCloseTo(partial.request * scale, 8);
    expect(d(step => sumAt(0.7, -1.3, 0.4 + step))).toBeCloseTo(partial.offset, 8);
  });
});

describe('trainGated', () => {
  it('without request features trains the plain logistic regression', () => {
    const data = rows([[1, 2], [2, 3], [3, 4], [1, 4], [5], [5, 6]], [1, 1, 0, 1, 0, 0]);
    const ids = [0, 1, 2, 3, 4, 5];
    const weights = new Float64Array(6).fill(1);
    const gated = trainGated(data, ids, weights, options);
    const plain = trainLogistic(data, ids, weights, options);
    expect(gated.offset).toBe(0);
    expect(gated.model.bias).toBeCloseTo(plain.bias, 12);
    for (let bucket = 0; bucket < 16; bucket++) {
      expect(gated.model.weights[bucket]).toBeCloseTo(plain.weights[bucket]!, 12);
    }
  });

  it('learns a request frame that counts next to a harmful topic and not next to a benign one', () => {
    // bucket 1: a harmful topic word, 2 and 3: benign topic words, ~4: the request frame.
    // The frame opens every harmful row and half the benign ones.
    const data = rows(
      [[1, ~4], [1, ~4], [1, ~4], [1, ~4], [2, ~4], [3, ~4], [2], [3]],
      [1, 1, 1, 1, 0, 0, 0, 0],
    );
    const ids = [0, 1, 2, 3, 4, 5, 6, 7];
    const model = trainGated(data, ids, new Float64Array(8).fill(1), options);
    const weight = (bucket: number) => model.model.weights[bucket]!;
    const harmful = gatedSum([1, ~4], weight, model.offset);
    const benign = gatedSum([2, ~4], weight, model.offset);
    // The same frame (request part ≈ 0.98) is let through 0.84 next to the harmful word, 0.22 next to a benign one.
    expect(harmful.request).toBe(benign.request);
    expect(harmful.gate).toBeGreaterThan(0.8);
    expect(benign.gate).toBeLessThan(0.25);
    expect(model.model.bias + harmful.sum).toBeGreaterThan(2);
    expect(model.model.bias + benign.sum).toBeLessThan(-1.2);
    // Deterministic: the same data and options give the same model.
    const again = trainGated(data, ids, new Float64Array(8).fill(1), options);
    expect(again.offset).toBe(model.offset);
    expect([...again.model.weights]).toEqual([...model.model.weights]);
  });
});
