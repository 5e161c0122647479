import type { StandardSchemaV1 } from '@standard-schema/spec';
import Ajv, { type ErrorObject } from 'ajv';
import { allow, block, defineGuardrail } from '../../core/define-guardrail';
import type { GuardrailConfigIssue } from '../../core/errors';
import { validateFactoryOptions } from '../../core/options';
import { jsonErrorDetail } from '../../core/redact-secrets';
import type { Guardrail } from '../../core/types';
import { outputSchemaOptionShape } from './output-schema-options';

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
  /** Patterns the answer must match, each of them. */
  mustMatch?: readonly RegExp[];
  /** Patterns the answer must not match. */
  mustNotMatch?: readonly RegExp[];
  /** Fewest characters the answer may have. */
  minLength?: number;
  /** Most characters the answer may have. */
  maxLength?: number;
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

function pathOf(segments: ReadonlyArray<PropertyKey | StandardSchemaV1.PathSegment>): string {
  return segments
    .map(segment => (typeof segment === 'object' ? segment.key : segment))
    .map((key, index) =>
      typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`,
    )
    .join('');
}

function ajvPath(error: ErrorObject): string {
  return pathOf(
    error.instancePath
      .split('/')
      .slice(1)
      .map(part => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map(part => (/^\d+$/.test(part) ? Number(part) : part)),
  );
}

/**
 * The cross-option checks of `outputSchema`: no schema in mode 'text',
 * `minLength` not above `maxLength`, and a JSON Schema that ajv compiles
 * (returned, so it is compiled once).
 */
function jsonSchemaValidator(
  { schema, mode, minLength, maxLength, requiredFields }: Record<string, unknown>,
  issues: GuardrailConfigIssue[],
  prefix: string,
): ReturnType<Ajv['compile']> | undefined {
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
  try {
    return new Ajv({ allErrors: false, strict: false }).compile(schema);
  } catch (error) {
    issues.push({
      path: `${prefix}.schema`,
      value: schema,
      expected: `a valid JSON Schema (${error instanceof Error ? error.message : String(error)})`,
    });
    return undefined;
  }
}

/**
 * Validates a whole answer: that it parses as JSON and matches a zod /
 * Standard Schema or JSON Schema (via ajv), and / or that it matches or avoids
 * patterns and stays within length bounds. A block reason says what failed
 * and where, e.g. `answer does not match the schema at "age": must be number`.
 *
 * Not stream-safe: it needs the whole answer, so in streams it works in the
 * middleware's `hold` mode only (configuring it in `window` mode is an error).
 * Note that ajv compiles JSON Schemas with `new Function`, which runtimes that
 * forbid code generation (some edge platforms) reject; use a Standard Schema there.
 *
 * @example
 * outputSchema({ schema: z.object({ answer: z.string(), confidence: z.number() }) });
 * outputSchema({ mustNotMatch: [/as an ai language model/i], maxLength: 2000 });
 */
export function outputSchema(options?: OutputSchemaOptions): Guardrail {
  let validateJsonSchema: ReturnType<Ajv['compile']> | undefined;
  const {
    schema,
    requiredFields,
    mode = schema === undefined && requiredFields === undefined ? 'text' : 'json',
    mustMatch = [],
    mustNotMatch = [],
    minLength,
    maxLength,
    message = 'The answer did not have the expected format.',
    name = 'output-schema',
  } = validateFactoryOptions(
    options,
    'output-schema',
    outputSchemaOptionShape,
    (given, issues, prefix) => {
      validateJsonSchema = jsonSchemaValidator(given, issues, prefix);
    },
  );
  const fail = (reason: string, info: Record<string, string | number>) =>
    block({ message, reason, severity: 'warning', info });

  return defineGuardrail({
    name,
    // Verdicts cached under another configuration must not apply to this one.
    fingerprint: options,
    streamSafe: false,
    async check(content) {
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
        pattern.lastIndex = 0;
        if (!pattern.test(content)) {
          return fail(`answer does not match ${pattern}`, { rule: 'mustMatch' });
        }
      }
      for (const pattern of mustNotMatch) {
        pattern.lastIndex = 0;
        if (pattern.test(content))
          return fail(`answer matches ${pattern}`, { rule: 'mustNotMatch' });
      }
      if (mode === 'text') return allow();

      const trimmed = content.trim();
      const json = unfence(trimmed);
      let value: unknown;
      try {
        value = JSON.parse(json);
      } catch (error) {
        return fail(`answer is not valid JSON (${jsonErrorDetail(error)})`, { rule: 'json' });
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
      if (validateJsonSchema) {
        if (validateJsonSchema(value)) return allow();
        const [error] = validateJsonSchema.errors ?? [];
        const path = error ? ajvPath(error) : '';
        return fail(
          `answer does not match the schema${path ? ` at "${path}"` : ''}: ${error?.message ?? 'invalid'}`,
          { rule: 'schema', path },
        );
      }
      const result = await (schema as StandardSchemaV1)['~standard'].validate(value);
      if (!result.issues || result.issues.length === 0) return allow();
      const [issue] = result.issues;
      const path = pathOf(issue!.path ?? []);
      return fail(
        `answer does not match the schema${path ? ` at "${path}"` : ''}: ${issue!.message}`,
        { rule: 'schema', path },
      );
    },
  });
}
