/**
 * One base64 (and hex) decoder for the guardrails that read encoded text
 * (round 30): `findSecrets`' wrapped runs, `scorePromptInjection`'s decoded
 * segments and `llmJudge`'s reason masking each had their own (`atob` over
 * a rewritten copy, a bit loop, `parseInt` per pair). A table read per
 * character, into bytes: no `atob`, no Node `Buffer` (edge-safe), and a
 * byte string is built 16,384 bytes a call (no call sees 64 KB).
 */

/** The 6-bit value of each base64 and base64url character (`-` as `+`, `_` as `/`), -1 for others. */
const BASE64_VALUES = new Int8Array(128).fill(-1);
for (let value = 0; value < 64; value++) {
  const char = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[value]!;
  BASE64_VALUES[char.charCodeAt(0)] = value;
}
BASE64_VALUES[0x2d] = 62; // -
BASE64_VALUES[0x5f] = 63; // _

/** Whether `code` is a character of base64 or base64url (`A-Z a-z 0-9 + / - _`; not `=`). */
export function isBase64Code(code: number): boolean {
  return code < 0x80 && BASE64_VALUES[code]! >= 0;
}

/** Whether `code` is a hex digit. */
export function isHexCode(code: number): boolean {
  const lower = code | 0x20;
  return (code >= 0x30 && code <= 0x39) || (lower >= 0x61 && lower <= 0x66);
}

/** Whether `byte` is a control character other than tab and line breaks. */
export function isControlByte(byte: number): boolean {
  return (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) || byte === 0x7f;
}

/**
 * Decodes the base64 or base64url characters `text[start, end)` (no `=`:
 * the caller leaves padding out) into `into` from index 0 and returns the
 * count of bytes: the bits of a last, partial byte are dropped, as `atob`
 * drops them. With `stopAtControl`, -1 at the first control byte (a run
 * that is no encoded text stops within a few bytes). `into` holds at least
 * `(end - start) * 3 / 4` bytes. A character of neither alphabet is read
 * as 63 bits set: callers pass runs of base64 characters only.
 */
export function decodeBase64Into(
  text: string,
  start: number,
  end: number,
  into: Uint8Array,
  stopAtControl = false,
): number {
  return decodeBits(text, start, end, into, stopAtControl, 6, BASE64_VALUES);
}

/**
 * Decodes `text[start, end)` at `width` bits a character (their values in
 * `values`) into `into`, as {@link decodeBase64Into} says.
 */
function decodeBits(
  text: string,
  start: number,
  end: number,
  into: Uint8Array,
  stopAtControl: boolean,
  width: number,
  values: Int8Array,
): number {
  let size = 0;
  let bits = 0;
  let count = 0;
  for (let index = start; index < end; index++) {
    bits = ((bits << width) | values[text.charCodeAt(index)]!) & 0xffffff;
    count += width;
    if (count >= 8) {
      count -= 8;
      const byte = (bits >> count) & 0xff;
      if (stopAtControl && isControlByte(byte)) return -1;
      into[size++] = byte;
    }
  }
  return size;
}

/** The bytes of the base64 or base64url characters `text[start, end)` (see {@link decodeBase64Into}). */
export function base64Bytes(text: string, start = 0, end = text.length): Uint8Array {
  const bytes = new Uint8Array(Math.floor(((end - start) * 3) / 4));
  decodeBase64Into(text, start, end, bytes);
  return bytes;
}

/**
 * Decodes the hex digits `text[start, end)` (an even count) into `into`
 * from index 0, as {@link decodeBase64Into}: the count of bytes, or -1 at
 * the first control byte with `stopAtControl`.
 */
export const decodeHexInto: typeof decodeBase64Into = (text, start, end, into, stopAtControl) => {
  let size = 0;
  for (let index = start; index + 1 < end; index += 2) {
    const byte = (hexValue(text.charCodeAt(index)) << 4) | hexValue(text.charCodeAt(index + 1));
    if (stopAtControl && isControlByte(byte)) return -1;
    into[size++] = byte;
  }
  return size;
};

/** The value of a hex digit's code. */
function hexValue(code: number): number {
  return code <= 0x39 ? code - 0x30 : (code | 0x20) - 0x61 + 10;
}

/**
 * Decodes the base32 characters `text[start, end)` (RFC 4648 `A-Z 2-7`,
 * either case; no `=`) into `into` as {@link decodeBase64Into}: the count of
 * bytes, or -1 at the first control byte with `stopAtControl`.
 */
export const decodeBase32Into: typeof decodeBase64Into = (text, start, end, into, stopAtControl) =>
  decodeBits(text, start, end, into, stopAtControl === true, 5, BASE32_VALUES);

/** The 5-bit value of each base32 character, either case. */
const BASE32_VALUES = new Int8Array(128).fill(-1);
for (let value = 0; value < 32; value++) {
  const char = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[value]!;
  BASE32_VALUES[char.charCodeAt(0)] = value;
  BASE32_VALUES[char.toLowerCase().charCodeAt(0)] = value;
}

/** Whether `code` is a base32 character (`A-Z 2-7`, either case). */
export function isBase32Code(code: number): boolean {
  const lower = code | 0x20;
  return (lower >= 0x61 && lower <= 0x7a) || (code >= 0x32 && code <= 0x37);
}

/** Bytes given to one `String.fromCharCode` call (as arguments: well under 64 KB). */
const LATIN1_CHUNK = 16_384;

/** `bytes` as a string of one character per byte (what `atob` returns). */
export function latin1Of(bytes: Uint8Array): string {
  if (bytes.length <= LATIN1_CHUNK) return String.fromCharCode(...bytes);
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += LATIN1_CHUNK) {
    parts.push(String.fromCharCode(...bytes.subarray(at, at + LATIN1_CHUNK)));
  }
  return parts.join('');
}
