import { type InjectionModelSpec, InjectionScorer } from '../prompt-injection/injection-model';
import { type HarmfulReadingOptions, NO_EXTRA_READING } from './readings';

const NO_SPANS: readonly number[] = [];

/**
 * The harmful-request model's scorer: the injection detector's hashed
 * n-gram features and logistic model, with the extra readings the model was
 * calibrated with (readings.ts). Training and the runtime both score
 * through it; training experiments (scripts/train/harmful/) extend it with
 * other features and windows. Not reentrant (like its base class).
 */
export class HarmfulScorer extends InjectionScorer {
  /** Extra readings the model was calibrated with (readings.ts). */
  readonly readings: HarmfulReadingOptions;

  constructor(spec: InjectionModelSpec, readings: HarmfulReadingOptions = NO_EXTRA_READING) {
    super(spec);
    const { noisyTailMaxLength, noisyTailSymbols } = readings;
    if (!Number.isInteger(noisyTailMaxLength) || noisyTailMaxLength < 0) {
      throw new RangeError(
        `HarmfulScorer: noisyTailMaxLength must be a non-negative integer, got ${noisyTailMaxLength}`,
      );
    }
    if (noisyTailSymbols !== undefined && typeof noisyTailSymbols !== 'boolean') {
      throw new TypeError('HarmfulScorer: noisyTailSymbols must be a boolean');
    }
    this.readings =
      noisyTailSymbols === false
        ? { noisyTailMaxLength, noisyTailSymbols }
        : { noisyTailMaxLength };
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
