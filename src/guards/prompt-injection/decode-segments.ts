/** Most encoded segments decoded per text, and longest segment read, so cost stays bounded. */
export const MAX_DECODED_SEGMENTS = 8;
export const MAX_SEGMENT_LENGTH = 4096;

/** One encoded run found in a text and what it decodes to. */
export interface DecodedSegment {
  encoding: 'base64' | 'hex' | 'url';
  text: string;
}

const base64Run = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
const hexRun = /(?:[0-9a-fA-F]{2}[ :]?){12,}/g;
const urlEncodedRun = /[^\s%]{0,64}(?:%[0-9a-fA-F]{2}[^\s%]{0,24}){4,}/g;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** True when a decoded text reads as text: mostly printable, a few letters, some spaces. */
function looksLikeText(text: string): boolean {
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

function bytesToText(bytes: Uint8Array): string | undefined {
  try {
    const text = utf8.decode(bytes);
    return looksLikeText(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

function decodeBase64(run: string): string | undefined {
  const standard = run.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (standard.length % 4 === 1) return undefined;
  // Mixed case and digits: a plain long word is not base64.
  if (!/[A-Z]/.test(standard) || !/[a-z]/.test(standard)) return undefined;
  try {
    const binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4));
    return bytesToText(Uint8Array.from(binary, char => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

function decodeHex(run: string): string | undefined {
  const digits = run.replace(/[ :]/g, '');
  if (digits.length % 2 === 1 || !/[a-fA-F]/.test(digits)) return undefined;
  const bytes = new Uint8Array(digits.length / 2);
  for (let index = 0; index < bytes.length; index++) {
    bytes[index] = Number.parseInt(digits.slice(index * 2, index * 2 + 2), 16);
  }
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

/**
 * Finds base64, hex and URL-encoded runs in `text` and returns the ones that
 * decode to readable text, so that signals can be matched on them too. At
 * most `MAX_DECODED_SEGMENTS` runs, each cut to `MAX_SEGMENT_LENGTH` chars.
 */
export function decodeSegments(text: string): DecodedSegment[] {
  const found: DecodedSegment[] = [];
  const scans: Array<[DecodedSegment['encoding'], RegExp, (run: string) => string | undefined]> = [
    ['base64', base64Run, decodeBase64],
    ['hex', hexRun, decodeHex],
    ['url', urlEncodedRun, decodeUrl],
  ];
  for (const [encoding, pattern, decode] of scans) {
    for (const match of text.matchAll(pattern)) {
      if (found.length >= MAX_DECODED_SEGMENTS) return found;
      const decoded = decode(match[0].slice(0, MAX_SEGMENT_LENGTH));
      if (decoded !== undefined) found.push({ encoding, text: decoded });
    }
  }
  return found;
}
