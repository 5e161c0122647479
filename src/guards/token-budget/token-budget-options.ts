import {
  functionOption,
  nonEmptyString,
  type OptionShape,
  objectOption,
  positiveInt,
  required,
  storeOption,
  stringOption,
} from '../../core/options';

/** The rules of `tokenBudget`'s options. */
export const tokenBudgetOptionShape = {
  maxInputTokens: positiveInt,
  maxOutputTokens: positiveInt,
  perSession: objectOption(
    { maxTokens: required(positiveInt, 'a positive integer'), windowMs: positiveInt },
    '{ maxTokens, windowMs? }',
  ),
  sessionId: functionOption('a function of the call context returning a session id'),
  store: storeOption,
  countTokens: functionOption('a function (text) => number'),
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;
