import {
  nonEmptyString,
  numberInRange,
  type OptionShape,
  oneOf,
  stringOption,
} from '../../core/options';

/** The rules of `promptInjection`'s options. */
export const promptInjectionOptionShape = {
  threshold: numberInRange(0, 1, { minExclusive: true }),
  mode: oneOf(['direct', 'indirect']),
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;
