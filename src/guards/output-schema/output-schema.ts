import type { StandardSchemaV1 } from '@standard-schema/spec';
import Ajv, { type ErrorObject } from 'ajv';
import { allow, block, defineGuardrail } from '../../core/define-guardrail';
import type { GuardrailConfigIssue } from '../../core/errors';
import { childPath, validateFactoryOptions } from '../../core/options';
import { jsonErrorDetail } from '../../core/redact-secrets';
import type {
  StreamedBlock,
  StreamWatcher,
  StreamWatchingGuardrail,
} from '../../core/stream-watch';
import type { Guardrail, GuardrailContext } from '../../core/types';
import { Re2RegExp } from '../shared/re2-regexp';
import { shownIssueMessage } from './issue-message';
import { outputSchemaOptionShape } from './output-schema-options';
import { type CompiledPattern, compilePattern } from './pattern-bounds';
import { withLinearUniqueItems } from './unique-items';

/** A JSON Schema object (validated with ajv). */
export type JsonSchemaObject = Record<string, unknown>;

/** Options of `outputSchema`. */
export interface OutputSchemaOptions {
  /** The shape the answer must have: a zod / Standard Schema, or a JSON Schema object. */
  schema?: StandardSchemaV1 | JsonSchemaObject;
  /**
   * `'json'`: the answer must parse as JSON (a ```json fence around it is
   * accepted) and match `schema`. `'text'`: only the pattern and length rules
   * apply. Default `'json'` when `schema` or `requiredFields` is given, else `'text'`.
   */
  mode?: 'json' | 'text';
  /**
   * Top-level fields the answer must have: it must parse as a JSON object
   * holding each of them (the seed's `required_fields`). Implies mode `'json'`.
   */
  requiredFields?: readonly string[];
  /**
   * Patterns the answer must match, each of them. Run on RE2 (linear time):
   * no lookaround or backreferences (a config error); `\\s`, `\\S` and `.`
   * match as in JavaScript (`\\w`, `\\d`, `\\b` are ASCII as there); flags
   * `i`, `m`, `s` apply (`m`: `^` and `$` see `\\n` alone as a line end).
   */
  mustMatch?: readonly RegExp[];
  /** Patterns the answer must not match (on RE2, as `mustMatch`). */
  mustNotMatch?: readonly RegExp[];
  /** Fewest characters the answer may have. */
  minLength?: number;
  /** Most characters the answer may have. */
  maxLength?: number;
  /**
   * Window streams: the longest text a `mustNotMatch` pattern that repeats
   * without bound (`*`, `+`, `{n,}`) must be found in. Window mode holds
   * back at least this many characters; a longer match may be released
   * unseen. Without it such a pattern makes the guardrail need `hold` mode.
   * Bounded patterns need none: their longest match is computed.
   */
  maxMatchLength?: number;
  /** User-facing message of a block. */
  message?: string;
  /** Guardrail name in records. Default `'output-schema'`. */
  name?: string;
}

function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    '~standard' in value
  );
}

/**
 * The body of a ```json fence around the whole (trimmed) answer, else the
 * answer. A scan rather than a regex: `^```\w*\s*\n?([\s\S]*?)\n?```$`
 * backtracks over the whitespace after the fence for every character after
 * it, which is quadratic on "```" followed by a long run of newlines.
 */
function unfence(answer: string): string {
  const fence = '```';
  if (answer.length < 6 || !answer.startsWith(fence) || !answer.endsWith(fence)) return answer;
  const close = answer.length - 3;
  let start = 3;
  while (start < close && /[a-zA-Z]/.test(answer[start]!)) start++;
  while (start < close && /\s/.test(answer[start]!)) start++;
  const end = answer.charCodeAt(close - 1) === 0x0a && close - 1 >= start ? close - 1 : close;
  return answer.slice(start, end);
}

/**
 * A path into the answer, as records show it. A key the schema does not
 * name (a record's key, an additional property) comes from the answer and
 * may be a value it holds (an e-mail address, a token): it shows as `*`.
 */
function pathOf(
  segments: ReadonlyArray<PropertyKey | StandardSchemaV1.PathSegment>,
  declared: ReadonlySet<string>,
): string {
  return segments
    .map(segment => (typeof segment === 'object' ? segment.key : segment))
    .map((key, index) => {
      if (typeof key === 'number') return `[${key}]`;
      const shown = typeof key === 'string' && declared.has(key) ? key : '*';
      return index === 0 ? shown : `.${shown}`;
    })
    .join('');
}

/**
 * The path of an ajv error, read along the answer: a segment is an index
 * only where the answer holds an array. Round 37: every segment of digits
 * was taken for an index, so an object keyed by a card or phone number
 * showed the key (`at "[4111111111111111]"`) where any other key shows `*`.
 */
