import { base64Bytes, decodeHexInto } from '../shared/base64-decoding';
import {
  ascii85Runs,
  base32Bytes,
  base32Runs,
  binaryRuns,
  brailleRuns,
  cipherReadings,
  classRuns,
  type EncodedRun,
  morseRuns,
  natoRuns,
} from './decode-ciphers';

/**
 * Longest piece of an encoded run decoded at once; longer runs are decoded
 * piece by piece (every piece, so nothing past a limit goes unread).
 */
const MAX_SEGMENT_LENGTH = 4096;

/** One encoded run found in a text and what it decodes to. */
export interface DecodedSegment {
  encoding:
    | 'base64'
    | 'hex'
    | 'url'
    | 'tags'
    | 'base32'
    | 'ascii85'
    | 'binary'
    | 'morse'
    | 'braille'
    | 'nato'
    | 'caesar'
    | 'reversed';
  text: string;
}

export const base64Run = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
export const hexRun = /(?:[0-9a-fA-F]{2}[ :]?){12,}/g;
// Percent escapes with the text between them; the run is then widened by hand
// to the word it starts in, so no unbounded prefix is tried at every offset.
export const urlEncodedRun = /(?:%[0-9a-fA-F]{2}[^\s%]{0,24}){4,}/g;

export const utf8 = new TextDecoder('utf-8', { fatal: true });

/** True when a decoded text reads as text: mostly printable, a few letters, some spaces. */
export function looksLikeText(text: string): boolean {
  if (text.length < 8) return false;
  let printable = 0;
  let letters = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0x20 || code === 0x0a || code === 0x09 || code === 0x0d) printable++;
    if (/\p{L}/u.test(char)) letters++;
  }
  const length = Array.from(text).length;
  return printable / length > 0.95 && letters / length > 0.5 && /\s/.test(text);
}

/**
 * True when `bytes` are well-formed UTF-8 as the WHATWG decoder reads it
 * (no overlong forms, surrogates, code points past U+10FFFF or cut
 * sequences): exactly when `utf8.decode` would not throw. Checked first
 * because a thrown error costs far more than this pass, and most runs that
 * look like base64 (keys, tokens, hashes) decode to bytes that are not text.
 */
function isUtf8(bytes: Uint8Array): boolean {
  const length = bytes.length;
  let index = 0;
  while (index < length) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index++;
      continue;
    }
    let needed: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) needed = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      needed = 2;
      if (lead === 0xe0) low = 0xa0;
      else if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      needed = 3;
      if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f;
    } else return false;
    // A cut sequence: its last byte would be past the end.
    if (index + needed >= length) return false;
    const second = bytes[index + 1]!;
    if (second < low || second > high) return false;
    for (let offset = 2; offset <= needed; offset++) {
      const next = bytes[index + offset]!;
      if (next < 0x80 || next > 0xbf) return false;
    }
    index += needed + 1;
  }
  return true;
}

