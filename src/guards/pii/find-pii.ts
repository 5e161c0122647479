import {
  type CountryCode,
  findPhoneNumbersInText,
  isValidPhoneNumber,
} from 'libphonenumber-js/max';
import { parse as parseDomain } from 'tldts';
import { GuardrailConfigError } from '../../core/errors';
import { validateOptionsOnce } from '../../core/options';
import { anchoredMatcher, forEachOccurrence, stickyPattern } from '../shared/anchored-scan';
import { base58CheckValid, bech32Valid, luhnValid, mod97Valid } from '../shared/checksums';
import { normalizeText } from '../shared/normalize-text';
import { type DetectedSpan, type RankedSpan, resolveOverlaps } from '../shared/spans';
import { findPiiOptionShape } from './pii-options';

/** The PII entity types `findPii` and `pii()` recognise. */
export type PiiEntity =
  | 'EMAIL_ADDRESS'
  | 'PHONE_NUMBER'
  | 'CREDIT_CARD'
  | 'IBAN_CODE'
  | 'US_SSN'
  | 'US_ITIN'
  | 'IP_ADDRESS'
  | 'URL'
  | 'MAC_ADDRESS'
  | 'CRYPTO'
  | 'UK_NINO'
  | 'UK_NHS';

/** One PII match: its type and `[start, end)` offsets into the original text. */
export interface PiiSpan extends DetectedSpan {
  type: PiiEntity | (string & {});
}

/** A user-defined PII pattern. */
export interface CustomPiiPattern {
  /** The type reported for matches, e.g. `EMPLOYEE_ID`. */
  type: string;
  /** What to match (on the normalised text). Keep it linear: bounded quantifiers only. */
  pattern: RegExp;
  /** Extra check on each match; return false to drop it. */
  validate?: (match: string) => boolean;
  /** The longest text a match can span, for stream windows. Default 64. */
  maxLength?: number;
}

/** Options of `findPii`. */
export interface FindPiiOptions {
  /** Which entity types to look for. Default `defaultPiiEntities`; `'all'` for every type. */
  entities?: readonly PiiEntity[] | 'all';
  /** Extra patterns, reported with their own type. */
  custom?: readonly CustomPiiPattern[];
  /** Region for phone numbers written without a country code. Default `'US'`. */
  defaultRegion?: CountryCode;
  /**
   * More regions tried for national phone numbers (after `defaultRegion`).
   * Each extra region adds recall and some false positives. Default
   * `['GB', 'DE', 'FR', 'IL', 'IN', 'CA', 'BR', 'JP', 'CN']`.
   */
  phoneRegions?: readonly CountryCode[];
  /** Match obfuscated emails such as `john [at] example [dot] com`. Default true. */
  obfuscatedEmails?: boolean;
}

/** Every entity type `findPii` knows. */
export const allPiiEntities: readonly PiiEntity[] = [
  'EMAIL_ADDRESS',
  'PHONE_NUMBER',
  'CREDIT_CARD',
  'IBAN_CODE',
  'US_SSN',
  'US_ITIN',
  'IP_ADDRESS',
  'URL',
  'MAC_ADDRESS',
  'CRYPTO',
  'UK_NINO',
  'UK_NHS',
];

/**
 * The entity types checked by default: those with a validator strong enough
 * to keep false alarms rare in ordinary text. `URL` (most links are not
 * personal) and `UK_NHS` (collides with 10-digit phone numbers) are opt-in.
 */
export const defaultPiiEntities: readonly PiiEntity[] = allPiiEntities.filter(
  entity => entity !== 'URL' && entity !== 'UK_NHS',
);

/** The longest normalised text each entity can span. */
const entityMaxLength: Record<PiiEntity, number> = {
  EMAIL_ADDRESS: 400, // 64 + @ + 255, or the obfuscated form
  PHONE_NUMBER: 48,
  CREDIT_CARD: 40,
  IBAN_CODE: 44,
  US_SSN: 11,
  US_ITIN: 11,
  IP_ADDRESS: 64,
  URL: 520,
  MAC_ADDRESS: 17,
  CRYPTO: 90,
  UK_NINO: 13,
  UK_NHS: 12,
};

/**
 * The longest original text a match can span for these options: the
 * normalised length, doubled to allow one invisible character between every
 * two visible ones.
 */
export function piiMaxMatchLength({ entities, custom = [] }: FindPiiOptions = {}): number {
  const types = resolveEntities(entities);
  let longest = 0;
  for (const entity of types) longest = Math.max(longest, entityMaxLength[entity]);
  for (const pattern of custom) longest = Math.max(longest, pattern.maxLength ?? 64);
  return longest * 2;
}

type Finder = (text: string, add: (start: number, end: number) => void, options: Resolved) => void;

