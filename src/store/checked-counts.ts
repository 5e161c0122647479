import type { CappedIncrement } from './store';

/*
 * The counts a guardrail reads back from a `Store` (round 25). A custom
 * store over another backend may answer NaN or a non-number (`Number(await
 * client.get(key))` of a corrupted key), and `NaN > cap` is false: every
 * later call passed the cap. The guardrails that count (`rateLimit`,
 * `tokenBudget`) check what they read and throw otherwise, so the check
 * records an `error` and fails closed. Neither the key nor the value is
 * named.
 */

/** The integer a store's `incrBy` answered; throws for anything else. */
export function checkedCount(value: unknown, operation: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new TypeError(`the store's ${operation} answered no integer count; failing closed`);
}

/** What a store's `incrByCapped` answered, when it is `{ applied, value, resetInMs }` of a boolean and integers. */
export function checkedCappedIncrement(result: unknown): CappedIncrement {
  const { applied, value, resetInMs } = (result ?? {}) as Partial<
    Record<keyof CappedIncrement, unknown>
  >;
  if (
    typeof applied === 'boolean' &&
    typeof value === 'number' &&
    Number.isSafeInteger(value) &&
    typeof resetInMs === 'number' &&
    Number.isFinite(resetInMs)
  ) {
    return { applied, value, resetInMs };
  }
  throw new TypeError(
    "the store's incrByCapped answered no { applied, value, resetInMs } of a boolean and integers; failing closed",
  );
}
