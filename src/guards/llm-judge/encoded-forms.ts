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
  decodeBase32Into,
  decodeBase64Into,
  decodeHexInto,
  isBase32Code,
  isBase64Code,
  isControlByte,
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

const lenient = new TextDecoder('utf-8');

/** Fewest characters of a reading that starts inside a run (mid-word): reason, judged text. */
const LEAST_REASON_TAIL = 6;
const LEAST_JUDGED_TAIL = 7;
/**
 * Group starts tried in a reason's run read from inside: every group of
 * one, as a reason is at most 300 characters (`boundedReason`). Round 34:
 * 8 groups, so a value glued after a word of more than 32 characters that
 * decodes to printable bytes (and before another word) was shown.
 */
const REASON_TAIL_STARTS = 75;

/**
 * The readings of the base64 run `text[start, end)` that start inside it
 * (round 30): a value encoded after a word with no break (`keycGFz…`,
 * `tokenaHVudGVy…`) reads as garbage from the run's first character. For
 * each of the four alignments, the groups at the run's end that decode to
 * no control byte are read (back from the end, so a run of random base64
 * stops within a few groups); for a judged text, that tail as UTF-8 text
 * (what a bad sequence leaves out dropped); for a reason, also each tail
 * of it from one of its first groups, so a word glued before the value
 * that decodes to printable bytes is left out too.
 */
function innerReadings(text: string, start: number, end: number, judged: boolean): string[] {
  const readings: string[] = [];
  const scratch = bufferOf(8);
  const clean = (from: number, to: number) => {
    const size = decodeBase64Into(text, from, to, scratch);
    for (let at = 0; at < size; at++) if (isControlByte(scratch[at]!)) return false;
    return true;
  };
  const least = judged ? LEAST_JUDGED_TAIL : LEAST_REASON_TAIL;
  for (let shift = 0; shift < 4; shift++) {
    const first = start + shift;
    if (end - first < 8) break;
    let tail = first + 4 * Math.floor((end - first) / 4);
    if (!clean(tail, end)) continue;
    while (tail - 4 >= first && clean(tail - 4, tail)) tail -= 4;
    if (tail === start || end - tail < least) continue;
    const starts = judged ? 1 : REASON_TAIL_STARTS;
    for (let group = 0; group < starts && end - (tail + 4 * group) >= least; group++) {
      const from = tail + 4 * group;
      const size = decodeBase64Into(text, from, end, bufferOf(end - from));
      let lead = 0;
      while (lead < size && (buffer[lead]! & 0xc0) === 0x80) lead++;
      const decoded = lenient.decode(buffer.subarray(lead, size));
      const read = decoded.slice(decoded.lastIndexOf('\ufffd') + 1);
      if (read.length >= least && /[\p{L}\p{N}]/u.test(read)) readings.push(read);
    }
  }
  if (!judged) readings.push(...headReadings(text, start, end));
  return readings;
}

/** Most characters a reason's run is read forward from inside it (`headReadings`): 48 bytes. */
const HEAD_READ_CHARS = 64;

/**
 * A reason's run read forward from each of its first groups, in each of
 * the four alignments, up to the first control byte (round 32): a value
 * with letters glued on both sides (`xxaHVudGVyMgyy`) decodes to garbage
 * from the run's start and, back from its end, from the word glued after
 * it. Each reading is at most 48 bytes; a reason is short, so these are
 * 32 small decodes a run at most.
 */
function headReadings(text: string, start: number, end: number): string[] {
  const readings: string[] = [];
  for (let shift = 0; shift < 4; shift++) {
    for (let group = 0; group < REASON_TAIL_STARTS; group++) {
      const from = start + shift + 4 * group;
      if (end - from < 8) break;
      const to = Math.min(end, from + HEAD_READ_CHARS);
      const size = decodeBase64Into(text, from, to, bufferOf(to - from));
      let cut = 0;
      while (cut < size && !isControlByte(buffer[cut]!)) cut++;
      const decoded = lenient.decode(buffer.subarray(0, cut));
      const bad = decoded.indexOf('\ufffd');
      const read = bad < 0 ? decoded : decoded.slice(0, bad);
      if (read.length >= LEAST_REASON_TAIL && /[\p{L}\p{N}]/u.test(read)) readings.push(read);
    }
  }
  return readings;
}

/**
 * The base64 and hex runs of `text` (a reason, or with `judged` a judged
 * text: longer base64 runs only) that decode to printable text. A hex run
 * is also a base64 run: each reading that is text is kept. Since round
 * 30 a run is also read from inside (see `innerReadings`), and a reason's
 * run of one case (`NB2W45DFOIZA====`) is also read as base32.
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
    let upper = true;
    let lower = true;
    for (; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (!isBase64Code(code)) break;
      if (hex && !isHexCode(code)) hex = false;
      if (judged || !(upper || lower)) continue;
      if (!isBase32Code(code)) upper = lower = false;
      else if (code >= 0x61) upper = false;
      else if (code >= 0x41) lower = false;
    }
    const end = index;
    let padded = end;
    while (padded < text.length && padded - end < 2 && text.charCodeAt(padded) === 0x3d) padded++;
    const decoded =
      end - start >= least
        ? asText(decodeBase64Into(text, start, end, bufferOf(end - start), true))
        : undefined;
    if (decoded !== undefined) runs.push({ start, end: padded, text: decoded });
    // A judged run read whole needs no reading from inside (a text of many such words pays one each).
    if (end - start >= least && !(judged && decoded !== undefined)) {
      for (const read of new Set(innerReadings(text, start, end, judged))) {
        if (read !== decoded) runs.push({ start, end: padded, text: read });
      }
    }
    if (hex && end - start >= LEAST_HEX_RUN) {
      const even = end - ((end - start) % 2);
      const read = asText(decodeHexInto(text, start, even, bufferOf(even - start), true));
      if (read !== undefined) runs.push({ start, end, text: read });
    }
    if (!judged && (upper || lower) && end - start >= LEAST_BASE32_RUN) {
      let base32End = end;
      while (
        base32End < text.length &&
        base32End - end < 6 &&
        text.charCodeAt(base32End) === 0x3d
      ) {
        base32End++;
      }
      const read = asText(decodeBase32Into(text, start, end, bufferOf(end - start), true));
      if (read !== undefined) runs.push({ start, end: base32End, text: read });
    }
  }
  return runs;
}

/** Shortest base32 run decoded in a reason (five bytes). */
const LEAST_BASE32_RUN = 8;