interface Resolved {
  defaultRegion: CountryCode;
  phoneRegions: readonly CountryCode[];
  obfuscatedEmails: boolean;
  hasNhs: boolean;
}

const priorities: Record<PiiEntity, number> = {
  EMAIL_ADDRESS: 10,
  CREDIT_CARD: 9,
  IBAN_CODE: 9,
  CRYPTO: 9,
  IP_ADDRESS: 8,
  MAC_ADDRESS: 8,
  UK_NHS: 7,
  US_SSN: 7,
  US_ITIN: 7,
  UK_NINO: 7,
  URL: 6,
  PHONE_NUMBER: 5,
};

// ---------------------------------------------------------------- email

const localChar = /[A-Za-z0-9._%+\-'!#$&*=?^`{|}~]/;
const domainChar = /[A-Za-z0-9.-]/;
const domainLabel = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

function validDomain(domain: string): boolean {
  const labels = domain.split('.');
  if (labels.length < 2 || domain.length > 253) return false;
  if (!labels.every(label => domainLabel.test(label))) return false;
  const tld = labels[labels.length - 1]!;
  if (/^xn--[a-z0-9-]+$/i.test(tld)) return true;
  if (!/^[A-Za-z]{2,24}$/.test(tld)) return false;
  return parseDomain(domain).isIcann === true;
}

function codeTable(pattern: RegExp): Uint8Array {
  const table = new Uint8Array(128);
  for (let code = 0; code < 128; code++)
    table[code] = pattern.test(String.fromCharCode(code)) ? 1 : 0;
  return table;
}
const localCodes = codeTable(localChar);
const domainCodes = codeTable(domainChar);
const isInTable = (table: Uint8Array, code: number) => code < 128 && table[code] === 1;
const isLocalCode = (code: number) => code < 128 && localCodes[code] === 1;
const isDomainCode = (code: number) => code < 128 && domainCodes[code] === 1;

const findEmails: Finder = (text, add) => {
  // Expand around each '@' instead of running a regex from every position:
  // each '@' costs at most 64 + 255 steps, so the scan stays linear.
  let at = text.indexOf('@');
  let dot = text.indexOf('.'); // the first '.' after the current '@', searched again once passed
  while (at >= 0) {
    let start = at;
    while (start > 0 && at - start < 64 && isLocalCode(text.charCodeAt(start - 1))) start--;
    const tooLong = start > 0 && isLocalCode(text.charCodeAt(start - 1));
    let end = at + 1;
    while (end < text.length && end - at <= 255 && isDomainCode(text.charCodeAt(end))) end++;
    while (end > at + 1 && (text[end - 1] === '.' || text[end - 1] === '-')) end--;
    while (start < at && text[start] === '.') start++;
    // A domain needs a dot (two labels): most stray '@'s end here, before any slicing.
    if (dot >= 0 && dot <= at) dot = text.indexOf('.', at + 1);
    if (!tooLong && start < at && dot >= 0 && dot < end) {
      const local = text.slice(start, at);
      const domain = text.slice(at + 1, end);
      if (!local.endsWith('.') && !local.includes('..') && validDomain(domain)) add(start, end);
    }
    at = text.indexOf('@', at + 1);
  }
};

const obfuscatedAt = /[[({<]\s{0,2}at\s{0,2}[\])}>]/gi;
const obfuscatedLocal = /(?<![\w.%+-])[A-Za-z0-9._%+-]{1,64}\s{0,3}$/;
const obfuscatedDomain =
  /^\s{0,3}([A-Za-z0-9-]{1,63}(?:\s{0,3}(?:[[({<]\s{0,2}dot\s{0,2}[\])}>]|\.)\s{0,3}[A-Za-z0-9-]{1,63}){1,4})(?![\w-])/i;

// Anchored on each bracketed "at" (rare in prose), with the local part
// matched backwards and the domain forwards in bounded slices, so ordinary
// text costs one scan for "[at]"-like tokens.
const stickyObfuscatedAt = stickyPattern(obfuscatedAt);

/**
 * The matches of `obfuscatedAt`, tried only at an opening bracket with an
 * `a` (any case) one to three characters after it.
 */
function obfuscatedAtMatches(text: string): RegExpExecArray[] {
  const matches: RegExpExecArray[] = [];
  const matcher = anchoredMatcher(stickyObfuscatedAt, text);
  forEachOccurrence(text, ['[', '(', '{', '<'], start => {
    if (
      (text.charCodeAt(start + 1) | 0x20) !== 97 &&
      (text.charCodeAt(start + 2) | 0x20) !== 97 &&
      (text.charCodeAt(start + 3) | 0x20) !== 97
    )
      return;
    const match = matcher.at(start);
    if (match) matches.push(match);
  });
  return matches;
}

const findObfuscatedEmails: Finder = (text, add, { obfuscatedEmails }) => {
  if (!obfuscatedEmails) return;
  for (const at of obfuscatedAtMatches(text)) {
    const sliceStart = Math.max(0, at.index - 68);
    const local = obfuscatedLocal.exec(text.slice(sliceStart, at.index));
    if (!local) continue;
    const afterStart = at.index + at[0].length;
    const domainMatch = obfuscatedDomain.exec(text.slice(afterStart, afterStart + 400));
    if (!domainMatch) continue;
    const domain = domainMatch[1]!.replace(/\s*(?:[[({<]\s*dot\s*[\])}>]|\.)\s*/gi, '.');
    if (validDomain(domain)) add(sliceStart + local.index, afterStart + domainMatch[0].length);
  }
};

// ---------------------------------------------------------------- phone

// A run of digits and separators holding at least seven digits. A run
// with fewer is never a phone number, and none of its suffixes can hold
// more, so skipping those runs in the pattern yields the same long runs as
// matching every run and dropping the short ones (without a match object
// per number in the text).
const phoneRun = /\+?\(?\d(?=(?:[ ().\-/]*\d){6})[\d ().\-/]*/g;

function phonesIn(run: string, regions: readonly CountryCode[]): Array<[number, number]> {
  let found: Array<[number, number]> = [];
  const international = /^(?:\+|00)/.test(run);
  // A national number is read in the default region; other regions only get
  // numbers written with a trunk prefix and separators (`090-1234-5678`),
  // since a bare digit string is valid *somewhere* far too often.
  const formattedNational = /^\(?0/.test(run) && /[\s()\-/.]/.test(run);
  const tried = international || !formattedNational ? regions.slice(0, 1) : regions;
  for (const region of tried) {
    const matches = findPhoneNumbersInText(run, { defaultCountry: region });
    found = matches.filter(match => match.number.isValid()).map(m => [m.startsAt, m.endsAt]);
    if (found.length > 0) break;
  }
  return found;
}

/** Shapes that are something else: SSNs (3-2-4), dotted IPs and versions, codes ending in one digit. */
function notPhoneShaped(run: string): boolean {
  const groups = run
    .replace(/^\+/, '')
    .split(/[\s().\-/]+/)
    .filter(Boolean);
  if (groups.length === 3 && groups.map(group => group.length).join('-') === '3-2-4') return true;
  if (/\d{4}-\d{2}-\d{2}/.test(run)) return true; // an ISO date, often followed by a time
  if (run.includes('.') && !/[\s()\-/]/.test(run) && groups.every(group => group.length <= 3))
    return true;
  return groups.length > 1 && groups[groups.length - 1]!.length < 2;
}

/** Characters that, just before a run, make it part of a word, an id, a path or an address. */
const phoneBlockedBefore = codeTable(/[\w.\-/@:]/);

/** A run without the separators and opening brackets at its end. */
function trimRunEnd(run: string): string {
  let end = run.length;
  for (;;) {
    const code = run.charCodeAt(end - 1);
    // space ( . - /: the only separators a run can end with
    if (code === 32 || code === 40 || code === 46 || code === 45 || code === 47) end--;
    else break;
  }
  return end === run.length ? run : run.slice(0, end);
}

function digitCount(run: string): number {
  let count = 0;
  for (let index = 0; index < run.length; index++) {
    const code = run.charCodeAt(index);
    if (code >= 48 && code <= 57) count++;
  }
  return count;
}

const noPhones: Array<[number, number]> = [];
// Per regions: run -> phone numbers in it (empty when its shape rules it out).
const runVerdicts = new Map<string, Map<string, Array<[number, number]>>>();

/** The phone numbers in a trimmed run, or none when its length or shape rules it out. */
function phonesInRun(
  run: string,
  regions: readonly CountryCode[],
  verdicts: Map<string, Array<[number, number]>>,
): Array<[number, number]> {
  // A long run of digits and separators is a table or an id, not a phone
  // number; skipping it keeps adversarial input cheap.
  if (run.length > 48) return noPhones;
  const known = verdicts.get(run);
  if (known) return known;
  const found = digitCount(run) < 7 || notPhoneShaped(run) ? noPhones : phonesIn(run, regions);
  if (verdicts.size > 2_000) verdicts.clear();
  verdicts.set(run, found);
  return found;
}

const findPhones: Finder = (text, add, { defaultRegion, phoneRegions }) => {
  const regions = [defaultRegion, ...phoneRegions.filter(region => region !== defaultRegion)];
  const regionsKey = regions.join(',');
  let verdicts = runVerdicts.get(regionsKey);
  if (!verdicts) {
    if (runVerdicts.size > 16) runVerdicts.clear();
    verdicts = new Map();
    runVerdicts.set(regionsKey, verdicts);
  }
  for (const match of text.matchAll(phoneRun)) {
    const index = match.index;
    if (index > 0 && isInTable(phoneBlockedBefore, text.charCodeAt(index - 1))) continue;
    const run = trimRunEnd(match[0]);
    const phones = phonesInRun(run, regions, verdicts);
    if (phones.length === 0) continue;
    // Three characters: the check below must see what follows the letter.
    const after = text.slice(index + run.length, index + run.length + 3);
    // `55555555-K` is an id with a check letter; `-Office` after a number is a label.
    if (/^(?:[A-Za-z_]|[-/][A-Za-z0-9](?![A-Za-z0-9]))/.test(after)) continue;
    for (const [start, end] of phones) add(index + start, index + end);
  }
};

// ---------------------------------------------------------------- cards

// The lookbehind after the first digit (same meaning as before it) lets the
// engine skip straight to digits.
const cardCandidate = /\d(?<![\w.-]\d)(?:[ .-]?\d){11,18}(?![\w]|[.-]\d)/g;

function cardIssuerValid(digits: string): boolean {
  const length = digits.length;
  const prefix = (size: number) => Number(digits.slice(0, size));
  if (digits[0] === '4') return length === 13 || length === 16 || length === 19; // Visa
  if (prefix(2) >= 51 && prefix(2) <= 55) return length === 16; // Mastercard
  if (prefix(4) >= 2221 && prefix(4) <= 2720) return length === 16; // Mastercard 2-series
  if (prefix(2) === 34 || prefix(2) === 37) return length === 15; // Amex
  if (prefix(3) >= 300 && prefix(3) <= 305) return length >= 14 && length <= 19; // Diners
  if (prefix(2) === 36 || prefix(2) === 38 || prefix(2) === 39) return length >= 14 && length <= 19;
  // JCB is 3528-3589, but issuers and test generators use all of 35xx; Luhn still applies.
  if (prefix(2) === 35) return length >= 16 && length <= 19;
  if (prefix(4) === 2131 || prefix(4) === 1800) return length === 15; // JCB (old)
  if (digits[0] === '1') return length === 15; // UATP
  if (digits[0] === '6') return length >= 12 && length <= 19; // Discover, UnionPay, Maestro
  if (prefix(2) === 50 || (prefix(2) >= 56 && prefix(2) <= 58)) return length >= 12 && length <= 19; // Maestro
  return false;
}

/**
 * The digits of a card candidate (digits with single separators between
 * them), or undefined when it mixes separator kinds or is not grouped like a
 * card (4-4-4-4, 4-6-5, ...: groups of 3 to 6 digits), not a list of small
 * numbers.
 */
function cardDigits(value: string): string | undefined {
  let separator = -1;
  let group = 0;
  let digits = '';
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      group++;
      continue;
    }
    if (separator >= 0 && code !== separator) return undefined;
    separator = code;
    if (group < 3 || group > 6) return undefined;
    group = 0;
  }
  if (separator < 0) return value;
  if (group < 3 || group > 6) return undefined;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code >= 48 && code <= 57) digits += value[index];
  }
  return digits;
}

