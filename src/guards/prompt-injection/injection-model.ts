import { maxWindowSurprisal } from './char-language-model';
import { collectFeatures } from './hashed-features';

/** Characters of folded text per scored window; longer texts are scored in overlapping windows. */
export const MODEL_WINDOW = 2048;
/** Surprisal levels (nats per character) above which the suffix features switch on. */
export const SURPRISAL_KNOTS = [2.5, 3, 3.5] as const;

/** A trained logistic-regression detector, as stored in a model file. */
export interface InjectionModelSpec {
  /** Log2 of the number of hashed feature buckets. */
  bits: number;
  /** One int8 weight per bucket; the real weight is `weights[i] * scale`. */
  weights: Int8Array;
  scale: number;
  bias: number;
  /** Weights of `max(0, surprisal - knot)` for each of `SURPRISAL_KNOTS`. */
  suffixWeights: readonly number[];
  /** Platt scaling: probability = 1 / (1 + exp(-(plattA * logit + plattB))). */
  plattA: number;
  plattB: number;
  /**
   * When set, the structure (slot) features of `slot-features.ts` join each
   * window's n-grams, each listed this many times (absent: n-grams only).
   */
  slotRepeat?: number;
  /**
   * With `slotRepeat`: the language-independent concept features of
   * `concept-words.ts` join the slot features, listed as often (round 48).
   */
  conceptFeatures?: boolean;
  /**
   * With `slotRepeat`: the fake control-marker features of
   * `control-markers.ts` join the slot features, listed as often (round 49).
   */
  controlMarkers?: boolean;
}

/** Model file contents: `InjectionModelSpec` with the weights base64-encoded. */
export interface EncodedInjectionModel extends Omit<InjectionModelSpec, 'weights'> {
  weights: string;
}

/** What one window contributed to the verdict. */
export interface WindowVerdict {
  /** Raw logit of the window. */
  logit: number;
  /** Highest window surprisal of the character language model, nats per character. */
  surprisal: number;
  /** Part of `logit` that came from the suffix features. */
  suffixLogit: number;
  /**
   * `bestWindow` only: the highest `surprisal` over all of the text's
   * windows, whichever the best window is (issue 15, round 43: the gate of
   * the suffix-harmful rule, the same for every model).
   */
  peakSurprisal?: number;
}

/** Decodes a model file's base64 weights. */
export function decodeInjectionModel(encoded: EncodedInjectionModel): InjectionModelSpec {
  const binary = atob(encoded.weights);
  const weights = new Int8Array(binary.length);
  for (let index = 0; index < binary.length; index++) {
    weights[index] = (binary.charCodeAt(index) << 24) >> 24;
  }
  return { ...encoded, weights };
}

/** The suffix feature values for a surprisal. */
export function suffixFeatures(surprisal: number): number[] {
  return SURPRISAL_KNOTS.map(knot => Math.max(0, surprisal - knot));
}

/** Characters shared by neighbouring windows: more than an injected instruction needs, so none is cut in two. */
export const WINDOW_OVERLAP = 512;

/** Start offsets of the windows covering a text of `length` characters. */
export function windowStarts(length: number): number[] {
  if (length <= MODEL_WINDOW) return [0];
  const stride = MODEL_WINDOW - WINDOW_OVERLAP;
  const starts: number[] = [];
  for (let start = 0; start + MODEL_WINDOW < length; start += stride) starts.push(start);
  starts.push(length - MODEL_WINDOW);
  return starts;
}

/**
 * Scores folded text with one model. Scratch buffers are reused between
 * calls, so an instance is not reentrant (scoring is synchronous, so one per
 * model suffices).
 */
export class InjectionScorer {
  readonly spec: InjectionModelSpec;
  readonly #stamp: Uint8Array;
  #generation = 0;
  #buffer = new Int32Array(6 * MODEL_WINDOW + 8);

  constructor(spec: InjectionModelSpec) {
    this.spec = spec;
    this.#stamp = new Uint8Array(1 << spec.bits);
  }

  /**
   * Distinct feature indices of `text[start, end)` (a view of a reused
   * buffer: copy it to keep it).
   */
  features(text: string, start: number, end: number): Int32Array {
    const needed = 6 * (end - start) + 8;
    if (this.#buffer.length < needed) this.#buffer = new Int32Array(needed);
    // Generations 1..255; 0 is the cleared state.
    this.#generation++;
    if (this.#generation === 256) {
      this.#stamp.fill(0);
      this.#generation = 1;
    }
    const count = collectFeatures(
      text,
      start,
      end,
      this.spec.bits,
      this.#stamp,
      this.#generation,
      this.#buffer,
    );
    return this.#buffer.subarray(0, count);
  }

  /** Logit of one window from its features and surprisal. */
  logit(features: Int32Array, surprisal: number): WindowVerdict {
    const { weights, scale, bias, suffixWeights } = this.spec;
    let sum = 0;
    for (let index = 0; index < features.length; index++) sum += weights[features[index]!]!;
    const linear = features.length === 0 ? 0 : (sum * scale) / Math.sqrt(features.length);
    const suffix = suffixFeatures(surprisal);
    let suffixLogit = 0;
    for (let index = 0; index < suffix.length; index++) {
      suffixLogit += suffix[index]! * (suffixWeights[index] ?? 0);
    }
    return { logit: bias + linear + suffixLogit, surprisal, suffixLogit };
  }

  /** Calibrated probability of a logit. */
  probability(logit: number): number {
    return 1 / (1 + Math.exp(-(this.spec.plattA * logit + this.spec.plattB)));
  }

  /**
   * The window of folded `text` with the highest logit (windows overlap by
   * `WINDOW_OVERLAP`, so this is linear in the length of the text). `text`
   * may be given as pieces (`foldTextPieces`): the windows are those of
   * their concatenation, read from the piece that holds them (a window
   * across a cut is copied: 2,048 characters), so the whole text is never
   * made into one string.
   */
  bestWindow(text: string | readonly string[], languageModel: Uint8Array): WindowVerdict {
    if (typeof text === 'string') text = [text];
    let length = 0;
    for (const piece of text) length += piece.length;
    let best: WindowVerdict | undefined;
    let peakSurprisal = 0;
    // The piece that holds the window's start, and where it starts.
    let piece = 0;
    let pieceStart = 0;
    for (const start of windowStarts(length)) {
      const end = Math.min(length, start + MODEL_WINDOW);
      while (piece < text.length - 1 && pieceStart + text[piece]!.length <= start) {
        pieceStart += text[piece]!.length;
        piece++;
      }
      let window = text[piece]!;
      let from = start - pieceStart;
      if (end > pieceStart + window.length) {
        const parts: string[] = [];
        for (let at = piece, partStart = pieceStart; partStart < end; at++) {
          const part = text[at]!;
          parts.push(
            part.slice(Math.max(0, start - partStart), Math.min(part.length, end - partStart)),
          );
          partStart += part.length;
        }
        window = parts.join('');
        from = 0;
      }
      const to = from + (end - start);
      const surprisal = maxWindowSurprisal(window, languageModel, from, to);
      if (surprisal > peakSurprisal) peakSurprisal = surprisal;
      const verdict = this.logit(this.features(window, from, to), surprisal);
      if (!best || verdict.logit > best.logit) best = verdict;
    }
    best!.peakSurprisal = peakSurprisal;
    return best!;
  }
}
