import { mod97Valid } from '../../shared/checksums';
import type { EntityFinder, Finder } from './finder';

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

// One or two spaces may stand between characters (`DE89 3704 …`, `DE89  3704  …`).
const ibanCandidate = /(?<![A-Za-z0-9])([A-Z]{2})\d{2}(?: {0,2}[A-Z0-9]){8,32}/g;

const findIbans: Finder = (text, add) => {
  // The module's own regex (not a copy per call): this loop never re-enters.
  const candidate = ibanCandidate;
  candidate.lastIndex = 0;
  // The candidate pattern may run into a following IBAN ("GB82 … 32 GB82 …"):
  // resume right after the characters a country's length consumed.
  for (let match = candidate.exec(text); match !== null; match = candidate.exec(text)) {
    candidate.lastIndex = match.index + 1;
    const format = ibanPatterns.get(match[1]!);
    if (!format) continue;
    // Consume exactly the country's length, one or two spaces allowed between characters.
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

export const ibanFinder: EntityFinder = { find: findIbans, maxLength: 44, priority: 9 };