function allSameDigit(digits: string): boolean {
  for (let index = 1; index < digits.length; index++) {
    if (digits.charCodeAt(index) !== digits.charCodeAt(0)) return false;
  }
  return true;
}

const findCards: Finder = (text, add) => {
  cardCandidate.lastIndex = 0;
  for (let match = cardCandidate.exec(text); match; match = cardCandidate.exec(text)) {
    const value = match[0];
    const digits = cardDigits(value);
    if (digits === undefined || allSameDigit(digits)) continue;
    if (cardIssuerValid(digits) && luhnValid(digits)) add(match.index, match.index + value.length);
  }
};

// ---------------------------------------------------------------- IBAN

// BBAN structure per country (ISO 13616 registry): n digits, a upper-case letters, c alphanumerics.
const ibanFormats: Record<string, string> = {
  AD: '8n12c',
  AE: '19n',
  AL: '8n16c',
  AT: '16n',
  AZ: '4a20c',
  BA: '16n',
  BE: '12n',
  BG: '4a6n8c',
  BH: '4a14c',
  BI: '23n',
  BR: '23n1a1c',
  BY: '4c4n16c',
  CH: '5n12c',
  CR: '18n',
  CY: '8n16c',
  CZ: '20n',
  DE: '18n',
  DJ: '23n',
  DK: '14n',
  DO: '4c20n',
  EE: '16n',
  EG: '25n',
  ES: '20n',
  FI: '14n',
  FK: '2a12n',
  FO: '14n',
  FR: '10n11c2n',
  GB: '4a14n',
  GE: '2a16n',
  GI: '4a15c',
  GL: '14n',
  GR: '7n16c',
  GT: '4c20c',
  HN: '4a20n',
  HR: '17n',
  HU: '24n',
  IE: '4a14n',
  IL: '19n',
  IQ: '4a15n',
  IS: '22n',
  IT: '1a10n12c',
  JO: '4a4n18c',
  KW: '4a22c',
  KZ: '3n13c',
  LB: '4n20c',
  LC: '4a24c',
  LI: '5n12c',
  LT: '16n',
  LU: '3n13c',
  LV: '4a13c',
  LY: '21n',
  MC: '10n11c2n',
  MD: '2c18c',
  ME: '18n',
  MK: '3n10c2n',
  MN: '16n',
  MR: '23n',
  MT: '4a5n18c',
  MU: '4a19n3a',
  NI: '4a20n',
  NL: '4a10n',
  NO: '11n',
  OM: '3n16c',
  PK: '4a16c',
  PL: '24n',
  PS: '4a21c',
  PT: '21n',
  QA: '4a21c',
  RO: '4a16c',
  RS: '18n',
  RU: '14n15c',
  SA: '2n18c',
  SC: '4a20n3a',
  SD: '14n',
  SE: '20n',
  SI: '15n',
  SK: '20n',
  SM: '1a10n12c',
  SO: '19n',
  ST: '21n',
  SV: '4a20n',
  TL: '19n',
  TN: '20n',
  TR: '6n16c',
  UA: '6n19c',
  VA: '18n',
  VG: '4a16n',
  XK: '16n',
  YE: '4a4n18c',
};

