/**
 * First-order pair features of the structured-decoding experiment
 * (`viterbi.ts`, NER_DECODER=viterbi; measured, not shipped: see
 * docs/pii-ner-model.md, "Variants tried"). They live with the trainer
 * because the shipped greedy tagger never reads them; they hash into the
 * same table with the same templates as `src/guards/pii/ner/features.ts`.
 */
import { bucket, coarse, mix, NONE, type Scanned, T } from '../../../src/guards/pii/ner/features';

/** Buckets `pairFeatures` writes. */
export const PAIR_FEATURES = 4;

/**
 * Writes the buckets that score each label of token `index` right after
 * `previousLabel` (the pair of labels alone, and with the token's shape,
 * its capitalisation and gazetteer flags, and the word before it) into
 * `out` and returns how many (`PAIR_FEATURES`).
 */
export function pairFeatures(
  scanned: Scanned,
  index: number,
  previousLabel: number,
  out: Int32Array,
): number {
  const ids = scanned.word;
  const words = scanned.words;
  const shapeHash = words.shapeHash[ids[index]!]!;
  const prevLower = index > 0 ? words.lowerHash[ids[index - 1]!]! : NONE;
  out[0] = bucket(T.Transition, previousLabel);
  out[1] = bucket(T.PrevLabelShape, mix(shapeHash ^ previousLabel));
  out[2] = bucket(T.PrevLabelFlags, coarse(scanned.flags[index]!) * 16 + previousLabel);
  out[3] = bucket(T.PrevLabelPrevLower, mix(prevLower ^ previousLabel));
  return PAIR_FEATURES;
}
