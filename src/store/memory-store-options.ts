import { functionOption, type OptionShape, positiveInt } from '../core/options';

/** The rules of `memoryStore`'s options. */
export const memoryStoreOptionShape = {
  maxEntries: positiveInt,
  maxBytes: positiveInt,
  now: functionOption('a clock function () => milliseconds'),
} satisfies OptionShape;