const ibanPatterns = new Map<string, { length: number; pattern: RegExp }>(
  Object.entries(ibanFormats).map(([country, format]) => {
    let source = '';
    let length = 4;
    for (const [, count, kind] of format.matchAll(/(\d+)([nac])/g)) {
      const charClass = kind === 'n' ? '\\d' : kind === 'a' ? '[A-Z]' : '[A-Z0-9]';
      source += `${charClass}{${count}}`;
      length += Number(count);
    }
    return [country, { length, pattern: new RegExp(`^${source}$`) }];
  }),
);

const ibanCandidate = /(?<![A-Za-z0-9])([A-Z]{2})\d{2}(?: ?[A-Z0-9]){8,32}/g;

const findIbans: Finder = (text, add) => {
  const candidate = new RegExp(ibanCandidate.source, 'g');
  // The candidate pattern may run into a following IBAN ("GB82 … 32 GB82 …"):
  // resume right after the characters a country's length consumed.
  for (let match = candidate.exec(text); match !== null; match = candidate.exec(text)) {
    candidate.lastIndex = match.index + 1;
    const format = ibanPatterns.get(match[1]!);
    if (!format) continue;
    // Consume exactly the country's length, single spaces allowed between characters.
    const value = match[0];
    let compact = '';
    let index = 0;
    while (index < value.length && compact.length < format.length) {
      if (value[index] !== ' ') compact += value[index];
      index++;
    }
    if (compact.length !== format.length) continue;
    const next = text[match.index + index];
    if (next !== undefined && /[A-Za-z0-9]/.test(next)) continue;
    if (format.pattern.test(compact.slice(4)) && mod97Valid(compact)) {
      add(match.index, match.index + index);
      candidate.lastIndex = match.index + index;
    }
  }
};

