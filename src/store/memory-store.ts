import { GuardrailConfigError } from '../core/errors';
import type { Store } from './store';

interface Entry {
  value: string;
  expiresAt: number;
}

/** Options of `memoryStore`. */
export interface MemoryStoreOptions {
  /** Most keys kept; the least recently used go first. Default 10,000. */
  maxEntries?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

/**
 * A `Store` in process memory: bounded (least recently used keys are evicted
 * first), with per-key expiry. Right for one server process and for tests; a
 * deployment with many instances needs a shared store such as Redis.
 */
export function memoryStore({
  maxEntries = 10_000,
  now = Date.now,
}: MemoryStoreOptions = {}): Store {
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new GuardrailConfigError({
      path: 'memoryStore.maxEntries',
      value: maxEntries,
      expected: 'a positive integer',
    });
  }
  // A Map keeps insertion order: re-inserting on access makes it an LRU list.
  const entries = new Map<string, Entry>();

  function read(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  }

  function write(key: string, value: string, expiresAt: number) {
    entries.delete(key);
    entries.set(key, { value, expiresAt });
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value as string;
      entries.delete(oldest);
    }
  }

  return {
    async incrBy(key, amount, ttlMs) {
      const entry = read(key);
      const next = (entry ? Number(entry.value) : 0) + amount;
      write(key, String(next), entry ? entry.expiresAt : now() + ttlMs);
      return next;
    },
    async incrByCapped(key, amount, cap, ttlMs) {
      const entry = read(key);
      const current = entry ? Number(entry.value) : 0;
      const next = current + amount;
      if (next > cap) {
        return { applied: false, value: current, resetInMs: entry ? entry.expiresAt - now() : 0 };
      }
      const expiresAt = entry ? entry.expiresAt : now() + ttlMs;
      write(key, String(next), expiresAt);
      return { applied: true, value: next, resetInMs: expiresAt - now() };
    },
    async get(key) {
      return read(key)?.value;
    },
    async set(key, value, ttlMs) {
      write(key, value, now() + ttlMs);
    },
    async setIfAbsent(key, value, ttlMs) {
      const entry = read(key);
      if (entry) return entry.value;
      write(key, value, now() + ttlMs);
      return value;
    },
    async delete(key) {
      entries.delete(key);
    },
  };
}
