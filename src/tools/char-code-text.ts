/**
 * Text written as character codes in a tool result (round 20): an array
 * of numbers (`[52,49,49,49,…]` for `4111…`), or a typed array of 16 or 32
 * bits sent as one, which a model decodes when asked, passed every
 * detector as numbers. An array is read as text when it has at least
 * `MIN_CODES` elements, each an integer that is the code of a character
 * text holds (tab, line feed, carriage return, 32-126, 160 and up, not a
 * lone surrogate's range past 0x10FFFF): coordinates (fractions), ids and
 * counts (under 32) and flags stay numbers. Such an array is judged as its
 * text; what the guardrails leave unchanged goes on as the numbers.
 */

/** The fewest elements of an array read as text (`a@b.io` has 6, a card 13 or more). */
export const MIN_CODES = 8;

/** How deep a result is walked for such arrays (canonical JSON's own limit is 64). */
const MAX_DEPTH = 64;

/** A text array found in a value: where it is, the array and its text. */
export interface CharCodeArray {
  path: Array<string | number>;
  array: unknown[];
  text: string;
}

function isTextCode(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    (value === 9 ||
      value === 10 ||
      value === 13 ||
      (value >= 32 && value <= 126) ||
      (value >= 160 && value <= 0x10ffff))
  );
}

/** The text of `array` when it is one (see the module's comment), else undefined. */
export function charCodeText(array: readonly unknown[]): string | undefined {
  if (array.length < MIN_CODES) return undefined;
  for (const element of array) if (!isTextCode(element)) return undefined;
  let text = '';
  for (const element of array as number[]) text += String.fromCodePoint(element);
  return text;
}

/**
 * `value` (parsed JSON) with each array that reads as text replaced by its
 * text, and where they were; `value` itself and no arrays when it has none.
 * Linear: each array and object is visited once.
 */
export function withCharCodeTexts(value: unknown): { reading: unknown; arrays: CharCodeArray[] } {
  const arrays: CharCodeArray[] = [];
  const path: Array<string | number> = [];
  const visit = (node: unknown, depth: number): unknown => {
    if (node === null || typeof node !== 'object' || depth > MAX_DEPTH) return node;
    if (Array.isArray(node)) {
      const text = charCodeText(node);
      if (text !== undefined) {
        arrays.push({ path: [...path], array: node, text });
        return text;
      }
      let copy: unknown[] | undefined;
      node.forEach((element, index) => {
        path.push(index);
        const read = visit(element, depth + 1);
        path.pop();
        if (read !== element) {
          copy ??= [...node];
          copy[index] = read;
        }
      });
      return copy ?? node;
    }
    let copy: Record<string, unknown> | undefined;
    for (const [key, element] of Object.entries(node)) {
      path.push(key);
      const read = visit(element, depth + 1);
      path.pop();
      if (read !== element) {
        copy ??= { ...(node as Record<string, unknown>) };
        // Defined, not assigned: a `__proto__` key stays a key.
        Object.defineProperty(copy, key, {
          value: read,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return copy ?? node;
  };
  const reading = visit(value, 0);
  return { reading, arrays };
}

/**
 * `modified` (the judged reading after a guardrail changed it, parsed
 * afresh) with the arrays whose text it left unchanged put back as their
 * numbers: a redaction elsewhere in the result does not turn the scores
 * beside it into text. Returns the value to use (`modified` changed in place,
 * or the array itself when the whole result was one).
 */
export function restoreCharCodeArrays(
  modified: unknown,
  arrays: readonly CharCodeArray[],
): unknown {
  let result = modified;
  for (const { path, array, text } of arrays) {
    if (path.length === 0) {
      if (result === text) result = array;
      continue;
    }
    let holder: unknown = result;
    for (const key of path.slice(0, -1)) {
      holder =
        holder !== null && typeof holder === 'object'
          ? (holder as Record<string | number, unknown>)[key]
          : undefined;
    }
    if (holder === null || typeof holder !== 'object') continue;
    const last = path[path.length - 1]!;
    const record = holder as Record<string | number, unknown>;
    if (Object.hasOwn(record, last) && record[last] === text) {
      Object.defineProperty(record, last, {
        value: array,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return result;
}
