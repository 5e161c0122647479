import {
  anyOf,
  functionOption,
  listOf,
  nonEmptyString,
  type OptionShape,
  oneOf,
  positiveInt,
  recordOf,
  regexOption,
  rule,
  stringOption,
} from '../../core/options';

/** A zod / Standard Schema: an object (or function) with `~standard.validate`. */
export const standardSchemaOption = rule(
  value =>
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { '~standard'?: { validate?: unknown } })['~standard']?.validate ===
      'function',
  'a Standard Schema (e.g. zod)',
);

const absolutePath = rule(
  value => typeof value === 'string' && /^(?:\/|[a-zA-Z]:[\\/])/.test(value),
  'an absolute path',
);

/** The rules of `toolPolicy`'s options. */
export const toolPolicyOptionShape = {
  maxDepth: positiveInt,
  maxValues: positiveInt,
  allow: listOf(nonEmptyString, 'an array of tool names'),
  deny: listOf(
    anyOf([nonEmptyString, regexOption], 'a tool name or a RegExp over argument values'),
    'an array of tool names and RegExps',
  ),
  args: recordOf(
    // A predicate is a function; a zod schema is an object, so the function test comes second.
    anyOf(
      [standardSchemaOption, functionOption()],
      'a Standard Schema (e.g. zod) or a predicate function',
    ),
    'an object of schemas or predicates by tool name',
  ),
  rules: listOf(oneOf(['sql', 'shell', 'path']), "an array of 'sql', 'shell', 'path'"),
  dialect: oneOf(['postgres', 'mysql', 'sqlite', 'mssql', 'any']),
  roots: listOf(absolutePath, 'an array of absolute paths'),
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;
