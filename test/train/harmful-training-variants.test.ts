import { describe, expect, it } from 'vitest';
import { bucket } from '../../scripts/train/clusters-harmful/cluster-scorer';
// Training-time experiments of the harmful trainer (scripts/train/harmful/), tested here.
import { ExperimentScorer } from '../../scripts/train/harmful/concept-features';
import { trainLogisticDropout } from '../../scripts/train/harmful/dropout';
import { EnsembleScorer, wordFeatures, wordRows } from '../../scripts/train/harmful/ensemble';
import { GroupScorer, isGroupWord } from '../../scripts/train/harmful/group-words';
import {
  hardLookalikes,
  trainingLogit,
  weighHard,
} from '../../scripts/train/harmful/hard-negatives';
import type { HarmfulRow } from '../../scripts/train/harmful/harmful-data';
import { logCountRatios, trainLogisticNb } from '../../scripts/train/harmful/nb-weights';
import { skipGramScorer } from '../../scripts/train/harmful/skip-grams';
import {
  emptySpec,
  type RealModel,
  type SparseRows,
  trainLogistic,
} from '../../scripts/train/logistic';
import { bestHarmfulWindow } from '../../src/guards/harmful-content/harmful-model';
import { hashString } from '../../src/guards/pii/ner/features';
import { namedFeature } from '../../src/guards/prompt-injection/hashed-features';

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

describe('NB-weighted regression', () => {
  it('counts each side with the row weights and alpha smoothing', () => {
    // Harmful side: features 0 and 7 twice, 1 and 2 once; 8 buckets of alpha 1 → total 8 + 6.
    // Benign side: 4 and 7 twice, 3, 5, 6 once → total 8 + 7.
    const r = logCountRatios(data, rowIds, weights, 3, 1);
    expect(r[0]).toBeCloseTo(Math.log(3 / 14 / (1 / 15)), 12);
    expect(r[4]).toBeCloseTo(Math.log(1 / 14 / (3 / 15)), 12);
    expect(r[7]).toBeCloseTo(Math.log(3 / 14 / (3 / 15)), 12);
    // Row 0 weighing 3: feature 1 counts 1 + 3 of 8 + 3 · 3 + 3 on the harmful side.
    const heavy = logCountRatios(data, rowIds, Float64Array.from([3, 1, 1, 1]), 3, 1);
    expect(heavy[1]).toBeCloseTo(Math.log(4 / 20 / (1 / 15)), 12);
  });

  it('refuses alpha ≤ 0 and beta outside [0, 1] with a RangeError', () => {
    expect(() => logCountRatios(data, rowIds, weights, 3, 0)).toThrow(RangeError);
    const ones = new Float64Array(8).fill(1);
    for (const beta of [-0.1, 1.5, Number.NaN]) {
      expect(() => trainLogisticNb(data, rowIds, weights, options, ones, beta)).toThrow(RangeError);
    }
  });

  it('is trainLogistic when every ratio is 1 and beta is 1', () => {
    const plain = trainLogistic(data, rowIds, weights, options);
    const nb = trainLogisticNb(data, rowIds, weights, options, new Float64Array(8).fill(1), 1);
    expect(Array.from(nb.weights)).toEqual(Array.from(plain.weights));
    expect(nb.bias).toBe(plain.bias);
  });

  it('stores ratio × weight, interpolated towards the mean, and 0 for buckets no row has', () => {
    const ratios = logCountRatios(data, rowIds, weights, 3, 1);
    const learnt = trainLogisticNb(data, rowIds, weights, options, ratios, 1);
    // Signs follow the counts: harmful-only feature 1 up, benign-only feature 5 down.
    expect(learnt.weights[1]! > 0 && learnt.weights[5]! < 0).toBe(true);
    // Trained on rows 0 and 2 only, features 5 and 6 were never stepped: 0 even with beta < 1.
    const half = trainLogisticNb(data, [0, 2], weights, options, ratios, 0.5);
    expect([half.weights[5], half.weights[6]]).toEqual([0, 0]);
    expect(half.weights[1]).not.toBe(0);
  });
});

