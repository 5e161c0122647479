import type { Store } from '../../store/store';
import { MAX_STORED_JSON_CHARS, readStoredJson } from '../../store/stored-json';
import { sha256Hex } from '../shared/hash-key';

/** Where pseudonyms live: one conversation's value <-> placeholder mapping. */
export interface PseudonymVault {
  /** The placeholder of `value`, created (once, across instances) when new. */
  tokenFor(type: string, value: string): Promise<string>;
  /** The original behind a placeholder, when this conversation has one. */
  valueOf(token: string): Promise<string | undefined>;
}

/**
 * Placeholders are `<TYPE_N>` with N of at most six digits (what the output
 * side recognises), so a counter that had to skip past live placeholders
 * never grows beyond it.
 */
const MAX_PLACEHOLDER_NUMBER = 999_999;
/** Allocation attempts before the vault gives up (the guardrail then fails closed). */
const MAX_ATTEMPTS = 24;

/** A vault for one call only (no conversation id): the call's shared state. */
export function callVault(state: Map<string, unknown>, stateKey: string): PseudonymVault {
  let vault = state.get(stateKey) as
    | { values: Map<string, string>; tokens: Map<string, string>; counters: Map<string, number> }
    | undefined;
  if (!vault) {
    vault = { values: new Map(), tokens: new Map(), counters: new Map() };
    state.set(stateKey, vault);
  }
  const { values, tokens, counters } = vault;
  return {
    async tokenFor(type, value) {
      const key = `${type}\u0000${value}`;
      let token = tokens.get(key);
      if (token === undefined) {
        const next = (counters.get(type) ?? 0) + 1;
        counters.set(type, next);
        token = `<${type}_${next}>`;
        tokens.set(key, token);
        values.set(token, value);
      }
      return token;
    },
    async valueOf(token) {
      return values.get(token);
    },
  };
}

/**
 * A conversation's vault in a `Store`, shared by every instance that uses the
 * store. Two keys per value, both expiring `ttlMs` after their last use:
 *
 * - `<base>:token:<placeholder>` holds the original. It is only ever written
 *   with `setIfAbsent`, and the vault hands out a placeholder only after that
 *   write returned *this* value (or `touch` confirmed the key still holds
 *   it): whatever happened to the other keys (a counter that expired first, a
 *   store that lost data, a concurrent instance), one placeholder never
 *   stands for two values.
 * - `<base>:value:<TYPE>:<sha256 of the value>` holds the placeholder, so the
 *   same value gets the same placeholder on every turn and instance. It is
 *   trusted only after the placeholder's key was confirmed to hold the value.
 *
 * Numbers come from `<base>:counter:<TYPE>`. A counter that restarted (it
 * expired, or the store lost it) runs into live placeholders: each collision
 * skips ahead by a doubling step, so a long conversation costs a few round
 * trips, not one per live placeholder.
 *
 * Both keys hold their text as a JSON string (`storedText`): Redis keeps
 * UTF-8, which writes a lone surrogate as U+FFFD, so an original such as
 * `"EMP-42\uD800"` came back changed, every allocation looked taken, and the
 * call failed closed (one character in a message denied the whole call).
 */
export function storeVault(store: Store, base: string, ttlMs: number): PseudonymVault {
  const tokenKey = (token: string) => `${base}:token:${token}`;
  return {
    async tokenFor(type, value) {
      // Keyed by a hash: key names show up in monitoring, originals must not.
      const valueKey = `${base}:value:${type}:${await sha256Hex(value)}`;
      const stored = storedText(value);
      if (stored.length > MAX_STORED_JSON_CHARS) {
        // `valueOf` would not read it back: no placeholder that never restores.
        throw new RangeError(
          `pseudonym vault: a ${type} of ${value.length} characters is over what the vault stores (${MAX_STORED_JSON_CHARS} characters as JSON); not pseudonymized`,
        );
      }
      let step = 1;
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const knownStored = await store.get(valueKey);
        const known = knownStored === undefined ? undefined : textOf(knownStored);
        if (knownStored !== undefined && known !== undefined) {
          // Valid only while the placeholder maps back to this value; using it keeps both alive.
          if (
            (await store.touch(tokenKey(known), stored, ttlMs)) ||
            (await store.setIfAbsent(tokenKey(known), stored, ttlMs)) === stored
          ) {
            await store.touch(valueKey, knownStored, ttlMs);
            return known;
          }
          // The placeholder expired and another value holds it now: allocate anew.
        }
        const next = await store.incrBy(`${base}:counter:${type}`, step, ttlMs);
        if (next > MAX_PLACEHOLDER_NUMBER) {
          await store.delete(`${base}:counter:${type}`);
          continue;
        }
        const candidate = `<${type}_${next}>`;
        // The original is stored under the placeholder before the placeholder
        // is published, so whoever reads the placeholder can restore it.
        if ((await store.setIfAbsent(tokenKey(candidate), stored, ttlMs)) !== stored) {
          step = Math.min(step * 2, 4_096);
          continue;
        }
        if (knownStored !== undefined) {
          // Replaces the stale mapping. A concurrent instance doing the same
          // leaves a second placeholder of this same value: both restore it.
          await store.set(valueKey, storedText(candidate), ttlMs);
          return candidate;
        }
        const published = await store.setIfAbsent(valueKey, storedText(candidate), ttlMs);
        if (published === storedText(candidate)) return candidate;
        // Another instance published this value's placeholder first: ours
        // stays unused (it restores the same value) and theirs is validated
        // on the next pass.
      }
      throw new Error(
        `pseudonym vault: no free placeholder for a ${type} after ${MAX_ATTEMPTS} attempts`,
      );
    },
    async valueOf(token) {
      const stored = await store.get(tokenKey(token));
      const value = stored === undefined ? undefined : textOf(stored);
      if (stored !== undefined && value !== undefined)
        await store.touch(tokenKey(token), stored, ttlMs);
      return value;
    },
  };
}

/**
 * How the vault stores a text: as a JSON string, which writes a lone
 * surrogate as `\ud800`, so the stored form is well-formed (it survives
 * UTF-8) and one per text. The same on every store, so a vault behaves alike
 * on a `memoryStore` and on Redis.
 */
function storedText(text: string): string {
  return JSON.stringify(text);
}

/**
 * The text `storedText` stored, or undefined for anything else (the key is
 * then treated as foreign): read bounded (`readStoredJson`), so a value of
 * 100 MB or a million brackets another client wrote costs one length check
 * or one linear scan, never a parse of it.
 */
function textOf(stored: string): string | undefined {
  if (!stored.startsWith('"')) return undefined;
  const text = readStoredJson(stored, MAX_STORED_JSON_CHARS);
  return typeof text === 'string' ? text : undefined;
}