function ajvPath(error: ErrorObject, declared: ReadonlySet<string>, answer: unknown): string {
  let node = answer;
  const segments: Array<string | number> = [];
  for (const raw of error.instancePath.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const segment = Array.isArray(node) ? Number(part) : part;
    segments.push(segment);
    node =
      node !== null && typeof node === 'object' && Object.hasOwn(node, segment)
        ? (node as Record<string | number, unknown>)[segment]
        : undefined;
  }
  return pathOf(segments, declared);
}

/**
 * What identifies a schema in the guardrail's fingerprint: the text of its
 * JSON Schema (a Standard Schema's JSON Schema form, as zod 4 offers one),
 * whole at any depth. The options fingerprint read objects 8 levels deep
 * (it reads them whole since): a zod schema's third nested object was past
 * it, so tightening an enum
 * there kept the fingerprint, and a store shared across a redeploy gave the
 * stricter schema the looser one's remembered passes. A schema with no JSON
 * form is fingerprinted as it is.
 */
function schemaIdentity(schema: unknown): unknown {
  try {
    if (isStandardSchema(schema)) {
      const converter = (schema['~standard'] as { jsonSchema?: { input?: unknown } }).jsonSchema;
      return typeof converter?.input === 'function'
        ? `[json-schema ${JSON.stringify(converter.input({ target: 'draft-2020-12' }))}]`
        : schema;
    }
    const text = JSON.stringify(schema);
    return text === undefined ? schema : `[json-schema ${text}]`;
  } catch {
    return schema;
  }
}

/** Most schema nodes read for property names (a schema is configuration, but bounded all the same). */
const MAX_SCHEMA_NODES = 10_000;

/**
 * The property names a JSON Schema declares (`properties`, `required`,
 * `dependentRequired` keys), at any depth. A Standard Schema is read through
 * its JSON Schema form when it offers one (`~standard.jsonSchema`, as zod 4
 * does); otherwise no name is known and every key of a path shows as `*`.
 */
function declaredPropertyNames(schema: unknown): Set<string> {
  const names = new Set<string>();
  let root = schema;
  if (isStandardSchema(schema)) {
    try {
      const converter = (schema['~standard'] as { jsonSchema?: { input?: unknown } }).jsonSchema;
      root =
        typeof converter?.input === 'function'
          ? converter.input({ target: 'draft-2020-12' })
          : undefined;
    } catch {
      root = undefined;
    }
  }
  const stack: unknown[] = [root];
  const seen = new Set<object>();
  while (stack.length > 0 && seen.size < MAX_SCHEMA_NODES) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const field of ['properties', 'dependentRequired', 'dependentSchemas']) {
      const named = record[field];
      if (named !== null && typeof named === 'object' && !Array.isArray(named)) {
        for (const name of Object.keys(named)) names.add(name);
      }
    }
    if (Array.isArray(record.required)) {
      for (const name of record.required) if (typeof name === 'string') names.add(name);
    }
    stack.push(...Object.values(record));
  }
  return names;
}

/**
 * The cross-option checks of `outputSchema`: no schema in mode 'text',
 * `minLength` not above `maxLength`, and a JSON Schema that ajv compiles
 * (returned, so it is compiled once).
 */
/** Compiles each pattern of a list for RE2, with an issue naming each one RE2 cannot run. */
function compilePatterns(
  patterns: unknown,
  path: string,
  issues: GuardrailConfigIssue[],
): CompiledPattern[] {
  if (!Array.isArray(patterns)) return [];
  const compiled: CompiledPattern[] = [];
  patterns.forEach((pattern, index) => {
    if (!(pattern instanceof RegExp)) return; // reported by the option's own rule
    const result = compilePattern(pattern);
    if (typeof result === 'string') {
      issues.push({ path: `${path}[${index}]`, value: String(pattern), expected: result });
    } else {
      compiled.push(result);
    }
  });
  return compiled;
}

/**
 * The RegExp engine ajv compiles a JSON Schema's `pattern` and
 * `patternProperties` with: RE2, as every other pattern of this guardrail.
 * ajv's default (`new RegExp`) backtracks, and the text it runs on is the
 * model's answer (or a tool's result): `"pattern": "^(a+)+$"` took a second
 * on 28 characters of answer and doubled with each one more, blocking the
 * event loop (a timeout cannot fire in synchronous code). A pattern RE2
 * cannot run (lookaround, backreferences) makes the schema invalid.
 */
const re2Engine = Object.assign((pattern: string, flags: string) => new Re2RegExp(pattern, flags), {
  code: 'new Re2RegExp',
});

/**
 * Keywords a JSON Schema may carry that ajv does not know and that check
 * nothing by design: OpenAPI's annotations (`example`, `discriminator`,
 * `xml`, `externalDocs`) and editors' (`markdownDescription`,
 * `deprecationMessage`), besides any `x-*` vendor extension. ajv knows the
 * standard annotations itself (`title`, `description`, `default`,
 * `examples`, `deprecated`, `readOnly`, `writeOnly`, `$comment`, `content*`)
 * and checks OpenAPI's `nullable`. Any other keyword ajv does not know is a
 * configuration error: ajv would skip it, so `"maxLenght": 5` checked nothing.
 */
