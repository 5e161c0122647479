/**
 * Two-model ensemble (an experiment of the harmful trainer, `ENSEMBLE=1`):
 * beside the shipped model over the hashed word and character n-grams, a
 * second logistic regression over word 1- and 2-grams alone (its own hashed
 * space and its own 1/√n scaling, so a window's words weigh as much as all
 * its character grams together), trained on the same rows with the same
 * weights. A window's logit is the mean of the two models' logits, then the
 * same Platt scaling and threshold rule. The hope: words carry what is asked
 * about, character grams carry a source's spelling and layout, and giving
 * the words a model of their own lets them count more out of source.
 * Scoring it would need a second weight table at run time, so it runs only
 * with --loso. Linear in the window: one pass over its words.
 */
import { namedFeature } from '../../../src/guards/prompt-injection/hashed-features';
import type {
  InjectionModelSpec,
  WindowVerdict,
} from '../../../src/guards/prompt-injection/injection-model';
import type { SparseRows } from '../logistic';
import { type ConceptFeatureOptions, ExperimentScorer } from './concept-features';
import type { ExperimentReadings } from './sentence-windows';

/** Words of folded text: runs of letters, marks and digits (as the shipped word grams, near enough). */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** Distinct hashed word 1- and 2-gram indices of `text[start, end)` in `2^bits` buckets. */
export function wordFeatures(text: string, start: number, end: number, bits: number): Int32Array {
  const seen = new Set<number>();
  let previous: string | undefined;
  for (const [word] of text.slice(start, end).matchAll(WORD)) {
    seen.add(namedFeature(`w ${word}`, bits));
    if (previous !== undefined) seen.add(namedFeature(`b ${previous} ${word}`, bits));
    previous = word;
  }
  return Int32Array.from(seen).sort();
}

/** The word features of every folded row, as rows for `trainLogistic` (labels and zero suffix inputs). */
export function wordRows(folded: readonly string[], labels: Uint8Array, bits: number): SparseRows {
  const chunks = folded.map(text => wordFeatures(text, 0, text.length, bits));
  const offsets = new Uint32Array(folded.length + 1);
  for (const [index, chunk] of chunks.entries())
    offsets[index + 1] = offsets[index]! + chunk.length;
  const indices = new Int32Array(offsets[folded.length]!);
  for (const [index, chunk] of chunks.entries()) indices.set(chunk, offsets[index]!);
  return { indices, offsets, surprisal: new Float64Array(folded.length), labels };
}

/** `ExperimentScorer` (the n-gram model) averaged in log-odds with a word model. Not reentrant. */
export class EnsembleScorer extends ExperimentScorer {
  readonly words: InjectionModelSpec;
  #split = 0;
  #buffer = new Int32Array(0);

  constructor(
    spec: InjectionModelSpec,
    concepts: ConceptFeatureOptions,
    readings: ExperimentReadings | undefined,
    words: InjectionModelSpec,
  ) {
    super(spec, concepts, readings);
    this.words = words;
  }

  /** The n-gram model's features, then the word model's (offset by its table size). */
  override features(text: string, start: number, end: number): Int32Array {
    const base = super.features(text, start, end);
    const extra = wordFeatures(text, start, end, this.words.bits);
    const needed = base.length + extra.length;
    if (this.#buffer.length < needed) this.#buffer = new Int32Array(2 * needed);
    this.#buffer.set(base, 0);
    this.#buffer.set(extra, base.length);
    this.#split = base.length;
    return this.#buffer.subarray(0, needed);
  }

  /** Mean of the two models' logits for the window last passed to `features`. */
  override logit(features: Int32Array, surprisal: number): WindowVerdict {
    const own = super.logit(features.subarray(0, this.#split), surprisal);
    const { weights, scale, bias } = this.words;
    const count = features.length - this.#split;
    let sum = 0;
    for (let at = this.#split; at < features.length; at++) sum += weights[features[at]!]!;
    const word = bias + (count === 0 ? 0 : (sum * scale) / Math.sqrt(count));
    return { ...own, logit: (own.logit + word) / 2 };
  }
}