// ---------------------------------------------------------------- US SSN / ITIN

const nineDigits = /(\d(?<![\w.-]\d)\d{2})([- .]?)(\d{2})([- .]?)(\d{4})(?![\w]|-\d|\.\d)/g;
const sampleSsns = new Set(['078051120', '219099999', '457555462', '123456789']);

function separatorsConsistent(first: string, second: string): boolean {
  return first === '' || second === '' || first === second;
}

/** A bare 9-digit number with a valid ABA routing prefix and checksum is a bank routing number. */
function abaRoutingValid(digits: string): boolean {
  const prefix = Number(digits.slice(0, 2));
  const validPrefix =
    prefix <= 12 ||
    (prefix >= 21 && prefix <= 32) ||
    (prefix >= 61 && prefix <= 72) ||
    prefix === 80;
  if (!validPrefix) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  let sum = 0;
  for (let index = 0; index < 9; index++) sum += Number(digits[index]) * weights[index]!;
  return sum % 10 === 0;
}

// SSN and ITIN read the same nine-digit candidates: scan once per text.
let nineDigitCache: { text: string; matches: RegExpExecArray[] } | undefined;
function nineDigitMatches(text: string): RegExpExecArray[] {
  if (nineDigitCache?.text !== text)
    nineDigitCache = { text, matches: [...text.matchAll(nineDigits)] };
  return nineDigitCache.matches;
}

