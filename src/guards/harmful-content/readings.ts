/**
 * Extra readings of a text beside the overlapping windows, each scored as
 * one more window (the text's score is the highest): sentence groups
 * (sentence-windows.ts) and the text before a noisy adversarial-suffix tail
 * (suffix-noise.ts). A model is calibrated with its readings, so they are
 * stored in its model file.
 */
export interface HarmfulReadingOptions {
  /** Texts of at most this many folded characters are also scored per sentence group (0: off). */
  sentenceMaxLength: number;
  /** Sentences shorter than this many characters are merged with the next one. */
  sentenceMinLength: number;
  /** Texts of at most this many folded characters are also scored without their noisy tail (suffix-noise.ts; 0: off). */
  noisyTailMaxLength: number;
  /** false: only script mixing marks a noise token, not code-like symbols (default true). */
  noisyTailSymbols?: boolean;
}

/** No extra reading. */
export const NO_EXTRA_READING: HarmfulReadingOptions = {
  sentenceMaxLength: 0,
  sentenceMinLength: 0,
  noisyTailMaxLength: 0,
};
