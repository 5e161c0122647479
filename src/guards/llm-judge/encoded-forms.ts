/**
 * Base64 and hex runs of a text decoded, for `llmJudge`'s reason masking
 * (round 29): a judge steered into writing a judged value in base64
 * (`aHVudGVyMg==` for `hunter2`) or hex (`68756e74657232`) quoted it
 * unmasked, and so did one that decoded a judged text's base64 run
 * (`cGFzc3dvcmQ9aHVudGVyMg==`) into its reason. A run is kept only when it
 * decodes to printable UTF-8 text: most words and ids decode to bytes that
 * are no text and are passed over. No Node built-ins (edge-safe); linear.
 */

import {
  decodeBase64Into,
  decodeHexInto,
  isBase64Code,
  isHexCode,
} from '../shared/base64-decoding';

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

// Fatal: bytes that are no UTF-8 are no text.
const utf8 = new TextDecoder('utf-8', { fatal: true });

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

/** `buffer` holding at least `size` bytes (grown as needed). */
function bufferOf(size: number): Uint8Array {
  if (buffer.length < size) buffer = new Uint8Array(2 * size);
  return buffer;
}

/**
 * The base64 and hex runs of `text` (a reason, or with `judged` a judged
 * text: longer base64 runs only) that decode to printable text. A hex run
 * is also a base64 run: each reading that is text is kept.
 */
export function decodedRuns(text: string, judged = false): DecodedRun[] {
  const least = judged ? LEAST_JUDGED_RUN : LEAST_REASON_RUN;
  const runs: DecodedRun[] = [];
  for (let index = 0; index < text.length; ) {
    if (!isBase64Code(text.charCodeAt(index))) {
      index++;
      continue;
    }
    const start = index;
    let hex = true;
    for (; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (!isBase64Code(code)) break;
      if (hex && !isHexCode(code)) hex = false;
    }
    const end = index;
    let padded = end;
    while (padded < text.length && padded - end < 2 && text.charCodeAt(padded) === 0x3d) padded++;
    const decoded =
      end - start >= least
        ? asText(decodeBase64Into(text, start, end, bufferOf(end - start), true))
        : undefined;
    if (decoded !== undefined) runs.push({ start, end: padded, text: decoded });
    if (hex && end - start >= LEAST_HEX_RUN) {
      const even = end - ((end - start) % 2);
      const read = asText(decodeHexInto(text, start, even, bufferOf(even - start), true));
      if (read !== undefined) runs.push({ start, end, text: read });
    }
  }
  return runs;
}
