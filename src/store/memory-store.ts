import { kindOf } from '../core/callback-result';
import { validateOptions } from '../core/options';
import { memoryStoreOptionShape } from './memory-store-options';
import type { Store } from './store';
import { storeKeyOf } from './store-key';
import { StoreListError } from './store-list-error';
import { checkStoreTtl } from './store-ttl';
import { checkListArguments, overListBytes, pushedList, stringsOfList } from './string-list';

interface Entry {
  value: string;
  expiresAt: number;
}

/** Options of `memoryStore`. */
export interface MemoryStoreOptions {
  /** Most keys kept; the least recently used go first. Default 10,000. */
  maxEntries?: number;
  /**
   * Most bytes kept, counting keys and values as UTF-16 plus a fixed
   * overhead per entry; the least recently used go first. Default 64 MB.
   */
  maxBytes?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

/** The largest time value a `Date` holds (ECMAScript's ±8.64e15 ms): beyond it a clock returns no time. */
const MAX_TIME_VALUE = 8.64e15;

/** What one entry costs besides its key and value (the Map slot and the entry object), roughly. */
const ENTRY_OVERHEAD_BYTES = 96;

/**
 * A `Store` in process memory, bounded in entries and in bytes (least
 * recently used keys are evicted first; counters only once no other value
 * is left, so cached verdicts cannot push out a rate limit), with per-key expiry: expired keys
 * go when read, and sweeps of every key (after as many writes as there are
 * keys, or an eighth of that when full, so O(1) per write on average) remove
 * those never read again before a live key is evicted. Under a flood of distinct keys its memory stays under `maxBytes`
 * plus the engine's own slack. Right for one server process and for tests;
 * a deployment with many instances needs a shared store such as Redis.
 */
export function memoryStore(options?: MemoryStoreOptions): Store {
  const {
    maxEntries = 10_000,
    maxBytes = 64 * 1024 * 1024,
    now: clock = Date.now,
  } = validateOptions(options, {
    prefix: 'memoryStore',
    root: 'memoryStore',
    shape: memoryStoreOptionShape,
  });
  // A clock that returns no time makes every expiry wrong: 1e300 + ttl is
  // 1e300, so each key expired as it was written and no limit ever tripped
  // (round 35). Such a clock fails each operation instead (fails closed).
  const now = (): number => {
    const time: unknown = clock();
    if (typeof time === 'number' && Math.abs(time) <= MAX_TIME_VALUE) return time;
    throw new TypeError(
      `memory store: now() must return a time in milliseconds (a finite number within ±8.64e15, as Date.now() returns), returned ${typeof time === 'number' ? String(time) : kindOf(time, 'now')}`,
    );
  };
  // A Map keeps insertion order: re-inserting on access makes it an LRU list.
  // Counters (rate limits, budgets) and other values (verdicts, judge
  // caches, pseudonyms) live apart, and values are evicted first: a prompt
  // of many distinct texts fills a shared store with verdicts, and must not
  // push out the counter that limits its sender.
  const counters = new Map<string, Entry>();
  const values = new Map<string, Entry>();
  let bytes = 0;
  let writesSinceSweep = 0;

  // A fraction of a millisecond is rounded up, as Redis rounds it (round
  // 28): at Date.now()'s size, now() + 0.0001 is now(), so such a key,
  // a rate limit's counter too, was gone the moment it was written.
  const expiryOf = (ttlMs: number) => now() + Math.ceil(ttlMs);
  const sizeOf = (key: string, value: string) =>
    (key.length + value.length) * 2 + ENTRY_OVERHEAD_BYTES;
  const count = () => counters.size + values.size;

  function remove(key: string, entry: Entry) {
    if (!counters.delete(key)) values.delete(key);
    bytes -= sizeOf(key, entry.value);
  }

  function sweep() {
    writesSinceSweep = 0;
    const time = now();
    for (const map of [values, counters]) {
      for (const [key, entry] of map) if (entry.expiresAt <= time) remove(key, entry);
    }
  }

  function read(key: string): Entry | undefined {
    const map = counters.has(key) ? counters : values;
    const entry = map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      remove(key, entry);
      return undefined;
    }
    map.delete(key);
    map.set(key, entry);
    return entry;
  }

  function write(key: string, value: string, expiresAt: number, counter: boolean) {
    const previous = counters.get(key) ?? values.get(key);
    if (previous) remove(key, previous);
    (counter ? counters : values).set(key, { value, expiresAt });
    bytes += sizeOf(key, value);
    // Expired keys go before live ones are evicted. Sweeps are spaced by a
    // share of the size in writes, so they cost O(1) per write on average.
    writesSinceSweep++;
    const over = count() > maxEntries || bytes > maxBytes;
    if (writesSinceSweep > (over ? count() / 8 : Math.max(1_000, count()))) sweep();
    // A value larger than maxBytes alone evicts everything, itself last: never over the bound.
    while (count() > maxEntries || (bytes > maxBytes && count() > 0)) {
      const [oldest, entry] = (values.size > 0 ? values : counters).entries().next().value as [
        string,
        Entry,
      ];
      remove(oldest, entry);
    }
  }

