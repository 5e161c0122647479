import { BloomFilter, FEATURE_BITS, type Gazetteers, WordClusters } from './features';
import { LABEL_COUNT } from './labels';
import type { ScoreTokens } from './tagger';

/** A Bloom filter as stored in the model file. */
export interface EncodedBloom {
  hashes: number;
  /** The bit array, base64. */
  bits: string;
}

/** The gazetteers stored as Bloom filters. */
export type BloomGazetteer = Exclude<keyof Gazetteers, 'clusters'>;

/** Word clusters as stored in the model file. */
export interface EncodedClusters {
  /** Sorted 32-bit word hashes, little-endian, base64. */
  hashes: string;
  /** One cluster id (1-255) per hash, base64. */
  ids: string;
}

/** The tagger's model as stored in `model/ner-model.ts` (written by `npm run train`). */
export interface EncodedNerModel {
  /** Log2 of the number of hashed feature buckets. */
  bits: number;
  /** Labels per bucket. */
  labels: number;
  /** Weight of one int8 step. */
  scale: number;
  /** `2^bits x labels` int8 weights, bucket-major, base64. */
  weights: string;
  gazetteers: Record<BloomGazetteer, EncodedBloom>;
  /** Word clusters (features of the token and its neighbours), when the model was trained with them. */
  clusters?: EncodedClusters;
}

/** A decoded model: its scorer and gazetteers. */
export interface NerModel {
  score: ScoreTokens;
  gazetteers: Gazetteers;
}

const base64Values = new Uint8Array(128).fill(255);
for (let index = 0; index < 64; index++) {
  base64Values[
    'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(index)
  ] = index;
}

/** Decodes standard base64 (with `=` padding) straight into bytes; throws on any other character. */
export function decodeBytes(base64: string): Uint8Array {
  let length = base64.length;
  if (length % 4 !== 0) throw new Error('ner model: base64 length is not a multiple of 4');
  let padding = 0;
  while (padding < 2 && length > 0 && base64.charCodeAt(length - 1) === 61) {
    length--;
    padding++;
  }
  const bytes = new Uint8Array((base64.length / 4) * 3 - padding);
  let out = 0;
  let buffer = 0;
  let bits = 0;
  for (let index = 0; index < length; index++) {
    const code = base64.charCodeAt(index);
    const value = code < 128 ? base64Values[code]! : 255;
    if (value === 255) throw new Error(`ner model: not base64 at ${index}`);
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[out++] = (buffer >> bits) & 0xff;
    }
  }
  return bytes;
}

/**
 * Scores with the int8 table: integer sums, the scale does not change which
 * label wins. Round 43: with the tagger's nine labels, each label's sum is
 * kept in a local and added to `scores` once (the same integers, exact in
 * either order): the typed-array reads and writes per feature were a fifth
 * of a reading.
 */
export function int8Scorer(weights: Int8Array): ScoreTokens {
  const labels = LABEL_COUNT;
  if (labels === 9) return nineLabelScorer(weights);
  return (buckets, count, scores) => {
    for (let feature = 0; feature < count; feature++) {
      const row = buckets[feature]! * labels;
      for (let label = 0; label < labels; label++) scores[label]! += weights[row + label]!;
    }
  };
}

/**
 * `int8Scorer` for nine labels, unrolled. Round 49 (hB): asked for the starts only (no I label
 * may follow), it sums the outside and the four B labels, five of the nine (the same integers for
 * those; the I labels are left as they were).
 */
function nineLabelScorer(weights: Int8Array): ScoreTokens {
  return (buckets, count, scores, startsOnly) => {
    if (startsOnly === true) {
      let o = 0;
      let b1 = 0;
      let b3 = 0;
      let b5 = 0;
      let b7 = 0;
      for (let feature = 0; feature < count; feature++) {
        const row = buckets[feature]! * 9;
        o += weights[row]!;
        b1 += weights[row + 1]!;
        b3 += weights[row + 3]!;
        b5 += weights[row + 5]!;
        b7 += weights[row + 7]!;
      }
      scores[0]! += o;
      scores[1]! += b1;
      scores[3]! += b3;
      scores[5]! += b5;
      scores[7]! += b7;
      return;
    }
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    let s5 = 0;
    let s6 = 0;
    let s7 = 0;
    let s8 = 0;
    for (let feature = 0; feature < count; feature++) {
      const row = buckets[feature]! * 9;
      s0 += weights[row]!;
      s1 += weights[row + 1]!;
      s2 += weights[row + 2]!;
      s3 += weights[row + 3]!;
      s4 += weights[row + 4]!;
      s5 += weights[row + 5]!;
      s6 += weights[row + 6]!;
      s7 += weights[row + 7]!;
      s8 += weights[row + 8]!;
    }
    scores[0]! += s0;
    scores[1]! += s1;
    scores[2]! += s2;
    scores[3]! += s3;
    scores[4]! += s4;
    scores[5]! += s5;
    scores[6]! += s6;
    scores[7]! += s7;
    scores[8]! += s8;
  };
}

/** Decodes a stored model; throws when it does not fit this tagger's features. */
export function decodeNerModel(encoded: EncodedNerModel): NerModel {
  if (encoded.bits !== FEATURE_BITS || encoded.labels !== LABEL_COUNT) {
    throw new Error(
      `ner model: built for ${encoded.bits} bits / ${encoded.labels} labels, the tagger uses ${FEATURE_BITS} / ${LABEL_COUNT} (run npm run train)`,
    );
  }
  const bytes = decodeBytes(encoded.weights);
  const weights = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const bloom = ({ hashes, bits }: EncodedBloom) => new BloomFilter(decodeBytes(bits), hashes);
  let clusters: WordClusters | undefined;
  if (encoded.clusters) {
    const hashBytes = decodeBytes(encoded.clusters.hashes);
    const ids = decodeBytes(encoded.clusters.ids);
    if (hashBytes.length !== ids.length * 4)
      throw new Error('ner model: cluster hashes and ids differ in length');
    const hashes = new Uint32Array(ids.length);
    const view = new DataView(hashBytes.buffer, hashBytes.byteOffset, hashBytes.length);
    for (let index = 0; index < ids.length; index++)
      hashes[index] = view.getUint32(index * 4, true);
    clusters = new WordClusters(hashes, ids);
  }
  return {
    score: int8Scorer(weights),
    gazetteers: {
      ...(clusters ? { clusters } : {}),
      names: bloom(encoded.gazetteers.names),
      firstNames: bloom(encoded.gazetteers.firstNames),
      places: bloom(encoded.gazetteers.places),
      countries: bloom(encoded.gazetteers.countries),
      common: bloom(encoded.gazetteers.common),
    },
  };
}