export const ANNOTATION_KEYWORDS: readonly string[] = [
  'example',
  'discriminator',
  'xml',
  'externalDocs',
  'markdownDescription',
  'deprecationMessage',
];
const annotationKeywords = new Set(ANNOTATION_KEYWORDS);

/** Keywords of JSON Schema 2019-09 / 2020-12 that ajv's draft-07 validator does not know. */
const LATER_DRAFT_KEYWORDS = new Set([
  'prefixItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependentRequired',
  'dependentSchemas',
  'minContains',
  'maxContains',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
]);

/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependencies',
]);
/** Keywords whose value is data (or names), never a schema. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example', 'required']);

/**
 * Where `keyword` stands as a keyword of `schema` (a subschema's key, not a
 * property name or data), as path segments; the first in document order.
 * Bounded by `MAX_SCHEMA_NODES`, iterative.
 */
function keywordPlace(schema: unknown, keyword: string): string[] | undefined {
  const stack: Array<{ node: unknown; path: string[] }> = [{ node: schema, path: [] }];
  let visited = 0;
  while (stack.length > 0 && visited++ < MAX_SCHEMA_NODES) {
    const { node, path } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let index = node.length - 1; index >= 0; index--) {
        stack.push({ node: node[index], path: [...path, String(index)] });
      }
      continue;
    }
    if (Object.hasOwn(node, keyword)) return [...path, keyword];
    const children: Array<{ node: unknown; path: string[] }> = [];
    for (const [key, value] of Object.entries(node)) {
      if (DATA_KEYWORDS.has(key) || annotationKeywords.has(key) || key.startsWith('x-')) continue;
      if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') {
        for (const [name, child] of Object.entries(value)) {
          children.push({ node: child, path: [...path, key, name] });
        }
      } else children.push({ node: value, path: [...path, key] });
    }
    stack.push(...children.reverse());
  }
  return undefined;
}

/** `schema.properties.name.maxLenght`, indexes as `[0]`. */
function schemaPath(prefix: string, segments: readonly string[]): string {
  return segments.reduce(
    (path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : childPath(path, segment)),
    prefix,
  );
}

/**
 * The issue of a keyword ajv skipped (its strict mode's message), or none
 * for an annotation: an unknown keyword is named where it stands, with the
 * annotations that are allowed.
 */
function skippedKeywordIssue(
  message: string,
  schema: Record<string, unknown>,
  prefix: string,
): GuardrailConfigIssue | undefined {
  const unknown = /^strict mode: unknown keyword: "([\s\S]*)"$/.exec(message)?.[1];
  if (unknown === undefined) {
    return {
      path: `${prefix}.schema`,
      value: schema,
      expected: `a JSON Schema whose every keyword is checked (${message.replace(/^strict mode: /, '')})`,
    };
  }
  if (annotationKeywords.has(unknown) || unknown.startsWith('x-')) return undefined;
  return unknownKeywordIssue(unknown, keywordPlace(schema, unknown), schema, prefix);
}

/** The issue of a keyword the validator does not know, named where it stands (`place`). */
function unknownKeywordIssue(
  unknown: string,
  place: readonly string[] | undefined,
  schema: unknown,
  prefix: string,
): GuardrailConfigIssue {
  let value: unknown = schema;
  for (const segment of place ?? []) value = (value as Record<string, unknown>)[segment];
  const why = LATER_DRAFT_KEYWORDS.has(unknown)
    ? `"${unknown}" is a JSON Schema 2019-09 / 2020-12 keyword, and schemas are checked as draft-07`
    : `"${unknown}" is no JSON Schema keyword`;
  return {
    path: schemaPath(`${prefix}.schema`, place ?? []),
    value: place === undefined ? schema : value,
    expected: `a JSON Schema keyword the validator checks (${why}, so it would check nothing; annotations allowed besides the standard ones: ${ANNOTATION_KEYWORDS.join(', ')}, x-*)`,
  };
}

/**
 * Deepest a JSON Schema may nest, counted in schemas within schemas (a
 * `properties` entry, an `items`, an `allOf` branch). ajv compiles one level
 * a recursion: a schema ~700 levels deep overflowed the stack, and the error
 * said only `Maximum call stack size exceeded` (round 27).
 */
export const MAX_SCHEMA_DEPTH = 100;

/**
 * What a JSON Schema holds that ajv must not be given, found in one
 * iterative walk before it compiles: nesting past `MAX_SCHEMA_DEPTH`, a
 * chain of `$ref`s that comes back to itself (ajv inlined it until the stack
 * overflowed) and every keyword ajv does not know (named once each, where it
 * first stands, as ajv's strict mode would: ajv's own search for them was
 * quadratic, 1,000 properties with a misspelt keyword each took 4.6 s).
 */
