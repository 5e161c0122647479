import {
  booleanOption,
  nonEmptyString,
  type OptionShape,
  oneOf,
  positiveInt,
  required,
  stringOption,
  timerMilliseconds,
} from '../../core/options';

/** The rules of `expression`'s options (the expression itself is compiled by the factory). */
export const expressionOptionShape = {
  expr: required(nonEmptyString, 'a CEL expression'),
  reason: stringOption,
  message: stringOption,
  severity: oneOf(['info', 'warning', 'critical']),
  name: nonEmptyString,
  streamSafe: booleanOption,
  maxMatchLength: positiveInt,
  maxInputLength: positiveInt,
  maxNodes: positiveInt,
  timeoutMs: timerMilliseconds,
  onError: oneOf(['block', 'allow']),
} satisfies OptionShape;
