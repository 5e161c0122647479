/**
 * Structured decoding, measured and not shipped (docs/pii-ner-model.md,
 * "Variants tried"): Viterbi over the BIO labels with first-order pair
 * features, for the structured perceptron of `perceptron.ts`
 * (NER_DECODER=viterbi). The same label constraints as the shipped greedy
 * tagger (`tagTokens`).
 */
import {
  CONTEXT_FEATURES,
  contextFeatures,
  type Scanned,
  surelyOutside,
} from '../../../src/guards/pii/ner/features';
import { LABEL_COUNT, nerEntities, nerMaxLength } from '../../../src/guards/pii/ner/labels';
import type { ScoreTokens } from '../../../src/guards/pii/ner/tagger';
import { PAIR_FEATURES, pairFeatures } from './pair-features';

const maxLengthOfLabel = Array.from({ length: LABEL_COUNT }, (_, label) =>
  label === 0 ? 0 : nerMaxLength[nerEntities[(label - 1) >> 1]!],
);
const addressInside = 2 + 2 * nerEntities.indexOf('STREET_ADDRESS');

/** Writes the score of each label of token `index` from its label-free features into `scores` (filled). */
export type EmitScores = (index: number, scores: Float64Array) => void;

/** Writes the score of each label of token `index` right after `previous` into `scores` (filled). */
export type PairScores = (index: number, previous: number, scores: Float64Array) => void;

/**
 * The best label sequence under a first-order model (Viterbi): each token's
 * label scores (`emit`) plus the scores of each label after each label
 * (`pair`), over the label sequences the tagger allows: an I label only
 * after B or I of its type, within its type's length bound, and not after a
 * line break (except addresses). A token `surelyOutside` never starts an
 * entity, and after a token that can only be outside it is outside without
 * scoring (most of prose), so the cost is linear in the tokens: per scored
 * token one `emit` and one `pair` per label reachable before it. `forced`
 * (label + 1 per token, 0 free; the trainer's partly known gold) restricts
 * a token to one label where that label is reachable. The length bound is
 * checked on each state's best path (the usual approximation; no span
 * breaks it).
 */
export function viterbiLabels(
  scanned: Scanned,
  emit: EmitScores,
  pair: PairScores,
  forced?: Uint8Array,
): Uint8Array {
  const count = scanned.count;
  const flags = scanned.flags;
  const starts = scanned.start;
  const ends = scanned.end;
  const newlines = scanned.newline;
  const back = new Uint8Array(count * LABEL_COUNT);
  let delta = new Float64Array(LABEL_COUNT).fill(-Infinity);
  let next = new Float64Array(LABEL_COUNT);
  let spanStart = new Int32Array(LABEL_COUNT);
  let nextStart = new Int32Array(LABEL_COUNT);
  const emission = new Float64Array(LABEL_COUNT);
  const pairs = new Float64Array(LABEL_COUNT * LABEL_COUNT);
  const row = new Float64Array(LABEL_COUNT);
  delta[0] = 0;
  // Whether some label other than outside is reachable at the previous token.
  let open = false;
  for (let index = 0; index < count; index++) {
    const surely = surelyOutside(flags[index]!);
    if (!open && surely) {
      // Every path is outside here: nothing to score (back[...] stays 0, outside).
      continue;
    }
    emit(index, emission);
    for (let previous = 0; previous < LABEL_COUNT; previous++) {
      if (delta[previous] === -Infinity) continue;
      pair(index, previous, row);
      pairs.set(row, previous * LABEL_COUNT);
    }
    const want = forced === undefined ? 0 : forced[index]!;
    const base = index * LABEL_COUNT;
    const allowNewline = newlines[index] === 0;
    for (let pass = 0; pass < 2; pass++) {
      const only = pass === 0 ? want - 1 : -1;
      let reachable = false;
      for (let label = 0; label < LABEL_COUNT; label++) {
        let best = -Infinity;
        let from = 0;
        let start = 0;
        if (only >= 0 && label !== only) {
          // forced to another label
        } else if (label === 0 || label % 2 === 1) {
          if (label === 0 || !surely) {
            for (let previous = 0; previous < LABEL_COUNT; previous++) {
              const before = delta[previous]!;
              if (before === -Infinity) continue;
              const value = before + pairs[previous * LABEL_COUNT + label]!;
              if (value > best) {
                best = value;
                from = previous;
              }
            }
            start = starts[index]!;
          }
        } else if (allowNewline || label === addressInside) {
          const limit = maxLengthOfLabel[label]!;
          for (let previous = label - 1; previous <= label; previous++) {
            const before = delta[previous]!;
            if (before === -Infinity || ends[index]! - spanStart[previous]! > limit) continue;
            const value = before + pairs[previous * LABEL_COUNT + label]!;
            if (value > best) {
              best = value;
              from = previous;
              start = spanStart[previous]!;
            }
          }
        }
        next[label] = best === -Infinity ? best : best + emission[label]!;
        nextStart[label] = start;
        back[base + label] = from;
        if (best !== -Infinity) reachable = true;
      }
      if (reachable || only < 0) break;
    }
    open = false;
    for (let label = 1; label < LABEL_COUNT; label++) if (next[label] !== -Infinity) open = true;
    const swapDelta = delta;
    delta = next;
    next = swapDelta;
    const swapStart = spanStart;
    spanStart = nextStart;
    nextStart = swapStart;
  }
  const labels = new Uint8Array(count);
  let state = 0;
  for (let label = 1; label < LABEL_COUNT; label++)
    if (delta[label]! > delta[state]!) state = label;
  for (let index = count - 1; index >= 0; index--) {
    labels[index] = state;
    state = back[index * LABEL_COUNT + state]!;
  }
  return labels;
}

/** Tags `tokens` with `viterbiLabels`, scoring the label-free and pair features with `score`. */
export function viterbiTokens(scanned: Scanned, score: ScoreTokens): Uint8Array {
  const buckets = new Int32Array(CONTEXT_FEATURES);
  const pairBuckets = new Int32Array(PAIR_FEATURES);
  return viterbiLabels(
    scanned,
    (index, scores) => {
      scores.fill(0);
      score(buckets, contextFeatures(scanned, index, buckets), scores);
    },
    (index, previous, scores) => {
      scores.fill(0);
      score(pairBuckets, pairFeatures(scanned, index, previous, pairBuckets), scores);
    },
  );
}
