import { parse as parseDomain } from 'tldts';
import { INVISIBLE_FORMAT_RANGES, rangesClassSource } from '../shared/invisible-code-points';
import { SpanList } from '../shared/span-list';
import { isPrivateHost } from './host-checks';

/** One URL-like run found in a text. */
export interface FoundUrl {
  /** The text as written. */
  text: string;
  start: number;
  /** Exclusive. */
  end: number;
  /** Parsed, with `http://` assumed for bare domains and IPs. */
  url: ParsedUrl;
}

/**
 * The parts of a parsed URL the checks read, copied out of the platform
 * `URL` so a text with a hundred thousand links does not keep a hundred
 * thousand `URL` objects alive.
 */
export interface ParsedUrl {
  /** With the colon: `https:`. */
  protocol: string;
  username: string;
  password: string;
  /** Lower case, punycode, IPv4 dotted, IPv6 in brackets. */
  hostname: string;
  /** `hostname` with `:port` when there is a port. */
  host: string;
  /**
   * The run was cut at 2,048 characters inside its user info and host: the
   * host is past the cut, not known (`hostname` is empty). Flagged unjudged.
   */
  authorityCut?: true;
}

/** The rest of a URL run: it ends at white space, `<`, `>`, a quote or a backtick. */
const runRest = /[^\s<>"'`]*/uy;
/** A run's scheme and the slashes after it (`https://`, `https:`, `//`). */
const schemeAndSlashes = /^(?:([a-z][a-z0-9+.-]*):)?([\\/]*)/i;
const specialSchemes = new Set(['http', 'https', 'ws', 'wss', 'ftp']);

/**
 * The URL of a run cut at its 2,048 characters before its authority ended
 * (no `/`, `\`, `?` or `#` after the scheme's slashes in the cut text):
 * `https://u:<3,000 characters>@evil.com` put the host past the cut, and
 * the cut text parsed as no URL, or as the host `a` of `https://a@a@…`
 * (round 38), though `fetch` reads the whole run. Its URL and where the
 * whole run ends (flagged whole, a redaction removes all of it); `undefined`
 * for a run that ended by itself, or a URL without an authority (`data:,…`).
 * Linear: the rest of a run is read once, and later matches in it skipped.
 */
function cutInAuthority(
  text: string,
  runEnd: number,
  urlText: string,
  assumeHttp: boolean | 'http:',
): { url: ParsedUrl; end: number } | undefined {
  if (assumeHttp === true || runEnd >= text.length) return undefined;
  const [prefix, written, slashes = ''] = schemeAndSlashes.exec(urlText)!;
  const scheme = (written ?? 'http').toLowerCase();
  if (slashes === '' && !specialSchemes.has(scheme)) return undefined;
  if (/[\\/?#]/.test(urlText.slice(prefix.length))) return undefined;
  // Only now the rest is read: a run whose authority ended is read no further (a flood of them stays linear).
  runRest.lastIndex = runEnd;
  const rest = runRest.exec(text)![0].length;
  if (rest === 0) return undefined;
  return {
    url: {
      protocol: `${scheme}:`,
      username: '',
      password: '',
      hostname: '',
      host: '',
      authorityCut: true,
    },
    end: runEnd + rest,
  };
}

// URL with a scheme ("https://...", also "javascript:" and "data:" which need no //).
const withScheme =
  /\b(?:[a-z][a-z0-9+.-]{1,20}:\/\/|(?:javascript|vbscript|data|file):)[^\s<>"'`]{1,2048}/giu;
// The special schemes browsers open with fewer than two slashes, or with
// backslashes (`https:evil.io`, `https:/evil.io`, `https:\\evil.io`).
const looseSpecialScheme =
  /\b(?:https?|wss?|ftp):[\\/]{0,16}(?=[\p{L}\p{N}[])[^\s<>"'`]{1,2048}/giu;
// Scheme-relative links (`//evil.io/x.png`, `\\evil.io`): a browser opens them
// with the page's scheme, so `![x](//evil.io/p.png?d=...)` is a link too.
const schemeRelative = /(?<![\p{L}\p{N}\\/:.])[\\/]{2,16}(?=[\p{L}\p{N}[])[^\s<>"'`]{1,2048}/gu;
// Bare host names: labels of letters, digits and hyphens ending in a letters-only TLD.
// Letters include the enclosed ones the URL parser maps to ASCII (`ⓔⓥⓘⓛ.com`,
// `🄴🅅🄸🄻.com` are evil.com), and a label goes on over combining marks
// (`e\u0301vil.com` is the host évil.com, not `vil.com`; round 24).
const bareDomain =
  /(?<![\p{L}\p{N}\p{M}\u24b6-\u24e9\u{1f130}-\u{1f149}@._\-/:])(?:[\p{L}\p{N}\u24b6-\u24e9\u{1f130}-\u{1f149}](?:[\p{L}\p{N}\p{M}\u24b6-\u24e9\u{1f130}-\u{1f149}-]{0,61}[\p{L}\p{N}\p{M}\u24b6-\u24e9\u{1f130}-\u{1f149}])?\.){1,10}[\p{L}\u24b6-\u24e9\u{1f130}-\u{1f149}][\p{L}\p{M}\u24b6-\u24e9\u{1f130}-\u{1f149}]{1,62}(?![\p{M}])(?::\d{2,5})?(?:\/[^\s<>"'`]{0,2048})?/gu;
const bareIPv4 =
  /(?<![\p{L}\p{N}.])(?:\d{1,3}\.){3}\d{1,3}(?![\p{N}]|\.\d)(?::\d{2,5})?(?:\/[^\s<>"'`]{0,2048})?/gu;
// An ASCII host name written with another full stop (ideographic 。, full-width
// ．, half-width ｡): a browser's address bar and URL parser read each as a
// dot, so `evil。com` goes to evil.com. Only ASCII labels: CJK prose ends
// sentences with 。 (`北京。中国…` must not be the host 北京.中国).
const ODD_DOTS = /[\u3002\uff0e\uff61]/g;
// Full-width Latin letters and digits count as ASCII ones (`ｅｖｉｌ．ｃｏｍ`, round 23):
// the URL parser maps them so, and they are no CJK word; so do enclosed
// letters (`ⓔⓥⓘⓛ。com`, `🄴🅅🄸🄻｡com`, round 25: `bareDomain` read them
// before an ASCII dot only).
const bareDomainOddDots =
  /(?<![\p{L}\p{N}@._\-/:\u3002\uff0e\uff61\u24b6-\u24e9\u{1f130}-\u{1f149}])(?:[a-z0-9\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\u24b6-\u24e9\u{1f130}-\u{1f149}](?:[a-z0-9\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\u24b6-\u24e9\u{1f130}-\u{1f149}\-\uff0d]{0,61}[a-z0-9\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\u24b6-\u24e9\u{1f130}-\u{1f149}])?[.\u3002\uff0e\uff61]){1,10}[a-z\uff21-\uff3a\uff41-\uff5a\u24b6-\u24e9\u{1f130}-\u{1f149}]{2,63}(?![\p{L}\p{N}])(?::\d{2,5})?(?:\/[^\s<>"'`]{0,2048})?/giu;
// A bare host name with default-ignorable characters (zero-width, joiners,
// selectors, tags…) between its characters: browsers, linkifiers and the
// URL parser drop them, so `evil\u200b.com` and `evil\u200b。com` go to
// evil.com (and `e\u200bvil.com` is not `vil.com`). A text that holds one
// is read without them (the list is `invisibleText`'s), the spans mapped back.
const ignorables = new RegExp(rangesClassSource(INVISIBLE_FORMAT_RANGES), 'gu');

/** Which BMP code units are ignorable (one byte each, built on first use). */
let ignorableUnits: Uint8Array | undefined;
function ignorableUnitTable(): Uint8Array {
  if (ignorableUnits) return ignorableUnits;
  const table = new Uint8Array(0x10000);
  for (const [first, last] of INVISIBLE_FORMAT_RANGES) {
    for (let code = first; code <= Math.min(last, 0xffff); code++) table[code] = 1;
  }
  ignorableUnits = table;
  return table;
}

function isIgnorableAstral(codePoint: number): boolean {
  for (const [first, last] of INVISIBLE_FORMAT_RANGES) {
    if (codePoint >= first && codePoint <= last) return true;
  }
  return false;
}

/** How many units the ignorable character at `index` takes (1 or 2), or 0 when it is none. */
function ignorableWidthAt(text: string, index: number, table: Uint8Array): number {
  const code = text.charCodeAt(index);
  if (table[code] === 1) return 1;
  if (code < 0xd800 || code > 0xdbff) return 0;
  const low = text.charCodeAt(index + 1);
  if (low < 0xdc00 || low > 0xdfff) return 0;
  return isIgnorableAstral(((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000) ? 2 : 0;
}

/** `text` without its ignorable characters, and where each unit left was in `text`. */
interface KeptText {
  text: string;
  /** `origin[k]`: the index in the original text of unit `k` of the kept one. */
  origin: Int32Array;
}

/**
 * `text` without its ignorable characters, or undefined when it has none.
 * One pass over the units (a table lookup each); the kept units are turned
 * into a string in chunks.
 */
function withoutIgnorables(text: string): KeptText | undefined {
  const table = ignorableUnitTable();
  let first = 0;
  while (first < text.length && ignorableWidthAt(text, first, table) === 0) first++;
  if (first === text.length) return undefined;
  const units = new Uint16Array(text.length);
  const origin = new Int32Array(text.length);
  let kept = 0;
  for (let index = 0; index < first; index++) {
    units[index] = text.charCodeAt(index);
    origin[index] = index;
  }
  kept = first;
  for (let index = first; index < text.length; ) {
    const width = ignorableWidthAt(text, index, table);
    if (width > 0) {
      index += width;
      continue;
    }
    units[kept] = text.charCodeAt(index);
    origin[kept++] = index++;
  }
  const CHUNK = 8_192;
  const pieces: string[] = [];
  for (let start = 0; start < kept; start += CHUNK) {
    pieces.push(
      String.fromCharCode.apply(
        null,
        units.subarray(start, Math.min(start + CHUNK, kept)) as unknown as number[],
      ),
    );
  }
  return { text: pieces.join(''), origin: origin.subarray(0, kept) };
}

/**
 * The matches of `pattern` in the kept text, as matches of the original
 * text: each spans from its first kept character to its last, so
 * ignorable characters inside stay in the match (and in a redaction).
 */
function* mappedMatches(
  kept: KeptText,
  original: string,
  pattern: RegExp,
): Generator<RegExpMatchArray> {
  for (const match of kept.text.matchAll(pattern)) {
    const start = kept.origin[match.index!]!;
    const end = kept.origin[match.index! + match[0].length - 1]! + 1;
    const found = [original.slice(start, end)] as RegExpMatchArray;
    found.index = start;
    yield found;
  }
}

/** Whether the host of a bare-domain match is under a public or private suffix. */
function isKnownSuffixHost(raw: string): boolean {
  let host = raw.split(/[:/]/, 1)[0]!.replace(ignorables, '');
  // Full-width letters are the ASCII ones to the URL parser (`evil.ｃｏｍ` is evil.com, round 23).
  if (/[^\0-\x7f]/u.test(host)) host = host.normalize('NFKC');
  host = host.replace(ODD_DOTS, '.').toLowerCase();
  const info = parseDomain(host);
  return info.isIcann === true || privateSuffixes.has(info.publicSuffix ?? '');
}

/**
 * An IPv4 address in a form the URL parser reads and no version number or
 * date takes: a hexadecimal part (`0x7f.0.0.1`), an octal one with its
 * leading zero (`0177.0.0.1`), full-width digits (`１２７.０.０.１`) or
 * another full stop (`127。0。0。1`); in four parts, or two to four with a
 * hexadecimal one (`0x7f.1`: `00.01.30`, a time, is no address). A tool
 * that prepends `http://` to such a host fetches `127.0.0.1` (round 23:
 * `{"host":"0x7f.1"}` passed `blockPrivate` on tool input). Kept only when
 * the parser reads it as a private or local address: read as a public one,
 * `01.02.2024` would be a link.
 */
const looseIPv4 =
  /(?<![\p{L}\p{N}.\u3002\uff0e\uff61])(?:(?:0x[0-9a-f]{0,8}|[0-9\uff10-\uff19]{1,12})[.\u3002\uff0e\uff61]){1,3}(?:0x[0-9a-f]{0,8}|[0-9\uff10-\uff19]{1,12})(?![\p{L}\p{N}]|[.\u3002\uff0e\uff61]\p{N})(?::\d{2,5})?(?:\/[^\s<>"'`]{0,2048})?/giu;
/** What makes a `looseIPv4` match no plain dotted number: a hex or octal part, full-width digits, another full stop. */
const looseIPv4Marker = /0x|(?:^|[.\u3002\uff0e\uff61])0\d|[\uff10-\uff19\u3002\uff0e\uff61]/i;
const dottedIPv4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** How many parts the address of a `looseIPv4` match has (before its port or path). */
function looseIPv4Parts(raw: string): number {
  return raw.split(/[:/]/, 1)[0]!.split(/[.\u3002\uff0e\uff61]/).length;
}

/**
 * A URL attribute's quoted value (`href="…"`, `src='…'`) or a Markdown
 * link's destination (`](…)`, up to a blank before a title or the `)`), or
 * a reference definition's (`[c]: …`; round 36: also inside a block quote
 * or a list item, `> [c]: …`, and on the line after its label):
 * where a URL ends is written, so a tab or line break inside it is no end.
 * The URL parser drops them (`<a href="http://ev\nil.com">` goes to
 * evil.com), where the finders, which end a URL at white space, read
 * `http://ev` and `il.com`. Runs stop at quotes and brackets, so each
 * character is read by one attempt.
 */
const delimitedUrlRun =
  /\b(?:href|src|action|formaction|poster|cite|background|data|ping|manifest|codebase|longdesc)[ \t\n\r]*=[ \t\n\r]*(?:"([^"<>]*)"|'([^'<>]*)'|([^\s"'=<>`]+))|\]\([ \t\n\r]*([^\s()<>"']+(?:[\t\n\r]+[^\s()<>"']+)*)[ \t\n\r]*(?=[)"'(])|\]\([ \t\n\r]*<([^\s<>]+)>|<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]+)>|^(?:[ \t]{0,4}(?:>|[-+*]|\d{1,9}[.)])){0,8}[ \t]{0,4}\[[^\]\n]{1,999}\]:[ \t]*(?:\r?\n(?:[ \t]{0,4}>){0,8}[ \t]*)?<?([^\s<>]+)/gim;

/**
 * HTML character references a URL can be written with: numeric ones (the
 * `;` optional, as browsers read them) and the named ones for the
 * characters the URL parser drops or a URL is made of.
 */
const characterReference =
  /&(?:#(\d{1,8});?|#[xX]([0-9a-fA-F]{1,7});?|(Tab|NewLine|colon|sol|period|commat|quest|num|equals|percnt|lowbar|hyphen|dash|lpar|rpar|amp|AMP);|(amp|AMP)(?![;\w]))/g;
const namedCharacters: Record<string, string> = {
  Tab: '\t',
  NewLine: '\n',
  colon: ':',
  sol: '/',
  period: '.',
  commat: '@',
  quest: '?',
  num: '#',
  equals: '=',
  percnt: '%',
  lowbar: '_',
  hyphen: '-',
  dash: '-',
  lpar: '(',
  rpar: ')',
  amp: '&',
  AMP: '&',
};

/** `value` with its character references decoded (`ev&#10;il` is `ev\nil`); an invalid code point is U+FFFD. */
function withCharacterReferences(value: string): string {
  return value.replace(characterReference, (whole, decimal, hex, named, bare) => {
    if (named !== undefined || bare !== undefined) return namedCharacters[named ?? bare] ?? whole;
    const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex, 16);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
      ? String.fromCodePoint(code)
      : '\ufffd';
  });
}

/**
 * Whether `run` has a `&` before its path, query or fragment (`http:&#47;&#47;…`,
 * `http://ev&#10;il.com`): after them (`?a=1&amp;b=2`, the common case) a
 * reference changes no host nor scheme.
 */
function referenceBeforePath(run: string): boolean {
  const amp = run.indexOf('&');
  if (amp < 0) return false;
  const slashes = run.indexOf('//');
  if (slashes < 0 || slashes > amp) return true;
  return !/[/?#\\]/.test(run.slice(slashes + 2, amp));
}

/** `run` with CommonMark's backslash escapes read (`\.` is `.`: a backslash before ASCII punctuation). */
function withoutBackslashEscapes(run: string): string {
  return run.includes('\\') ? run.replace(/\\([!-/:-@[-`{-~])/g, '$1') : run;
}

/** `withCharacterReferences` of `run`, the last few distinct runs kept: a flood repeats one. */
function decodedRun(run: string, decoded: Map<string, string>): string {
  let read = decoded.get(run);
  if (read === undefined) {
    read = withCharacterReferences(run);
    if (decoded.size < PARSE_CACHE_SIZE) decoded.set(run, read);
  }
  return read;
}

/** Longest delimited run read as one URL (a URL is cut at 2,048 characters elsewhere). */
const MAX_DELIMITED_URL = 4096;

/**
 * The attribute values and Markdown link destinations of `text` that hold
 * a tab or a line break and read as one URL without them (as
 * {@link urlValuesWithLineBreaks} reads a JSON string value): their spans
 * in `text`, and the URL. With `stringOf` (a decoded JSON text), only runs
 * inside one string.
 */
export function delimitedUrlsWithLineBreaks(text: string, stringOf?: Int32Array): UrlValue[] {
  const values: UrlValue[] = [];
  const parse = cachedParser();
  const decodedRuns = new Map<string, string>();
  for (const match of text.matchAll(delimitedUrlRun)) {
    const run =
      match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5] ?? match[6] ?? match[7] ?? '';
    if (run === '' || run.length > MAX_DELIMITED_URL) continue;
    // An attribute's value (quoted or not: round 36, `href=http://evil&#46;io`)
    // as the browser reads it: character references
    // decoded (round 25: `href="http://ev&#10;il.com"` is evil.com). So is
    // a Markdown link's destination (CommonMark decodes them there and in a
    // reference definition) and, failing closed, an autolink (a renderer
    // that copies it into `href` unescaped): round 26,
    // `[x](http://ev&#105;l.com)` and `<http://ev&#105;l.com>` were no evil.com.
    // A Markdown destination's backslash escapes too (round 36, hH:
    // `[x](https://evil\.com)` links to evil.com; read as written, the
    // host was `evil\` and the path `/.com`). Not an attribute's nor an
    // autolink's: there a backslash is what the URL parser reads.
    const markdown = match[4] ?? match[5] ?? match[7];
    const unescaped = markdown !== undefined ? withoutBackslashEscapes(run) : run;
    const read = referenceBeforePath(unescaped) ? decodedRun(unescaped, decodedRuns) : unescaped;
    if (read === run && !/[\t\n\r]/.test(run)) continue;
    const start = match.index! + match[0].indexOf(run, 1);
    const end = start + run.length;
    if (stringOf && (stringOf[start]! < 0 || stringOf[start] !== stringOf[end - 1])) continue;
    const url = urlReadWithoutBreaks(read, parse);
    if (!url) continue;
    // References that change no part the checks read (`?a=1&amp;b=2`) leave it the finders'.
    if (read !== run && !/[\t\n\r]/.test(run)) {
      const written = urlReadWithoutBreaks(run, parse);
      if (
        written &&
        written.protocol === url.protocol &&
        written.host === url.host &&
        written.username === url.username &&
        written.password === url.password
      ) {
        continue;
      }
    }
    values.push({ start, end, url });
  }
  return values;
}

/**
 * Attributes whose quoted value holds URLs among other text: an image's
 * candidates (`srcset="a.png 1x, b.png 2x"`), a refresh's target
 * (`<meta http-equiv="refresh" content="0;url=…">`), a style's `url(…)`.
 */
const attributeWithUrls =
  /\b(?:srcset|imagesrcset|content|style)[ \t\n\r]*=[ \t\n\r]*(?:"([^"<>]*)"|'([^'<>]*)')/gi;

/**
 * The URLs in those attribute values (`attributeWithUrls`) that character
 * references hide from the finders (round 36, hH:
 * `srcset="https://evil&#46;io/a.png 1x"` and
 * `content="0;url=https://evil&#46;io"` load evil.io): each value holding a
 * `&` is decoded as the browser decodes it and read by the finders; a URL
 * found only so is judged, with the value's span. Linear: each value is
 * decoded and read once (at most `MAX_DELIMITED_URL` characters).
 */
export function decodedAttributeUrls(text: string, stringOf?: Int32Array): UrlValue[] {
  const values: UrlValue[] = [];
  // The URLs of each distinct value, the last few kept: a flood repeats one.
  const urlsOf = new Map<string, ParsedUrl[]>();
  for (const match of text.matchAll(attributeWithUrls)) {
    const run = match[1] ?? match[2] ?? '';
    if (!run.includes('&') || run.length > MAX_DELIMITED_URL) continue;
    const start = match.index! + match[0].lastIndexOf(run);
    const end = start + run.length;
    if (stringOf && (stringOf[start]! < 0 || stringOf[start] !== stringOf[end - 1])) continue;
    let urls = urlsOf.get(run);
    if (urls === undefined) {
      urls = hiddenUrls(run);
      if (urlsOf.size < PARSE_CACHE_SIZE) urlsOf.set(run, urls);
    }
    for (const url of urls) values.push({ start, end, url });
  }
  return values;
}

/** The URLs the finders read in `run` decoded and not in `run` as written (same scheme, user info and host). */
function hiddenUrls(run: string): ParsedUrl[] {
  const read = withCharacterReferences(run);
  if (read === run) return [];
  const found = scanUrls(read);
  if (found.length === 0) return [];
  const key = (url: ParsedUrl) => `${url.protocol}//${url.username}:${url.password}@${url.host}`;
  const written = scanUrls(run);
  const seen = new Set<string>();
  for (let index = 0; index < written.length; index++) seen.add(key(written.value(index)));
  const urls: ParsedUrl[] = [];
  for (let index = 0; index < found.length; index++) {
    const url = found.value(index);
    if (!seen.has(key(url))) urls.push(url);
  }
  return urls;
}

/**
 * An IPv4 address in one part with a hexadecimal or octal marker, or in
 * full-width digits (`0x7f000001`, `017700000001`, `２１３０７０６４３３`):
 * the URL parser reads each as a 32-bit number (127.0.0.1). Kept only when
 * that is a private or local address outside 0.0.0.0/8 (`0755`, `0xff`,
 * `00` are 0.0.x.x: file modes, hex literals, times).
 */
const looseIPv4Single =
  /(?<![\p{L}\p{N}.\u3002\uff0e\uff61])(?:0x[0-9a-f]{1,8}|0[0-7]{1,11}|[\uff10-\uff19][0-9\uff10-\uff19]{0,11})(?![\p{L}\p{N}]|[.\u3002\uff0e\uff61]\p{N})(?::\d{2,5})?(?:\/[^\s<>"'`]{0,2048})?/giu;

/**
 * A JSON string value that is, whole, an IPv4 address in one to three
 * decimal, hexadecimal or octal parts, with a port or a path or neither
 * (`"127.1"`, `"2130706433"`, `"10.1:8080"`): a tool that fetches
 * `http://` + its argument reaches what the URL parser reads (`127.0.0.1`,
 * `10.0.0.1`). Its quotes delimit it: prose and code are not read so.
 */
const shortIPv4Value =
  /"[ \t\n\r]*((?:0x[0-9a-f]{0,8}|\d{1,12})(?:\.(?:0x[0-9a-f]{0,8}|\d{1,12})){0,2}\.?(?::\d{1,5})?(?:\/[^"\s]{0,2048})?)[ \t\n\r]*"/giu;

/**
 * The last word of a member name that names a host (`host`, `serverIp`,
 * `base_url`, `endpoints`): a value under it is a host position.
 */
const HOST_WORDS = new Set([
  'host',
  'hostname',
  'ip',
  'ipv4',
  'ipaddr',
  'addr',
  'address',
  'server',
  'endpoint',
  'url',
  'uri',
  'href',
  'link',
  'domain',
  'target',
  'remote',
  'proxy',
  'origin',
  'upstream',
  'dest',
  'destination',
  'site',
  'authority',
  // Other languages' (diacritics dropped: `hôte` is `hote`; round 26).
  'hote',
  'serveur',
  'adresse',
  'domaine',
  'servidor',
  'direccion',
  'endereco',
  'dominio',
  'indirizzo',
]);

/** Whether member name `key` names a host: its last word (camelCase, `_`, `-`, `.`, `/` split), singular. */
function isHostKey(key: string, hostKeys: Map<string, boolean>): boolean {
  let known = hostKeys.get(key);
  if (known === undefined) {
    known = namesHost(key);
    if (hostKeys.size < PARSE_CACHE_SIZE) hostKeys.set(key, known);
  }
  return known;
}

function namesHost(key: string): boolean {
  const words = key
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let last = words[words.length - 1];
  if (last === undefined) return false;
  // A host's name (`host_name`, `serverName`, `domain-name`; round 26).
  if ((last === 'name' || last === 'names') && words.length > 1) last = words[words.length - 2]!;
  if (HOST_WORDS.has(last)) return true;
  if (last.endsWith('es') && HOST_WORDS.has(last.slice(0, -2))) return true;
  return last.endsWith('s') && HOST_WORDS.has(last.slice(0, -1));
}

/** The longest member name read back from a value. */
const MAX_KEY_LENGTH = 128;

/**
 * Whether the string value whose opening quote is at `open` is in a host
 * position (round 25): the value of a member whose name names a host
 * (`isHostKey`: `{"host":"10.1"}`, `{"serverIp":"192.168.1"}`), or an
 * element of an array that is (`{"hosts":["a.io","10.1"]}`). Read back from
 * the quote over blanks; an array's earlier string elements are walked
 * over, each answer kept in `known` for the elements after it, so each
 * element is read back once: linear.
 */
function inHostPosition(
  text: string,
  open: number,
  stringOf: Int32Array | undefined,
  known: Map<number, boolean>,
  hostKeys: Map<string, boolean>,
): boolean {
  const walked: number[] = [];
  let quote = open;
  let answer = false;
  for (;;) {
    const cached = known.get(quote);
    if (cached !== undefined) {
      answer = cached;
      break;
    }
    walked.push(quote);
    let at = quote - 1;
    while (at >= 0 && text.charCodeAt(at) <= 0x20) at--;
    const sign = text.charCodeAt(at);
    if (sign === 0x5b) {
      // An array's first element: the array's member name.
      at--;
      while (at >= 0 && text.charCodeAt(at) <= 0x20) at--;
      if (text.charCodeAt(at) !== 0x3a) break;
      answer = isHostKey(memberNameBefore(text, at, stringOf), hostKeys);
      break;
    }
    if (sign === 0x3a) {
      answer = isHostKey(memberNameBefore(text, at, stringOf), hostKeys);
      break;
    }
    if (sign !== 0x2c) break;
    // After a comma: an array's element before (an object's member has a
    // name and a colon): a string, or since round 26 a number, a literal,
    // an object or an array (`{"hosts":[1,"10.1"]}`, `[null,"127.1"]`).
    at--;
    while (at >= 0 && text.charCodeAt(at) <= 0x20) at--;
    if (stringOf && stringOf[at] !== -1) break;
    const previous =
      text.charCodeAt(at) === 0x22
        ? openingQuote(text, at, stringOf)
        : elementStart(text, at, stringOf);
    if (previous < 0) break;
    // A member's value (`"a":"x", "b"` is no array): its name comes before a colon.
    let before = previous - 1;
    while (before >= 0 && text.charCodeAt(before) <= 0x20) before--;
    if (text.charCodeAt(before) === 0x3a) break;
    quote = previous;
  }
  for (const quoteAt of walked) known.set(quoteAt, answer);
  return answer;
}

/** The most characters a non-string array element is read back over (beyond: no host position). */
const MAX_ELEMENT_WALK = 4096;

/**
 * Where the array element that is no string and ends at `end` starts: a
 * number or a literal (`1`, `null`, `-2.5e3`), or an object or array, read
 * back to its opening bracket over its strings (`stringOf`: a decoded
 * text's string characters; else as written, a string holds no quote).
 * -1 when it is none or longer than `MAX_ELEMENT_WALK`.
 */
function elementStart(text: string, end: number, stringOf: Int32Array | undefined): number {
  const last = text.charCodeAt(end);
  const limit = Math.max(0, end - MAX_ELEMENT_WALK);
  if (last !== 0x7d && last !== 0x5d) {
    let at = end;
    while (at >= limit && isScalarCode(text.charCodeAt(at))) at--;
    return at === end || at < limit ? -1 : at + 1;
  }
  let depth = 0;
  let inString = false;
  for (let at = end; at >= limit; at--) {
    if (stringOf ? stringOf[at] !== -1 : inString && text.charCodeAt(at) !== 0x22) continue;
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      if (!stringOf) inString = !inString;
    } else if (code === 0x7d || code === 0x5d) depth++;
    else if ((code === 0x7b || code === 0x5b) && --depth === 0) return at;
  }
  return -1;
}

/** A character of a JSON number or literal (`[0-9A-Za-z.+-]`). */
function isScalarCode(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x2e ||
    code === 0x2b ||
    code === 0x2d
  );
}

/** The opening quote of the string whose closing quote is at `close`, or -1. */
function openingQuote(text: string, close: number, stringOf: Int32Array | undefined): number {
  if (stringOf) {
    const string = stringOf[close - 1];
    if (string === undefined || string < 0)
      return text.charCodeAt(close - 1) === 0x22 ? close - 1 : -1;
    let at = close - 1;
    while (at > 0 && stringOf[at - 1] === string) at--;
    return text.charCodeAt(at - 1) === 0x22 ? at - 1 : -1;
  }
  // As written without escapes, a string holds no quote.
  return text.lastIndexOf('"', close - 1);
}

/** The member name before the colon at `colon` (up to `MAX_KEY_LENGTH` characters), or ''. */
function memberNameBefore(text: string, colon: number, stringOf: Int32Array | undefined): string {
  let close = colon - 1;
  while (close >= 0 && text.charCodeAt(close) <= 0x20) close--;
  if (text.charCodeAt(close) !== 0x22) return '';
  const open = openingQuote(text, close, stringOf);
  if (open < 0 || close - open - 1 > MAX_KEY_LENGTH) return '';
  return text.slice(open + 1, close);
}

/**
 * The string values of a JSON text (decoded or as written when it has no
 * escape: `stringOf` is then undefined) that are one IPv4 address in the
 * URL parser's short forms (see `shortIPv4Value`), kept when the parser
 * reads a private or local address: any such address when the value has a
 * hexadecimal or octal part, a port or a path; a plain decimal one
 * (`"10.1"`, `"192.168.1"`, `"127.1"`, `"2130706433"`) only in a host
 * position (`inHostPosition`, round 25: before, loopback 127/8 anywhere and
 * other private ones nowhere; `{"host":"10.1"}` passed, `{"id":"2147483000"}`
 * was blocked): `10.2.1`, `10.50` and ten-digit numbers are versions,
 * prices and ids as often as hosts. Never 0.0.0.0/8 (`"0"`, `"0.5"`).
 * Linear: one regex pass whose runs stop at quotes, and a read back per
 * candidate that reads each array element once.
 */
export function shortIPv4Values(text: string, stringOf?: Int32Array): UrlValue[] {
  const values: UrlValue[] = [];
  const parse = cachedParser();
  const known = new Map<number, boolean>();
  // Member names read, and whether each names a host (a flood repeats a few; per call, no name kept after it).
  const hostKeys = new Map<string, boolean>();
  for (const match of text.matchAll(shortIPv4Value)) {
    const value = match[1]!;
    const open = match.index!;
    const close = open + match[0].length - 1;
    const start = open + match[0].indexOf(value, 1);
    const end = start + value.length;
    if (
      stringOf &&
      (stringOf[open] !== -1 || stringOf[close] !== -1 || stringOf[start] !== stringOf[end - 1])
    ) {
      continue;
    }
    // A quote preceded by a backslash is inside a string (JSON read as written has no escape).
    if (!stringOf && open > 0 && text.charCodeAt(open - 1) === 0x5c) continue;
    const url = parse(`http://${value}`);
    if (!url || !dottedIPv4.test(url.hostname) || url.hostname.startsWith('0.')) continue;
    if (!isPrivateHost(url.hostname)) continue;
    const marked = /0x|(?:^|\.)0\d|[:/]/i.test(value);
    if (marked || inHostPosition(text, open, stringOf, known, hostKeys))
      values.push({ start, end, url });
  }
  // A JSON number in a host position (round 26: `{"host":2130706433}` is
  // 127.0.0.1, `{"hosts":[167772161]}` 10.0.0.1): a tool that fetches
  // `http://` + its argument reaches it as the string's.
  forEachIntegerValue(text, stringOf, (start, end) => {
    // The parser's reading, 32 bits as four octets (below 2^24 is 0.x.x.x: never).
    const number = Number(text.slice(start, end));
    if (number < 0x1000000 || number > 0xffffffff) return;
    if (!inHostPosition(text, start, stringOf, known, hostKeys)) return;
    const host = `${number >>> 24}.${(number >>> 16) & 255}.${(number >>> 8) & 255}.${number & 255}`;
    if (!isPrivateHost(host)) return;
    const url = parse(`http://${text.slice(start, end)}`);
    if (url && url.hostname === host) values.push({ start, end, url });
  });
  values.sort((first, second) => first.start - second.start);
  return values;
}

/** An IPv4 address in the URL parser's short forms, maybe with a port and a path (`10.1`, `0x7f.1:80/x`). */
const shortAddress =
  '(?:0x[0-9a-f]{0,8}|\\d{1,12})(?:\\.(?:0x[0-9a-f]{0,8}|\\d{1,12})){0,3}\\.?(?::\\d{1,5})?(?:\\/[^\\s"\',\\]]{0,2048})?';

/** A setting's key at the start of a line or of a string: YAML list item or `export` first, maybe quoted. */
const settingKey =
  '(?:^|(?<=["\'\\r\\n]))[ \\t]{0,64}(?:- {1,8}|export {1,8})?([A-Za-z_][\\w.-]{0,127})["\']?[ \\t]{0,16}';

/** A comment to the end of the line (`# db`, `; local`). */
const lineComment = '(?:[#;][^\\r\\n"]{0,1024})?';

/**
 * A setting line of a YAML, INI, TOML, `.env` or properties file whose
 * value is, whole, an IPv4 address in the URL parser's short forms
 * (`host: 10.1`, `server_ip = "192.168.1"`, `export HOST=2130706433`,
 * `- host: 127.1 # db`): the key (letters, digits, `_`, `.`, `-`) at the
 * start of a line or of a string, then `:` or `=`, then the value, maybe
 * quoted, up to the end of the line or string or a comment (group 3).
 * Or (round 28) the start of a list: the `[` of a flow sequence or TOML
 * array (`hosts: [10.1, "127.1"]`, `hosts = ["10.1"]`, group 4), or
 * nothing after a YAML key (`hosts:`, group 5), block sequence items
 * following.
 */
const hostSettingLine = new RegExp(
  `${settingKey}(?:[:=][ \\t]{0,16}(["']?)(${shortAddress})\\2[ \\t]{0,16}${lineComment}(?=[\\r\\n"]|$)|[:=][ \\t]{0,16}(\\[)|:()[ \\t]{0,16}${lineComment}(?=[\\r\\n"]|$))`,
  'gimu',
);

/**
 * A line of a YAML block sequence (`  - 10.1 # db`, group 2 holding the
 * value when it is an address in the short forms, `  - example.com`), a
 * blank line or a comment line, from the start of a line; a line that
 * does not match ends the list. Each branch reads a line once.
 */
const hostListLine = new RegExp(
  `[ \\t]{0,64}(?:-[ \\t]{1,16}(?:(["']?)(${shortAddress})\\1[ \\t]{0,16}(?:[#;][^\\r\\n]*)?(?=\\r?\\n|"|$)|[^\\r\\n]*)|(?:[#;][^\\r\\n]*)?(?=\\r?\\n|$))`,
  'iuy',
);

/** A flow sequence's element: blanks, the value maybe quoted, blanks, then `,` or `]`. */
const flowItem = /[ \t]{0,64}(["']?)([^,"'\s\]]{0,2100})\1[ \t]{0,64}([,\]]?)/y;

/** A value that is, whole, an address in the short forms. */
const wholeShortAddress = new RegExp(`^${shortAddress}$`, 'iu');

/**
 * The values of setting lines (`hostSettingLine`) under a key that names a
 * host (`isHostKey`: `host`, `server_ip`, `DB_HOST`, `upstream.addr`) that
 * the URL parser reads as a private or local address (never 0.0.0.0/8):
 * round 27, `host: 10.1` in a YAML file and `host = 127.1` in an INI file
 * a tool reads or writes were text, while `{"host":"10.1"}` was a host
 * (`shortIPv4Values`). Round 28: so are the items of a list under such a
 * key (`hosts:` then `  - 10.1` lines, `hosts = ["10.1", "127.1"]`). With
 * `stringOf` (a decoded JSON text) only values inside one string. Linear:
 * one regex pass anchored at line and string starts, with bounded runs; a
 * block sequence's lines are read once, after its key's line.
 */
export function hostSettingValues(text: string, stringOf?: Int32Array): UrlValue[] {
  const values: UrlValue[] = [];
  const parse = cachedParser();
  const hostKeys = new Map<string, boolean>();
  // Each distinct value text's reading (its private address, or null), kept
  // for the few a flood repeats: a value is then one lookup, not a regex
  // test, a parse and a host check (2 MB of `host: 10.1` lines took 1.4 s).
  const privateAddressOf = new Map<string, ParsedUrl | null>();
  const readValue = (value: string): ParsedUrl | undefined => {
    const known = privateAddressOf.get(value);
    if (known !== undefined) return known ?? undefined;
    let url = wholeShortAddress.test(value) ? parse(`http://${value}`) : undefined;
    if (url && (!dottedIPv4.test(url.hostname) || url.hostname.startsWith('0.'))) url = undefined;
    if (url && !isPrivateHost(url.hostname)) url = undefined;
    if (privateAddressOf.size < PARSE_CACHE_SIZE) privateAddressOf.set(value, url ?? null);
    return url;
  };
  let walkedTo = 0;
  const add = (value: string, start: number) => {
    const end = start + value.length;
    if (stringOf && (stringOf[start]! < 0 || stringOf[start] !== stringOf[end - 1])) return;
    const url = readValue(value);
    if (url) values.push({ start, end, url });
  };
  hostSettingLine.lastIndex = 0;
  for (let match = hostSettingLine.exec(text); match; match = hostSettingLine.exec(text)) {
    if (!isHostKey(match[1]!, hostKeys)) continue;
    if (match[3] !== undefined) {
      add(match[3], match.index + match[0].lastIndexOf(match[3]));
    } else if (match[4] !== undefined && match.index >= walkedTo) {
      // A flow sequence: its elements, up to `]` or the first that is not one.
      let at = match.index + match[0].length;
      for (;;) {
        flowItem.lastIndex = at;
        const item = flowItem.exec(text)!;
        if (item[2]) add(item[2], at + item[0].indexOf(item[2], item[1]!.length));
        at += item[0].length;
        if (item[3] !== ',') break;
      }
      walkedTo = at;
    } else if (match[5] !== undefined && match.index >= walkedTo) {
      // A block sequence: item lines after the key's line, until a line of
      // another kind. A key among the items of one walked already (`- hosts:`)
      // has its items among them too: lines are walked once.
      let at = match.index + match[0].length;
      while (at < text.length) {
        const code = text.charCodeAt(at);
        if (code !== 0x0a && code !== 0x0d) break;
        at += code === 0x0d && text.charCodeAt(at + 1) === 0x0a ? 2 : 1;
        hostListLine.lastIndex = at;
        const line = hostListLine.exec(text);
        if (!line) break;
        if (line[2] !== undefined) add(line[2], at + line[0].indexOf(line[2]));
        at += line[0].length;
      }
      walkedTo = at;
    }
  }
  return values;
}

/**
 * Calls `found(start, end)` for each JSON number outside strings that is
 * an integer of one to ten digits, a member's value or an array's element
 * (after `:`, `[` or `,`, before `,`, `]` or `}`). One forward pass:
 * strings skipped by `stringOf` (a decoded text), else by their quotes (a
 * text as written holds no escape).
 */
function forEachIntegerValue(
  text: string,
  stringOf: Int32Array | undefined,
  found: (start: number, end: number) => void,
): void {
  let inString = false;
  let sign = 0; // the last character outside strings that is no blank
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (stringOf ? stringOf[at] !== -1 : inString && code !== 0x22) continue;
    if (code === 0x22) {
      if (!stringOf) inString = !inString;
      sign = code;
      continue;
    }
    if (code <= 0x20) continue;
    if (code >= 0x30 && code <= 0x39 && (sign === 0x3a || sign === 0x5b || sign === 0x2c)) {
      let end = at;
      while (end < text.length && text.charCodeAt(end) >= 0x30 && text.charCodeAt(end) <= 0x39)
        end++;
      let after = end;
      while (after < text.length && text.charCodeAt(after) <= 0x20) after++;
      const next = text.charCodeAt(after);
      if (
        end - at <= 10 &&
        (next === 0x2c || next === 0x5d || next === 0x7d || after === text.length)
      )
        found(at, end);
      sign = text.charCodeAt(end - 1);
      at = end - 1;
      continue;
    }
    sign = code;
  }
}

const bareLocalhost = /(?<![\p{L}\p{N}.\-/@])localhost(?::\d{2,5})?(?:\/[^\s<>"'`]{0,2048})?/gu;

/** Punctuation that ends a sentence rather than the URL: `.,;:!?)]}'"`. */
function isTrailingPunctuation(code: number): boolean {
  return (
    code === 0x2e ||
    code === 0x2c ||
    code === 0x3b ||
    code === 0x3a ||
    code === 0x21 ||
    code === 0x3f ||
    code === 0x29 ||
    code === 0x5d ||
    code === 0x7d ||
    code === 0x27 ||
    code === 0x22
  );
}

/**
 * Cuts sentence punctuation off the end, walking back once (a `[...]+$`
 * regex would restart at every punctuation character of a long run).
 */
function trimTrailing(text: string): string {
  let end = text.length;
  while (end > 0 && isTrailingPunctuation(text.charCodeAt(end - 1))) end--;
  // Keep the bracket that closes an IPv6 host (`http://[::1]`): without it
  // the URL did not parse and no rule saw it (round 35).
  if (
    end < text.length &&
    text.charCodeAt(end) === 0x5d &&
    text.lastIndexOf('[', end) > text.lastIndexOf(']', end - 1)
  ) {
    end++;
  }
  // Keep a closing parenthesis that has its opening one inside the URL (Wikipedia links).
  if (end < text.length && text.charCodeAt(end) === 0x29 && text.lastIndexOf('(', end) !== -1) {
    end++;
  }
  return text.slice(0, end);
}

/**
 * Whether a host found without `scheme://` is one a browser could reach:
 * an IP, `localhost`, or a name under a public or private suffix. Keeps code
 * comments (`i++; //increment`) and prose (`HTTP:GET`) from being links.
 */
function isPlausibleHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.startsWith('[')) return true;
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(hostname)) return true;
  const info = parseDomain(hostname);
  return info.isIcann === true || privateSuffixes.has(info.publicSuffix ?? '');
}

/** `tryParse` with the last few distinct texts kept: a flood repeats one value. */
function cachedParser(): (text: string) => ParsedUrl | undefined {
  const parsed = new Map<string, ParsedUrl | null>();
  return text => {
    const cached = parsed.get(text);
    if (cached !== undefined) return cached ?? undefined;
    const url = tryParse(text);
    if (parsed.size < PARSE_CACHE_SIZE) parsed.set(text, url ?? null);
    return url;
  };
}

function tryParse(text: string): ParsedUrl | undefined {
  const url = parsed(text);
  if (url !== undefined || !text.includes('%')) return url;
  // An IPv6 literal with a zone (`http://[fe80::1%25eth0]/`, RFC 6874): the
  // URL parser rejects it, but curl and Python's urllib reach the address
  // (round 36, hH: a fetch tool went to a link-local host unjudged). Judged
  // as the address, failing closed.
  const zoneless = text.replace(ZONED_IPV6, '$1]');
  return zoneless === text ? undefined : parsed(zoneless);
}

/** A bracketed IPv6 literal with a zone (`%25eth0`, `%eth0`) before its `]`; the first, in a URL text of at most 2,048 characters. */
const ZONED_IPV6 = /(\[[0-9a-f:.]{2,45})%[^\]/?#\s]{1,64}\]/i;

function parsed(text: string): ParsedUrl | undefined {
  try {
    const { protocol, username, password, hostname, host } = new URL(text);
    return { protocol, username, password, hostname, host };
  } catch {
    return undefined;
  }
}

// Distinct URL texts parsed once per call; a flood repeats the same few.
const PARSE_CACHE_SIZE = 1024;

const privateSuffixes = new Set(['localhost', 'local', 'internal', 'localdomain', 'intranet']);

/**
 * As {@link findUrls}, as a {@link SpanList} of the parsed URLs, one
 * object per distinct URL text.
 */
export function scanUrls(text: string): SpanList<ParsedUrl> {
  // Each pass finds URLs in text order; a later pass keeps only those that
  // overlap nothing an earlier pass kept. Merging sorted lists keeps this
  // linear where a search of every kept URL per candidate was quadratic.
  let kept = new SpanList<ParsedUrl>();
  const parse = cachedParser();
  const pass = (
    matches: Iterable<RegExpMatchArray>,
    assumeHttp: boolean | 'http:',
    accept?: (raw: string) => boolean,
    acceptParsed?: (url: ParsedUrl) => boolean,
    /** The text parsed for a found URL text (the span stays the found text's). */
    rewrite?: (urlText: string) => string,
  ) => {
    const fresh = new SpanList<ParsedUrl>();
    let next = 0;
    // The end of a cut run flagged whole: matches inside its rest are part of it.
    let cutEnd = 0;
    for (const match of matches) {
      const urlText = trimTrailing(match[0]);
      const start = match.index!;
      const end = start + urlText.length;
      if (urlText === '' || start < cutEnd) continue;
      while (next < kept.length && kept.end(next) <= start) next++;
      if (next < kept.length && kept.start(next) < end) continue;
      if (accept && !accept(match[0])) continue;
      const read = rewrite ? rewrite(urlText) : urlText;
      const cut = cutInAuthority(text, start + match[0].length, read, assumeHttp);
      if (cut) {
        // Up to a URL an earlier pass kept in the rest (`//a…a-https://b.io`): spans never overlap.
        cutEnd = next < kept.length ? Math.min(cut.end, kept.start(next)) : cut.end;
        fresh.push(start, cutEnd, cut.url);
        continue;
      }
      const url = parse(
        assumeHttp === 'http:' ? `http:${read}` : assumeHttp ? `http://${read}` : read,
      );
      if (url && (!acceptParsed || acceptParsed(url))) {
        fresh.push(start, end, url);
      }
    }
    if (fresh.length > 0) kept = kept.length === 0 ? fresh : mergeByStart(kept, fresh);
  };
  // A text with ignorable characters is also read without them: browsers
  // and the URL parser drop them, so `e\u200bvil.com` is one host (not
  // `vil.com`) and `evil\u200b。com` is evil.com. Bare domains are read
  // there only, so no letter of a zero-width-dense text starts a match
  // attempt of its own (each did, as each follows a non-letter).
  const visible = withoutIgnorables(text);
  const withoutThem = visible ? (urlText: string) => urlText.replace(ignorables, '') : undefined;
  const plausible = (url: ParsedUrl) => isPlausibleHost(url.hostname);
  pass(text.matchAll(withScheme), false);
  pass(text.matchAll(looseSpecialScheme), false, undefined, plausible);
  pass(text.matchAll(schemeRelative), 'http:', undefined, plausible);
  if (visible) {
    // Where the characters broke a scheme or a host the URL parser rejects
    // (`http\uFE0Fs://exa\u{E0041}mple.com`): the URL without them.
    pass(mappedMatches(visible, text, withScheme), false, undefined, undefined, withoutThem);
    pass(
      mappedMatches(visible, text, looseSpecialScheme),
      false,
      undefined,
      plausible,
      withoutThem,
    );
    pass(mappedMatches(visible, text, schemeRelative), 'http:', undefined, plausible, withoutThem);
  }
  const matches = (pattern: RegExp) =>
    visible ? mappedMatches(visible, text, pattern) : text.matchAll(pattern);
  // Before bare domains: `evil｡co.uk` is one host, not the domain `co.uk`.
  pass(
    matches(bareDomainOddDots),
    true,
    raw => /[\u3002\uff0e\uff61]/.test(raw) && isKnownSuffixHost(raw),
    undefined,
    withoutThem,
  );
  // Before bare IPs: `10.0.0.1.nip.io` and `10.0.0.1.nip.io.evil.com` are
  // names, not the address 10.0.0.1 (round 39).
  pass(matches(bareDomain), true, isKnownSuffixHost, undefined, withoutThem);
  pass(text.matchAll(bareIPv4), true);
  pass(
    text.matchAll(looseIPv4),
    true,
    raw => looseIPv4Marker.test(raw) && (/0x/i.test(raw) || looseIPv4Parts(raw) === 4),
    url => dottedIPv4.test(url.hostname) && isPrivateHost(url.hostname),
  );
  pass(
    text.matchAll(looseIPv4Single),
    true,
    raw => looseIPv4Marker.test(raw) || /^[\uff10-\uff19]/.test(raw),
    url =>
      dottedIPv4.test(url.hostname) &&
      !url.hostname.startsWith('0.') &&
      isPrivateHost(url.hostname),
  );
  pass(text.matchAll(bareLocalhost), true);
  return kept;
}

/**
 * Finds URLs in `text`: with a scheme, bare domains (checked against the
 * public suffix list, so `file.txt` is not one) and bare IPv4 addresses.
 * `localhost` alone counts too. Linear time; each URL is cut at 2048 chars.
 */
export function findUrls(text: string): FoundUrl[] {
  const found = scanUrls(text);
  const urls: FoundUrl[] = [];
  for (let index = 0; index < found.length; index++) {
    const start = found.start(index);
    const end = found.end(index);
    urls.push({ text: text.slice(start, end), start, end, url: found.value(index) });
  }
  return urls;
}

function mergeByStart<VALUE>(a: SpanList<VALUE>, b: SpanList<VALUE>): SpanList<VALUE> {
  const merged = new SpanList<VALUE>();
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const fromA = j >= b.length || (i < a.length && a.start(i) < b.start(j));
    const from = fromA ? a : b;
    const index = fromA ? i++ : j++;
    merged.push(from.start(index), from.end(index), from.value(index));
  }
  return merged;
}

/** A JSON string value read as one URL: its contents' span in the decoded text, and the URL. */
export interface UrlValue {
  start: number;
  /** Exclusive. */
  end: number;
  url: ParsedUrl;
}

/** ASCII tab, line feed, carriage return: the URL parser removes them wherever they are. */
function isUrlDroppedUnit(code: number): boolean {
  return code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * The start of a value read as a URL: a scheme and `//` (`withScheme`'s), a
 * scheme browsers open without them (`https:evil.io`, `javascript:`), or
 * two slashes. Not any `word:`, which starts sentences (`Summary: …`).
 */
const urlValueStart =
  /^(?:[a-z][a-z0-9+.-]{1,20}:[\\/]{2}|(?:javascript|vbscript|data|file|https?|wss?|ftp):|[\\/]{2})/i;

/**
 * The string values of a decoded JSON text (a tool's arguments or result)
 * that hold a tab or a line break and read as one URL without them. The
 * URL parser (`fetch`, `new URL`) drops every tab and line break of its
 * input and trims C0 controls and spaces at its ends, so a tool given
 * `{"url":"https://good.com\t.evil.io/x"}` fetches good.com.evil.io,
 * `https://paste\nbin.com` is pastebin.com and
 * `http://metadata.google\t.internal/` the metadata server, while the
 * finders, which stop a URL at white space (prose's links end there), read
 * an allowed `https://good.com` and a fragment, or no host a rule names.
 * Only a value that starts as a URL (a scheme, or `//`) once trimmed and
 * parses so is one; a sentence with a link at a line's end is none (its
 * blanks are no host's). One pass over the text: each string is read once
 * after its first tab or line break.
 */
export function urlValuesWithLineBreaks(text: string, stringOf: Int32Array): UrlValue[] {
  const values: UrlValue[] = [];
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    const string = stringOf[at] ?? -1;
    if (!isUrlDroppedUnit(code) || string < 0) {
      at++;
      continue;
    }
    let start = at;
    while (start > 0 && stringOf[start - 1] === string) start--;
    let end = at + 1;
    while (end < text.length && stringOf[end] === string) end++;
    at = end;
    // The value's first 32 characters as the parser reads them (most values, prose, stop here).
    let head = '';
    let index = start;
    while (index < end && text.charCodeAt(index) <= 0x20) index++;
    for (; index < end && head.length < 32; index++) {
      const unit = text.charCodeAt(index);
      if (!isUrlDroppedUnit(unit)) head += text[index];
    }
    if (!urlValueStart.test(head)) continue;
    const url = urlReadWithoutBreaks(text.slice(start, end));
    if (url) values.push({ start, end, url });
  }
  return values;
}

/**
 * A value read as the URL parser reads it: without its tabs and line
 * breaks, C0 controls and spaces trimmed at its ends. `undefined` unless it
 * then starts as a URL (`urlValueStart`) and parses; two slashes alone
 * only before a plausible host, as `schemeRelative`'s (`//TODO`).
 */
function urlReadWithoutBreaks(
  raw: string,
  parse: (text: string) => ParsedUrl | undefined = tryParse,
): ParsedUrl | undefined {
  const joined = raw.replace(/[\t\n\r]/g, '');
  let first = 0;
  let last = joined.length;
  while (first < last && joined.charCodeAt(first) <= 0x20) first++;
  while (last > first && joined.charCodeAt(last - 1) <= 0x20) last--;
  const value = joined.slice(first, last);
  const scheme = urlValueStart.exec(value);
  if (!scheme) return undefined;
  const relative = /^[\\/]/.test(scheme[0]);
  const url = parse(relative ? `http:${value}` : value);
  return url && (!relative || isPlausibleHost(url.hostname)) ? url : undefined;
}