function schemaShapeIssues(
  schema: Record<string, unknown>,
  knownKeywords: Readonly<Record<string, unknown>>,
  prefix: string,
): GuardrailConfigIssue[] {
  const issues: GuardrailConfigIssue[] = [];
  const named = new Set<string>();
  const refs: Array<{ node: Record<string, unknown>; path: string[] }> = [];
  const stack: Array<{ node: unknown; path: string[]; depth: number }> = [
    { node: schema, path: [], depth: 0 },
  ];
  let tooDeep = false;
  while (stack.length > 0) {
    const { node, path, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > MAX_SCHEMA_DEPTH) {
      if (!tooDeep) {
        tooDeep = true;
        issues.push({
          path: schemaPath(`${prefix}.schema`, path),
          value: `(a schema nested ${MAX_SCHEMA_DEPTH} levels deep at this point)`,
          expected: `a JSON Schema nested at most ${MAX_SCHEMA_DEPTH} levels deep (schemas within schemas)`,
        });
      }
      continue;
    }
    if (Array.isArray(node)) {
      for (let index = node.length - 1; index >= 0; index--) {
        stack.push({ node: node[index], path: [...path, String(index)], depth });
      }
      continue;
    }
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === 'string' && record.$ref.startsWith('#'))
      refs.push({ node: record, path });
    const children: Array<{ node: unknown; path: string[]; depth: number }> = [];
    for (const [key, value] of Object.entries(record)) {
      if (DATA_KEYWORDS.has(key) || annotationKeywords.has(key) || key.startsWith('x-')) continue;
      if (!Object.hasOwn(knownKeywords, key)) {
        if (!named.has(key)) {
          named.add(key);
          issues.push(unknownKeywordIssue(key, [...path, key], schema, prefix));
        }
        continue;
      }
      if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') {
        for (const [name, child] of Object.entries(value)) {
          children.push({ node: child, path: [...path, key, name], depth: depth + 1 });
        }
      } else children.push({ node: value, path: [...path, key], depth: depth + 1 });
    }
    stack.push(...children.reverse());
  }
  const cycle = refCycle(schema, refs);
  if (cycle) {
    issues.push({
      path: schemaPath(`${prefix}.schema`, [...cycle.path, '$ref']),
      value: cycle.node.$ref,
      expected:
        'a $ref that leads to a schema: this one leads through $refs alone back to itself (a schema defined only as itself)',
    });
  }
  return issues;
}

/** The schema a local `$ref` (`#`, `#/definitions/a`) points to in `root`, if any. */
function localTarget(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return undefined;
    }
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment))
      return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/**
 * The `$ref` (and its path) whose chain of `$ref`s (a schema that is a `$ref`,
 * pointing to one that is a `$ref`, ...) comes back to itself, or none.
 * Each schema is followed once: linear in the number of `$ref`s.
 */
function refCycle(
  root: unknown,
  refs: ReadonlyArray<{ node: Record<string, unknown>; path: string[] }>,
): { node: Record<string, unknown>; path: string[] } | undefined {
  const state = new Map<object, 'open' | 'done'>();
  for (const start of refs) {
    const chain: object[] = [];
    let node: unknown = start.node;
    while (node !== null && typeof node === 'object' && !state.has(node)) {
      const ref = (node as Record<string, unknown>).$ref;
      if (typeof ref !== 'string') break;
      state.set(node, 'open');
      chain.push(node);
      node = localTarget(root, ref);
    }
    if (node !== null && typeof node === 'object' && state.get(node) === 'open') return start;
    for (const visited of chain) state.set(visited, 'done');
  }
  return undefined;
}

/**
 * Schema steps (one `$ref` followed for one value) an answer may cost:
 * this floor plus `SCHEMA_STEPS_PER_CHAR` for each character of its text.
 * ajv reads a subschema again wherever a `$ref` leads to it: with `anyOf`
 * branches that each `$ref` the root, each level of an answer's nesting
 * doubled the work, and a 115-character answer took 8 s (round 28). Past
 * the budget the check throws: the guardrail records an `error` and fails
 * closed. A schema without such repetition reads each value a few times.
 */
export const MIN_SCHEMA_STEPS = 100_000;
export const SCHEMA_STEPS_PER_CHAR = 16;
/** The keyword put in each subschema with a `$ref` of the copy ajv compiles, counting its reads. */
const STEP_KEYWORD = 'x-ai-guardrails-step';

/** A compiled JSON Schema, run with a budget of steps for an answer of `textLength` characters. */
export type BudgetedValidate = ((value: unknown, textLength: number) => boolean) & {
  readonly errors?: ReturnType<Ajv['compile']>['errors'];
};

/**
 * A copy of `node` (a schema that passed `schemaShapeIssues`: at most
 * `MAX_SCHEMA_DEPTH` deep) with `STEP_KEYWORD` in each subschema that has a
 * `$ref`: a subschema is read again only through one, and without it the
 * work is bounded by the schema's size times the answer's. (In every
 * subschema, a schema of 2,500 properties took 30 s to fail to compile.)
 * Pointers of `$ref`s read the same in it.
 */
