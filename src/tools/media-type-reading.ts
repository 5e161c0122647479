/**
 * The text a guardrail judges for a file's media type. Its parameters can be
 * written so that a reader decoding them sees another text than the one
 * written: RFC 2231 / RFC 8187 extended values (`name*=utf-8''4111%201111…`),
 * their continuations (`title*0*=…; title*1*=…`, joined in order) and a
 * quoted string's escapes (`name="41\11 1111…"`). Round 25: pii and secrets
 * judged only the written text, so those values passed. The judged text is
 * the media type as written and, when a parameter reads otherwise decoded, a
 * second line of the media type with every parameter decoded: both readings
 * are judged at once. One pass over the text, no backtracking.
 */

/** A media type's judged text, or why its parameters cannot be decoded (fail closed). */
export type MediaTypeReading =
  | { text: string; unreadable?: undefined }
  | { unreadable: string; text?: undefined };

interface Parameter {
  name: string;
  value: string;
  /** The value was percent-encoded (`name*=` or `name*0*=`). */
  encoded: boolean;
  /** Its continuation number (`name*2`), -1 when it is not one. */
  index: number;
}

const EXTENDED_NAME = /^([^*]*)\*(?:(\d{1,6})(\*)?)?$/;

/**
 * {@link MediaTypeReading} of `mediaType`: as written when no parameter
 * reads otherwise decoded, else the written text, a line break, and the
 * bare type with each parameter decoded (`text/plain; name=4111 1111 …`).
 * A parameter that cannot be decoded (an unterminated quote, `%` not
 * followed by two hex digits, a charset other than UTF-8, US-ASCII or
 * ISO-8859-1, bytes not text in it, continuations given twice or with a
 * gap) is `unreadable`, naming what was wrong and never a value.
 */
export function mediaTypeReading(mediaType: string): MediaTypeReading {
  const semicolon = mediaType.indexOf(';');
  if (semicolon < 0) return { text: mediaType };
  const parameters: Parameter[] = [];
  let decoded = false;
  let at = semicolon + 1;
  const length = mediaType.length;
  while (at < length) {
    while (at < length && isSpace(mediaType.charCodeAt(at))) at++;
    if (at >= length) break;
    if (mediaType[at] === ';') {
      at++;
      continue;
    }
    let end = at;
    while (end < length && mediaType[end] !== '=' && mediaType[end] !== ';') end++;
    const name = mediaType.slice(at, end).trim().toLowerCase();
    let value = '';
    at = end;
    if (mediaType[at] === '=') {
      at++;
      while (at < length && isSpace(mediaType.charCodeAt(at))) at++;
      if (mediaType[at] === '"') {
        // A quoted string: `\x` reads `x`.
        let read = '';
        let from = ++at;
        let closed = false;
        while (at < length) {
          const character = mediaType[at];
          if (character === '\\') {
            if (at + 1 >= length) break;
            read += mediaType.slice(from, at);
            from = at + 1;
            at += 2;
            decoded = true;
          } else if (character === '"') {
            closed = true;
            break;
          } else at++;
        }
        if (!closed)
          return { unreadable: 'a media type parameter has an unterminated quoted string' };
        value = read + mediaType.slice(from, at);
        at++;
        // Anything between the closing quote and the next `;` is read as written.
        const next = mediaType.indexOf(';', at);
        const rest = mediaType.slice(at, next < 0 ? length : next).trim();
        value += rest;
        at = next < 0 ? length : next;
      } else {
        const next = mediaType.indexOf(';', at);
        value = mediaType.slice(at, next < 0 ? length : next).trim();
        at = next < 0 ? length : next;
      }
    }
    const extended = EXTENDED_NAME.exec(name);
    if (extended) {
      decoded = true;
      parameters.push({
        name: extended[1]!,
        value,
        encoded: extended[2] === undefined || extended[3] !== undefined,
        index: extended[2] === undefined ? -1 : Number(extended[2]),
      });
    } else {
      // An RFC 2047 encoded word (`=?utf-8?B?…?=`), as mail readers show a file name.
      if (value.includes('=?')) decoded = true;
      parameters.push({ name, value, encoded: false, index: -1 });
    }
  }
  if (!decoded) return { text: mediaType };
  const values = decodedParameters(parameters);
  if (typeof values === 'string') return { unreadable: values };
  let reading = mediaType.slice(0, semicolon).trim();
  for (const [name, value] of values) reading += `; ${name}=${value}`;
  return { text: `${mediaType}\n${reading}` };
}

