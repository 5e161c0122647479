import type { z } from 'zod/v4';
import type { GuardrailConfigIssue } from '../core/errors';
import { escapeUnprintable } from '../core/escape-unprintable';
import { noSuchOption } from '../core/options';
import { NotShown, redactSecretsInText } from '../core/redact-secrets';

type PathSegment = PropertyKey;

/** `['output', 2, 'threshold']` becomes `output[2].threshold`. */
export function formatPath(segments: readonly PathSegment[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$-]*$/.test(segment)) {
      path += path === '' ? segment : `.${segment}`;
    } else path += `[${JSON.stringify(String(segment))}]`;
  }
  return path === '' ? '(root)' : path;
}

function valueAt(root: unknown, segments: readonly PathSegment[]): unknown {
  let current = root;
  for (const segment of segments) {
    if (current == null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

const articles: Record<string, string> = {
  int: 'an integer',
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
};

function typeName(expected: string): string {
  return articles[expected] ?? `a ${expected}`;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

function bound(
  issue: { minimum?: unknown; maximum?: unknown; inclusive?: boolean; origin?: string },
  small: boolean,
): string {
  const limit = Number(small ? issue.minimum : issue.maximum);
  const op = small ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
  switch (issue.origin) {
    case 'string':
      return small
        ? limit <= 1
          ? 'a non-empty string'
          : `a string of at least ${limit} characters`
        : `a string of at most ${limit} characters`;
    case 'array':
      return small ? `at least ${limit} item(s)` : `at most ${limit} item(s)`;
    default:
      return `a number ${op} ${limit}`;
  }
}

/** What a zod issue expected, in words. */
function expectedOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return typeName(issue.expected);
    case 'invalid_value':
      return issue.values.length === 1
        ? quote(issue.values[0])
        : `one of ${issue.values.map(quote).join(', ')}`;
    case 'too_small':
      return bound(issue, true);
    case 'too_big':
      return bound(issue, false);
    case 'invalid_format':
      return issue.message.replace(/^Invalid string: /, '');
    default:
      return issue.message;
  }
}

/** "expected a string, received undefined" reads as a type slip; say the option is missing. */
function missingSaysRequired(expected: string, value: unknown): string {
  return value === undefined ? `${expected} (a required option, missing here)` : expected;
}

/**
 * Turns zod issues into config issues (path, value found, expected), under
 * `prefix`. Unknown keys become one issue each, naming the known options;
 * `displayPrefix` is put before each reported path (the entry's place in the file);
 * a union that failed on every branch names each alternative, unless one
 * branch matched the shape and failed deeper (then its own issues).
 */
export function configIssuesFromZod(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  prefix: readonly PathSegment[],
  knownKeys?: (path: readonly PathSegment[]) => readonly string[] | undefined,
  displayPrefix: readonly PathSegment[] = [],
): GuardrailConfigIssue[] {
  const result: GuardrailConfigIssue[] = [];
  const show = (path: readonly PathSegment[]) => formatPath([...displayPrefix, ...path]);
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeys?.(issue.path);
      for (const key of issue.keys) {
        result.push({
          path: show([...path, key]),
          value: valueAt(root, [...path, key]),
          expected: noSuchOption(String(key), known ?? []),
        });
      }
      continue;
    }
    if (issue.code === 'invalid_union') {
      const deeper = issue.errors.filter(branch => branch.some(inner => inner.path.length > 0));
      if (deeper.length === 1) {
        result.push(...configIssuesFromZod(deeper[0]!, root, path, knownKeys, displayPrefix));
        continue;
      }
      const alternatives = [...new Set(issue.errors.map(branch => expectedOf(branch[0]!)))];
      const value = valueAt(root, path);
      result.push({
        path: show(path),
        value,
        expected: missingSaysRequired(alternatives.join(' or '), value),
      });
      continue;
    }
    const value = valueAt(root, path);
    result.push({
      path: show(path),
      // A number out of its option's range is the right type: shown (`received 2` for `<= 1`).
      value:
        (issue.code === 'too_big' || issue.code === 'too_small') && typeof value === 'number'
          ? new NotShown(String(value))
          : value,
      expected: missingSaysRequired(expectedOf(issue), value),
    });
  }
  return result;
}

/** How many characters of a key a path shows: keys are names, but a 10 MB key is no name. */
const LONGEST_SHOWN_KEY = 64;

/**
 * What an option check writes in place of a long string: `shownValue`'s
 * start and length (core/options), content-filter's `(N characters)`. The
 * loader says the length of the whole string.
 */
