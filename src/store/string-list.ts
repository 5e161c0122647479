import { isWellFormed } from '../core/sha256-hex';
import { MAX_STORED_JSON_DEPTH, readStoredJson } from './stored-json';

/**
 * The JSON arrays of strings `Store.addToList` keeps (round 25), read and
 * bounded the same way by every store that implements it.
 */

/** Longest item `addToList` takes (a tool name's tag is 24 characters). */
export const MAX_LIST_ITEM_LENGTH = 1_024;
/**
 * Most items an `addToList` list may be given room for: the most distinct
 * strings a list within `MAX_LIST_BYTES` can hold (round 32). The shortest
 * in JSON are `""`, the 94 characters JSON writes as one byte, then the
 * 10,763 strings of 2 bytes (`\n`, `é`, `ab`, ...), then strings of 3
 * bytes: with the brackets and commas, 45,516 of them are 262,143 bytes,
 * and a 45,517th passes the bound. It was 100,000, a count no list ever
 * reaches: the byte bound refused the list first, whatever `maxItems` said.
 */
export const MAX_LIST_ITEMS = 45_516;

/**
 * Deepest nesting a stored list may have: Redis's cjson refuses more than
 * 1,000 levels of arrays and objects (the outer array is one).
 */
export const MAX_LIST_DEPTH = MAX_STORED_JSON_DEPTH;

/**
 * Longest JSON text, in UTF-8 bytes, of a list `addToList` and `pushToList`
 * read or store (round 29): twice the longest list a guardrail keeps (4,096
 * name tags of 24 characters). Redis's scripts read, decode and re-encode a
 * whole list on every add, so a 10 MB list (another client's) held the
 * server for about a second per call; past this a `StoreListError`.
 */
export const MAX_LIST_BYTES = 262_144;

/**
 * Whether `text` is over `MAX_LIST_BYTES` in UTF-8 (a lone surrogate counts
 * as the 3 bytes of the U+FFFD a Redis client writes for it). Constant time
 * unless the text is within a factor 3 of the bound.
 */
export function overListBytes(text: string): boolean {
  if (text.length > MAX_LIST_BYTES) return true;
  if (text.length * 3 <= MAX_LIST_BYTES) return false;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes > MAX_LIST_BYTES;
}

/**
 * The strings of a stored JSON array, in order; `[]` for anything else (a
 * value that is no JSON, or no array: a corrupt list holds nothing).
 *
 * Read as Redis's list scripts read it (round 28): JSON that cjson refuses
 * (a lone surrogate, escaped or not, in any string or key; more than 1,000
 * levels of nesting) is corrupt here too. JSON.parse took both, so the
 * memory store kept such a list's items where Redis read `[]`, and a hash
 * or name tag a corrupt list read as approved on one store was dropped on
 * the other. (cjson's own extras, which JSON.parse refuses, are refused by
 * the scripts: see `src/redis/scripts.ts`.)
 */
export function stringsOfList(raw: string | undefined): string[] {
  // Unbounded in length here: lists are bounded in bytes where they are
  // added to (`MAX_LIST_BYTES`), and a list found too long is refused there.
  const value = readStoredJson(raw, Number.POSITIVE_INFINITY, refuseLoneSurrogates);
  return Array.isArray(value) ? value.filter(item => typeof item === 'string') : [];
}

/** A `JSON.parse` reviver that throws on a key or string with a lone surrogate. */
function refuseLoneSurrogates(key: string, value: unknown): unknown {
  if (!isWellFormed(key) || (typeof value === 'string' && !isWellFormed(value))) {
    throw new SyntaxError('lone surrogate');
  }
  return value;
}

/**
 * Throws a TypeError, naming the store and the argument, for an item or
 * bound `addToList` (or `pushToList`) does not take: an item that is no
 * string, is over 1,024 characters or holds a lone surrogate.
 */
export function checkListArguments(
  item: unknown,
  maxItems: unknown,
  store: string,
  operation = 'addToList',
): void {
  if (typeof item !== 'string' || item.length > MAX_LIST_ITEM_LENGTH) {
    throw new TypeError(
      `${store}: ${operation} needs a string item of at most ${MAX_LIST_ITEM_LENGTH} characters, received ${
        typeof item === 'string' ? `${item.length} characters` : typeof item
      }`,
    );
  }
  if (!isWellFormed(item)) {
    // A Redis client writes a lone surrogate as U+FFFD: two items that
    // differ there would be one item on Redis and two in memory (round 26).
    throw new TypeError(
      `${store}: ${operation} needs a well-formed string item (a lone surrogate is written as U+FFFD, so two items would be one), received one with a lone surrogate`,
    );
  }
  if (
    typeof maxItems !== 'number' ||
    !Number.isSafeInteger(maxItems) ||
    maxItems < 1 ||
    maxItems > MAX_LIST_ITEMS
  ) {
    throw new TypeError(
      `${store}: ${operation} needs an integer maxItems from 1 to ${MAX_LIST_ITEMS} (the most distinct items a list of ${MAX_LIST_BYTES} bytes holds), received ${String(maxItems)}`,
    );
  }
}

/** `list` with `item` last (moved there when `list` holds it), keeping the newest `maxItems` (`Store.pushToList`). */
export function pushedList(list: readonly string[], item: string, maxItems: number): string[] {
  const kept = list.filter(known => known !== item);
  kept.push(item);
  return kept.length > maxItems ? kept.slice(kept.length - maxItems) : kept;
}