function bytesToText(bytes: Uint8Array): string | undefined {
  if (!isUtf8(bytes)) return undefined;
  try {
    const text = utf8.decode(bytes);
    return looksLikeText(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The bytes of a `base64Run` match, or undefined where it is no base64 to
 * read: a last group of one character (no byte; `atob` throws) or a run
 * without both cases (a plain long word).
 */
export function base64RunBytes(run: string): Uint8Array | undefined {
  const digits = run.replace(/=+$/, '');
  if (digits.length % 4 === 1) return undefined;
  if (!/[A-Z]/.test(digits) || !/[a-z]/.test(digits)) return undefined;
  return base64Bytes(digits);
}

function decodeBase64(run: string): string | undefined {
  const bytes = base64RunBytes(run);
  return bytes && bytesToText(bytes);
}

function decodeHex(run: string): string | undefined {
  const digits = run.replace(/[ :]/g, '');
  if (digits.length % 2 === 1 || !/[a-fA-F]/.test(digits)) return undefined;
  const bytes = new Uint8Array(digits.length / 2);
  decodeHexInto(digits, 0, digits.length, bytes);
  return bytesToText(bytes);
}

function decodeUrl(run: string): string | undefined {
  try {
    const text = decodeURIComponent(run.replace(/\+/g, ' '));
    return looksLikeText(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

export function decodeTags(run: string): string | undefined {
  // Each tag character is a surrogate pair; its low half carries the ASCII
  // code (U+E0000 + c is D B 4 0, DC00 + c). Built in chunks, not with +=.
  const codes: number[] = [];
  const parts: string[] = [];
  for (let index = 0; index + 1 < run.length; index += 2) {
    const code = run.charCodeAt(index + 1) - 0xdc00;
    if (code >= 0x20 && code <= 0x7e) codes.push(code);
    if (codes.length === 4096) {
      parts.push(String.fromCharCode(...codes));
      codes.length = 0;
    }
  }
  parts.push(String.fromCharCode(...codes));
  const text = parts.join('');
  return text.trim() === '' ? undefined : text;
}

/** Cuts a run into pieces of at most `MAX_SEGMENT_LENGTH` (a multiple of 4 and of 2). */
export function* pieces(run: string): Generator<string> {
  for (let start = 0; start < run.length; start += MAX_SEGMENT_LENGTH) {
    yield run.slice(start, start + MAX_SEGMENT_LENGTH);
  }
}

/**
 * Finds base64, hex, URL-encoded and Unicode-tag runs in `text`, runs of
 * base32, 8-bit binary, Morse code, Braille and NATO spelling, and pieces
 * in a Caesar cipher or spelt backwards (`decode-ciphers.ts`), and returns every one that decodes to readable
 * text, so that it can be judged too. Long runs are decoded in pieces of
 * `MAX_SEGMENT_LENGTH`; the total work is linear in the length of the text.
 */
export function decodeSegments(text: string): DecodedSegment[] {
  return readEncodings(text).segments;
}

/** What `readEncodings` found in a text. */
export interface EncodingReadings {
  /** The decoded segments, as `decodeSegments` gives them. */
  segments: DecodedSegment[];
  /**
   * The text with the written form of each run of base32 (when it decodes
   * to text), 8-bit binary, Morse code, Braille and NATO spelling replaced
   * by a space: what the model reads as the text itself, so that the look
   * of an encoding is never scored, only what it says (its segment).
   * The text itself when no such run was found.
   */
  masked: string;
}

/**
 * `decodeSegments`, and the text with the written form of the cipher runs
 * left out (`masked`). The model reads the masked text both in training
 * and when it scores: otherwise it learns the surface of an encoding (0/1
 * groups, dots and dashes, code words) as an attack, because the only
 * encoded rows it is trained on are attacks, and flags any encoded text
 * whatever it says (issue 15).
 */
export function readEncodings(text: string): EncodingReadings {
  const found: DecodedSegment[] = [];
  const scans: Array<[DecodedSegment['encoding'], RegExp, (run: string) => string | undefined]> = [
    ['base64', base64Run, decodeBase64],
    ['hex', hexRun, decodeHex],
  ];
  if (text.includes('%')) scans.push(['url', urlEncodedRun, decodeUrl]);

  const runs = encodedRuns(text);
  for (const [encoding, pattern, decode] of scans) {
    for (const match of encoding === 'base64'
      ? base64Runs(text, runs.base64)
      : encoding === 'hex'
        ? hexRuns(text, runs.hex)
        : text.matchAll(pattern)) {
      let run = match[0];
      if (encoding === 'url') {
        // Widen to the start of the word, at most 64 characters back.
        let start = match.index;
        while (start > 0 && match.index - start < 64 && !/[\s%]/.test(text[start - 1]!)) start--;
        run = text.slice(start, match.index) + run;
      }
      for (const piece of encoding === 'tags' ? [run] : pieces(run)) {
        const decoded = decode(piece);
        if (decoded !== undefined) found.push({ encoding, text: decoded });
      }
    }
  }
  for (const run of tagRuns(text)) {
    const decoded = decodeTags(run);
    if (decoded !== undefined) found.push({ encoding: 'tags', text: decoded });
  }
  const spans: number[] = [];
  cipherSegments(text, found, spans);
  return { segments: found, masked: maskSpans(text, spans) };
}

/** The text with the written form of its cipher runs replaced by a space (see `readEncodings`). */
export function maskEncodedRuns(text: string): string {
  const spans: number[] = [];
  cipherSegments(text, [], spans);
  return maskSpans(text, spans);
}

/** `text` with each [start, end) pair of `spans` (in any order, may overlap) replaced by a space. */
function maskSpans(text: string, spans: number[]): string {
  if (spans.length === 0) return text;
  const order: Array<[number, number]> = [];
  for (let index = 0; index < spans.length; index += 2) {
    order.push([spans[index]!, spans[index + 1]!]);
  }
  order.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of order) {
    if (end <= at) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(' ');
    at = Math.max(at, end);
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/**
 * Appends the readable decodings of the cipher runs of `text` (see
 * `decode-ciphers.ts`) to `found`, and the [start, end) pairs of the runs
 * whose written form the model does not read to `spans`: every run a
 * reader accepts (binary, Morse, Braille, NATO: a small alphabet, which
 * ordinary text seldom is), and a base32 run only when it decodes to text
 * (its alphabet is that of upper-case identifiers and serial numbers).
 * Also the Caesar and reversed readings of pieces of text, masked when
 * they read as text.
 */
function cipherSegments(text: string, found: DecodedSegment[], spans: number[]): void {
  const keep = (encoding: DecodedSegment['encoding'], decoded: string | undefined) => {
    if (decoded === undefined || !looksLikeText(decoded)) return false;
    found.push({ encoding, text: decoded });
    return true;
  };
  const read = <T>(
    encoding: DecodedSegment['encoding'],
    runs: ReadonlyArray<EncodedRun<T>>,
    decode: (value: T) => string | undefined,
  ) => {
    for (const run of runs) {
      keep(encoding, decode(run.value));
      spans.push(run.start, run.end);
    }
  };
  for (const run of base32Runs(text)) {
    let readable = false;
    for (const piece of pieces(run.value)) {
      if (keep('base32', bytesToText(base32Bytes(piece)))) readable = true;
    }
    if (readable) spans.push(run.start, run.end);
  }
  // ascii85's alphabet is most of printable ASCII: as base32, a run is
  // masked only when it decodes to text.
  for (const run of ascii85Runs(text)) {
    let readable = false;
    for (const piece of run.value) if (keep('ascii85', bytesToText(piece))) readable = true;
    if (readable) spans.push(run.start, run.end);
  }
  read('binary', binaryRuns(text), bytesToText);
  read('morse', morseRuns(text), decoded => decoded);
  read('braille', brailleRuns(text), decoded => decoded);
  read('nato', natoRuns(text), decoded => decoded);
  // Caesar and reversed pieces: read in every text, in bounded pieces
  // (`CIPHER_PIECE_LENGTH`); a piece read so counts by its reading, as a run
  // does, so its written form is masked too (an ordinary sentence in ROT13
  // would otherwise look like an adversarial suffix to the model).
  for (const reading of cipherReadings(text)) {
    if (keep(reading.encoding, reading.text)) spans.push(reading.start, reading.end);
  }
}

/** Membership of ASCII codes in `base64Run`'s class (1) and `hexRun`'s (2: hex digit, 4: ' ' or ':'). */
const runClass = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') {
  runClass[char.charCodeAt(0)]! |= 1;
}
for (const char of '0123456789abcdefABCDEF') runClass[char.charCodeAt(0)]! |= 2;
runClass[32]! |= 4;
runClass[58]! |= 4;

/** A match as `matchAll` gives it: the text at 0 and its offset. */
type RunMatch = { 0: string; index: number };

/**
 * The base64 and hex runs of a text, from the character classes (instead of
 * `base64Run` and `hexRun` over the whole text: the first retries every word
 * of ordinary text at each of its letters). `base64`: the `base64Run`
 * matches, as [start, end) pairs: maximal runs of base64 characters at least
 * 16 long, with up to two '=' after them. `hex`: the runs of hex digits,
 * blanks and colons, from a hex digit on, that hold at least 24 hex digits
 * (a `hexRun` match needs 12 pairs), as [start, end) pairs: every `hexRun`
 * match lies inside one of them.
 */
function encodedRuns(text: string): { base64: number[]; hex: number[] } {
  const base64 = longRuns(text, BASE64_CLASS, 16);
  for (let index = 1; index < base64.length; index += 2) {
    let end = base64[index]!;
    if (end < text.length && text.charCodeAt(end) === 61) end++;
    if (end < text.length && text.charCodeAt(end) === 61) end++;
    base64[index] = end;
  }
  // A hex run holds at least 24 characters of its class: it lies in such a
  // stretch, and starts at the stretch's first hex digit.
  const stretches = longRuns(text, HEX_CLASS | HEX_SEPARATOR_CLASS, 24);
  const hex: number[] = [];
  for (let index = 0; index < stretches.length; index += 2) {
    const end = stretches[index + 1]!;
    let first = -1;
    let digits = 0;
    for (let at = stretches[index]!; at < end; at++) {
      if ((runClass[text.charCodeAt(at)]! & HEX_CLASS) === 0) continue;
      if (first < 0) first = at;
      digits++;
    }
    if (digits >= 24) hex.push(first, end);
  }
  return { base64, hex };
}

const BASE64_CLASS = 1;
const HEX_CLASS = 2;
const HEX_SEPARATOR_CLASS = 4;

/**
 * The maximal runs of characters of `runClass` class `mask` that are at
 * least `minLength` long, as [start, end) pairs (see `classRuns`: a text of
 * short words costs a few reads per `minLength` characters).
 */
function longRuns(text: string, mask: number, minLength: number): number[] {
  return classRuns(text, unit => unit < 128 && (runClass[unit]! & mask) !== 0, minLength);
}

/** The `base64Run` matches of `text` (from `encodedRuns`). */
function* base64Runs(text: string, bounds: number[]): Generator<RunMatch> {
  for (let index = 0; index < bounds.length; index += 2) {
    yield { 0: text.slice(bounds[index]!, bounds[index + 1]!), index: bounds[index]! };
  }
}

/**
 * The `hexRun` matches of `text`: the regex runs only inside the runs
 * `encodedRuns` found, which gives the same matches at the same offsets (a
 * match never starts with a blank or colon, and never crosses another
 * character).
 */
function* hexRuns(text: string, bounds: number[]): Generator<RunMatch> {
  for (let index = 0; index < bounds.length; index += 2) {
    const start = bounds[index]!;
    for (const match of text.slice(start, bounds[index + 1]!).matchAll(hexRun)) {
      yield { 0: match[0], index: start + match.index };
    }
  }
}

/**
 * Runs of Unicode tag characters (U+E0001, U+E0020..E007F: "ASCII
 * smuggling"), found by a scan of surrogate pairs rather than a regex, so a
 * megabyte-long run costs one pass.
 */
export function tagRuns(text: string): string[] {
  const runs: string[] = [];
  let start = -1;
  let index = text.indexOf('\udb40');
  if (index < 0) return runs;
  for (; index <= text.length; index += 2) {
    const low =
      index + 1 < text.length && text.charCodeAt(index) === 0xdb40
        ? text.charCodeAt(index + 1)
        : -1;
    const isTag = low === 0xdc01 || (low >= 0xdc20 && low <= 0xdc7f);
    if (isTag && start < 0) start = index;
    if (!isTag) {
      if (start >= 0) runs.push(text.slice(start, index));
      start = -1;
      const next = text.indexOf('\udb40', index + 1);
      if (next < 0) break;
      index = next - 2;
    }
  }
  return runs;
}
