import {
  functionOption,
  nonEmptyString,
  type OptionShape,
  positiveInt,
  required,
  rule,
} from '../core/options';

/** The rules of `scriptedModel`'s options. */
export const scriptedModelOptionShape = {
  respond: required(
    functionOption('a function (input) => string | { text?, toolCalls? }'),
    'a function (input) => string | { text?, toolCalls? }',
  ),
  chunkSize: positiveInt,
  delayMs: rule(
    value => typeof value === 'number' && Number.isFinite(value) && value >= 0,
    'a non-negative number of milliseconds',
  ),
  modelId: nonEmptyString,
} satisfies OptionShape;
