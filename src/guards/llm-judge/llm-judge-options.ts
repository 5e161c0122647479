import {
  anyOf,
  booleanOption,
  functionOption,
  milliseconds,
  nonEmptyString,
  nonNegativeInt,
  numberInRange,
  type OptionShape,
  objectOption,
  oneOf,
  positiveInt,
  required,
  rule,
  storeOption,
  storeTtl,
  stringOption,
  timerMilliseconds,
} from '../../core/options';

/** An AI SDK language model: a model object (with `doGenerate`) or a gateway model id. */
export const languageModelOption = rule(
  value =>
    (typeof value === 'string' && value.trim() !== '') ||
    (value !== null &&
      typeof value === 'object' &&
      typeof (value as { doGenerate?: unknown }).doGenerate === 'function'),
  'an AI SDK language model',
);

/** The rules of `llmJudge`'s options. */
export const llmJudgeOptionShape = {
  model: required(languageModelOption, 'an AI SDK language model'),
  policy: required(
    rule(value => typeof value === 'string' && value.trim() !== '', 'a non-empty policy text'),
    'a non-empty policy text',
  ),
  threshold: numberInRange(0, 1),
  parallel: booleanOption,
  cache: anyOf(
    [booleanOption, objectOption({ store: storeOption, maxEntries: positiveInt, ttlMs: storeTtl })],
    'true, false or { store?, maxEntries?, ttlMs? }',
  ),
  timeoutMs: timerMilliseconds,
  onError: oneOf(['block', 'allow']),
  breaker: anyOf(
    [
      oneOf([false]),
      objectOption({
        failures: required(positiveInt, 'a positive integer'),
        resetMs: required(milliseconds, 'a positive number of milliseconds'),
      }),
    ],
    'false or { failures, resetMs }',
  ),
  contextMessages: nonNegativeInt,
  contextMaxChars: positiveInt,
  template: anyOf([nonEmptyString, functionOption()], 'a template string or a function'),
  maxRetries: nonNegativeInt,
  message: stringOption,
  severity: oneOf(['info', 'warning', 'critical']),
  name: nonEmptyString,
} satisfies OptionShape;