/**
 * Each parameter's decoded value with its name, in the order written (a
 * name's continuations where its first is); a string says why not. A name
 * given twice (`name*=…; name=…`, `filename` beside `filename*`) keeps
 * both values (round 26: the last replaced the first, so
 * `name*=utf-8''4111%201111…; name=x` read `name=x` only).
 */
function decodedParameters(parameters: readonly Parameter[]): Array<[string, string]> | string {
  const values: Array<[string, string]> = [];
  const continued = new Map<string, { at: number; segments: Map<number, Parameter> }>();
  for (const parameter of parameters) {
    if (parameter.index < 0) {
      const value = parameter.encoded
        ? decodedExtended([parameter])
        : decodedWords(parameter.value);
      if (value.why !== undefined) return value.why;
      values.push([parameter.name, value.text]);
      continue;
    }
    let group = continued.get(parameter.name);
    if (!group) {
      group = { at: values.length, segments: new Map() };
      continued.set(parameter.name, group);
      values.push([parameter.name, '']);
    }
    if (group.segments.has(parameter.index)) return GAP;
    group.segments.set(parameter.index, parameter);
  }
  for (const [name, { at, segments }] of continued) {
    // Numbered 0…n-1 once each: each of 0…n-1 is there (n lookups, n the
    // name's own count: all names together within the count of parameters).
    const joined: Parameter[] = [];
    for (let i = 0; i < segments.size; i++) {
      const segment = segments.get(i);
      if (segment === undefined) return GAP;
      joined.push(segment);
    }
    const value = decodedExtended(joined);
    if (value.why !== undefined) return value.why;
    values[at] = [name, value.text];
  }
  return values;
}

const GAP = "a media type parameter's continuations are not numbered 0, 1, 2… once each";
const CANNOT = 'a media type parameter cannot be decoded:';
const NO_PREFIX = { why: `${CANNOT} it has no charset'language' prefix` };
const BAD_ESCAPE = { why: `${CANNOT} a % in it is not followed by two hex digits` };
const NOT_ASCII = { why: `${CANNOT} it holds a character outside US-ASCII` };
const NOT_TEXT = { why: `${CANNOT} its bytes are not text in its charset` };
const CHARSET = { why: `${CANNOT} its charset is not UTF-8, US-ASCII or ISO-8859-1` };

/**
 * The text of an extended parameter's segments (one for `name*=`): the
 * first encoded one opens with `charset'language'`; encoded segments are
 * percent-decoded to bytes, others are taken as written; the bytes are read
 * in the charset. `why` when they cannot be.
 */
function decodedExtended(
  segments: readonly Parameter[],
): { text: string; why?: undefined } | { why: string } {
  let charset = 'us-ascii';
  const bytes: number[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    let value = segment.value;
    if (i === 0 && segment.encoded) {
      const first = value.indexOf("'");
      const second = first < 0 ? -1 : value.indexOf("'", first + 1);
      if (second < 0) return NO_PREFIX;
      // `''value` (no charset, RFC 2231) is read as UTF-8.
      charset = value.slice(0, first).trim().toLowerCase() || 'utf-8';
      value = value.slice(second + 1);
    }
    for (let at = 0; at < value.length; at++) {
      const code = value.charCodeAt(at);
      if (segment.encoded && code === 37 /* % */) {
        const byte = hexByte(value.charCodeAt(at + 1), value.charCodeAt(at + 2));
        if (byte < 0) return BAD_ESCAPE;
        bytes.push(byte);
        at += 2;
      } else if (code > 0x7f) return NOT_ASCII;
      else bytes.push(code);
    }
  }
  const text = inCharset(Uint8Array.from(bytes), charset);
  // An encoded word inside (`name*=utf-8''%3D%3Futf-8%3FB%3F…`), as a mail
  // reader decoding both shows it (round 26: read as `=?utf-8?B?…?=`).
  return text.why === undefined ? decodedWords(text.text) : text;
}