const findSsns: Finder = (text, add) => {
  for (const match of nineDigitMatches(text)) {
    const [value, area, sep1, group, sep2, serial] = match as unknown as string[];
    if (!separatorsConsistent(sep1!, sep2!)) continue;
    if ((sep1 === ' ' || sep1 === '.') && sep2 === '') continue;
    if ((sep2 === ' ' || sep2 === '.') && sep1 === '') continue;
    if (area === '000' || area === '666' || area![0] === '9') continue;
    if (group === '00' || serial === '0000') continue;
    const digits = area! + group! + serial!;
    if (sampleSsns.has(digits) || /^(\d)\1{8}$/.test(digits)) continue;
    if (sep1 === '' && sep2 === '' && abaRoutingValid(digits)) continue;
    add(match.index, match.index + value!.length);
  }
};

const findItins: Finder = (text, add) => {
  for (const match of nineDigitMatches(text)) {
    const [value, area, sep1, group, sep2] = match as unknown as string[];
    if (!separatorsConsistent(sep1!, sep2!) || sep1 === '.' || sep2 === '.') continue;
    if (area![0] !== '9') continue;
    const middle = Number(group);
    const validGroup =
      (middle >= 50 && middle <= 65) || (middle >= 70 && middle <= 88) || middle >= 90;
    if (validGroup && middle !== 93) add(match.index, match.index + value!.length);
  }
};

// ---------------------------------------------------------------- IP addresses

const octet = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const ipv4 = new RegExp(
  `(?<![\\w.])(?:${octet}\\.){3}${octet}(?:\\/(?:3[0-2]|[12]?\\d)(?!\\d))?(?!\\d)`,
  'g',
);
const ipv6Candidate =
  /(?<![\w:.%])[0-9A-Fa-f:]{2,39}(?:(?<=:)\d{1,3}(?:\.\d{1,3}){3})?(?:%[0-9A-Za-z]{1,15})?(?:\/\d{1,3})?(?![\w:]|\.\d)/g;

