import { BloomFilter, FEATURE_BITS, type Gazetteers } from './features';
import { LABEL_COUNT } from './labels';
import type { ScoreTokens } from './tagger';

/** A Bloom filter as stored in the model file. */
export interface EncodedBloom {
  hashes: number;
  /** The bit array, base64. */
  bits: string;
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
  gazetteers: Record<keyof Gazetteers, EncodedBloom>;
}

/** A decoded model: its scorer and gazetteers. */
export interface NerModel {
  score: ScoreTokens;
  gazetteers: Gazetteers;
}

function decodeBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Scores with the int8 table: integer sums, the scale does not change which label wins. */
export function int8Scorer(weights: Int8Array): ScoreTokens {
  const labels = LABEL_COUNT;
  return (buckets, count, scores) => {
    for (let feature = 0; feature < count; feature++) {
      const row = buckets[feature]! * labels;
      for (let label = 0; label < labels; label++) scores[label]! += weights[row + label]!;
    }
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
  return {
    score: int8Scorer(weights),
    gazetteers: {
      names: bloom(encoded.gazetteers.names),
      firstNames: bloom(encoded.gazetteers.firstNames),
      places: bloom(encoded.gazetteers.places),
      countries: bloom(encoded.gazetteers.countries),
      common: bloom(encoded.gazetteers.common),
    },
  };
}