/** An encoded word: `=?charset?B?base64?=` or `=?charset?Q?quoted?=` (RFC 2047). */
const ENCODED_WORD = /=\?([^?\s]{1,40})\?([BbQq])\?([^?\s]*)\?=/g;
const BAD_WORD = { why: `${CANNOT} an encoded word (=?…?=) in it is not base64 or quoted text` };

/**
 * A parameter's value with each RFC 2047 encoded word decoded (white space
 * between two encoded words dropped, as RFC 2047 reads it); `why` when one
 * cannot be. One pass of a regular expression without nested repetition.
 */
function decodedWords(value: string): { text: string; why?: undefined } | { why: string } {
  if (!value.includes('=?')) return { text: value };
  let text = '';
  let last = 0;
  let previousWord = -1;
  for (const match of value.matchAll(ENCODED_WORD)) {
    const between = value.slice(last, match.index);
    if (!(previousWord === last && between.trim() === '')) text += between;
    const [, charset, encoding, encoded] = match as unknown as [string, string, string, string];
    let bytes: Uint8Array;
    if (encoding === 'B' || encoding === 'b') {
      let binary: string;
      try {
        binary = atob(encoded);
      } catch {
        return BAD_WORD;
      }
      bytes = Uint8Array.from(binary, character => character.charCodeAt(0));
    } else {
      const out: number[] = [];
      for (let at = 0; at < encoded.length; at++) {
        const code = encoded.charCodeAt(at);
        if (code === 61 /* = */) {
          const byte = hexByte(encoded.charCodeAt(at + 1), encoded.charCodeAt(at + 2));
          if (byte < 0) return BAD_WORD;
          out.push(byte);
          at += 2;
        } else out.push(code === 95 /* _ */ ? 32 : code);
      }
      bytes = Uint8Array.from(out);
    }
    // `charset*language` (RFC 2231 section 5): the charset before the star.
    const read = inCharset(bytes, charset.split('*')[0]!.toLowerCase());
    if (read.why !== undefined) return read;
    text += read.text;
    last = match.index + match[0].length;
    previousWord = last;
  }
  return { text: text + value.slice(last) };
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `bytes` read in `charset` (UTF-8, US-ASCII, ISO-8859-1); `why` for another or bytes not text in it. */
function inCharset(
  array: Uint8Array,
  charset: string,
): { text: string; why?: undefined } | { why: string } {
  if (charset === 'utf-8' || charset === 'utf8') {
    try {
      return { text: STRICT_UTF8.decode(array) };
    } catch {
      return NOT_TEXT;
    }
  }
  if (charset === 'us-ascii' || charset === 'ascii') {
    return array.every(byte => byte < 0x80) ? { text: latin1(array) } : NOT_TEXT;
  }
  return charset === 'iso-8859-1' || charset === 'latin1' ? { text: latin1(array) } : CHARSET;
}

/** ISO-8859-1 bytes as the characters of the same codes (TextDecoder's `latin1` is windows-1252). */
function latin1(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += 8192) {
    text += String.fromCharCode(...bytes.subarray(at, at + 8192));
  }
  return text;
}

function hexByte(high: number, low: number): number {
  const a = hexDigit(high);
  const b = hexDigit(low);
  return a < 0 || b < 0 ? -1 : a * 16 + b;
}

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;
