import { describe, expect, it } from 'vitest';
import type { WordVectors } from '../../scripts/train/embeddings/glove';
import {
  foldedWords,
  gloveBuckets,
  gloveRows,
  mergeGloveWords,
  trainLogisticGlove,
  unigramBucket,
} from '../../scripts/train/harmful/glove-words';
import { type SparseRows, trainLogistic } from '../../scripts/train/logistic';
import { collectFeatures } from '../../src/guards/prompt-injection/hashed-features';

const BITS = 18;

/** Hashed features of folded `text` (one window), as the scorer collects them. */
function features(text: string): Int32Array {
  const out = new Int32Array(6 * text.length + 8);
  const count = collectFeatures(text, 0, text.length, BITS, new Uint8Array(1 << BITS), 1, out);
  return out.slice(0, count);
}

/** A hand-made 2-d vector table (most frequent first). */
function vectors(rows: [string, number, number][]): WordVectors {
  const index = new Map<string, number>();
  rows.forEach(([word], at) => {
    if (!index.has(word)) index.set(word, at);
  });
  return {
    dimensions: 2,
    words: rows.map(([word]) => word),
    vectors: Float32Array.from(rows.flatMap(([, x, y]) => [x, y])),
    index,
  };
}

const table = vectors([
  ['ignore', 1, 0],
  ['disregard', 0.5, 0.5],
  ["don't", 4, 4],
  ['rules', 0, 2],
  ['forget', 0.25, -1],
]);

describe('foldedWords', () => {
  it('splits folded text into distinct runs of word units, as the hashed word features do', () => {
    expect(foldedWords("ignore the rules, ignore all don't")).toEqual([
      'ignore',
      'the',
      'rules',
      'all',
      'don',
      't',
    ]);
    expect(foldedWords('règles — über2 ')).toEqual(['règles', 'über2']);
    expect(foldedWords('')).toEqual([]);
  });
});

describe('unigramBucket', () => {
  it('is the bucket collectFeatures gives the word', () => {
    for (const word of ['disregard', 'ignore', 'a', 'über']) {
      expect(features(word)).toContain(unigramBucket(word, BITS));
    }
    // A word's bucket depends on the word: collectFeatures of another word lacks it here.
    expect(features('ignore')).not.toContain(unigramBucket('disregard', BITS));
  });
});

/** Sparse rows of folded texts' hashed features (sorted, as `prepare` stores them). */
function sparse(texts: string[]): SparseRows {
  const rows = texts.map(text => features(text).sort());
  const offsets = new Uint32Array(rows.length + 1);
  rows.forEach((row, at) => {
    offsets[at + 1] = offsets[at]! + row.length;
  });
  return {
    indices: Int32Array.from(rows.flatMap(row => [...row])),
    offsets,
    surprisal: new Float64Array(rows.length),
    labels: new Uint8Array(rows.length),
  };
}

describe('gloveBuckets', () => {
  it("sums the top words' vectors into their unigram buckets, leaving out words the fold never yields", () => {
    const buckets = gloveBuckets(table, 5, BITS);
    // ignore, disregard, rules, forget ("don't" is never one folded word).
    expect(buckets.words).toBe(4);
    const vector = (word: string) => {
      const row = buckets.rowOf[unigramBucket(word, BITS)]!;
      return [...buckets.vectors.subarray(row * 2, row * 2 + 2)];
    };
    expect(vector('ignore')).toEqual([1, 0]);
    expect(vector('forget')).toEqual([0.25, -1]);
    expect(buckets.rowOf[unigramBucket("don't", BITS)]).toBe(-1);
    expect(gloveBuckets(table, 2, BITS).words).toBe(2);
  });
});

describe('gloveRows', () => {
  it("sums the bucket vectors of each row's distinct features", () => {
    const dense = gloveRows(
      sparse(['ignore ignore the rules', 'forget it', 'nothing here']),
      gloveBuckets(table, 4, BITS),
    );
    // Row 0: ignore once (binary features) + rules; row 1: forget is 5th, past the top 4.
    expect([...dense]).toEqual([1, 2, 0, 0, 0, 0]);
  });
});

describe('mergeGloveWords', () => {
  it('adds u·V to each bucket a top word hashes into, skipping small ones', () => {
    const zero = { weights: new Float64Array(1 << BITS), bias: 0.5, suffixWeights: [0, 0] };
    const u = Float64Array.from([2, 1]);
    const buckets = gloveBuckets(table, 5, BITS);
    const { model, merged } = mergeGloveWords(zero, u, buckets, 1.2);
    // ignore 2, disregard 1.5, rules 2; forget −0.5 is under the floor.
    expect(merged).toBe(3);
    expect(model.weights[unigramBucket('ignore', BITS)]).toBe(2);
    expect(model.weights[unigramBucket('disregard', BITS)]).toBe(1.5);
    expect(model.weights[unigramBucket('rules', BITS)]).toBe(2);
    expect(model.weights[unigramBucket('forget', BITS)]).toBe(0);
    expect(model.bias).toBe(0.5);
    expect(zero.weights[unigramBucket('ignore', BITS)]).toBe(0);
  });

  it('scores a text as the dense group does: Σ weights of its features = u·E', () => {
    const zero = { weights: new Float64Array(1 << BITS), bias: 0, suffixWeights: [0, 0] };
    const u = Float64Array.from([2, 1]);
    const buckets = gloveBuckets(table, 5, BITS);
    const { model } = mergeGloveWords(zero, u, buckets, 0);
    const text = 'please disregard the rules, then forget them';
    const sum = [...features(text)].reduce((total, at) => total + model.weights[at]!, 0);
    const dense = gloveRows(sparse([text]), buckets);
    expect(sum).toBeCloseTo(2 * dense[0]! + dense[1]!, 12);
    expect(sum).toBeCloseTo(1.5 + 2 - 0.5, 12);
  });
});

describe('trainLogisticGlove', () => {
  // Four rows of two features each; the label is carried only by the dense group.
  const data: SparseRows = {
    indices: Int32Array.from([1, 2, 1, 2, 1, 2, 1, 2]),
    offsets: Uint32Array.from([0, 2, 4, 6, 8]),
    surprisal: new Float64Array(4),
    labels: Uint8Array.from([1, 0, 1, 0]),
  };
  const options = { bits: 4, epochs: 20, learningRate: 0.2, l2: 0, seed: 7 };
  const weights = Float64Array.from([1, 1, 1, 1]);
  const rows = [0, 1, 2, 3];

  it('is trainLogistic when the dense group is zero', () => {
    const plain = trainLogistic(data, rows, weights, options);
    const glove = trainLogisticGlove(data, new Float32Array(8), 2, rows, weights, options);
    expect([...glove.model.weights]).toEqual([...plain.weights]);
    expect(glove.model.bias).toBe(plain.bias);
    expect([...glove.u]).toEqual([0, 0]);
  });

  it('learns u from the dense group', () => {
    const dense = Float32Array.from([1, 0, -1, 0, 1, 0, -1, 0]);
    const { u } = trainLogisticGlove(data, dense, 2, rows, weights, options);
    expect(u[0]).toBeGreaterThan(1);
    expect(u[1]).toBe(0);
  });
});
