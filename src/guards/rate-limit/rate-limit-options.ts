import {
  functionOption,
  nonEmptyString,
  numberRule,
  type OptionShape,
  oneOf,
  positiveInt,
  required,
  storeOption,
  stringOption,
  timerMilliseconds,
} from '../../core/options';

/** The rules of `rateLimit`'s options. */
export const rateLimitOptionShape = {
  limit: required(positiveInt, 'a positive integer'),
  windowMs: required(
    numberRule(
      value => Number.isSafeInteger(value) && (value as number) > 0,
      'a positive integer number of milliseconds',
    ),
    'a positive integer number of milliseconds',
  ),
  key: functionOption('a function of the call context'),
  store: storeOption,
  onError: oneOf(['block', 'allow']),
  timeoutMs: timerMilliseconds,
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;
