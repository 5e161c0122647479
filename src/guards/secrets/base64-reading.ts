/**
 * Base64-wrapped text for `findSecrets` (round 27): a `.env` file, a
 * config or a `docker login` auth string encoded whole
 * (`QVBQX05BTUU9…`) is one token. The entropy detector reports such a token
 * of up to 200 characters; a longer one was a data payload and passed, with
 * every key and password inside it. Such a token of 201 to
 * `longestWrapped` characters that decodes to printable text is now read
 * decoded, and a secret found inside reports the whole token.
 */

import { base64Bytes, latin1Of } from '../shared/base64-decoding';

/**
 * The longest token read so: a window stream holds 1,024 characters
 * (`maxMatchLength`), so a wrapped file is held whole until it ends, as
 * `generate` redacts it whole.
 */
const longestWrapped = 1000;

/** The fewest base64 characters of a wrapped run. */
const shortestWrapped = 201;

/** `[A-Za-z0-9+/]`: a base64 character. */
function isBase64Code(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 47 && code <= 57) ||
    code === 43
  );
}

/** A base64 character, `=`, `_` or `-`: what may not touch a wrapped run. */
function isRunCode(code: number): boolean {
  return isBase64Code(code) || code === 61 || code === 95 || code === 45;
}

/**
 * Each wrapped run of `text` whose decoded bytes are at least 95% printable
 * ASCII, tabs and line breaks: its offsets and the decoded text. A wrapped
 * run is a whole run of base64 characters, `=`, `_` and `-` (no such
 * character touches it) made of 201 to 1,000 base64 characters and at most
 * two `=` (what `/(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{201,1000}={0,2}(?![A-Za-z0-9+/=_-])/g`
 * matches). Such a run holds one of every 201st character: only the runs
 * through those are read, once each (round 28: that regex, tried at every
 * character, cost a quarter of `findSecrets` on the dev sets' first MB, which
 * holds no such run). Linear.
 */
export function base64Wrapped(text: string): Array<{ start: number; end: number; text: string }> {
  const found: Array<{ start: number; end: number; text: string }> = [];
  const length = text.length;
  let runEnd = 0;
  for (let probe = shortestWrapped - 1; probe < length; probe += shortestWrapped) {
    if (probe < runEnd || !isRunCode(text.charCodeAt(probe))) continue;
    let start = probe;
    while (start > runEnd && isRunCode(text.charCodeAt(start - 1))) start--;
    let end = probe + 1;
    while (end < length && isRunCode(text.charCodeAt(end))) end++;
    runEnd = end;
    if (end - start < shortestWrapped || end - start > longestWrapped + 2) continue;
    let digits = start;
    while (digits < end && isBase64Code(text.charCodeAt(digits))) digits++;
    if (digits - start < shortestWrapped || digits - start > longestWrapped || end - digits > 2) {
      continue;
    }
    if (text.slice(digits, end) !== '='.repeat(end - digits)) continue;
    // A whole run of four-character groups (the padding counted), as `atob` reads it.
    if ((end - start) % 4 !== 0) continue;
    const bytes = base64Bytes(text, start, digits);
    let printable = 0;
    for (const byte of bytes) {
      if ((byte >= 0x20 && byte < 0x7f) || byte === 9 || byte === 10 || byte === 13) printable++;
    }
    if (printable >= bytes.length * 0.95) found.push({ start, end, text: latin1Of(bytes) });
  }
  return found;
}
