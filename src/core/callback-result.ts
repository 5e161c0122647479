import { GuardrailConfigError } from './errors';

/**
 * What a caller's function returned, shown by kind only: it may be an id or
 * a text the caller built from the content, so it is never echoed.
 */
export function kindOf(value: unknown, option: string): string {
  if (value === null || value === undefined) return `(${value})`;
  if (typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function') {
    return `(a Promise: ${option} must be synchronous)`;
  }
  if (Array.isArray(value)) return '(an array)';
  if (typeof value === 'number') return `(the number ${value})`;
  return `(${typeof value === 'object' ? 'an object' : `a ${typeof value}`})`;
}

/**
 * A caller's function that must return a string (or, with `optional`,
 * `undefined`), checked at each call. An async function where a synchronous
 * one is expected returns a Promise, which was used as it came: a
 * `placeholder` wrote "[object Promise]" into the redacted text, and a
 * `conversationId`, `sessionId` or `key` put every call under the one key
 * "[object Promise]" (one pseudonym vault, budget or rate limit for all
 * users). A number is taken as its decimal text, as the defaults take a
 * numeric session id. Anything else throws a `GuardrailConfigError`: thrown
 * inside a check, that check's `error` record, so the call fails closed.
 */
export function stringFromCallback<OPTIONAL extends boolean>(
  value: unknown,
  { path, expected, optional }: { path: string; expected: string; optional: OPTIONAL },
): OPTIONAL extends true ? string | undefined : string {
  if (typeof value === 'string' || (optional && value === undefined)) {
    return value as string;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  const option = path.slice(path.lastIndexOf('.') + 1);
  throw new GuardrailConfigError({ path, value: kindOf(value, option), expected });
}

/**
 * A `countTokens` result, checked: a Promise or `NaN` compared as no number
 * is over any cap, so a prompt of any size passed.
 */
export function countFromCallback(value: unknown, path: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  const option = path.slice(path.lastIndexOf('.') + 1);
  throw new GuardrailConfigError({
    path,
    value: kindOf(value, option),
    expected: 'a function returning a count of tokens (a finite number >= 0), synchronously',
  });
}
