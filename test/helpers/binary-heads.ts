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
