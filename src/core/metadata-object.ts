import { settleUnawaited } from './callback-result';
import { notReadIssue, readCallerObject } from './caller-values';
import { GuardrailConfigError, type GuardrailConfigIssue } from './errors';
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
  if (isObject) {
    // Read once, as the middleware's spread read it: a getter (or Proxy
    // trap) that throws is an issue naming its error by class; it went out
    // raw, its message and all (round 39).
    const issues: GuardrailConfigIssue[] = [];
    const entries = readCallerObject(value, path, issues);
    let then: unknown;
    try {
      then = (value as { then?: unknown }).then;
    } catch (error) {
      if (issues.length === 0) notReadIssue(issues, `${path}.then`, error);
    }
    if (issues.length > 0) throw new GuardrailConfigError(issues);
    if (typeof then !== 'function') return entries as GuardrailMetadata;
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
