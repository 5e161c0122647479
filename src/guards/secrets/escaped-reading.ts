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

/** A percent escape, a numeric character reference (the `;` optional, as browsers read them) or a named one, at `lastIndex`. */
const escapeOrReference =
  /%([0-9A-Fa-f]{2})|&#(\d{1,7});?|&#[xX]([0-9A-Fa-f]{1,6});?|&(lowbar|UnderBar|hyphen|dash|equals|colon|sol|period|commat|plus|amp|quot|apos|num|percnt|quest|excl|lt|gt|dollar|ast|comma|semi|Tab|NewLine);/y;

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

/** The decoded text and, for each of its UTF-16 units, where it starts and ends in the original. */
export interface EscapedReading {
  text: string;
  /** `text[i]` came from `original[starts[i], ends[i])`. */
  starts: Int32Array;
  ends: Int32Array;
}

/**
 * The places where a reading differs from the text, in text order: site
 * `i`, `original[bounds[2i], bounds[2i + 1])`, reads as `values[i]` (as
 * nothing without `values`). Numbers in one array, not an object a site:
 * a megabyte of `%41` has 350,000 sites, and as objects they cost half as
 * much again as the rest of the reading.
 */
export interface ReadingSites {
  bounds: number[];
  values?: string[];
}

/** `%`. */
const percent = 37;

/**
 * Where `text`'s escapes decode (each `%` or `&` that starts one, in text
 * order), or undefined when none decodes to a printable ASCII character
 * other than a blank (`%20`, `&amp;` alone change no key: the second
 * reading would find what the first did). Percent escapes of bytes past
 * ASCII stay as written (a UTF-8 sequence is no key's). What a match of
 * `escapeOrReference` reads after its `%` or `&` holds neither, so trying it
 * at each of them finds what one pass of it over the text does; they are
 * found with `indexOf` (round 28: a regex pass to test for one, and the
 * whole text decoded when it held one, cost 3% of `findSecrets` on the dev
 * sets' first MB). Linear.
 */
export function escapeSites(text: string): ReadingSites | undefined {
  let nextPercent = text.indexOf('%');
  let nextAmpersand = text.indexOf('&');
  if (nextPercent < 0 && nextAmpersand < 0) return undefined;
  const bounds: number[] = [];
  const values: string[] = [];
  let changesKey = false;
  while (nextPercent >= 0 || nextAmpersand >= 0) {
    const at =
      nextAmpersand < 0 || (nextPercent >= 0 && nextPercent < nextAmpersand)
        ? nextPercent
        : nextAmpersand;
    escapeOrReference.lastIndex = at;
    const match = escapeOrReference.exec(text);
    let end = at + 1;
    if (match) {
      let value: string | undefined;
      if (match[1] !== undefined) {
        const code = Number.parseInt(match[1], 16);
        if (code < 0x80) value = String.fromCharCode(code);
      } else if (match[2] !== undefined || match[3] !== undefined) {
        const code =
          match[2] !== undefined ? Number.parseInt(match[2], 10) : Number.parseInt(match[3]!, 16);
        value = code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      } else value = named[match[4]!];
      end = at + match[0].length;
      if (value !== undefined) {
        bounds.push(at, end);
        values.push(value);
        const code = value.charCodeAt(0);
        if (code > 0x20 && code < 0x7f && value !== '&') changesKey = true;
      }
    }
    // (Neither occurs inside a match: only the one at `at` is passed.)
    if (text.charCodeAt(at) === percent) nextPercent = text.indexOf('%', end);
    else nextAmpersand = text.indexOf('&', end);
  }
  return changesKey ? { bounds, values } : undefined;
}

/**
 * String literals joined by `+` (`"ghp_q8Zr" + "4Lm2…"`, `'sk-proj-…' +\n  '…'`,
 * JavaScript, Python, Java, C#) or by a line continuation: a key split so
 * in source code is one to whoever runs it (round 27: the split-token
 * reading joins pieces across blanks only, so `"ghp_…" + "…"` was never
 * joined: 0 of 60 cut GitHub tokens fully covered). A site is each closing
 * quote, `+` and opening quote between two literals, read as nothing.
 */
