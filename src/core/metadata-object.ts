import { settleUnawaited } from './callback-result';
import { GuardrailConfigError } from './errors';
import type { GuardrailMetadata } from './types';

/**
 * What a `context` option returned, checked: an object of metadata, or
 * nothing. A string would be spread into `{ 0: 'u', 1: '1' }` and a Promise
 * (an async `context` where a synchronous one is expected) into `{}`, so
 * guardrails keyed on `userId` would silently judge without it. Values are
 * described, never echoed: metadata holds user ids and session ids.
 */
export function metadataObject(value: unknown, path: string): GuardrailMetadata | undefined {
  if (value === undefined || value === null) return undefined;
  const isObject = typeof value === 'object' && !Array.isArray(value);
  if (isObject && typeof (value as { then?: unknown }).then !== 'function') {
    return value as GuardrailMetadata;
  }
  settleUnawaited(value);
  throw new GuardrailConfigError({
    path,
    value: isObject
      ? '(a Promise: context must be synchronous)'
      : Array.isArray(value)
        ? '(an array)'
        : `(a ${typeof value})`,
    expected: "a function returning the call's metadata (an object of JSON values)",
  });
}