  return {
    async incrBy(givenKey, amount, ttlMs) {
      const bounded = storeKeyOf(givenKey);
      // A short key (every usual one) is used at once: no extra tick before the operation.
      const key = typeof bounded === 'string' ? bounded : await bounded;
      checkInteger(amount, 'amount', 'incrBy');
      checkTtl(ttlMs, 'incrBy');
      const entry = read(key);
      // A refund to a window that is gone leaves no key; none takes a counter below 0.
      if (!entry && amount <= 0) return 0;
      const next = Math.max(0, counterOf(entry, 'incrBy') + amount);
      write(key, String(next), entry ? entry.expiresAt : expiryOf(ttlMs), true);
      return next;
    },
    async incrByCapped(givenKey, amount, cap, ttlMs) {
      const bounded = storeKeyOf(givenKey);
      const key = typeof bounded === 'string' ? bounded : await bounded;
      checkInteger(amount, 'amount', 'incrByCapped');
      checkInteger(cap, 'cap', 'incrByCapped');
      checkTtl(ttlMs, 'incrByCapped');
      const entry = read(key);
      const current = counterOf(entry, 'incrByCapped');
      const next = current + amount;
      if (next > cap) {
        return { applied: false, value: current, resetInMs: entry ? entry.expiresAt - now() : 0 };
      }
      const expiresAt = entry ? entry.expiresAt : expiryOf(ttlMs);
      write(key, String(next), expiresAt, true);
      return { applied: true, value: next, resetInMs: expiresAt - now() };
    },
    async get(givenKey) {
      const bounded = storeKeyOf(givenKey);
      const key = typeof bounded === 'string' ? bounded : await bounded;
      return read(key)?.value;
    },
    async set(givenKey, value, ttlMs) {
      const bounded = storeKeyOf(givenKey);
      const key = typeof bounded === 'string' ? bounded : await bounded;
      checkTtl(ttlMs, 'set');
      write(key, value, expiryOf(ttlMs), false);
    },
    async setIfAbsent(givenKey, value, ttlMs) {
      const bounded = storeKeyOf(givenKey);
      const key = typeof bounded === 'string' ? bounded : await bounded;
      checkTtl(ttlMs, 'setIfAbsent');
      const entry = read(key);
      if (entry) return entry.value;
      write(key, value, expiryOf(ttlMs), false);
      return value;
    },
    async touch(givenKey, value, ttlMs) {
      const bounded = storeKeyOf(givenKey);
      const key = typeof bounded === 'string' ? bounded : await bounded;
      checkTtl(ttlMs, 'touch');
      const entry = read(key);
      if (!entry || entry.value !== value) return false;
      entry.expiresAt = expiryOf(ttlMs);
      return true;
    },
    async addToList(givenKey, item, maxItems, ttlMs) {
      const bounded = storeKeyOf(givenKey);
      const key = typeof bounded === 'string' ? bounded : await bounded;
      checkListArguments(item, maxItems, 'memory store');
      checkTtl(ttlMs, 'addToList');
      // Read and written with no await between: atomic within the process.
      const entry = read(key);
      if (!entry) return undefined;
      const list = stringsOfList(boundedList(entry.value, 'addToList', true));
      if (list.includes(item) || list.length >= maxItems) return list;
      list.push(item);
      write(key, boundedList(JSON.stringify(list), 'addToList', false), expiryOf(ttlMs), false);
      return list;
    },
    async pushToList(givenKey, item, maxItems, ttlMs) {
      const bounded = storeKeyOf(givenKey);
      const key = typeof bounded === 'string' ? bounded : await bounded;
      checkListArguments(item, maxItems, 'memory store', 'pushToList');
      checkTtl(ttlMs, 'pushToList');
      // Read and written with no await between: atomic within the process.
      const stored = read(key)?.value;
      const list = pushedList(
        stringsOfList(stored === undefined ? stored : boundedList(stored, 'pushToList', true)),
        item,
        maxItems,
      );
      write(key, boundedList(JSON.stringify(list), 'pushToList', false), expiryOf(ttlMs), false);
      return list;
    },
    async delete(givenKey) {
      const bounded = storeKeyOf(givenKey);
      const key = typeof bounded === 'string' ? bounded : await bounded;
      const entry = counters.get(key) ?? values.get(key);
      if (entry) remove(key, entry);
    },
  };
}

// As `redisStore` checks them: a NaN amount stored "NaN", which passes every
// cap (a limit that never trips again), and a NaN expiry never expired.
/** An integer as Redis writes one: no sign but `-`, no leading zeros, no spaces, no exponent. */
const INTEGER_TEXT = /^(?:0|-?[1-9][0-9]{0,15})$/;

/**
 * The integer a counter's entry holds (0 when missing). A key holding
 * anything else (written by `set`, or corrupted) throws, as Redis's INCRBY
 * answers `ERR value is not an integer or out of range`: `Number('abc')`
 * was NaN, NaN was stored, and `NaN > cap` is false, so every later call
 * passed the cap (round 25). Neither the key nor its value is named.
 */
function counterOf(entry: Entry | undefined, operation: string): number {
  if (!entry) return 0;
  const value = INTEGER_TEXT.test(entry.value) ? Number(entry.value) : Number.NaN;
  if (!Number.isSafeInteger(value)) {
    throw new TypeError(
      `memory store: ${operation} found a value that is not an integer at its key (as Redis: value is not an integer or out of range)`,
    );
  }
  return value;
}

/** `text`, a list found (`stored`) or to be stored, when within `MAX_LIST_BYTES`; else throws, as Redis's scripts refuse it. */
function boundedList(text: string, operation: string, stored: boolean): string {
  if (!overListBytes(text)) return text;
  throw new StoreListError({ store: 'memory store', operation, reason: 'too-long', stored });
}

function checkInteger(value: number, name: string, operation: string) {
  if (!Number.isSafeInteger(value)) {
    throw new TypeError(`memory store: ${operation} needs an integer ${name}, received ${value}`);
  }
}

function checkTtl(ttlMs: number, operation: string) {
  checkStoreTtl(ttlMs, 'memory store', operation);
}