function withStepKeyword(node: unknown, knownKeywords: Readonly<Record<string, unknown>>): unknown {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(child => withStepKeyword(child, knownKeywords));
  const entries: Array<[string, unknown]> = Object.hasOwn(node, '$ref')
    ? [[STEP_KEYWORD, true]]
    : [];
  for (const [key, value] of Object.entries(node)) {
    const schemaKeyword =
      !DATA_KEYWORDS.has(key) &&
      !annotationKeywords.has(key) &&
      !key.startsWith('x-') &&
      Object.hasOwn(knownKeywords, key);
    if (!schemaKeyword || value === null || typeof value !== 'object') entries.push([key, value]);
    else if (SCHEMA_MAPS.has(key) && !Array.isArray(value)) {
      const map = Object.entries(value).map(
        ([name, child]) => [name, withStepKeyword(child, knownKeywords)] as const,
      );
      entries.push([key, Object.fromEntries(map)]);
    } else entries.push([key, withStepKeyword(value, knownKeywords)]);
  }
  return Object.fromEntries(entries);
}

/**
 * `ajv`'s compiled `schema`, counting each read of a subschema with a
 * `$ref` (a keyword ajv runs before every other of a subschema, so a
 * failing branch counts too).
 */
function budgetedValidator(
  ajv: Ajv,
  schema: Record<string, unknown>,
  knownKeywords: Readonly<Record<string, unknown>>,
): BudgetedValidate {
  let steps = 0;
  let budget = 0;
  const rules = (
    ajv as unknown as {
      RULES: { rules: Array<{ type?: string; rules: Array<{ keyword: string }> }> };
    }
  ).RULES.rules;
  const first = rules.find(group => group.type === undefined)?.rules[0]?.keyword;
  ajv.addKeyword({
    keyword: STEP_KEYWORD,
    schemaType: 'boolean',
    errors: false,
    ...(first !== undefined && { before: first }),
    validate: () => {
      if (++steps > budget) {
        throw new Error(
          `outputSchema: checking the answer took more than ${budget} schema steps (a schema read again through $ref for each branch of anyOf / oneOf / allOf grows with each level of the answer's nesting); the answer is not passed`,
        );
      }
      return true;
    },
  });
  const validate = withLinearUniqueItems(ajv).compile(
    withStepKeyword(schema, knownKeywords) as object,
  );
  const run = (value: unknown, textLength: number) => {
    steps = 0;
    budget = MIN_SCHEMA_STEPS + SCHEMA_STEPS_PER_CHAR * textLength;
    return validate(value) as boolean;
  };
  return Object.defineProperty(run, 'errors', { get: () => validate.errors }) as BudgetedValidate;
}

function jsonSchemaValidator(
  { schema, mode, minLength, maxLength, requiredFields }: Record<string, unknown>,
  issues: GuardrailConfigIssue[],
  prefix: string,
): BudgetedValidate | undefined {
  if (mode === 'text' && schema !== undefined) {
    issues.push({ path: `${prefix}.schema`, value: schema, expected: "no schema in mode 'text'" });
  }
  if (mode === 'text' && requiredFields !== undefined) {
    issues.push({
      path: `${prefix}.requiredFields`,
      value: requiredFields,
      expected: "no requiredFields in mode 'text'",
    });
  }
  if (typeof minLength === 'number' && typeof maxLength === 'number' && minLength > maxLength) {
    issues.push({
      path: `${prefix}.maxLength`,
      value: maxLength,
      expected: `at least minLength (${minLength})`,
    });
  }
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return undefined;
  if (isStandardSchema(schema)) return undefined;
  if (Object.keys(schema).length === 0) {
    issues.push({
      path: `${prefix}.schema`,
      value: schema,
      expected:
        "a JSON Schema with at least one keyword ({} accepts every JSON value: to require JSON only, use mode 'json')",
    });
    return undefined;
  }
  // ajv checks no `format` it was not given (it throws on one in strict
  // mode), nor a keyword it does not know: strict mode only logs those here
  // (`strictSchema: 'log'`), so that annotations pass and every other one is
  // an issue naming where it stands, not a silent skip.
  const skipped: string[] = [];
  const logger = {
    log: (...args: unknown[]) => console.log(...args),
    warn(...args: unknown[]) {
      const text = args.map(String).join(' ');
      if (text.startsWith('strict mode: ')) skipped.push(text);
      else console.warn(...args);
    },
    error(...args: unknown[]) {
      // The generated code of a schema that failed to compile (a MB for a large one): the issue says why.
      if (!String(args[0]).startsWith('Error compiling schema')) console.error(...args);
    },
  };
  try {
    const ajv = new Ajv({
      allErrors: false,
      strict: false,
      strictSchema: 'log',
      // `properties` and `patternProperties` may both name a property: both apply.
      allowMatchingProperties: true,
      logger,
      code: { regExp: re2Engine },
    });
    const knownKeywords = {
      ...(ajv as unknown as { RULES: { keywords: Record<string, unknown> } }).RULES.keywords,
    };
    const shapeIssues = schemaShapeIssues(schema as Record<string, unknown>, knownKeywords, prefix);
    if (shapeIssues.length > 0) {
      issues.push(...shapeIssues);
      return undefined;
    }
    const validate = budgetedValidator(ajv, schema as Record<string, unknown>, knownKeywords);
    const before = issues.length;
    for (const message of new Set(skipped)) {
      const issue = skippedKeywordIssue(message, schema as Record<string, unknown>, prefix);
      if (issue) issues.push(issue);
    }
    return issues.length === before ? validate : undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    issues.push({
      path: `${prefix}.schema`,
      value: schema,
      expected: message.startsWith('unknown format')
        ? `a JSON Schema whose every keyword is checked: ${message} (no format is checked here: write a pattern for it, or use a Standard Schema such as zod)`
        : error instanceof RangeError
          ? // ajv nests one check in the next for each property of an object: about 2,000 overflow the stack.
            'a JSON Schema the validator can compile: ajv nests one check per property, and this schema overflowed the call stack (about 2,000 properties in one object is the limit; split it, or use a Standard Schema such as zod)'
          : `a valid JSON Schema (${message})`,
    });
    return undefined;
  }
}