function ipv4Valid(text: string): boolean {
  const parts = text.split('.');
  return (
    parts.length === 4 &&
    parts.every(part => /^(?:0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255)
  );
}

function ipv6Valid(address: string): boolean {
  let groupsText = address;
  let extraGroups = 0;
  const lastColon = address.lastIndexOf(':');
  if (address.includes('.', lastColon)) {
    if (!ipv4Valid(address.slice(lastColon + 1))) return false;
    groupsText = `${address.slice(0, lastColon + 1)}0`;
    extraGroups = 1;
  }
  const halves = groupsText.split('::');
  if (halves.length > 2) return false;
  const group = /^[0-9A-Fa-f]{1,4}$/;
  const count = (half: string) => (half === '' ? 0 : half.split(':').length);
  for (const half of halves) {
    if (half !== '' && !half.split(':').every(part => group.test(part))) return false;
  }
  const total = halves.reduce((sum, half) => sum + count(half), 0) + extraGroups;
  return halves.length === 2 ? total <= 7 : total === 8;
}

const stickyIpv6Candidate = stickyPattern(ipv6Candidate);

function isHexOrColonCode(code: number): boolean {
  return (code >= 48 && code <= 58) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/**
 * The matches of `ipv6Candidate` that contain a `:` (the only ones
 * `findIps` keeps), tried only at the start of the run of hex digits and
 * colons around each `:`. A match without a colon never covers a position
 * where a match with one could start, so skipping those changes nothing.
 */
function ipv6Matches(text: string): RegExpExecArray[] {
  const matches: RegExpExecArray[] = [];
  const matcher = anchoredMatcher(stickyIpv6Candidate, text);
  for (let colon = text.indexOf(':'); colon >= 0; colon = text.indexOf(':', colon + 1)) {
    let start = colon;
    while (start > 0 && colon - start < 38 && isHexOrColonCode(text.charCodeAt(start - 1))) start--;
    if (start > 0 && isHexOrColonCode(text.charCodeAt(start - 1))) continue; // run too long before the colon
    if (start < matcher.next) continue;
    const match = matcher.at(start);
    // A match at the run's start takes the whole run (39 characters at most), colon included.
    if (match) matches.push(match);
  }
  return matches;
}

const findIps: Finder = (text, add) => {
  for (const match of text.matchAll(ipv4)) add(match.index, match.index + match[0].length);
  if (!text.includes(':')) return;
  for (const match of ipv6Matches(text)) {
    let value = match[0];
    let prefix = '';
    const slash = value.indexOf('/');
    if (slash >= 0) {
      prefix = value.slice(slash);
      value = value.slice(0, slash);
    }
    const percent = value.indexOf('%');
    const address = percent >= 0 ? value.slice(0, percent) : value;
    if (!address.includes(':') || !ipv6Valid(address)) continue;
    if (address === '::') {
      // `x :: Int` is a type signature, not the unspecified address.
      const before = text[match.index - 1];
      const after = text[match.index + match[0].length];
      if (prefix === '' && before === ' ' && after === ' ') continue;
    }
    const length = prefix && Number(prefix.slice(1)) > 128 ? value.length : match[0].length;
    add(match.index, match.index + length);
  }
};

// ---------------------------------------------------------------- URL

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

// ---------------------------------------------------------------- MAC

const macColon =
  /(?<![\w:.-])[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}\1[0-9A-Fa-f]{2}\1[0-9A-Fa-f]{2}\1[0-9A-Fa-f]{2}\1[0-9A-Fa-f]{2}(?![\w:-])/g;
const macDot = /(?<![\w.:-])[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}(?![\w-]|\.\w)/g;

const stickyMacColon = stickyPattern(macColon);
const stickyMacDot = stickyPattern(macDot);

function isHexCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/** `count` hex digits on each side of `at`. */
function hexAround(text: string, at: number, count: number): boolean {
  for (let step = 1; step <= count; step++) {
    if (!isHexCode(text.charCodeAt(at - step)) || !isHexCode(text.charCodeAt(at + step)))
      return false;
  }
  return true;
}

/**
 * The matches of `macColon` and `macDot` (as `matchAll` yields them), tried
 * only where the first separator sits: two characters after the start for
 * `aa:bb:…` / `aa-bb-…`, four for `aabb.ccdd.eeff`.
 */
function macMatches(text: string, pattern: RegExp): RegExpExecArray[] {
  const matches: RegExpExecArray[] = [];
  const dotted = pattern === macDot;
  const matcher = anchoredMatcher(dotted ? stickyMacDot : stickyMacColon, text);
  const separators = dotted ? ['.'] : [':', '-'];
  const offset = dotted ? 4 : 2;
  const positions: number[] = [];
  for (const separator of separators) {
    for (let at = text.indexOf(separator); at >= 0; at = text.indexOf(separator, at + 1)) {
      // The next separator sits 3 (or 5) characters further, hex digits around this one.
      if (
        at >= offset &&
        text.charCodeAt(at + offset + 1) === text.charCodeAt(at) &&
        hexAround(text, at, offset)
      ) {
        positions.push(at - offset);
      }
    }
  }
  if (separators.length > 1) positions.sort((first, second) => first - second);
  for (const start of positions) {
    const match = matcher.at(start);
    if (match) matches.push(match);
  }
  return matches;
}

const findMacs: Finder = (text, add) => {
  for (const pattern of [macColon, macDot]) {
    for (const match of macMatches(text, pattern)) {
      const hex = match[0].replace(/[^0-9A-Fa-f]/g, '').toLowerCase();
      if (hex === '000000000000' || hex === 'ffffffffffff') continue;
      // Cisco dotted form: require a hex letter or a digit mix that is not a version number.
      if (pattern === macDot && /^\d+$/.test(hex)) continue;
      add(match.index, match.index + match[0].length);
    }
  }
};

// ---------------------------------------------------------------- crypto

const btcLegacy = /(?<![\w])[13][1-9A-HJ-NP-Za-km-z]{25,34}(?!\w)/g;
const btcBech32 = /(?<![\w])(?:bc1|BC1)[02-9ac-hj-np-zAC-HJ-NP-Z]{8,87}(?!\w)/g;
const ethAddress = /(?<![\w])0x[0-9a-fA-F]{40}(?!\w)/g;

const stickyBtcBech32 = stickyPattern(btcBech32);
const stickyEthAddress = stickyPattern(ethAddress);

/** The matches of a pattern that can only start where one of `prefixes` occurs. */
function prefixedMatches(text: string, sticky: RegExp, prefixes: readonly string[]) {
  const matches: RegExpExecArray[] = [];
  const matcher = anchoredMatcher(sticky, text);
  forEachOccurrence(text, prefixes, start => {
    const match = matcher.at(start);
    if (match) matches.push(match);
  });
  return matches;
}

const findCrypto: Finder = (text, add) => {
  for (const match of text.matchAll(btcLegacy)) {
    if (base58CheckValid(match[0])) add(match.index, match.index + match[0].length);
  }
  for (const match of prefixedMatches(text, stickyBtcBech32, ['bc1', 'BC1'])) {
    if (bech32Valid(match[0])) add(match.index, match.index + match[0].length);
  }
  for (const match of prefixedMatches(text, stickyEthAddress, ['0x'])) {
    add(match.index, match.index + match[0].length);
  }
};

// ---------------------------------------------------------------- UK

const nino =
  /(?<![\w])(?!(?:BG|GB|KN|NK|NT|TN|ZZ))[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?!\w)/gi;

const findNinos: Finder = (text, add) => {
  for (const match of text.matchAll(nino)) add(match.index, match.index + match[0].length);
};

const nhsCandidate = /(?<![\w.-])\d{3}([- ]?)\d{3}\1\d{4}(?![\w]|-\d)/g;
const nhsContext = /\b(?:nhs|health|patient|hospital)\b/i;

function nhsChecksumValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < 9; index++) sum += Number(digits[index]) * (10 - index);
  const check = 11 - (sum % 11);
  const expected = check === 11 ? 0 : check;
  return expected !== 10 && expected === Number(digits[9]);
}