describe('word-model ensemble', () => {
  it('hashes each distinct word and word pair of the window once', () => {
    const expected = (names: string[]) =>
      names.map(name => namedFeature(name, 18)).sort((a, b) => a - b);
    expect(Array.from(wordFeatures('a a a', 0, 5, 18))).toEqual(expected(['w a', 'b a a']));
    // Only the window is read; punctuation separates words.
    const text = 'xx how-to, bomb yy';
    expect(Array.from(wordFeatures(text, 3, 15, 18))).toEqual(
      expected(['w how', 'w to', 'w bomb', 'b how to', 'b to bomb']),
    );
  });

  it('builds training rows of the word features', () => {
    const rows = wordRows(['a a', 'b'], Uint8Array.from([1, 0]), 18);
    expect(Array.from(rows.offsets)).toEqual([0, 2, 3]);
    expect(Array.from(rows.indices.subarray(2))).toEqual([namedFeature('w b', 18)]);
    expect(Array.from(rows.labels)).toEqual([1, 0]);
  });

  it('scores a window as the mean of the two models’ logits', () => {
    const ngrams = { ...emptySpec(12), bias: 1 };
    const words = { ...emptySpec(18), bias: -3, scale: 0.5 };
    words.weights[namedFeature('w bomb', 18)] = 10;
    const concepts = { copies: 0, dense: false };
    const scorer = new EnsembleScorer(ngrams, concepts, undefined, words);
    // n-gram model: its bias 1; word model: −3 + 10 · 0.5 / √1 = 2; mean 1.5.
    expect(bestHarmfulWindow('bomb', scorer).logit).toBe(1.5);
    // Two words and their pair: −3 + 10 · 0.5 / √3.
    expect(bestHarmfulWindow('a bomb', scorer).logit).toBeCloseTo(
      (1 - 3 + 5 / Math.sqrt(3)) / 2,
      12,
    );
    // The n-gram features are the plain scorer's, followed by the word features.
    const plain = new ExperimentScorer(ngrams, concepts).features('a bomb', 0, 6).slice();
    const both = scorer.features('a bomb', 0, 6);
    expect(Array.from(both.subarray(0, plain.length))).toEqual(Array.from(plain));
    expect(Array.from(both.subarray(plain.length))).toEqual(
      Array.from(wordFeatures('a bomb', 0, 6, 18)),
    );
  });
});

describe('verb–object skip-grams', () => {
  const concepts = { copies: 0, dense: false };
  /** The features a skip-gram scorer adds to the plain scorer's, sorted. */
  const added = (text: string, span = 4) => {
    const spec = emptySpec(18);
    const base = new ExperimentScorer(spec, concepts).features(text, 0, text.length).slice();
    const all = skipGramScorer(spec, concepts, undefined, span).features(text, 0, text.length);
    expect(Array.from(all.subarray(0, base.length))).toEqual(Array.from(base));
    return Array.from(all.subarray(base.length)).sort((a, b) => a - b);
  };
  const pairs = (list: [string, string][]) =>
    list.map(([a, b]) => bucket(5, hashString(a), hashString(b), 18)).sort((a, b) => a - b);

  it('pairs content words 2 to span words apart, in order, skipping function words', () => {
    // Words 1 how, 3 people, 4 make, 6 pipe, 7 bomb, 10 past ("did", "a", "in", "the" are function words).
    expect(added('how did people make a pipe bomb in the past?')).toEqual(
      pairs([
        ['how', 'people'],
        ['how', 'make'],
        ['people', 'pipe'],
        ['people', 'bomb'],
        ['make', 'pipe'],
        ['make', 'bomb'],
        ['pipe', 'past'],
        ['bomb', 'past'],
      ]),
    );
    expect(added('how did people make a pipe bomb in the past?', 2)).toEqual(
      pairs([
        ['how', 'people'],
        ['make', 'pipe'],
      ]),
    );
  });

  it('pairs no neighbours and nothing across a clause break', () => {
    expect(added('make bombs')).toEqual([]);
    expect(added('write a story, about bombs')).toEqual(pairs([['write', 'story']]));
    expect(added('write a story\nabout bombs')).toEqual(pairs([['write', 'story']]));
    expect(added('')).toEqual([]);
  });
});

describe('the ⟨group⟩ reading of group words', () => {
  const concepts = { copies: 0, dense: false };
  /** The features a group scorer adds to the plain scorer's, sorted. */
  const added = (text: string, copies = 1) => {
    const spec = emptySpec(18);
    const base = new ExperimentScorer(spec, concepts).features(text, 0, text.length).slice();
    const scorer = Object.assign(new GroupScorer(spec, concepts), { copies });
    const all = scorer.features(text, 0, text.length);
    expect(Array.from(all.subarray(0, base.length))).toEqual(Array.from(base));
    return Array.from(all.subarray(base.length)).sort((a, b) => a - b);
  };

  it('adds ⟨group⟩ and its two neighbour pairs, the same for every group', () => {
    const muslims = added('why are all muslims so lazy?');
    expect(muslims).toHaveLength(3);
    expect(added('why are all mexicans so lazy?')).toEqual(muslims);
    expect(added('pourquoi tous les musulmans sont-ils si paresseux ?')).toHaveLength(3);
    // Another next word: ⟨group⟩ and (all, ⟨group⟩) are shared, (⟨group⟩, next) is not.
    const other = added('why are all muslims lazy?');
    expect(other.filter(index => muslims.includes(index))).toHaveLength(2);
    expect(added('why are all muslims so lazy?', 4)).toHaveLength(12);
  });

  it('reads neighbouring group words as ⟨group⟩ on both sides, each feature once', () => {
    // muslim: ⟨group⟩, (edge, ⟨group⟩), (⟨group⟩, ⟨group⟩); women: (⟨group⟩, ⟨group⟩) left, (⟨group⟩, edge).
    expect(added('muslim women')).toHaveLength(5);
  });

  it('adds nothing to a text without a group word', () => {
    expect(added('how do i kill a python process?')).toEqual([]);
    expect(added('see the man page of the people command')).toEqual([]);
    expect(added('')).toEqual([]);
  });

  it('knows folded group words only', () => {
    expect(['femmes', 'immigres', 'musulmani', 'lesbians', 'elderly'].map(isGroupWord)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['man', 'people', 'black', 'Women', 'immigrés'].map(isGroupWord)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