/**
 * An `outputSchema` with no rule that can fail (no schema, required fields
 * or mode 'json', no patterns, no length bound above 0) passes every answer:
 * a configuration error, not a silent pass.
 */
function needsARule(
  given: Record<string, unknown>,
  issues: GuardrailConfigIssue[],
  prefix: string,
) {
  const { schema, requiredFields, mode, mustMatch, mustNotMatch, minLength, maxLength } = given;
  const nonEmpty = (list: unknown) => Array.isArray(list) && list.length > 0;
  if (
    schema === undefined &&
    requiredFields === undefined &&
    mode !== 'json' &&
    !nonEmpty(mustMatch) &&
    !nonEmpty(mustNotMatch) &&
    !(typeof minLength === 'number' && minLength > 0) &&
    maxLength === undefined
  ) {
    issues.push({
      path: prefix,
      value: given,
      expected:
        "at least one rule: schema, requiredFields, mode 'json', mustMatch, mustNotMatch, minLength above 0 or maxLength (with none, outputSchema checks nothing)",
    });
  }
}

/**
 * Why an `outputSchema` cannot run in window streams, or undefined when it
 * can: JSON rules need the whole answer, and a `mustNotMatch` pattern must
 * have a known longest match (computed, or `maxMatchLength`) and no `^` /
 * `$` (a window does not start where the answer or a line starts).
 */
function notStreamSafeReason(
  mode: 'json' | 'text',
  mustNotMatch: readonly CompiledPattern[],
  declaredBound: number | undefined,
): string | undefined {
  if (mode === 'json') {
    return 'its JSON rules (schema, requiredFields, mode json) need the whole answer';
  }
  for (const [index, pattern] of mustNotMatch.entries()) {
    if (pattern.anchored) {
      return `mustNotMatch[${index}] ${pattern.source} asserts a start or end (^, $), which only the whole answer has`;
    }
    if (pattern.maxMatchLength === Number.POSITIVE_INFINITY && declaredBound === undefined) {
      return `mustNotMatch[${index}] ${pattern.source} has no longest match (*, +, {n,}): give outputSchema a maxMatchLength`;
    }
  }
  return undefined;
}

/**
 * Deepest a JSON answer may nest (arrays and objects within each other).
 * ajv checks a recursive schema (`$ref: '#'`) one call deeper per level, as
 * does a Standard Schema such as zod's `z.lazy`: an answer of 1,500 levels
 * (7.5 KB of `{"c":`) overflowed the call stack, and the record said only
 * `Maximum call stack size exceeded`. A parsed answer deeper than this is
 * blocked with rule `depth` before any validator reads it; the depth is
 * counted in one walk with an explicit stack.
 */
export const MAX_ANSWER_DEPTH = 256;

/** Whether `value` nests more than `limit` arrays / objects within each other (iterative, linear). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Runs a validator, turning a call-stack overflow (a validator that recurses
 * deeper than the answer's nesting, which `MAX_ANSWER_DEPTH` bounds) into an
 * error saying so: the guardrail records an `error` and fails closed.
 */
async function withoutStackOverflow<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new Error(
      'outputSchema: the schema validator overflowed the call stack on this answer (it recursed more than once per level of nesting); the answer is not passed',
    );
  }
}

let instances = 0;

