import {
  anyOf,
  booleanOption,
  functionOption,
  listOf,
  nonEmptyString,
  type OptionShape,
  oneOf,
  regexOption,
  rule,
  stringOption,
} from '../../core/options';

const hostPattern = anyOf(
  [nonEmptyString, regexOption],
  'a host name, "*.domain", an IP or a RegExp',
);

const scheme = rule(
  value => typeof value === 'string' && /^[a-z][a-z0-9+.-]*$/i.test(value),
  'a scheme name without ":", such as "https"',
);

/** The rules of `urlFilter`'s options. */
export const urlFilterOptionShape = {
  allow: listOf(hostPattern, 'an array of host patterns'),
  deny: listOf(hostPattern, 'an array of host patterns'),
  schemes: listOf(scheme, 'an array of scheme names'),
  blockUserinfo: booleanOption,
  allowSubdomains: booleanOption,
  blockPrivate: booleanOption,
  resolveHost: functionOption('a function (host) => Promise of its addresses'),
  blockHomographs: booleanOption,
  action: oneOf(['block', 'redact']),
  replacement: stringOption,
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;
