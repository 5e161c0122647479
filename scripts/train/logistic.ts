/**
 * Deterministic logistic regression over sparse binary features (AdaGrad,
 * L2), Platt scaling, int8 quantisation and the character language model
 * table. No randomness but a seeded PRNG; one thread.
 */
import {
  CLASSES,
  charClass,
  SURPRISAL_STEPS,
} from '../../src/guards/prompt-injection/char-language-model';
import {
  type InjectionModelSpec,
  SURPRISAL_KNOTS,
  suffixFeatures,
} from '../../src/guards/prompt-injection/injection-model';

/** Sparse rows: features of row i are `indices[offsets[i] .. offsets[i+1])`. */
export interface SparseRows {
  indices: Int32Array;
  offsets: Uint32Array;
  /** Suffix-feature inputs: the row's highest window surprisal. */
  surprisal: Float64Array;
  labels: Uint8Array;
}

/** Hyper-parameters of `trainLogistic`. */
export interface TrainOptions {
  bits: number;
  epochs: number;
  learningRate: number;
  l2: number;
  seed: number;
}

/** mulberry32: a small seeded PRNG. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Trained real-valued weights. */
export interface RealModel {
  weights: Float64Array;
  bias: number;
  suffixWeights: number[];
}

/**
 * Trains on the rows listed in `rowIds` with per-row `sampleWeights`. The
 * order of visits is a seeded shuffle of `rowIds`, so the result depends only
 * on the data and the options.
 */
export function trainLogistic(
  data: SparseRows,
  rowIds: readonly number[],
  sampleWeights: Float64Array,
  { bits, epochs, learningRate, l2, seed }: TrainOptions,
): RealModel {
  const linear = new LinearPart(bits);
  visitRows(data, rowIds, epochs, seed, (row, start, end, scale, suffix) => {
    const logit = linear.logit(data, start, end, scale, suffix, true);
    const probability = 1 / (1 + Math.exp(-logit));
    const gradient = (probability - data.labels[row]!) * sampleWeights[row]!;
    linear.step(data, start, end, scale, suffix, gradient, learningRate, l2, true);
  });
  return linear.model();
}

/**
 * The visits of `trainLogistic`: `epochs` seeded shuffles of `rowIds`, each
 * row passed with its feature range, its 1/√n scale and its suffix inputs.
 */
export function visitRows(
  data: SparseRows,
  rowIds: readonly number[],
  epochs: number,
  seed: number,
  visit: (row: number, start: number, end: number, scale: number, suffix: number[]) => void,
): void {
  const random = prng(seed);
  const order = [...rowIds];
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffleInPlace(order, random);
    for (const row of order) {
      const start = data.offsets[row]!;
      const end = data.offsets[row + 1]!;
      const scale = end > start ? 1 / Math.sqrt(end - start) : 0;
      visit(row, start, end, scale, suffixFeatures(data.surprisal[row]!));
    }
  }
}