/**
 * Validates a whole answer: that it parses as JSON and matches a zod /
 * Standard Schema or JSON Schema (via ajv), and / or that it matches or avoids
 * patterns and stays within length bounds. A block reason says what failed
 * and where, e.g. `answer does not match the schema at "age": must be number`.
 * Patterns run on RE2, in time linear in the answer.
 *
 * With only text rules it is stream-safe, in `window` mode:
 * - `maxLength` trips as soon as the streamed text of a part passes it;
 * - `mustNotMatch` is judged on each window like a blocklist, the window
 *   holding back the longest match of its patterns (computed from each
 *   pattern; for one that repeats without bound, the `maxMatchLength` you
 *   give, else the guardrail is not stream-safe);
 * - `minLength` and `mustMatch` are checked once per text part, when it
 *   ends, before its last held-back text is released.
 * JSON rules (`schema`, `requiredFields`) and patterns with `^` / `$` need
 * the whole answer: such a guardrail works in `hold` mode only (window mode
 * is a `GuardrailConfigError`).
 *
 * Note that ajv compiles JSON Schemas with `new Function`, which runtimes that
 * forbid code generation (some edge platforms) reject; use a Standard Schema there.
 *
 * @example
 * outputSchema({ schema: z.object({ answer: z.string(), confidence: z.number() }) });
 * outputSchema({ mustNotMatch: [/as an ai language model/i], maxLength: 2000 });
 */