const cutString = /^(?:[\s\S]{0,16}… )?\((\d{1,16}) characters\)$/;

/** What output-schema writes in place of a schema too deep: the loader's own words. */
const tooDeep = /^\(a schema nested \d{1,6} levels deep at this point\)$/;

/** A built guardrail (a `name` and a `check`): an error names it, never shows its fields. */
function isGuardrail(value: unknown): boolean {
  const { name, check } = value as { name?: unknown; check?: unknown };
  return typeof name === 'string' && typeof check === 'function';
}

/** True for an array or an object whose prototype is `Object.prototype` or `null`: data. */
function isData(value: object): boolean {
  if (Array.isArray(value)) return !value.every(isGuardrail);
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !isGuardrail(value);
}

/**
 * What an issue of the loader shows of a value the file (or the caller) gave.
 * The loader cannot tell a secret from a typo: `pasword: hunter2`,
 * `tokn: hunter2` and `{ api_kee: 'hunter2' }` were echoed whole under an
 * unknown key, as was any value of a wrong type or not in its list
 * (round 39). So a string, a number or a plain object or array is never
 * quoted (but a number out of its option's range, marked by
 * `configIssuesFromZod`), only its type (and a string's or an array's length), unless it is
 * a word of `known` (a guardrail type the loader checked it against).
 * What says nothing more than its type stays (`undefined`, `null`, a
 * boolean, NaN, an infinity), and so does what the error names without its
 * data: a function, a built guardrail, a class instance (by its class; a
 * Date, a RegExp or a Promise as such), and what the loader wrote itself.
 * A getter that throws while telling a guardrail from data hides the value too.
 */
export function shownConfigValue(value: unknown, known: ReadonlySet<string>): unknown {
  switch (typeof value) {
    case 'string': {
      if (known.has(value) || tooDeep.test(value)) return value;
      // An option check's cut of a long string (`shownValue`): the length is the whole string's.
      const length = Number(cutString.exec(value)?.[1] ?? value.length);
      return new NotShown(`a string of ${length} character${length === 1 ? '' : 's'} (not shown)`);
    }
    case 'number':
      return Number.isFinite(value) ? new NotShown('a number (not shown)') : value;
    case 'bigint':
      return new NotShown('a bigint (not shown)');
    case 'object':
      if (value === null) return value;
      try {
        if (!isData(value)) return value;
      } catch {
        return new NotShown('an object (not shown)');
      }
      return Array.isArray(value)
        ? new NotShown(`an array of ${value.length} item(s) (not shown)`)
        : new NotShown('an object (not shown)');
    default:
      return value;
  }
}

/** Characters that end a key in a formatted path. */
const KEY_ENDS = new Set(['.', '[', ']', '"']);

/**
 * A path with each key longer than 64 characters cut to its first 16 (after
 * credentials in it are redacted, so the cut never keeps the start of one)
 * and its length. Keys stay quoted otherwise: a key is the name of the option
 * the author meant, which fixing the file needs (`did you mean`); a secret is
 * written as a value, and a pasted line (`sk-...`, `password: x`) parses as
 * one. Escaped as `escapeUnprintable` does. One pass (a regular expression of `{65,}` overflowed V8's stack on a
 * 10 MB key).
 */
export function shownPath(path: string): string {
  // A key's bidirectional and C1 controls went to the terminal as written (JSON escapes C0 only).
  if (path.length <= LONGEST_SHOWN_KEY) return escapeUnprintable(path);
  let shown = '';
  let start = 0;
  for (let index = 0; index <= path.length; index++) {
    if (index < path.length && !KEY_ENDS.has(path[index]!)) continue;
    const key = path.slice(start, index);
    if (key.length > LONGEST_SHOWN_KEY) {
      const redacted = redactSecretsInText(key.slice(0, 4_096));
      shown += `${redacted.slice(0, 16)}… (${key.length} characters)`;
    } else shown += key;
    shown += path[index] ?? '';
    start = index + 1;
  }
  return escapeUnprintable(shown);
}

/** `shownConfigValue` for every issue's value, `shownPath` for its path. */
export function withValuesHidden(
  issues: readonly GuardrailConfigIssue[],
  known: ReadonlySet<string>,
): GuardrailConfigIssue[] {
  return issues.map(issue => ({
    ...issue,
    path: shownPath(issue.path),
    value: shownConfigValue(issue.value, known),
  }));
}