/** One epoch's order of visits: a Fisher–Yates shuffle in place with the seeded `random`. */
export function shuffleInPlace<T>(order: T[], random: () => number): void {
  for (let index = order.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
}

/** One AdaGrad step on `weights[at]` for the gradient `g` (L2 term included). */
export function adagradStep(
  weights: Float64Array | number[],
  squares: Float64Array | number[],
  at: number,
  g: number,
  learningRate: number,
): void {
  squares[at]! += g * g;
  weights[at]! -= (learningRate * g) / Math.sqrt(squares[at]! + 1e-8);
}

/**
 * The linear part of a model and its AdaGrad state: hashed n-gram weights
 * (each row's features scaled by `scale`), the suffix hinge weights and the
 * bias. `trainLogistic` is this part alone; the wide-and-deep experiment
 * (injection/wide-deep.ts) adds a deep part beside it.
 */
export class LinearPart {
  readonly weights: Float64Array;
  readonly squares: Float64Array;
  readonly suffixWeights = SURPRISAL_KNOTS.map(() => 0);
  readonly suffixSquares = SURPRISAL_KNOTS.map(() => 0);
  bias = 0;
  biasSquare = 0;

  constructor(bits: number) {
    this.weights = new Float64Array(1 << bits);
    this.squares = new Float64Array(1 << bits);
  }

  /** The bias, plus the row's n-gram weights (when `ngrams`), plus the suffix hinges. */
  logit(
    data: SparseRows,
    start: number,
    end: number,
    scale: number,
    suffix: readonly number[],
    ngrams: boolean,
  ): number {
    let logit = this.bias;
    if (ngrams)
      for (let at = start; at < end; at++) logit += this.weights[data.indices[at]!]! * scale;
    for (let k = 0; k < suffix.length; k++) logit += suffix[k]! * this.suffixWeights[k]!;
    return logit;
  }

  /** One AdaGrad step of every weight `logit` read, for the row's `gradient`. */
  step(
    data: SparseRows,
    start: number,
    end: number,
    scale: number,
    suffix: readonly number[],
    gradient: number,
    learningRate: number,
    l2: number,
    ngrams: boolean,
  ): void {
    const { weights, squares, suffixWeights, suffixSquares } = this;
    if (ngrams) {
      for (let at = start; at < end; at++) {
        const feature = data.indices[at]!;
        adagradStep(
          weights,
          squares,
          feature,
          gradient * scale + l2 * weights[feature]!,
          learningRate,
        );
      }
    }
    for (let k = 0; k < suffix.length; k++) {
      adagradStep(
        suffixWeights,
        suffixSquares,
        k,
        gradient * suffix[k]! + l2 * suffixWeights[k]!,
        learningRate,
      );
    }
    this.biasSquare += gradient * gradient;
    this.bias -= (learningRate * gradient) / Math.sqrt(this.biasSquare + 1e-8);
  }

  /** The trained weights. */
  model(): RealModel {
    return { weights: this.weights, bias: this.bias, suffixWeights: this.suffixWeights };
  }
}

/** Rounds to a stable number of significant digits, so model files are byte-identical. */
export function stable(value: number): number {
  return Number(value.toPrecision(8));
}

/** int8 values with one stable scale: the largest magnitude maps to 127. */
export function quantiseInt8(values: ArrayLike<number>): { values: Int8Array; scale: number } {
  let max = 0;
  for (let index = 0; index < values.length; index++) max = Math.max(max, Math.abs(values[index]!));
  const scale = stable(max / 127 || 1);
  const quantised = new Int8Array(values.length);
  for (let index = 0; index < quantised.length; index++) {
    quantised[index] = Math.max(-127, Math.min(127, Math.round(values[index]! / scale)));
  }
  return { values: quantised, scale };
}

/** int8 quantisation with one scale; calibration is fitted afterwards, on the quantised model. */
export function quantise(model: RealModel, bits: number): InjectionModelSpec {
  const { values: weights, scale } = quantiseInt8(model.weights);
  return {
    bits,
    weights,
    scale,
    bias: stable(model.bias),
    suffixWeights: model.suffixWeights.map(stable),
    plattA: 1,
    plattB: 0,
  };
}

/** Platt scaling by Newton's method on (logit, label) pairs, with Platt's target smoothing. */
export function fitPlatt(logits: readonly number[], labels: readonly number[]): [number, number] {
  const positives = labels.filter(label => label === 1).length;
  const negatives = labels.length - positives;
  const high = (positives + 1) / (positives + 2);
  const low = 1 / (negatives + 2);
  let a = 1;
  let b = 0;
  for (let iteration = 0; iteration < 50; iteration++) {
    let ga = 0;
    let gb = 0;
    let haa = 1e-9;
    let hab = 0;
    let hbb = 1e-9;
    for (let index = 0; index < logits.length; index++) {
      const z = logits[index]!;
      const p = 1 / (1 + Math.exp(-(a * z + b)));
      const target = labels[index] === 1 ? high : low;
      const d = p - target;
      const w = p * (1 - p);
      ga += d * z;
      gb += d;
      haa += w * z * z;
      hab += w * z;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (Math.abs(det) < 1e-12) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-10) break;
  }
  return [stable(a), stable(b)];
}

/**
 * Character trigram surprisal table: interpolated trigram, bigram and
 * unigram estimates, `-ln P` quantised to `SURPRISAL_STEPS` per nat.
 */
export function buildLanguageModel(paragraphs: readonly string[]): Uint8Array {
  const tri = new Float64Array(CLASSES ** 3);
  const bi = new Float64Array(CLASSES ** 2);
  const uni = new Float64Array(CLASSES);
  for (const paragraph of paragraphs) {
    const text = paragraph.toLowerCase();
    let a = 0;
    let b = 0;
    for (let index = 0; index < text.length; index++) {
      const c = charClass(text.charCodeAt(index));
      tri[(a * CLASSES + b) * CLASSES + c]!++;
      bi[b * CLASSES + c]!++;
      uni[c]!++;
      a = b;
      b = c;
    }
  }
  const total = uni.reduce((sum, count) => sum + count, 0);
  const table = new Uint8Array(CLASSES ** 3);
  for (let a = 0; a < CLASSES; a++) {
    for (let b = 0; b < CLASSES; b++) {
      let context2 = 0;
      for (let c = 0; c < CLASSES; c++) context2 += tri[(a * CLASSES + b) * CLASSES + c]!;
      let context1 = 0;
      for (let c = 0; c < CLASSES; c++) context1 += bi[b * CLASSES + c]!;
      for (let c = 0; c < CLASSES; c++) {
        const p3 = context2 > 0 ? tri[(a * CLASSES + b) * CLASSES + c]! / context2 : 0;
        const p2 = context1 > 0 ? bi[b * CLASSES + c]! / context1 : 0;
        const p1 = (uni[c]! + 0.5) / (total + 0.5 * CLASSES);
        const p = 0.7 * p3 + 0.2 * p2 + 0.1 * p1;
        table[(a * CLASSES + b) * CLASSES + c] = Math.min(
          255,
          Math.round(-Math.log(p) * SURPRISAL_STEPS),
        );
      }
    }
  }
  return table;
}

/**
 * A model spec with zero weights: an `InjectionScorer` built on it extracts
 * features (hashed n-grams, folded text) before any weights exist.
 */
export function emptySpec(bits: number): InjectionModelSpec {
  return {
    bits,
    weights: new Int8Array(1 << bits),
    scale: 1,
    bias: 0,
    suffixWeights: [],
    plattA: 1,
    plattB: 0,
  };
}
