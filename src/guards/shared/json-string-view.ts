import { PieceJoiner } from './piece-joiner';

/**
 * A JSON text with the escapes of its strings decoded (`\"` → `"`, `\n` → a
 * line break, `\uXXXX` → the character), mapped back to the JSON text. A
 * tool's arguments and results are judged as canonical JSON, where a file
 * in a string value reads `db_password: \"…\"\n`: the escapes hide the
 * value from detectors that read it in the decoded file. `secrets` scans
 * this view too and redacts what it finds inside one string of the JSON.
 */
export interface JsonStringView {
  /** The JSON text with the escapes of its strings decoded. */
  text: string;
  /** For each character of `text`: where its source starts in the JSON text. */
  sourceStart: Int32Array;
  /** For each character of `text`: where its source ends in the JSON text. */
  sourceEnd: Int32Array;
  /** For each character of `text`: the number of the string it is in, -1 outside strings. */
  stringOf: Int32Array;
}

/** The character a simple escape (`\n`, `\"`...) stands for, by the code of its letter; -1: none. */
const SIMPLE_ESCAPES = new Int32Array(128).fill(-1);
for (const [letter, code] of [
  ['"', 0x22],
  ['\\', 0x5c],
  ['/', 0x2f],
  ['b', 0x08],
  ['f', 0x0c],
  ['n', 0x0a],
  ['r', 0x0d],
  ['t', 0x09],
] as const) {
  SIMPLE_ESCAPES[letter.charCodeAt(0)] = code;
}

/** The value of a hex digit's code, or -1. */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** Characters per `String.fromCharCode` call: larger argument lists cost more per character. */
const CHARACTERS_PER_CALL = 0x2000;
/** Decoded characters and short copied runs not yet made into a string (reused: the view never holds it). */
const decodedChunk = new Uint16Array(CHARACTERS_PER_CALL);
/** A run read as written this long is sliced from the JSON text; a shorter one is copied. */
const SLICED_RUN = 64;

/**
 * The decoded text: the runs of the JSON text read as written, sliced from
 * it, and the escapes' characters between them (one unit at a time through
 * `String.fromCharCode.apply` took 19 ms on 1 MB of prose). Short runs are
 * copied with the escapes around them: a slice and a piece per short run
 * cost more than the copy.
 */
class DecodedText {
  readonly #json: string;
  readonly #pieces = new PieceJoiner();
  /** Units in `decodedChunk` not yet made into a piece. */
  #filled = 0;
  /** Where the run read as written and not yet added starts. */
  #runStart = 0;

  constructor(json: string) {
    this.#json = json;
  }

  /** The escape `json[start, end)` read as the unit `code`. */
  addEscape(start: number, end: number, code: number): void {
    this.#addRun(start);
    this.#add(code);
    this.#runStart = end;
  }

  /** The text: the rest of the JSON text read as written, after what was added. */
  join(): string {
    this.#addRun(this.#json.length);
    this.#flush();
    return this.#pieces.join();
  }

  #addRun(end: number): void {
    const json = this.#json;
    const start = this.#runStart;
    if (end - start >= SLICED_RUN) {
      this.#flush();
      this.#pieces.push(json.slice(start, end));
      return;
    }
    for (let at = start; at < end; at++) this.#add(json.charCodeAt(at));
  }

  #add(code: number): void {
    decodedChunk[this.#filled++] = code;
    if (this.#filled === CHARACTERS_PER_CALL) this.#flush();
  }

  #flush(): void {
    if (this.#filled === 0) return;
    const units = decodedChunk.subarray(0, this.#filled);
    this.#pieces.push(String.fromCharCode.apply(null, units as unknown as number[]));
    this.#filled = 0;
  }
}

/** JSON's white space and a byte order mark: what may come before a JSON text's first character. */
function isLeadingSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0xfeff;
}

/**
 * The decoded view of `json`, or `undefined` when it has no escape to decode
 * or does not start (after white space or a byte order mark) as a JSON
 * array, object or string. Text that only looks like JSON is decoded as far
 * as it can be, never refused: a tool's text output is often JSON cut short
 * (a string that does not end) or followed by a note, and one stray
 * backslash or `\q` used to make the whole text read as written, where
 * `\u0040` hid an `@` and `\"` a quoted password from every check while the
 * model reads them decoded. A backslash outside a string, and one that
 * starts no escape JSON allows, is read as it is. One pass, linear.
 */
export function jsonStringView(json: string): JsonStringView | undefined {
  if (!json.includes('\\')) return undefined;
  let firstAt = 0;
  while (firstAt < json.length && isLeadingSpace(json.charCodeAt(firstAt))) firstAt++;
  const first = json[firstAt];
  if (first !== '{' && first !== '[' && first !== '"') return undefined;
  // A character's source ends where the next one's starts (the escapes
  // are read one after the other, to the end of the text): one array holds
  // both maps. Fewer and smaller arrays: a view of 1 MB took 14 bytes a
  // character in four, whose fresh pages (the allocator returns such blocks
  // to the system) cost more per byte than at 0.25 MB.
  const sourceBounds = new Int32Array(json.length + 1);
  const stringOf = new Int32Array(json.length);
  const text = new DecodedText(json);
  let length = 0;
  let strings = 0;
  let i = 0;
  while (i < json.length) {
    // Outside a string, up to the quote that opens one (which is outside it
    // too): read as written, a backslash included.
    while (i < json.length) {
      const code = json.charCodeAt(i);
      stringOf[length] = -1;
      sourceBounds[length++] = i++;
      if (code === 0x22) break;
    }
    if (json.charCodeAt(i - 1) !== 0x22) break;
    strings++;
    // Inside it, to its closing quote (outside it) or the end of a text cut short.
    while (i < json.length) {
      const code = json.charCodeAt(i);
      if (code === 0x22) {
        stringOf[length] = -1;
        sourceBounds[length++] = i++;
        break;
      }
      stringOf[length] = strings;
      sourceBounds[length++] = i;
      if (code !== 0x5c) {
        i++;
        continue;
      }
      // An escape JSON does not allow leaves the backslash as it is.
      const escaped = i + 1 < json.length ? json.charCodeAt(i + 1) : -1;
      let decoded = -1;
      let end = i + 1;
      if (escaped === 0x75 /* u */) {
        let value = 0;
        for (let digit = i + 2; digit < i + 6 && value >= 0; digit++) {
          const nibble = digit < json.length ? hexDigit(json.charCodeAt(digit)) : -1;
          value = nibble < 0 ? -1 : value * 16 + nibble;
        }
        if (value >= 0) {
          decoded = value;
          end = i + 6;
        }
      } else {
        const simple = escaped >= 0 && escaped < 128 ? SIMPLE_ESCAPES[escaped]! : -1;
        if (simple >= 0) {
          decoded = simple;
          end = i + 2;
        }
      }
      if (decoded >= 0) text.addEscape(i, end, decoded);
      i = end;
    }
  }
  // A string that does not end (a text cut short) is read to the end.
  sourceBounds[length] = json.length;
  return {
    text: text.join(),
    sourceStart: sourceBounds.subarray(0, length),
    sourceEnd: sourceBounds.subarray(1, length + 1),
    stringOf: stringOf.subarray(0, length),
  };
}
