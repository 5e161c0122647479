import {
  type InjectionModelSpec,
  InjectionScorer,
  type WindowVerdict,
} from '../../../src/guards/prompt-injection/injection-model';

/**
 * The non-linear part of the direct detector (fastText-style): each hashed
 * feature of a window has a small embedding (int8, one scale), the window's
 * embeddings are averaged, and one hidden layer of rectified units turns the
 * average into a logit that is added to the linear model's. The embeddings
 * share strength between n-grams that occur in the same kinds of texts, and
 * the hidden layer can require two things together (a directive and what it
 * is aimed at) instead of adding them up.
 */
export interface DeepModelSpec {
  /** Log2 of the number of embedding rows; a feature index `i` uses row `i >>> (bits - embedBits)`. */
  embedBits: number;
  /** Embedding width. */
  dim: number;
  /** Hidden units. */
  hidden: number;
  /** `2^embedBits * dim` int8 values; the real value is `embeddings[i] * embedScale`. */
  embeddings: Int8Array;
  embedScale: number;
  /** `hidden * dim` weights, row-major by hidden unit. */
  layer1: readonly number[];
  bias1: readonly number[];
  /** One output weight per hidden unit. */
  layer2: readonly number[];
}

/** Model file contents: `DeepModelSpec` with the embeddings base64-encoded. */
export interface EncodedDeepModel extends Omit<DeepModelSpec, 'embeddings'> {
  embeddings: string;
}

/** Decodes a model file's base64 embeddings. */
export function decodeDeepModel(encoded: EncodedDeepModel): DeepModelSpec {
  const binary = atob(encoded.embeddings);
  const embeddings = new Int8Array(binary.length);
  for (let index = 0; index < binary.length; index++) {
    embeddings[index] = (binary.charCodeAt(index) << 24) >> 24;
  }
  return { ...encoded, embeddings };
}

/**
 * Deep logit of one window's distinct feature indices (hashed into `bits`
 * bits), with `scratch` of at least `dim` entries. Linear in the number of
 * features: `dim` additions per feature, then `hidden * dim` once.
 */
export function deepLogit(
  deep: DeepModelSpec,
  bits: number,
  features: Int32Array,
  scratch: Float64Array,
): number {
  const { dim, hidden, embeddings, layer1, bias1, layer2 } = deep;
  if (features.length === 0) return 0;
  const shift = bits - deep.embedBits;
  scratch.fill(0, 0, dim);
  for (let index = 0; index < features.length; index++) {
    const base = (features[index]! >>> shift) * dim;
    for (let k = 0; k < dim; k++) scratch[k]! += embeddings[base + k]!;
  }
  const scale = deep.embedScale / features.length;
  let out = 0;
  for (let j = 0; j < hidden; j++) {
    let a = bias1[j]!;
    const row = j * dim;
    for (let k = 0; k < dim; k++) a += layer1[row + k]! * scratch[k]! * scale;
    if (a > 0) out += layer2[j]! * a;
  }
  return out;
}

/** The linear detector plus the deep part: the two logits are added. */
export class DeepInjectionScorer extends InjectionScorer {
  readonly deep: DeepModelSpec;
  readonly #scratch: Float64Array;

  constructor(spec: InjectionModelSpec, deep: DeepModelSpec) {
    super(spec);
    this.deep = deep;
    this.#scratch = new Float64Array(deep.dim);
  }

  override logit(features: Int32Array, surprisal: number): WindowVerdict {
    const verdict = super.logit(features, surprisal);
    const deep = deepLogit(this.deep, this.spec.bits, features, this.#scratch);
    return { ...verdict, logit: verdict.logit + deep };
  }
}
