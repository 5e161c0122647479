/**
 * A second reading of a text for `findSecrets`: its percent escapes
 * (`%5F`, `%2D`, `%3D`) and HTML character references (`&#95;`, `&#x5f;`,
 * `&lowbar;`, `&equals;`) decoded, as a browser, a URL parser or a person
 * copying the value reads them. Round 27: `ghp%5Fq8Zr…` in a query string
 * and `ghp&#95;q8Zr…` in an HTML page were read as an entropy token after
 * a visible `ghp%` / `ghp&#95;` (so typed as no key), and
 * `password&#61;Tr0ub4dor3x`, `password%3DTr0ub4dor3x` (a query inside a
 * query) and an AWS secret with `%2F` for its slashes were no secrets at all.
 */

/** A percent escape, a numeric character reference (the `;` optional, as browsers read them) or a named one. */
const escapeOrReference =
  /%([0-9A-Fa-f]{2})|&#(\d{1,7});?|&#[xX]([0-9A-Fa-f]{1,6});?|&(lowbar|UnderBar|hyphen|dash|equals|colon|sol|period|commat|plus|amp|quot|apos|num|percnt|quest|excl|lt|gt|dollar|ast|comma|semi|Tab|NewLine);/g;

const named: Record<string, string> = {
  lowbar: '_',
  UnderBar: '_',
  hyphen: '-',
  dash: '-',
  equals: '=',
  colon: ':',
  sol: '/',
  period: '.',
  commat: '@',
  plus: '+',
  amp: '&',
  quot: '"',
  apos: "'",
  num: '#',
  percnt: '%',
  quest: '?',
  excl: '!',
  lt: '<',
  gt: '>',
  dollar: '$',
  ast: '*',
  comma: ',',
  semi: ';',
  Tab: '\t',
  NewLine: '\n',
};

/** A cheap test before the decoding: a `%` or a `&` followed by what can start an escape. */
const mayHoldEscape = /%[0-9A-Fa-f]{2}|&(?:#|[A-Za-z]{2,8};)/;

/** The decoded text and, for each of its UTF-16 units, where it starts and ends in the original. */
export interface EscapedReading {
  text: string;
  /** `text[i]` came from `original[starts[i], ends[i])`. */
  starts: Int32Array;
  ends: Int32Array;
}

/**
 * `text` with its escapes decoded, or undefined when it holds none that
 * decode to a printable ASCII character other than a blank (`%20`, `&amp;`
 * alone change no key: the second reading would find what the first did).
 * Percent escapes of bytes past ASCII stay as written (a UTF-8 sequence
 * is no key's). One regex pass; linear.
 */
export function escapedReading(text: string): EscapedReading | undefined {
  if (!mayHoldEscape.test(text)) return undefined;
  const starts = new Int32Array(text.length);
  const ends = new Int32Array(text.length);
  let decoded = '';
  let length = 0;
  let cursor = 0;
  let changesKey = false;
  const copy = (to: number) => {
    for (let at = cursor; at < to; at++) {
      starts[length] = at;
      ends[length] = at + 1;
      length++;
    }
    decoded += text.slice(cursor, to);
  };
  escapeOrReference.lastIndex = 0;
  for (let match = escapeOrReference.exec(text); match; match = escapeOrReference.exec(text)) {
    let value: string | undefined;
    if (match[1] !== undefined) {
      const code = Number.parseInt(match[1], 16);
      if (code < 0x80) value = String.fromCharCode(code);
    } else if (match[2] !== undefined || match[3] !== undefined) {
      const code =
        match[2] !== undefined ? Number.parseInt(match[2], 10) : Number.parseInt(match[3]!, 16);
      value = code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    } else value = named[match[4]!];
    if (value === undefined) continue;
    copy(match.index);
    const end = match.index + match[0].length;
    for (let unit = 0; unit < value.length; unit++) {
      starts[length] = match.index;
      ends[length] = end;
      length++;
    }
    decoded += value;
    cursor = end;
    const code = value.charCodeAt(0);
    if (code > 0x20 && code < 0x7f && value !== '&') changesKey = true;
  }
  if (!changesKey) return undefined;
  copy(text.length);
  return { text: decoded, starts: starts.subarray(0, length), ends: ends.subarray(0, length) };
}

/**
 * String literals joined by `+` (`"ghp_q8Zr" + "4Lm2…"`, `'sk-proj-…' +\n  '…'`,
 * JavaScript, Python, Java, C#) or by a line continuation: a key split so
 * in source code is one to whoever runs it (round 27: the split-token
 * reading joins pieces across blanks only, so `"ghp_…" + "…"` was never
 * joined: 0 of 60 cut GitHub tokens fully covered). The text with each
 * closing quote, `+` and opening quote between two literals removed, or
 * undefined when it has none. One regex pass; linear.
 */
const concatenation = /(["'`])[ \t]{0,16}(?:\+|\\?\r?\n)[ \t\r\n]{0,64}(?:\+[ \t\r\n]{0,16})?\1/g;

export function concatenatedReading(text: string): EscapedReading | undefined {
  if (!text.includes('+') && !text.includes('\\')) return undefined;
  const starts = new Int32Array(text.length);
  const ends = new Int32Array(text.length);
  let decoded = '';
  let length = 0;
  let cursor = 0;
  concatenation.lastIndex = 0;
  for (let match = concatenation.exec(text); match; match = concatenation.exec(text)) {
    if (!/[+\\]/.test(match[0])) continue;
    for (let at = cursor; at < match.index; at++) {
      starts[length] = at;
      ends[length] = at + 1;
      length++;
    }
    decoded += text.slice(cursor, match.index);
    cursor = match.index + match[0].length;
  }
  if (cursor === 0) return undefined;
  for (let at = cursor; at < text.length; at++) {
    starts[length] = at;
    ends[length] = at + 1;
    length++;
  }
  decoded += text.slice(cursor);
  return { text: decoded, starts: starts.subarray(0, length), ends: ends.subarray(0, length) };
}