const concatenation = /(["'`])[ \t]{0,16}(?:\+|\\?\r?\n)[ \t\r\n]{0,64}(?:\+[ \t\r\n]{0,16})?\1/g;

/** What a `concatenation` match is made of: quotes, blanks, line breaks, `+` and `\`. */
function isJoinCode(code: number): boolean {
  return (
    code === 34 ||
    code === 39 ||
    code === 96 ||
    code === 32 ||
    code === 9 ||
    code === 10 ||
    code === 13 ||
    code === 43 ||
    code === 92
  );
}

/**
 * Where `text`'s string literals are joined (`concatenation` matches that
 * hold a `+` or `\`), or undefined when none are. A match is made of
 * quotes, blanks, line breaks, `+` and `\` only, so it lies in one run of
 * them, and a pass over the text finds in a run what a pass from the run's
 * start does: only the runs around a `+` or `\` (found with `indexOf`) are
 * read, once each (round 28: a regex pass over the text cost 3% of
 * `findSecrets` on the dev sets' first MB, which holds no join). Linear.
 */
export function concatenationSites(text: string): ReadingSites | undefined {
  const bounds: number[] = [];
  let runEnd = 0;
  let nextPlus = text.indexOf('+');
  let nextBackslash = text.indexOf('\\');
  while (nextPlus >= 0 || nextBackslash >= 0) {
    const at =
      nextBackslash < 0 || (nextPlus >= 0 && nextPlus < nextBackslash) ? nextPlus : nextBackslash;
    let runStart = at;
    while (runStart > runEnd && isJoinCode(text.charCodeAt(runStart - 1))) runStart--;
    runEnd = at + 1;
    while (runEnd < text.length && isJoinCode(text.charCodeAt(runEnd))) runEnd++;
    // One pass of the pattern over the run alone (a search from its start
    // could read on past it, to the text's end, for each run).
    const run = runStart === 0 && runEnd === text.length ? text : text.slice(runStart, runEnd);
    concatenation.lastIndex = 0;
    for (let match = concatenation.exec(run); match; match = concatenation.exec(run)) {
      if (/[+\\]/.test(match[0])) {
        bounds.push(runStart + match.index, runStart + concatenation.lastIndex);
      }
    }
    // Each is searched for again only once passed (a text of `+` and no backslash stays linear).
    if (nextPlus >= 0 && nextPlus < runEnd) nextPlus = text.indexOf('+', runEnd);
    if (nextBackslash >= 0 && nextBackslash < runEnd) nextBackslash = text.indexOf('\\', runEnd);
  }
  return bounds.length > 0 ? { bounds } : undefined;
}

/**
 * `text[from, to)` read with `sites[first, last)` (all inside it, in text
 * order) decoded: the text and where each of its units came from.
 */
export function readingOf(
  text: string,
  sites: ReadingSites,
  from: number,
  to: number,
  first = 0,
  last = sites.bounds.length / 2,
): EscapedReading {
  const { bounds, values } = sites;
  const starts = new Int32Array(to - from + (last - first));
  const ends = new Int32Array(starts.length);
  let decoded = '';
  let length = 0;
  let cursor = from;
  const copy = (end: number) => {
    for (let at = cursor; at < end; at++) {
      starts[length] = at;
      ends[length] = at + 1;
      length++;
    }
    decoded += text.slice(cursor, end);
  };
  for (let index = first; index < last; index++) {
    const start = bounds[2 * index]!;
    const end = bounds[2 * index + 1]!;
    const value = values === undefined ? '' : values[index]!;
    copy(start);
    for (let unit = 0; unit < value.length; unit++) {
      starts[length] = start;
      ends[length] = end;
      length++;
    }
    decoded += value;
    cursor = end;
  }
  copy(to);
  return { text: decoded, starts: starts.subarray(0, length), ends: ends.subarray(0, length) };
}