export function outputSchema(options?: OutputSchemaOptions): Guardrail {
  let validateJsonSchema: BudgetedValidate | undefined;
  let mustMatch: CompiledPattern[] = [];
  let mustNotMatch: CompiledPattern[] = [];
  const {
    schema,
    requiredFields,
    mode = schema === undefined && requiredFields === undefined ? 'text' : 'json',
    minLength,
    maxLength,
    maxMatchLength: declaredBound,
    message = 'The answer did not have the expected format.',
    name = 'output-schema',
  } = validateFactoryOptions(
    options,
    'output-schema',
    outputSchemaOptionShape,
    (given, issues, prefix) => {
      needsARule(given, issues, prefix);
      validateJsonSchema = jsonSchemaValidator(given, issues, prefix);
      mustMatch = compilePatterns(given.mustMatch, `${prefix}.mustMatch`, issues);
      mustNotMatch = compilePatterns(given.mustNotMatch, `${prefix}.mustNotMatch`, issues);
    },
  );
  const fail = (reason: string, info: Record<string, string | number>) =>
    block({ message, reason, severity: 'warning', info });
  // Read once, on the first schema failure.
  let declared: Set<string> | undefined;
  const declaredNames = () => {
    declared ??= declaredPropertyNames(schema);
    return declared;
  };
  // The schema's JSON text, read once on the first schema failure: a text it spells is configuration.
  let schemaText: string | undefined;
  const schemaKnows = (text: string) => {
    if (declaredNames().has(text)) return true;
    if (schemaText === undefined) {
      const identity = schema === undefined ? undefined : schemaIdentity(schema);
      schemaText = typeof identity === 'string' ? identity : '';
    }
    return schemaText.includes(JSON.stringify(text));
  };
  const issueMessage = (message: unknown, answer: unknown) =>
    shownIssueMessage(message, answer, schemaKnows) ??
    'the value there is not valid (the validator quoted the answer, which is left out)';
  const notStreamSafeBecause = notStreamSafeReason(mode, mustNotMatch, declaredBound);
  // The window must hold back the longest match of every mustNotMatch pattern.
  const bounds = mustNotMatch.map(pattern =>
    pattern.maxMatchLength === Number.POSITIVE_INFINITY
      ? (declaredBound ?? 0)
      : Math.max(pattern.maxMatchLength, declaredBound ?? 0),
  );
  const windowBound = bounds.length > 0 ? Math.max(1, ...bounds) : undefined;
  // Set in a call's state while a window stream judges its answer piece by piece.
  const windowKey = `${name}#${++instances}:window`;

  function lengthAndMatchRules(content: string) {
    if (minLength !== undefined && content.length < minLength) {
      return fail(`answer is ${content.length} characters, fewer than minLength ${minLength}`, {
        rule: 'minLength',
      });
    }
    if (maxLength !== undefined && content.length > maxLength) {
      return fail(`answer is ${content.length} characters, more than maxLength ${maxLength}`, {
        rule: 'maxLength',
      });
    }
    for (const pattern of mustMatch) {
      if (!pattern.test(content)) {
        return fail(`answer does not match ${pattern.source}`, { rule: 'mustMatch' });
      }
    }
    return undefined;
  }

  /**
   * Window streams: `maxLength` on each judged part's characters as they
   * stream; `minLength` and `mustMatch` when the part ends (the part's text
   * is kept only when there is a `mustMatch` pattern to run on it).
   */
  function watchStream(ctx: GuardrailContext): StreamWatcher {
    ctx.state.set(windowKey, true);
    const parts = new Map<string, { length: number; text: string[] }>();
    const keepText = mustMatch.length > 0;
    const partOf = (block: StreamedBlock) => {
      const key = `${block.type}:${block.id}`;
      let part = parts.get(key);
      if (!part) {
        part = { length: 0, text: [] };
        parts.set(key, part);
      }
      return part;
    };
    return {
      delta(delta, block) {
        if (!block.judged) return undefined;
        const part = partOf(block);
        part.length += delta.length;
        if (keepText) part.text.push(delta);
        if (maxLength !== undefined && part.length > maxLength) {
          return fail(
            `answer passed maxLength ${maxLength} while streaming (${part.length} characters so far)`,
            { rule: 'maxLength' },
          );
        }
        return undefined;
      },
      partEnd(block) {
        const part = partOf(block);
        parts.delete(`${block.type}:${block.id}`);
        if (minLength === undefined && !keepText) return undefined;
        const text = keepText ? part.text.join('') : '';
        if (minLength !== undefined && part.length < minLength) {
          return fail(`answer is ${part.length} characters, fewer than minLength ${minLength}`, {
            rule: 'minLength',
          });
        }
        for (const pattern of mustMatch) {
          if (!pattern.test(text)) {
            return fail(`answer does not match ${pattern.source}`, { rule: 'mustMatch' });
          }
        }
        return undefined;
      },
    };
  }

  const guardrail: StreamWatchingGuardrail = defineGuardrail({
    name,
    // Verdicts cached under another configuration must not apply to this one.
    fingerprint:
      options?.schema === undefined
        ? options
        : { ...options, schema: schemaIdentity(options.schema) },
    streamSafe: notStreamSafeBecause === undefined,
    ...(notStreamSafeBecause === undefined && {
      ...(windowBound !== undefined && { maxMatchLength: windowBound }),
      // A match that can still grow starts in the last `windowBound - 1`
      // characters (a longer one is never a match); without patterns,
      // nothing needs holding back for the windows.
      potentialMatchStart: (text: string) =>
        windowBound === undefined ? text.length : Math.max(0, text.length - windowBound + 1),
    }),
    async check(content, ctx) {
      // A window of a streamed answer: the whole-answer rules are the watcher's.
      const windowed = ctx.kind === 'output' && ctx.state.get(windowKey) === true;
      if (!windowed) {
        const failed = lengthAndMatchRules(content);
        if (failed) return failed;
      }
      for (const [index, pattern] of mustNotMatch.entries()) {
        if (pattern.test(content)) {
          // Named by index, not its source: a pattern the answer must not match
          // often spells what the app must not show (as a blocklist entry does).
          return fail(`answer matches mustNotMatch[${index}]`, {
            rule: 'mustNotMatch',
            index,
          });
        }
      }
      if (mode === 'text') return allow();

      let value: unknown;
      if (ctx.kind === 'tool_output' && typeof ctx.value === 'string' && ctx.value === content) {
        // A string result arrives as its text (what the model reads): its
        // JSON value is the string itself, as `guardTools` returned it.
        value = content;
      } else {
        const json = unfence(content.trim());
        try {
          value = JSON.parse(json);
        } catch (error) {
          return fail(`answer is not valid JSON (${jsonErrorDetail(error)})`, { rule: 'json' });
        }
        if (nestsDeeperThan(value, MAX_ANSWER_DEPTH)) {
          return fail(
            `answer nests arrays / objects more than ${MAX_ANSWER_DEPTH} levels deep (MAX_ANSWER_DEPTH)`,
            { rule: 'depth' },
          );
        }
      }
      if (requiredFields !== undefined) {
        const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
        if (!isObject) {
          return fail('answer is not a JSON object', { rule: 'requiredFields' });
        }
        const missing = requiredFields.find(field => !Object.hasOwn(value as object, field));
        if (missing !== undefined) {
          return fail(`answer has no field "${missing}"`, {
            rule: 'requiredFields',
            path: missing,
          });
        }
      }
      if (schema === undefined) return allow();
      const validate = validateJsonSchema;
      if (validate) {
        if (await withoutStackOverflow(() => validate(value, content.length))) return allow();
        const [error] = validate.errors ?? [];
        const path = error ? ajvPath(error, declaredNames(), value) : '';
        return fail(
          `answer does not match the schema${path ? ` at "${path}"` : ''}: ${issueMessage(error?.message ?? 'invalid', value)}`,
          { rule: 'schema', path },
        );
      }
      const result = await withoutStackOverflow(() =>
        (schema as StandardSchemaV1)['~standard'].validate(value),
      );
      if (!result.issues || result.issues.length === 0) return allow();
      const [issue] = result.issues;
      const path = pathOf(issue!.path ?? [], declaredNames());
      return fail(
        `answer does not match the schema${path ? ` at "${path}"` : ''}: ${issueMessage(issue!.message, value)}`,
        { rule: 'schema', path },
      );
    },
  });
  if (notStreamSafeBecause === undefined) guardrail.watchStream = watchStream;
  else guardrail.notStreamSafeBecause = notStreamSafeBecause;
  return guardrail;
}
