import { isWellFormed } from '../core/sha256-hex';

/**
 * The JSON arrays of strings `Store.addToList` keeps (round 25), read and
 * bounded the same way by every store that implements it.
 */

/** Longest item `addToList` takes (a tool name's tag is 24 characters). */
export const MAX_LIST_ITEM_LENGTH = 1_024;
/** Most items an `addToList` list may be given room for. */
export const MAX_LIST_ITEMS = 100_000;

/**
 * The strings of a stored JSON array, in order; `[]` for anything else (a
 * value that is no JSON, or no array: a corrupt list holds nothing).
 */
export function stringsOfList(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  try {
    const value = JSON.parse(raw) as unknown;
    if (Array.isArray(value)) return value.filter(item => typeof item === 'string');
  } catch {
    // Not JSON: an empty list.
  }
  return [];
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
      `${store}: ${operation} needs an integer maxItems from 1 to ${MAX_LIST_ITEMS}, received ${String(maxItems)}`,
    );
  }
}

/** `list` with `item` last (moved there when `list` holds it), keeping the newest `maxItems` (`Store.pushToList`). */
export function pushedList(list: readonly string[], item: string, maxItems: number): string[] {
  const kept = list.filter(known => known !== item);
  kept.push(item);
  return kept.length > maxItems ? kept.slice(kept.length - maxItems) : kept;
}
