/**
 * Base64-wrapped text for `findSecrets` (round 27): a `.env` file, a
 * config or a `docker login` auth string encoded whole
 * (`QVBQX05BTUU9…`) is one token. The entropy detector reports such a token
 * of up to 200 characters; a longer one was a data payload and passed, with
 * every key and password inside it. Such a token of 201 to
 * `longestWrapped` characters that decodes to printable text is now read
 * decoded, and a secret found inside reports the whole token.
 */

/**
 * The longest token read so: a window stream holds 1,024 characters
 * (`maxMatchLength`), so a wrapped file is held whole until it ends, as
 * `generate` redacts it whole.
 */
const longestWrapped = 1000;

/** A run of base64 characters of 201 to 1,000, maybe padded, that no other such character touches. */
const wrappedRun = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{201,1000}={0,2}(?![A-Za-z0-9+/=_-])/g;

/**
 * Each wrapped run of `text` (`wrappedRun`) whose decoded bytes are at
 * least 95% printable ASCII, tabs and line breaks: its offsets and the
 * decoded text. One regex pass whose runs start only where a run starts;
 * linear.
 */
export function base64Wrapped(text: string): Array<{ start: number; end: number; text: string }> {
  const found: Array<{ start: number; end: number; text: string }> = [];
  if (text.length < 201) return found;
  wrappedRun.lastIndex = 0;
  for (let match = wrappedRun.exec(text); match; match = wrappedRun.exec(text)) {
    const run = match[0];
    if (run.length > longestWrapped + 2 || run.length % 4 !== 0) continue;
    let decoded: string;
    try {
      decoded = atob(run);
    } catch {
      continue;
    }
    let printable = 0;
    for (let at = 0; at < decoded.length; at++) {
      const code = decoded.charCodeAt(at);
      if ((code >= 0x20 && code < 0x7f) || code === 9 || code === 10 || code === 13) printable++;
    }
    if (printable >= decoded.length * 0.95) {
      found.push({ start: match.index, end: match.index + run.length, text: decoded });
    }
  }
  return found;
}
