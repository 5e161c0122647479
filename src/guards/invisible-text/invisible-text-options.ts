import {
  booleanOption,
  nonEmptyString,
  type OptionShape,
  oneOf,
  stringOption,
} from '../../core/options';

/** The rules of `invisibleText`'s options. */
export const invisibleTextOptionShape = {
  action: oneOf(['strip', 'block']),
  privateUse: booleanOption,
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;
