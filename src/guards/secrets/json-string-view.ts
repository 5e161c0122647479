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

const SIMPLE_ESCAPES: Record<string, number> = {
  '"': 0x22,
  '\\': 0x5c,
  '/': 0x2f,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
};
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * The decoded view of `json`, or `undefined` when it has no escape to decode
 * or is not a JSON array, object or string as far as its strings go (an escape that
 * JSON does not allow, a string that does not end). One pass, linear.
 */
export function jsonStringView(json: string): JsonStringView | undefined {
  if (!json.includes('\\')) return undefined;
  const first = json[0];
  if (first !== '{' && first !== '[' && first !== '"') return undefined;
  const codes = new Uint16Array(json.length);
  const sourceStart = new Int32Array(json.length);
  const sourceEnd = new Int32Array(json.length);
  const stringOf = new Int32Array(json.length);
  let length = 0;
  let strings = 0;
  let inString = false;
  const push = (code: number, start: number, end: number) => {
    codes[length] = code;
    sourceStart[length] = start;
    sourceEnd[length] = end;
    stringOf[length] = inString ? strings : -1;
    length++;
  };
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    if (!inString) {
      if (code === 0x5c) return undefined;
      if (code === 0x22) {
        push(code, i, i + 1);
        inString = true;
        strings++;
        continue;
      }
      push(code, i, i + 1);
      continue;
    }
    if (code === 0x22) {
      inString = false;
      push(code, i, i + 1);
      continue;
    }
    if (code !== 0x5c) {
      push(code, i, i + 1);
      continue;
    }
    const escaped = json[i + 1];
    if (escaped === undefined) return undefined;
    if (escaped === 'u') {
      const hex = json.slice(i + 2, i + 6);
      if (!HEX4.test(hex)) return undefined;
      push(Number.parseInt(hex, 16), i, i + 6);
      i += 5;
      continue;
    }
    const decoded = SIMPLE_ESCAPES[escaped];
    if (decoded === undefined) return undefined;
    push(decoded, i, i + 2);
    i += 1;
  }
  if (inString) return undefined;
  let text = '';
  for (let at = 0; at < length; at += 0x8000) {
    text += String.fromCharCode(...codes.subarray(at, Math.min(length, at + 0x8000)));
  }
  return {
    text,
    sourceStart: sourceStart.subarray(0, length),
    sourceEnd: sourceEnd.subarray(0, length),
    stringOf: stringOf.subarray(0, length),
  };
}
