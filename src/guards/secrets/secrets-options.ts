import {
  booleanOption,
  functionOption,
  nonEmptyString,
  type OptionShape,
  oneOf,
  positiveInt,
  positiveNumber,
  stringOption,
} from '../../core/options';

/** The rules of `findSecrets`'s options, shared by `secrets`. */
export const findSecretsOptionShape = {
  assignments: booleanOption,
  entropy: booleanOption,
  entropyThreshold: positiveNumber('a positive number of bits per character (4.5 by default)'),
  entropyMinLength: positiveInt,
  reportPlaceholders: booleanOption,
} satisfies OptionShape;

/** The rules of `secrets`'s options (the `findSecrets` ones included). */
export const secretsOptionShape = {
  action: oneOf(['block', 'redact']),
  ...findSecretsOptionShape,
  placeholder: functionOption('a function (type) => string'),
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;
