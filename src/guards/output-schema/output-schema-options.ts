import {
  nonEmptyString,
  nonNegativeInt,
  type OptionShape,
  oneOf,
  positiveInt,
  regexList,
  rule,
  stringList,
  stringOption,
} from '../../core/options';

/** The rules of `outputSchema`'s options (the schema's own validity is checked by the factory). */
export const outputSchemaOptionShape = {
  schema: rule(
    value =>
      value !== null &&
      (typeof value === 'object' || typeof value === 'function') &&
      !Array.isArray(value),
    'a Standard Schema (e.g. zod) or a JSON Schema object',
  ),
  mode: oneOf(['json', 'text']),
  requiredFields: stringList,
  mustMatch: regexList,
  mustNotMatch: regexList,
  minLength: nonNegativeInt,
  maxLength: nonNegativeInt,
  maxMatchLength: positiveInt,
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;
