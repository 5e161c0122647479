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
   * created; later increments keep the first expiry (a fixed window).
   */
  incrBy(key: string, amount: number, ttlMs: number): Promise<number>;
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
  /** Removes `key`. */
  delete(key: string): Promise<void>;
}
