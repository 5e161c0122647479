/**
 * Text written as character codes in a tool result (round 20): an array
 * of numbers (`[52,49,49,49,…]` for `4111…`), or of numbers written as
 * strings (`["52","49",…]`, `["0x34","0x31",…]`, round 24), or a typed array of 16 or 32
 * bits sent as one, which a model decodes when asked, passed every
 * detector as numbers. An array of numbers (and arrays of numbers) is
 * read as text when it holds at least `MIN_CODES` integers that are the
 * code of a character text holds (tab, line feed, carriage return, 32-126,
 * 160 up to 0x10FFFF); its other numbers read as nothing (round 21: a `0`
 * after the codes, or codes cut into arrays of 4, left them unread).
 * Coordinates (fractions), counts (under 32) and flags stay numbers. Such
 * an array is judged as its text; what the guardrails leave unchanged goes
 * on as the numbers.
 *
 * Round 22: only when that text holds a letter. Codes of digits and
 * separators alone (`-` `.` `/` `:` are 45-47 and 58) are what readings,
 * scores and percentages between 32 and 64 are: 16 values from 48 to 57
 * read as a Luhn-valid card, values from 45 to 60 as an SSN, a phone or an
 * IP address, and the array was replaced by a placeholder. Such a value
 * written as codes with no letter beside it goes on as numbers, as it
 * does written one digit per number (`[4,1,1,1,…]`): a tool can spell any
 * digits either way, and reading either would take ordinary numbers for
 * them (docs/data-protection.md).
 */

/** The fewest character codes of an array read as text (`a@b.io` has 6, a card 13 or more). */
export const MIN_CODES = 8;

/** How deep a result is walked for such arrays (canonical JSON's own limit is 64). */
const MAX_DEPTH = 64;

/** A text array found in a value: where it is, the array and its text. */
export interface CharCodeArray {
  path: Array<string | number>;
  array: unknown[];
  text: string;
}

/** Whether character code `code` is a letter (`\p{L}`: Latin, Greek, CJK, …). */
function isLetterCode(code: number): boolean {
  if (code < 128) return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return /\p{L}/u.test(String.fromCodePoint(code));
}

/**
 * A character code written as a string (round 24: `["115","107",…]`,
 * `["0x73","0x6b",…]` spelled a key past every detector, as numbers did
 * before round 20): decimal without a leading zero, or hexadecimal after
 * `0x`. Any other string is no code (an array holding one is no text).
 */
const CODE_STRING = /^(?:[1-9]\d{0,6}|0x[0-9a-f]{1,6})$/i;

/** The number an element stands for: itself, or a code string's value. */
function codeOf(value: unknown): unknown {
  return typeof value === 'string' && CODE_STRING.test(value) ? Number(value) : value;
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

/**
 * Whether `node` is an array of numbers and arrays of them (to `depth`),
 * memoised per array so that each is looked at once however deep it sits.
 */
function numericTree(node: unknown[], depth: number, memo: Map<unknown[], boolean>): boolean {
  let known = memo.get(node);
  if (known !== undefined) return known;
  known = depth <= MAX_DEPTH;
  for (let index = 0; known && index < node.length; index++) {
    const element = codeOf(node[index]);
    if (typeof element === 'number') continue;
    known = Array.isArray(element) && numericTree(element, depth + 1, memo);
  }
  memo.set(node, known);
  return known;
}

/**
 * The text of a numeric tree ({@link numericTree}): its numbers in order,
 * each a character when it is the code of one text holds, nothing else (a
 * NUL that ends a C string, a 1 or a fraction put in among the codes: a
 * model decoding the codes reads past them), or undefined with fewer than
 * {@link MIN_CODES} character codes or no letter among them.
 */
function treeText(node: readonly unknown[]): string | undefined {
  const codes: number[] = [];
  const walk = (array: readonly unknown[]) => {
    for (const item of array) {
      const element = codeOf(item);
      if (Array.isArray(element)) walk(element);
      else if (isTextCode(element)) codes.push(element);
    }
  };
  walk(node);
  if (codes.length < MIN_CODES || !codes.some(isLetterCode)) return undefined;
  let text = '';
  for (let at = 0; at < codes.length; at += 8192) {
    text += String.fromCodePoint(...codes.slice(at, at + 8192));
  }
  return text;
}

/**
 * The text of `array` when it is one (see the module's comment), else
 * undefined: numbers, or arrays of numbers (`[[52,49,49,49],[49,…]]`: a
 * card cut into pieces shorter than {@link MIN_CODES}), holding at least
 * {@link MIN_CODES} character codes; the other numbers are read as nothing
 * (round 21: one `0` after `jane.doe@corp.io`'s codes left the whole array
 * unread).
 */
export function charCodeText(array: readonly unknown[]): string | undefined {
  if (!numericTree(array as unknown[], 0, new Map())) return undefined;
  return treeText(array);
}

/**
 * `value` (parsed JSON) with each array that reads as text replaced by its
 * text, and where they were; `value` itself and no arrays when it has none.
 * An array of numbers and arrays of them is read whole (never its parts on
 * their own). Linear: each array and object is visited once, and whether
 * an array holds only numbers is known once per array.
 */
export function withCharCodeTexts(value: unknown): { reading: unknown; arrays: CharCodeArray[] } {
  const arrays: CharCodeArray[] = [];
  const path: Array<string | number> = [];
  const numeric = new Map<unknown[], boolean>();
  const visit = (node: unknown, depth: number): unknown => {
    if (node === null || typeof node !== 'object' || depth > MAX_DEPTH) return node;
    if (Array.isArray(node)) {
      if (numericTree(node, depth, numeric)) {
        const text = treeText(node);
        if (text !== undefined) arrays.push({ path: [...path], array: node, text });
        return text ?? node;
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
