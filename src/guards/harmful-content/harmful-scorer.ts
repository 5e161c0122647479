import {
  type InjectionModelSpec,
  InjectionScorer,
  type WindowVerdict,
} from '../prompt-injection/injection-model';
import { type HarmfulReadingOptions, NO_EXTRA_READING } from './readings';
import { gatedSum, requestBucket, requestOpeningEnd } from './request-gate';

const NO_SPANS: readonly number[] = [];
const NO_FEATURES = new Int32Array(0);

/**
 * The harmful-request model's scorer: the injection detector's hashed
 * n-gram features and logistic model, with the extra readings the model was
 * calibrated with (readings.ts) and, when its model file says so, the
 * request gate (request-gate.ts). Training and the runtime both score
 * through it; training experiments (scripts/train/harmful/) extend it with
 * other features and windows. Not reentrant (like its base class).
 */
export class HarmfulScorer extends InjectionScorer {
  /** Extra readings the model was calibrated with (readings.ts). */
  readonly readings: HarmfulReadingOptions;
  #gated = new Int32Array(0);

  constructor(spec: InjectionModelSpec, readings: HarmfulReadingOptions = NO_EXTRA_READING) {
    super(spec);
    const { noisyTailMaxLength, noisyTailSymbols, requestGate } = readings;
    if (!Number.isInteger(noisyTailMaxLength) || noisyTailMaxLength < 0) {
      throw new RangeError(
        `HarmfulScorer: noisyTailMaxLength must be a non-negative integer, got ${noisyTailMaxLength}`,
      );
    }
    if (noisyTailSymbols !== undefined && typeof noisyTailSymbols !== 'boolean') {
      throw new TypeError('HarmfulScorer: noisyTailSymbols must be a boolean');
    }
    if (requestGate !== undefined && !Number.isFinite(requestGate)) {
      throw new RangeError(
        `HarmfulScorer: requestGate must be a finite number, got ${requestGate}`,
      );
    }
    this.readings = {
      noisyTailMaxLength,
      ...(noisyTailSymbols === false ? { noisyTailSymbols } : {}),
      ...(requestGate === undefined ? {} : { requestGate }),
    };
  }

  /**
   * Distinct features of `text[start, end)`; with the request gate, a
   * window at the start of the text gives its request opening's n-grams
   * apart (one's complements of their gate buckets, request-gate.ts).
   */
  override features(text: string, start: number, end: number): Int32Array {
    if (this.readings.requestGate === undefined || start !== 0) {
      return super.features(text, start, end);
    }
    const cut = Math.min(end, requestOpeningEnd(text));
    if (cut === 0) return super.features(text, start, end);
    const topic = super.features(text, cut, end);
    const needed = topic.length + 6 * cut + 8;
    if (this.#gated.length < needed) this.#gated = new Int32Array(Math.max(needed, 6 * 2048 + 8));
    this.#gated.set(topic, 0);
    let count = topic.length;
    const request = super.features(text, start, cut);
    for (let index = 0; index < request.length; index++) {
      this.#gated[count++] = ~requestBucket(request[index]!, this.spec.bits);
    }
    return this.#gated.subarray(0, count);
  }

  /** Logit of one window; with the request gate, `bias + t + σ(t + offset) · r` (request-gate.ts). */
  override logit(features: Int32Array, surprisal: number): WindowVerdict {
    const offset = this.readings.requestGate;
    if (offset === undefined) return super.logit(features, surprisal);
    const { weights, scale } = this.spec;
    const { sum } = gatedSum(features, bucket => weights[bucket]! * scale, offset);
    // The bias and the suffix features, as the plain model reads them.
    const base = super.logit(NO_FEATURES, surprisal);
    return { ...base, logit: base.logit + sum };
  }

  /** Spans of folded text (flat start/end pairs) scored as extra windows: none (training experiments add some). */
  extraSpans(_folded: string): readonly number[] {
    return NO_SPANS;
  }

  /** The suffix-feature input of the window last passed to `features`: 0 (training experiments may use it). */
  suffixInput(): number {
    return 0;
  }
}
