import { isSupportedCountry } from 'libphonenumber-js/max';
import type { GuardrailConfigIssue } from '../../core/errors';
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
  regexOption,
  required,
  rule,
  storeOption,
  storeTtl,
  stringOption,
} from '../../core/options';
import { allPiiEntities } from './find-pii';

/** A region code libphonenumber knows (`'US'`, `'GB'`...), as in the config schema. */
export const phoneRegionOption = rule(
  value => typeof value === 'string' && /^[A-Z]{2}$/.test(value) && isSupportedCountry(value),
  'a two-letter region code libphonenumber supports, such as "US"',
);

// Read when a value is checked, not when this module loads: find-pii imports
// this module, so its exports may not be initialised yet at that point.
const entityType = rule(
  value => (allPiiEntities as readonly unknown[]).includes(value),
  'an entity type (see allPiiEntities), such as "EMAIL_ADDRESS"',
);

/** The rules of `findPii`'s options, shared by `pii`. */
export const findPiiOptionShape = {
  entities: anyOf(
    [oneOf(['all']), listOf(entityType, 'an array of entity types')],
    "'all' or an array of entity types",
  ),
  custom: listOf(
    objectOption(
      {
        type: required(nonEmptyString, 'a type name such as "EMPLOYEE_ID"'),
        pattern: required(regexOption, 'a RegExp'),
        validate: functionOption('a function (match) => boolean'),
        maxLength: positiveInt,
      },
      '{ type, pattern, validate?, maxLength? }',
    ),
    'an array of { type, pattern } patterns',
  ),
  defaultRegion: phoneRegionOption,
  phoneRegions: listOf(phoneRegionOption, 'an array of region codes'),
  obfuscatedEmails: booleanOption,
} satisfies OptionShape;

/** The rules of `pii`'s options: every option it accepts, and nothing else. */
export const piiOptionShape = {
  action: oneOf(['redact', 'block', 'pseudonymize']),
  ...findPiiOptionShape,
  placeholder: functionOption('a function (type) => string'),
  store: storeOption,
  conversationId: functionOption('a function of the call context returning an id'),
  ttlMs: storeTtl,
  toolRestore: oneOf(['messages', 'vault']),
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;

/** `entities: []` without custom patterns would find nothing: an error, not a silent no-op. */
export function piiNeedsSomethingToFind(
  { entities, custom }: Record<string, unknown>,
  issues: GuardrailConfigIssue[],
  prefix: string,
): void {
  if (
    Array.isArray(entities) &&
    entities.length === 0 &&
    !(Array.isArray(custom) && custom.length > 0)
  ) {
    issues.push({
      path: `${prefix}.entities`,
      value: entities,
      expected: 'at least one entity type, or custom patterns',
    });
  }
}
