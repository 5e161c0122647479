/**
 * The heads of real binary files, for tests that need a file no guardrail
 * reads: a signature alone is no format (a client can write one before its
 * text, round 22), so a fake image or PDF carries the structure a provider's
 * parser finds behind it.
 */

const bytesOf = (text: string) => Array.from(text, character => character.charCodeAt(0));

/** A PNG's signature and its IHDR chunk (1x1, RGBA, with its CRC). */
export const PNG_HEAD: readonly number[] = [
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
  0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
  0x89,
];

/** A PDF's header, its binary marker line and its first object's header. */
export const PDF_HEAD: readonly number[] = [
  ...bytesOf('%PDF-1.7\n%'),
  0xe2,
  0xe3,
  0xcf,
  0xd3,
  ...bytesOf('\n1 0 obj\n'),
];

/** `length` bytes of a fixed pseudo-random sequence (compressed or encrypted data reads so). */
export function pseudoRandomBytes(length: number, seed = 0x12345678): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let index = 0; index < bytes.length; index++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

/** A PNG's IEND chunk (its end, with its CRC). */
export const PNG_END: readonly number[] = [
  0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/**
 * A whole PNG (round 23: only its chunks are the format's; bytes after IEND
 * or past a chunk's length are read as text): its head, `data` in one IDAT
 * chunk (the CRC is not checked), IEND.
 */
export function pngHolding(data: ArrayLike<number>): Uint8Array {
  const n = data.length;
  return Uint8Array.from([
    ...PNG_HEAD,
    n >>> 24,
    (n >>> 16) & 0xff,
    (n >>> 8) & 0xff,
    n & 0xff,
    ...bytesOf('IDAT'),
    ...Array.from(data),
    0,
    0,
    0,
    0,
    ...PNG_END,
  ]);
}

/**
 * A PDF whose first object is a stream of `data` with a `/Filter` (round 23:
 * only the bodies of filtered streams are the format's; the rest of a PDF
 * is read as text), then its end. The filter is an image codec's
 * (`/JPXDecode`), whose data is not read (round 24 inflates `/FlateDecode`
 * streams and reads them; a body that is no deflate data fails closed).
 */
export function pdfHolding(data: ArrayLike<number>): Uint8Array {
  return Uint8Array.from([
    ...PDF_HEAD,
    ...bytesOf(`<< /Length ${data.length} /Filter /JPXDecode >>\nstream\n`),
    ...Array.from(data),
    ...bytesOf('\nendstream\nendobj\n%%EOF\n'),
  ]);
}

const encode = (text: string) => new TextEncoder().encode(text);
const joined = (...parts: ArrayLike<number>[]) =>
  Uint8Array.from(parts.flatMap(part => Array.from(part)));

/** A gettext catalog (`.mo`): its header, the tables of its strings, the strings NUL-terminated. */
export function moCatalog(pairs: Array<[string, string]>): Uint8Array {
  const strings = pairs.flat().map(encode);
  const tables = 28;
  let at = tables + 16 * pairs.length;
  const entries = strings.map(bytes => {
    const entry = [bytes.length, at];
    at += bytes.length + 1;
    return entry;
  });
  const words = [
    0x950412de,
    0,
    pairs.length,
    tables,
    tables + 8 * pairs.length,
    0,
    at,
    ...entries.filter((_, i) => i % 2 === 0).flat(),
    ...entries.filter((_, i) => i % 2 === 1).flat(),
  ];
  const head = new Uint8Array(words.length * 4);
  const view = new DataView(head.buffer);
  for (const [i, word] of words.entries()) view.setUint32(4 * i, word, true);
  return joined(head, ...strings.map(bytes => [...bytes, 0]));
}

/** Compiled Python (`.pyc`): its header (magic, flags, date, size), then marshalled code. */
export const pyc = (text: string) =>
  joined(
    [0xcb, 0x0d, 0x0d, 0x0a, 0, 0, 0, 0, 0x12, 0x34, 0x56, 0x67, 0x20, 0, 0, 0],
    [0xe3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0xf3],
    [0x73, text.length, 0, 0, 0],
    encode(text),
    [0x4e, 0x29, 0x01, 0xda, 0x05],
    encode('print'),
  );
