/**
 * Base64 and hex runs of a text decoded, for `llmJudge`'s reason masking
 * (round 29): a judge steered into writing a judged value in base64
 * (`aHVudGVyMg==` for `hunter2`) or hex (`68756e74657232`) quoted it
 * unmasked, and so did one that decoded a judged text's base64 run
 * (`cGFzc3dvcmQ9aHVudGVyMg==`) into its reason. A run is kept only when it
 * decodes to printable UTF-8 text: most words and ids decode to bytes that
 * are no text and are passed over. No Node built-ins (edge-safe); linear.
 */

/** A run of a text and the text it decodes to. */
export interface DecodedRun {
  start: number;
  /** Exclusive. */
  end: number;
  text: string;
}

/**
 * Shortest base64 run decoded in a reason (`ODg0Mg==` is `8842`), and in a
 * judged text, where most words of six letters or more would be tried
 * (ten characters are seven bytes: `aHVudGVyMg==` is `hunter2`).
 */
const LEAST_REASON_RUN = 6;
const LEAST_JUDGED_RUN = 10;
/** Shortest hex run decoded (four bytes). */
const LEAST_HEX_RUN = 8;

/** The 6-bit value of each base64 / base64url character, -1 for others. */
const BASE64_VALUES = new Int8Array(128).fill(-1);
[...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'].forEach((char, value) => {
  BASE64_VALUES[char.charCodeAt(0)] = value;
});
BASE64_VALUES[0x2b] = 62; // +
BASE64_VALUES[0x2d] = 62; // -
BASE64_VALUES[0x2f] = 63; // /
BASE64_VALUES[0x5f] = 63; // _

// Fatal: bytes that are no UTF-8 are no text.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether `byte` is a control character other than tab and line breaks. */
function isControlByte(byte: number): boolean {
  return (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) || byte === 0x7f;
}

/** Whether `code` is a hex digit. */
function isHexCode(code: number): boolean {
  const lower = code | 0x20;
  return (code >= 0x30 && code <= 0x39) || (lower >= 0x61 && lower <= 0x66);
}

/** One reused buffer of decoded bytes, grown as needed. */
let buffer = new Uint8Array(256);

/**
 * The text the bytes `buffer[0, size)` are in UTF-8, when they are (a
 * short ASCII one read directly: a text of many runs pays no decoder call
 * for each) and hold a letter or digit.
 */
function asText(size: number): string | undefined {
  if (size < 3) return undefined; // and -1: a control byte
  let text: string;
  let ascii = size <= 64;
  for (let index = 0; ascii && index < size; index++) ascii = buffer[index]! < 0x80;
  if (ascii) text = String.fromCharCode(...buffer.subarray(0, size));
  else {
    try {
      text = utf8.decode(buffer.subarray(0, size));
    } catch {
      return undefined;
    }
  }
  return /[\p{L}\p{N}]/u.test(text) ? text : undefined;
}

/**
 * The bytes of the base64 run `text[start, end)` into `buffer`: their
 * count, or -1 at the first control byte (most runs that are no encoded
 * text stop within a few bytes: a 1 MB run of random base64 is not decoded
 * whole).
 */
function base64Bytes(text: string, start: number, end: number): number {
  if (buffer.length < end - start) buffer = new Uint8Array(2 * (end - start));
  let size = 0;
  let bits = 0;
  let count = 0;
  for (let index = start; index < end; index++) {
    bits = ((bits << 6) | BASE64_VALUES[text.charCodeAt(index)]!) & 0xffffff;
    count += 6;
    if (count >= 8) {
      count -= 8;
      const byte = (bits >> count) & 0xff;
      if (isControlByte(byte)) return -1;
      buffer[size++] = byte;
    }
  }
  return size;
}

/** The bytes of the hex run `text[start, end)` (an even count of digits) into `buffer`, as `base64Bytes`. */
function hexBytes(text: string, start: number, end: number): number {
  if (buffer.length < end - start) buffer = new Uint8Array(2 * (end - start));
  let size = 0;
  for (let index = start; index + 1 < end; index += 2) {
    const byte = Number.parseInt(text.slice(index, index + 2), 16);
    if (isControlByte(byte)) return -1;
    buffer[size++] = byte;
  }
  return size;
}

/**
 * The base64 and hex runs of `text` (a reason, or with `judged` a judged
 * text: longer base64 runs only) that decode to printable text. A hex run
 * is also a base64 run: each reading that is text is kept.
 */
export function decodedRuns(text: string, judged = false): DecodedRun[] {
  const least = judged ? LEAST_JUDGED_RUN : LEAST_REASON_RUN;
  const runs: DecodedRun[] = [];
  const isBase64 = (code: number) => code < 0x80 && BASE64_VALUES[code]! >= 0;
  for (let index = 0; index < text.length; ) {
    if (!isBase64(text.charCodeAt(index))) {
      index++;
      continue;
    }
    const start = index;
    let hex = true;
    for (; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (!isBase64(code)) break;
      if (hex && !isHexCode(code)) hex = false;
    }
    const end = index;
    let padded = end;
    while (padded < text.length && padded - end < 2 && text.charCodeAt(padded) === 0x3d) padded++;
    const decoded = end - start >= least ? asText(base64Bytes(text, start, end)) : undefined;
    if (decoded !== undefined) runs.push({ start, end: padded, text: decoded });
    if (hex && end - start >= LEAST_HEX_RUN) {
      const read = asText(hexBytes(text, start, end - ((end - start) % 2)));
      if (read !== undefined) runs.push({ start, end, text: read });
    }
  }
  return runs;
}
