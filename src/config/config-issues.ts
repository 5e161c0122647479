import type { z } from 'zod/v4';
import {
  argumentError,
  readingCallerArgument,
  shownConfigValue,
  shownPath,
} from '../core/caller-values';
import type { GuardrailConfigIssue } from '../core/errors';
import { noSuchOption } from '../core/options';
import { NotShown } from '../core/redact-secrets';

// Moved to the core in round 39 (every factory's error follows the loader's rule); kept importable here.
export { shownConfigValue, shownPath };

type PathSegment = PropertyKey;

/**
 * `['output', 2, 'threshold']` becomes `output[2].threshold`. Segments that
 * are not an array, and a segment that is an object (its `toString` is the
 * caller's code), are a TypeError (`argumentError`); a getter or a Proxy
 * trap that throws is one naming it by kind.
 */
export function formatPath(segments: readonly PathSegment[]): string {
  return readingCallerArgument('formatPath', 'segments', () => {
    if (!Array.isArray(segments)) {
      throw argumentError('formatPath', 'segments', 'an array of keys', segments);
    }
    let path = '';
    for (const segment of segments as readonly unknown[]) {
      if (typeof segment === 'number') path += `[${segment}]`;
      else if (typeof segment === 'string' && /^[A-Za-z_$][\w$-]*$/.test(segment)) {
        path += path === '' ? segment : `.${segment}`;
      } else if (
        segment !== null &&
        (typeof segment === 'object' || typeof segment === 'function')
      ) {
        throw argumentError('formatPath', 'a segment', 'a string, a number or a symbol', segment);
      } else path += `[${JSON.stringify(String(segment))}]`;
    }
    return path === '' ? '(root)' : path;
  });
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
