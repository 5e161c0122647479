import { luhnValid } from '../../shared/checksums';
import { forEachMatchInRuns } from './digit-runs';
import type { EntityFinder, Finder } from './finder';

// The lookbehind after the first digit (same meaning as before it) lets the
// engine skip straight to digits. A `.` before the number rejects it only
// after a digit (a decimal: `0.4111…`) or `]` (a placeholder that stood for
// one), not after a word (`on file.4111…`); a `-` only after a digit (a
// range: `1-4111…`), not after a letter (`id-4111…`).
export const cardCandidate = /\d(?<!(?:\w|\d-|[\d\]]\.)\d)(?:[ .-]?\d){11,18}(?![\w]|[.-]\d)/g;

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

// A candidate holds 12 digits or more: only digit runs that long are searched.
const findCards: Finder = (text, add) => {
  forEachMatchInRuns(text, cardCandidate, 12, match => {
    const value = match[0];
    const digits = cardDigits(value);
    if (digits === undefined || allSameDigit(digits)) return;
    if (cardIssuerValid(digits) && luhnValid(digits)) add(match.index, match.index + value.length);
  });
};

export const cardFinder: EntityFinder = { find: findCards, maxLength: 40, priority: 9 };
