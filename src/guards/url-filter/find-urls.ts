import { parse as parseDomain } from 'tldts';
import { INVISIBLE_FORMAT_RANGES, rangesClassSource } from '../shared/invisible-code-points';
import { SpanList } from '../shared/span-list';

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
const bareDomain =
  /(?<![\p{L}\p{N}@._\-/:])(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.){1,10}\p{L}{2,63}(?::\d{2,5})?(?:\/[^\s<>"'`]{0,2048})?/gu;
const bareIPv4 =
  /(?<![\p{L}\p{N}.])(?:\d{1,3}\.){3}\d{1,3}(?![\p{N}]|\.\d)(?::\d{2,5})?(?:\/[^\s<>"'`]{0,2048})?/gu;
// An ASCII host name written with another full stop (ideographic 。, full-width
// ．, half-width ｡): a browser's address bar and URL parser read each as a
// dot, so `evil。com` goes to evil.com. Only ASCII labels: CJK prose ends
// sentences with 。 (`北京。中国…` must not be the host 北京.中国).
const ODD_DOTS = /[\u3002\uff0e\uff61]/g;
const bareDomainOddDots =
  /(?<![\p{L}\p{N}@._\-/:\u3002\uff0e\uff61])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?[.\u3002\uff0e\uff61]){1,10}[a-z]{2,63}(?![\p{L}\p{N}])(?::\d{2,5})?(?:\/[^\s<>"'`]{0,2048})?/giu;
// A bare host name with default-ignorable characters (zero-width, joiners,
// selectors, tags…) between its characters: browsers, linkifiers and the
// URL parser drop them, so `evil\u200b.com` goes to evil.com (and
// `e\u200bvil.com` is not `vil.com`). Found by `bareDomain` in the text
// without them, the spans mapped back; the list is `invisibleText`'s.
const ignorables = new RegExp(rangesClassSource(INVISIBLE_FORMAT_RANGES), 'gu');

/**
 * `bareDomain`'s matches in `text` without its ignorable characters that
 * have one inside them, as matches of `text` (span from the first to the
 * last character kept). Linear: one pass to drop them, one `bareDomain`
 * scan, the spans mapped back in order.
 */
function* bareDomainIgnorables(text: string): Generator<RegExpMatchArray> {
  // Where each dropped character was in `text`, and the index in the text
  // without them of the character after it.
  const dropped: number[] = [];
  ignorables.lastIndex = 0;
  for (let hit = ignorables.exec(text); hit; hit = ignorables.exec(text)) dropped.push(hit.index);
  if (dropped.length === 0) return;
  const kept = text.replace(ignorables, '');
  const widthOf = (index: number) => (text.codePointAt(dropped[index]!)! > 0xffff ? 2 : 1);
  let droppedWidth = 0;
  const after: number[] = new Array(dropped.length);
  for (let index = 0; index < dropped.length; index++) {
    after[index] = dropped[index]! - droppedWidth;
    droppedWidth += widthOf(index);
  }
  // Original offset of kept index `at`: `at` plus the width dropped before it.
  let startCursor = 0;
  let startWidth = 0;
  let lastCursor = 0;
  let lastWidth = 0;
  for (const match of kept.matchAll(bareDomain)) {
    const start = match.index!;
    const last = start + match[0].length - 1;
    while (startCursor < after.length && after[startCursor]! <= start) {
      startWidth += widthOf(startCursor++);
    }
    while (lastCursor < after.length && after[lastCursor]! <= last) {
      lastWidth += widthOf(lastCursor++);
    }
    if (lastWidth === startWidth) continue; // none inside: bareDomain's own
    const from = start + startWidth;
    const found = [text.slice(from, last + lastWidth + 1)] as RegExpMatchArray;
    found.index = from;
    yield found;
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

function tryParse(text: string): ParsedUrl | undefined {
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
  const parsed = new Map<string, ParsedUrl | null>();
  const parse = (urlText: string): ParsedUrl | undefined => {
    const cached = parsed.get(urlText);
    if (cached !== undefined) return cached ?? undefined;
    const url = tryParse(urlText);
    if (parsed.size < PARSE_CACHE_SIZE) parsed.set(urlText, url ?? null);
    return url;
  };
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
    for (const match of matches) {
      const urlText = trimTrailing(match[0]);
      const start = match.index!;
      const end = start + urlText.length;
      if (urlText === '') continue;
      while (next < kept.length && kept.end(next) <= start) next++;
      if (next < kept.length && kept.start(next) < end) continue;
      if (accept && !accept(match[0])) continue;
      const read = rewrite ? rewrite(urlText) : urlText;
      const url = parse(
        assumeHttp === 'http:' ? `http:${read}` : assumeHttp ? `http://${read}` : read,
      );
      if (url && (!acceptParsed || acceptParsed(url))) {
        fresh.push(start, end, url);
      }
    }
    if (fresh.length > 0) kept = kept.length === 0 ? fresh : mergeByStart(kept, fresh);
  };
  pass(text.matchAll(withScheme), false);
  pass(text.matchAll(looseSpecialScheme), false, undefined, url => isPlausibleHost(url.hostname));
  pass(text.matchAll(schemeRelative), 'http:', undefined, url => isPlausibleHost(url.hostname));
  pass(text.matchAll(bareIPv4), true);
  // Before bare domains: `evil｡co.uk` is one host, not the domain `co.uk`.
  pass(text.matchAll(bareDomainOddDots), true, raw => {
    if (!/[\u3002\uff0e\uff61]/.test(raw)) return false;
    const host = raw.split(/[:/]/, 1)[0]!.replace(ODD_DOTS, '.').toLowerCase();
    const info = parseDomain(host);
    return info.isIcann === true || privateSuffixes.has(info.publicSuffix ?? '');
  });
  // Before bare domains too: `e\u200bvil.com` is one host, not `vil.com`.
  pass(
    bareDomainIgnorables(text),
    true,
    raw => {
      const host = raw.split(/[:/]/, 1)[0]!.replace(ignorables, '').toLowerCase();
      const info = parseDomain(host);
      return info.isIcann === true || privateSuffixes.has(info.publicSuffix ?? '');
    },
    undefined,
    urlText => urlText.replace(ignorables, ''),
  );
  pass(text.matchAll(bareDomain), true, raw => {
    const host = raw.split(/[:/]/, 1)[0]!.toLowerCase();
    const info = parseDomain(host);
    return info.isIcann === true || privateSuffixes.has(info.publicSuffix ?? '');
  });
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
