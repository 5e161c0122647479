import { GuardrailConfigError } from './errors';

/**
 * What a caller's function returned, shown by kind only: it may be an id or
 * a text the caller built from the content, so it is never echoed. An
 * error shows these words as written (`kindWords` in core/redact-secrets).
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
 * Whether `value` is a thenable: what an async function returns where a
 * synchronous one is expected. If so, its rejection is handled here: the
 * library never awaits it, and Node ends the process on a rejection nobody
 * handles (before round 35 an async `onEvent`, `placeholder`, `key`,
 * `sessionId`, `countTokens`, `context`, `retry.feedback` or custom
 * `validate` that rejected did so). Never throws, whatever `then` does.
 */
export function settleUnawaited(value: unknown): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  try {
    if (typeof (value as { then?: unknown }).then !== 'function') return false;
    // Promise.resolve calls `then` in a later job; a `then` that throws rejects it, handled too.
    Promise.resolve(value as PromiseLike<unknown>).then(undefined, () => {});
  } catch {
    // A `then` getter that throws: not a value the library uses either way.
  }
  return true;
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
  settleUnawaited(value);
  const option = path.slice(path.lastIndexOf('.') + 1);
  throw new GuardrailConfigError({ path, value: kindOf(value, option), expected });
}

/**
 * A `countTokens` result, checked: a Promise or `NaN` compared as no number
 * is over any cap, so a prompt of any size passed.
 */
export function countFromCallback(value: unknown, path: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  settleUnawaited(value);
  const option = path.slice(path.lastIndexOf('.') + 1);
  throw new GuardrailConfigError({
    path,
    value: kindOf(value, option),
    expected: 'a function returning a count of tokens (a finite number >= 0), synchronously',
  });
}

/**
 * A custom pattern's `validate` result: any other value is read as true or
 * false, but a Promise (an async `validate`) was read as true for every
 * match, and its rejection went unhandled: it throws a
 * `GuardrailConfigError` instead (that check's `error` record).
 */
export function acceptedByCallback(value: unknown, path: string): boolean {
  if (!settleUnawaited(value)) return Boolean(value);
  throw new GuardrailConfigError({
    path,
    value: kindOf(value, 'validate'),
    expected: 'a function (match) => boolean, synchronously',
  });
}

/**
 * A `toolPolicy` `args` predicate's verdict: `true` or `undefined` (no
 * objection), `false` or a reason string (a block). Anything else was read
 * as an allow (`(args) => args.items.length` allowed an empty list with its
 * 0): it throws a `GuardrailConfigError` instead (that check's `error`).
 */
export function predicateVerdict(value: unknown, path: string): boolean | string | undefined {
  if (value === undefined || typeof value === 'boolean' || typeof value === 'string') return value;
  throw new GuardrailConfigError({
    path,
    value: kindOf(value, path.slice(path.lastIndexOf('.') + 1)),
    expected: 'a predicate returning true, false, a reason string or undefined',
  });
}
