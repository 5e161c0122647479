import { parse as parseDomain } from 'tldts';
import { validDomain } from './email';
import type { EntityFinder, Finder } from './finder';
import { ipv4Valid } from './ip';

const urlWithScheme = /\b(?:https?|ftp):\/\/[^\s<>"'`{}|\\^]{1,500}/gi;
const bareDomain =
  /(?<![\w.@/:-])(?:www\.)?(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,6}[A-Za-z]{2,24}(?![\w@-]|\.\w)(?:\/[^\s<>"'`{}|\\^]{0,400})?/g;
// Public suffixes that are far more often file extensions than domains.
const fileLikeSuffixes = new Set([
  'py',
  'md',
  'sh',
  'rs',
  'pl',
  'pm',
  'so',
  'cs',
  'rb',
  'go',
  'mk',
  'ml',
  'ps',
  'zip',
  'mov',
  'st',
  'sc',
  'im',
  'ini',
  'jar',
  'exe',
  'bat',
  'app',
  'dev',
  'ts',
  'js',
  'id',
]);

function trimUrl(value: string): string {
  let end = value.length;
  while (end > 0 && /[.,;:!?'"*]/.test(value[end - 1]!)) end--;
  let trimmed = value.slice(0, end);
  // Drop an unbalanced closing bracket: "(see https://x.org/a)".
  for (const [open, close] of [
    ['(', ')'],
    ['[', ']'],
  ] as const) {
    while (trimmed.endsWith(close) && trimmed.split(close).length > trimmed.split(open).length) {
      trimmed = trimmed.slice(0, -1);
    }
  }
  return trimmed;
}

const findUrls: Finder = (text, add) => {
  for (const match of text.matchAll(urlWithScheme)) {
    const value = trimUrl(match[0]);
    const host = value.replace(/^[a-z]+:\/\//i, '').split(/[/?#:]/)[0]!;
    const hostname = host.includes('@') ? host.slice(host.lastIndexOf('@') + 1) : host;
    if (hostname === 'localhost' || ipv4Valid(hostname) || validDomain(hostname)) {
      add(match.index, match.index + value.length);
    }
  }
  for (const match of text.matchAll(bareDomain)) {
    const value = trimUrl(match[0]);
    const hostname = value.split('/')[0]!;
    const parsed = parseDomain(hostname);
    const suffix = parsed.publicSuffix ?? '';
    const explicitWeb = /^www\./i.test(hostname) || value.includes('/');
    // `www.microsoft` is a brand TLD with no domain under it, not a site.
    if (!parsed.isIcann || !parsed.domainWithoutSuffix || parsed.domainWithoutSuffix === 'www')
      continue;
    if (!explicitWeb && fileLikeSuffixes.has(suffix.toLowerCase())) continue;
    if (/^\d+$/.test(parsed.domainWithoutSuffix)) continue;
    add(match.index, match.index + value.length);
  }
};

export const urlFinder: EntityFinder = { find: findUrls, maxLength: 520, priority: 6 };
