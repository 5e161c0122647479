/**
 * Longest `ttlMs` a store takes: the largest safe integer (about 285,000
 * years). Redis takes an expiry only as an integer it can add to its clock:
 * `String(1e21)` is `1e+21`, which Redis answered with `ERR value is not an
 * integer`, while the memory store kept the key (round 27). Both stores now
 * refuse the same values.
 */
export const MAX_STORE_TTL_MS = Number.MAX_SAFE_INTEGER;

/**
 * Throws a TypeError, naming the store and the operation, for a `ttlMs`
 * every store does not take: not a number, NaN, 0 or below, Infinity or over
 * `MAX_STORE_TTL_MS` (every key expires). A fraction is taken (Redis rounds
 * it up to a whole millisecond).
 */
export function checkStoreTtl(ttlMs: unknown, store: string, operation: string): void {
  if (!(typeof ttlMs === 'number' && ttlMs > 0 && ttlMs <= MAX_STORE_TTL_MS)) {
    throw new TypeError(
      `${store}: ${operation} needs a positive ttlMs of at most ${MAX_STORE_TTL_MS} (every key expires), received ${String(ttlMs)}`,
    );
  }
}
