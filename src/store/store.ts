/**
 * The state guardrails keep between calls (budgets, rate limits, caches,
 * pseudonym vaults), behind the few atomic operations they need, so that one
 * check costs one round trip. `memoryStore()` is the default; a Redis store
 * shares the state between many server instances.
 *
 * Every method may reject (an unreachable backend); guardrails treat that as
 * an error and fail closed unless built with `onError: 'allow'`.
 */
export interface Store {
  /**
   * Adds `amount` to the integer at `key` (missing counts as 0) and returns
   * the new value, atomically. `ttlMs` sets the key's expiry when the key is
   * created; later increments keep the first expiry (a fixed window). The
   * value never goes below 0: a decrement past 0 leaves 0 (a refund to a
   * window that reset since), and a decrement (or 0) of a missing key leaves
   * it missing and returns 0, in the same atomic step.
   */
  incrBy(key: string, amount: number, ttlMs: number): Promise<number>;
  /**
   * Adds `amount` to the integer at `key` only when the sum stays at or under
   * `cap`, atomically; otherwise leaves it unchanged. `ttlMs` sets the key's
   * expiry when the key is created (a fixed window, as with `incrBy`).
   * One round trip answers "may this call have `amount` more?" for budgets and
   * rate limits, and a refused call is never counted, so it cannot push
   * another concurrent call over the cap.
   */
  incrByCapped(key: string, amount: number, cap: number, ttlMs: number): Promise<CappedIncrement>;
  /** The string stored at `key`, or `undefined` when missing or expired. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` at `key` for `ttlMs` milliseconds. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /**
   * Stores `value` at `key` only when the key is missing, and returns the
   * value that is stored afterwards (the existing one when there was one).
   * Lets two instances agree on one value (single flight, first writer wins).
   */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<string>;
  /**
   * Sets `key`'s expiry to `ttlMs` from now only when it holds `value`,
   * atomically, and says whether it did (false when the key is missing or
   * holds something else). A compare-and-refresh: a mapping stays alive
   * while it is used, and a user never revives or extends a key that
   * another writer has taken since (as a read and a `set` could).
   */
  touch(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Removes `key`. */
  delete(key: string): Promise<void>;
  /**
   * Optional (round 25). Adds `item` to the JSON array of strings stored at
   * `key`, in one atomic step, and returns the array stored afterwards:
   * `undefined` (nothing written) when the key is missing; the array
   * unchanged (not written) when it holds `item` already or has `maxItems`
   * items; otherwise the array with `item` appended, stored for `ttlMs`. A
   * value that is no JSON array of strings counts as `[]` (its non-strings
   * dropped). Items are at most 1,024 characters with no lone surrogate
   * (round 26: Redis stores one as U+FFFD, so two items would be one) and
   * `maxItems` is 1 to 45,516, the most distinct items a list within the
   * byte bound below holds (round 32; a `TypeError` otherwise). Lets two instances add to one list
   * at once without losing either item (a `get` and a `set` keep only the
   * last write). `forgetToolDefinitionPin` uses it; without it, a read and
   * a write. A list over 262,144 UTF-8 bytes, found or to be stored
   * (round 29), or (Redis) holding bytes that are no UTF-8, rejects with a
   * `StoreListError` and nothing is written.
   */
  addToList?(
    key: string,
    item: string,
    maxItems: number,
    ttlMs: number,
  ): Promise<string[] | undefined>;
  /**
   * Optional (round 26). Puts `item` last in the JSON array of strings
   * stored at `key`, in one atomic step, and returns the array stored
   * afterwards: a missing key starts from `[]`; an item the array holds
   * already moves to the end; past `maxItems` the oldest items go; the
   * array is stored for `ttlMs`. A value that is no JSON array of strings
   * counts as `[]` (its non-strings dropped). Items and `maxItems` are
   * bounded as for `addToList` (a `TypeError` otherwise). Keeps the newest
   * `maxItems` of many concurrent writers (a `get` and a `set` keep only
   * the last write). `approveToolDefinition` uses it; without it, a read
   * and a write (two approvals of one tool at once may keep one). Refuses
   * a list as `addToList` does (a `StoreListError`).
   */
  pushToList?(key: string, item: string, maxItems: number, ttlMs: number): Promise<string[]>;
}

/** What `Store.incrByCapped` did. */
export interface CappedIncrement {
  /** True when `amount` was added; false when it would have passed the cap. */
  applied: boolean;
  /** The value after the call (unchanged when not applied; 0 for a missing key). */
  value: number;
  /** Milliseconds until the key expires (when the window resets); 0 for a missing key. */
  resetInMs: number;
}
