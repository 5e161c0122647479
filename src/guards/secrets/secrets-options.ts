import {
  booleanOption,
  functionOption,
  nonEmptyString,
  numberInRange,
  numberRule,
  type OptionShape,
  oneOf,
  stringOption,
} from '../../core/options';

/*
 * Entropy candidates are 20 to 200 of the 66 characters [A-Za-z0-9+/_-]
 * (`judgeEntropyToken` in entropy.ts: a longer run is a data payload), so a
 * token reaches log2(66) ≈ 6.04 bits per character at most. A threshold or
 * a minimum length past that found nothing: entropy detection was off while
 * `entropy` said true (round 35).
 */
/** The highest `entropyThreshold`: bits per character a token can still reach. */
export const MAX_ENTROPY_THRESHOLD = 6;
/** The highest `entropyMinLength`: the longest token judged by its entropy. */
export const MAX_ENTROPY_MIN_LENGTH = 200;

/** The rules of `findSecrets`'s options, shared by `secrets`. */
export const findSecretsOptionShape = {
  assignments: booleanOption,
  entropy: booleanOption,
  entropyThreshold: numberInRange(0, MAX_ENTROPY_THRESHOLD, {
    minExclusive: true,
    expected: `a number of bits per character above 0 and at most ${MAX_ENTROPY_THRESHOLD} (4.5 by default; a token holds at most 66 different characters, log2(66) ≈ 6.04 bits, so a higher threshold finds nothing: set entropy: false to turn it off)`,
  }),
  entropyMinLength: numberRule(
    value =>
      Number.isSafeInteger(value) &&
      (value as number) >= 1 &&
      (value as number) <= MAX_ENTROPY_MIN_LENGTH,
    `an integer from 1 to ${MAX_ENTROPY_MIN_LENGTH} (24 by default; a token longer than ${MAX_ENTROPY_MIN_LENGTH} characters is a data payload, never judged, so a higher minimum finds nothing: set entropy: false to turn it off)`,
  ),
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
