import { parse } from 'tldts';

/** One URL-like run found in a text. */
export interface FoundUrl {
  /** The text as written. */
  text: string;
  start: number;
  /** Exclusive. */
  end: number;
  /** Parsed, with `http://` assumed for bare domains and IPs. */
  url: URL;
}

// URL with a scheme ("https://...", also "javascript:" and "data:" which need no //).
const withScheme =
  /\b(?:[a-z][a-z0-9+.-]{1,20}:\/\/|(?:javascript|vbscript|data|file):)[^\s<>"'`]{1,2048}/giu;
// Bare host names: labels of letters, digits and hyphens ending in a letters-only TLD.
const bareDomain =
  /(?<![\p{L}\p{N}@._\-/:])(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.){1,10}\p{L}{2,63}(?::\d{2,5})?(?:\/[^\s<>"'`]{0,2048})?/gu;
const bareIPv4 =
  /(?<![\p{L}\p{N}.])(?:\d{1,3}\.){3}\d{1,3}(?![\p{N}]|\.\d)(?::\d{2,5})?(?:\/[^\s<>"'`]{0,2048})?/gu;
// Punctuation that ends a sentence rather than the URL.
const trailing = /[.,;:!?)\]}'"]+$/;

function trimTrailing(text: string): string {
  let trimmed = text.replace(trailing, '');
  // Keep a closing parenthesis that has its opening one inside the URL (Wikipedia links).
  if (text.length > trimmed.length && text[trimmed.length] === ')' && trimmed.includes('(')) {
    trimmed = text.slice(0, trimmed.length + 1);
  }
  return trimmed;
}

function tryParse(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

const privateSuffixes = new Set(['localhost', 'local', 'internal', 'localdomain', 'intranet']);

/**
 * Finds URLs in `text`: with a scheme, bare domains (checked against the
 * public suffix list, so `file.txt` is not one) and bare IPv4 addresses.
 * `localhost` alone counts too. Linear time; each URL is cut at 2048 chars.
 */
export function findUrls(text: string): FoundUrl[] {
  const found: FoundUrl[] = [];
  const covered = (start: number, end: number) =>
    found.some(url => start < url.end && end > url.start);
  const add = (raw: string, start: number, assumeHttp: boolean) => {
    const urlText = trimTrailing(raw);
    const end = start + urlText.length;
    if (urlText === '' || covered(start, end)) return;
    const url = tryParse(assumeHttp ? `http://${urlText}` : urlText);
    if (url) found.push({ text: urlText, start, end, url });
  };
  for (const match of text.matchAll(withScheme)) add(match[0], match.index, false);
  for (const match of text.matchAll(bareIPv4)) add(match[0], match.index, true);
  for (const match of text.matchAll(bareDomain)) {
    const host = match[0].split(/[:/]/, 1)[0]!.toLowerCase();
    const info = parse(host);
    if (info.isIcann || privateSuffixes.has(info.publicSuffix ?? '')) {
      add(match[0], match.index, true);
    }
  }
  for (const match of text.matchAll(
    /(?<![\p{L}\p{N}.\-/@])localhost(?::\d{2,5})?(?:\/[^\s<>"'`]{0,2048})?/gu,
  )) {
    add(match[0], match.index, true);
  }
  return found.sort((a, b) => a.start - b.start);
}
