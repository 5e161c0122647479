import {
  anyOf,
  booleanOption,
  functionOption,
  listOf,
  nonEmptyString,
  type OptionShape,
  objectOption,
  oneOf,
  positiveInt,
  required,
  rule,
  timerMilliseconds,
} from './options';

/** The rules of `defineGuardrail`'s options: every field it accepts, and nothing else. */
export const defineGuardrailOptionShape = {
  name: required(nonEmptyString, 'a non-empty string'),
  check: required(functionOption(), 'a function'),
  streamSafe: booleanOption,
  maxMatchLength: positiveInt,
  potentialMatchStart: functionOption(),
  mayMatch: functionOption(),
  mayMatchReach: positiveInt,
  timeoutMs: timerMilliseconds,
  onError: oneOf(['block', 'allow']),
  parallel: booleanOption,
  cache: anyOf(
    [
      oneOf(['content', 'none']),
      objectOption({
        metadata: required(listOf(nonEmptyString, 'an array of metadata keys'), 'an array'),
      }),
    ],
    "'content', 'none' or { metadata: string[] }",
  ),
  // Any value: it is turned into a stable text, never read otherwise.
  fingerprint: rule(() => true, 'any value'),
  perCall: booleanOption,
  retryable: anyOf([booleanOption, oneOf(['without-answer'])], "true, false or 'without-answer'"),
} satisfies OptionShape;