const findNhs: Finder = (text, add, { defaultRegion }) => {
  for (const match of text.matchAll(nhsCandidate)) {
    const digits = match[0].replace(/\D/g, '');
    if (/^(\d)\1{9}$/.test(digits) || !nhsChecksumValid(digits)) continue;
    // A number that is also a valid phone number needs NHS context to count.
    if (isValidPhoneNumber(match[0], defaultRegion)) {
      const before = text.slice(Math.max(0, match.index - 60), match.index);
      if (!nhsContext.test(before)) continue;
    }
    add(match.index, match.index + match[0].length);
  }
};

const finders: Record<PiiEntity, Finder> = {
  EMAIL_ADDRESS: (text, add, options) => {
    findEmails(text, add, options);
    findObfuscatedEmails(text, add, options);
  },
  PHONE_NUMBER: findPhones,
  CREDIT_CARD: findCards,
  IBAN_CODE: findIbans,
  US_SSN: findSsns,
  US_ITIN: findItins,
  IP_ADDRESS: findIps,
  URL: findUrls,
  MAC_ADDRESS: findMacs,
  CRYPTO: findCrypto,
  UK_NINO: findNinos,
  UK_NHS: findNhs,
};

function resolveEntities(entities: FindPiiOptions['entities']): readonly PiiEntity[] {
  if (entities === undefined) return defaultPiiEntities;
  if (entities === 'all') return allPiiEntities;
  if (!Array.isArray(entities)) {
    throw new GuardrailConfigError({
      path: 'pii.entities',
      value: entities,
      expected: "an array of entity types or 'all'",
    });
  }
  const unknown = entities.filter(entity => !allPiiEntities.includes(entity));
  if (unknown.length > 0) {
    throw new GuardrailConfigError({
      path: 'pii.entities',
      value: unknown,
      expected: `entity types among ${allPiiEntities.join(', ')}`,
    });
  }
  return entities;
}

/**
 * Validates `findPii` options once, so a guardrail can report bad options at
 * construction instead of on the first call.
 */
export function validatePiiOptions(options: FindPiiOptions): void {
  resolveEntities(options.entities);
  (options.custom ?? []).forEach((pattern, index) => {
    if (!pattern || typeof pattern.type !== 'string' || !(pattern.pattern instanceof RegExp)) {
      throw new GuardrailConfigError({
        path: `pii.custom[${index}]`,
        value: pattern,
        expected: '{ type: string, pattern: RegExp, validate?, maxLength? }',
      });
    }
  });
}

/**
 * Finds PII in `text` and returns `[{ type, start, end }]`, offsets into the
 * original text (end exclusive), in text order, never overlapping. The text
 * is normalised first (NFKC, invisible characters removed, look-alike digits
 * folded), so obfuscated values are found and their whole original extent is
 * reported. Every entity has a validator beyond its pattern (Luhn, mod-97,
 * libphonenumber, base58check, ...). Linear in the length of the text.
 *
 * @example
 * findPii('Mail jane@example.com or call +1 415 555 0132');
 * // [{ type: 'EMAIL_ADDRESS', start: 5, end: 21 }, { type: 'PHONE_NUMBER', start: 30, end: 45 }]
 */
export function findPii(text: string, options?: FindPiiOptions): PiiSpan[] {
  const {
    entities,
    custom = [],
    defaultRegion = 'US',
    phoneRegions = ['GB', 'DE', 'FR', 'IL', 'IN', 'CA', 'BR', 'JP', 'CN'],
    obfuscatedEmails = true,
  } = validateOptionsOnce(options, {
    prefix: 'findPii',
    root: 'findPii.options',
    shape: findPiiOptionShape,
  });
  const types = resolveEntities(entities);
  const normalized = normalizeText(text);
  const source = normalized.text;
  const resolved: Resolved = {
    defaultRegion,
    phoneRegions,
    obfuscatedEmails,
    hasNhs: types.includes('UK_NHS'),
  };
  const candidates: RankedSpan[] = [];
  for (const type of types) {
    const priority = priorities[type];
    finders[type](
      source,
      (start, end) => candidates.push({ type, start, end, priority }),
      resolved,
    );
  }
  for (const { type, pattern, validate } of custom) {
    const global = pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
    for (const match of source.matchAll(global)) {
      if (match[0].length === 0) continue;
      if (validate && !validate(match[0])) continue;
      candidates.push({
        type,
        start: match.index,
        end: match.index + match[0].length,
        priority: 11,
      });
    }
  }
  nineDigitCache = undefined; // do not keep the text alive
  return resolveOverlaps(candidates).map(span => ({
    type: span.type,
    ...normalized.toOriginalSpan(span.start, span.end),
  }));
}
