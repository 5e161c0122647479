/**
 * An averaged perceptron over hashed features (Collins 2002; the greedy
 * tagger of Honnibal's "A good part-of-speech tagger in about 200 lines"):
 * each token is tagged with the labels already given to the tokens before
 * it, and a wrong label moves the weights of its features toward the right
 * one. Deterministic: a seeded shuffle of the sequences per epoch.
 */
import {
  CONTEXT_FEATURES,
  contextFeatures,
  FEATURE_BITS,
  LEXICAL_FEATURES,
  MAX_FEATURES,
  surelyOutside,
  tokenFeatures,
} from '../../../src/guards/pii/ner/features';
import {
  entityOfLabel,
  isInside,
  LABEL_COUNT,
  nerEntities,
  nerMaxLength,
} from '../../../src/guards/pii/ner/labels';
import type { ScoreTokens } from '../../../src/guards/pii/ner/tagger';
import { prng, shuffleInPlace } from '../logistic';
import type { Sequence } from './data';
import { PAIR_FEATURES, pairFeatures } from './pair-features';
import { viterbiLabels } from './viterbi';

/** Training settings (fixed before any evaluation; not tuned per fold). */
export interface PerceptronOptions {
  epochs: number;
  seed: number;
  /** Weight of a benign-prose token's update relative to a labelled one. */
  benignWeight: number;
  /** Probability that a labelled entity token is seen without its own word's features (so context, shape and gazetteers carry weight). */
  lexicalDropout: number;
  /** Called after each epoch (1-based) with the weights averaged so far (early-stopping experiment). */
  afterEpoch?: (epoch: number, averaged: () => Float64Array) => void;
}

/** Scores with a float weight table (buckets x labels). */
export function floatScorer(weights: Float64Array): ScoreTokens {
  return (buckets, count, scores) => {
    for (let feature = 0; feature < count; feature++) {
      const row = buckets[feature]! * LABEL_COUNT;
      for (let label = 0; label < LABEL_COUNT; label++) scores[label]! += weights[row + label]!;
    }
  };
}

/**
 * The weights of an averaged perceptron and their running sums, kept lazily
 * (each weight's total is brought up to date only when it changes): the
 * average over every step of `clock` comes out in one pass at the end.
 * Shared by the greedy and the structured trainer.
 */
class AveragedWeights {
  readonly weights: Float64Array;
  private readonly totals: Float64Array;
  private readonly stamps: Float64Array;
  /** Steps so far (the trainer advances it: per token or per sequence). */
  clock = 0;

  constructor(readonly size: number) {
    this.weights = new Float64Array(size);
    this.totals = new Float64Array(size);
    this.stamps = new Float64Array(size);
  }

  /** Adds `delta` to weight `index` from the current step on. */
  update(index: number, delta: number): void {
    this.totals[index]! += (this.clock - this.stamps[index]!) * this.weights[index]!;
    this.stamps[index] = this.clock;
    this.weights[index]! += delta;
  }

  /** Each weight averaged over all steps. */
  averaged(): Float64Array {
    const { clock, size, totals, stamps, weights } = this;
    const averaged = new Float64Array(size);
    for (let index = 0; index < size; index++) {
      const total = totals[index]! + (clock - stamps[index]!) * weights[index]!;
      averaged[index] = total / clock;
    }
    return averaged;
  }
}

/** Trains on `sequences` and returns the averaged weights. */
export function trainPerceptron(
  sequences: readonly Sequence[],
  options: PerceptronOptions,
): Float64Array {
  const averager = new AveragedWeights((1 << FEATURE_BITS) * LABEL_COUNT);
  const weights = averager.weights;
  const random = prng(options.seed);
  const order = sequences.map((_, index) => index);
  const buckets = new Int32Array(MAX_FEATURES);
  const scores = new Float64Array(LABEL_COUNT);

  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffleInPlace(order, random);
    for (const which of order) {
      const sequence = sequences[which]!;
      const step = sequence.weight ?? (sequence.group === undefined ? options.benignWeight : 1);
      let previous = 0;
      let previous2 = 0;
      let spanStart = 0;
      const scanned = sequence.scanned;
      for (let position = 0; position < scanned.count; position++) {
        averager.clock++;
        if (previous === 0 && surelyOutside(scanned.flags[position]!)) {
          previous2 = previous;
          continue;
        }
        let count = tokenFeatures(scanned, position, previous, previous2, buckets);
        if (sequence.labels[position] !== 0 && random() < options.lexicalDropout)
          count -= LEXICAL_FEATURES;
        scores.fill(0);
        for (let feature = 0; feature < count; feature++) {
          const row = buckets[feature]! * LABEL_COUNT;
          for (let label = 0; label < LABEL_COUNT; label++) scores[label]! += weights[row + label]!;
        }
        const tokenStart = scanned.start[position]!;
        const tokenEnd = scanned.end[position]!;
        const newlineBefore = scanned.newline[position] === 1;
        const open = entityOfLabel(previous);
        const allowed = (label: number) =>
          !isInside(label) ||
          (entityOfLabel(label) === open &&
            tokenEnd - spanStart <= nerMaxLength[nerEntities[entityOfLabel(label)]!] &&
            (!newlineBefore || nerEntities[entityOfLabel(label)] === 'STREET_ADDRESS'));
        let guess = 0;
        for (let label = 1; label < LABEL_COUNT; label++) {
          if (allowed(label) && scores[label]! > scores[guess]!) guess = label;
        }
        let gold = sequence.labels[position]!;
        // After a wrong guess, a continuing label cannot follow: its B is the target.
        if (!allowed(gold)) gold = gold - 1;
        if (sequence.known[position] && guess !== gold) {
          for (let feature = 0; feature < count; feature++) {
            const row = buckets[feature]! * LABEL_COUNT;
            averager.update(row + gold, step);
            averager.update(row + guess, -step);
          }
        }
        const label = guess;
        if (label !== 0 && !isInside(label)) spanStart = tokenStart;
        previous2 = previous;
        previous = label;
      }
    }
    options.afterEpoch?.(epoch + 1, () => averager.averaged());
  }
  return averager.averaged();
}

