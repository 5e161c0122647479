/**
 * Extra readings of a text beside the overlapping windows, each scored as
 * one more window (the text's score is the highest): the text before a noisy
 * adversarial-suffix tail (suffix-noise.ts). A model is calibrated with its
 * readings, so they are stored in its model file.
 */
export interface HarmfulReadingOptions {
  /** Texts of at most this many folded characters are also scored without their noisy tail (suffix-noise.ts; 0: off). */
  noisyTailMaxLength: number;
  /** false: only script mixing marks a noise token, not code-like symbols (default true). */
  noisyTailSymbols?: boolean;
  /**
   * Present: the model is request-gated (request-gate.ts), and this is the
   * learned gate offset; absent: every n-gram counts alike (the shipped
   * model).
   */
  requestGate?: number;
}

/** No extra reading. */
export const NO_EXTRA_READING: HarmfulReadingOptions = { noisyTailMaxLength: 0 };