/** Label-free feature buckets of every token of a sequence (`CONTEXT_FEATURES` apart), and how many per token. */
interface ContextBuckets {
  buckets: Int32Array;
  count: number;
}
const contextCache = new WeakMap<Sequence, ContextBuckets>();

/** The label-free buckets of `sequence`'s tokens, computed once (the same number per token for one model). */
function contextBuckets(sequence: Sequence): ContextBuckets {
  let cached = contextCache.get(sequence);
  if (!cached) {
    const scanned = sequence.scanned;
    const buckets = new Int32Array(scanned.count * CONTEXT_FEATURES);
    let count = 0;
    for (let index = 0; index < scanned.count; index++) {
      const offset = index * CONTEXT_FEATURES;
      count = contextFeatures(scanned, index, buckets, offset) - offset;
    }
    cached = { buckets, count };
    contextCache.set(sequence, cached);
  }
  return cached;
}

/**
 * A structured averaged perceptron (Collins 2002) for `viterbiLabels`:
 * each sequence is decoded whole with the current weights, and where the
 * best path differs from the gold path, the differing tokens' features
 * and label pairs move toward the gold. The gold path is itself decoded
 * with the known labels forced (benign prompts leave capitalised words
 * free; a gold label the decoder cannot reach, such as a span starting on
 * a lower-case common word, is left free too). Deterministic: a seeded
 * shuffle of the sequences per epoch.
 */
export function trainStructured(
  sequences: readonly Sequence[],
  options: PerceptronOptions,
): Float64Array {
  const labels = LABEL_COUNT;
  const averager = new AveragedWeights((1 << FEATURE_BITS) * labels);
  const weights = averager.weights;
  const update = (index: number, delta: number) => averager.update(index, delta);
  const random = prng(options.seed);
  const order = sequences.map((_, index) => index);
  const pairBuckets = new Int32Array(PAIR_FEATURES);
  const forcedOf = sequences.map(sequence => {
    const forced = new Uint8Array(sequence.labels.length);
    for (let index = 0; index < forced.length; index++)
      if (sequence.known[index]) forced[index] = sequence.labels[index]! + 1;
    return forced;
  });

  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffleInPlace(order, random);
    for (const which of order) {
      averager.clock++;
      const sequence = sequences[which]!;
      const step = sequence.weight ?? (sequence.group === undefined ? options.benignWeight : 1);
      const { buckets: features, count: perToken } = contextBuckets(sequence);
      const emit = (index: number, scores: Float64Array) => {
        scores.fill(0);
        const offset = index * CONTEXT_FEATURES;
        for (let feature = offset; feature < offset + perToken; feature++) {
          const row = features[feature]! * labels;
          for (let label = 0; label < labels; label++) scores[label]! += weights[row + label]!;
        }
      };
      const scanned = sequence.scanned;
      const pair = (index: number, previous: number, scores: Float64Array) => {
        scores.fill(0);
        const count = pairFeatures(scanned, index, previous, pairBuckets);
        for (let feature = 0; feature < count; feature++) {
          const row = pairBuckets[feature]! * labels;
          for (let label = 0; label < labels; label++) scores[label]! += weights[row + label]!;
        }
      };
      const movePair = (index: number, previous: number, label: number, delta: number) => {
        const count = pairFeatures(scanned, index, previous, pairBuckets);
        for (let feature = 0; feature < count; feature++)
          update(pairBuckets[feature]! * labels + label, delta);
      };
      const guess = viterbiLabels(scanned, emit, pair);
      const gold = viterbiLabels(scanned, emit, pair, forcedOf[which]);
      for (let index = 0; index < guess.length; index++) {
        const want = gold[index]!;
        const got = guess[index]!;
        if (want !== got) {
          const offset = index * CONTEXT_FEATURES;
          for (let feature = offset; feature < offset + perToken; feature++) {
            const row = features[feature]! * labels;
            update(row + want, step);
            update(row + got, -step);
          }
        }
        const wantBefore = index > 0 ? gold[index - 1]! : 0;
        const gotBefore = index > 0 ? guess[index - 1]! : 0;
        if (want !== got || wantBefore !== gotBefore) {
          movePair(index, wantBefore, want, step);
          movePair(index, gotBefore, got, -step);
        }
      }
    }
  }
  return averager.averaged();
}

/** Quantises weights to int8 with one scale (the largest magnitude maps to 127). */
export function quantise(weights: Float64Array): { weights: Int8Array; scale: number } {
  let largest = 0;
  for (const weight of weights) largest = Math.max(largest, Math.abs(weight));
  const scale = largest === 0 ? 1 : largest / 127;
  const quantised = new Int8Array(weights.length);
  for (let index = 0; index < weights.length; index++) {
    quantised[index] = Math.max(-127, Math.min(127, Math.round(weights[index]! / scale)));
  }
  return { weights: quantised, scale };
}
