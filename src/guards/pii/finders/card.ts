import { luhnValid } from '../../shared/checksums';
import { forEachMatchInRuns } from './digit-runs';
import type { EntityFinder, Finder } from './finder';

// The lookbehind after the first digit (same meaning as before it) lets the
// engine skip straight to digits. A `.` before the number rejects it only
// after a digit (a decimal: `0.4111…`) or `]` (a placeholder that stood for
// one), not after a word (`on file.4111…`); a `-` only after a digit (a
// range: `1-4111…`), not after a letter (`id-4111…`). Groups are joined by
// one of ` `, two spaces, `.`, `-`, `_`, `/`, ` - ` or `--`, the same between
// every two groups but for a mix of ` .-_` in a card's layout (see `cardDigits`).
export const cardCandidate =
  /\d(?<!(?:\w|\d-|[\d\]]\.)\d)(?:(?: {2}| - |--|[ ._/-])?\d){11,18}(?![\w]|[.-]\d)/g;

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

/** Separators a card's groups may mix (`4111_1111-1111_1111`): one character each, no `/`. */
const mixableSeparators = ' .-_';

/**
 * Group lengths of the card layouts a number with mixed separators must
 * follow (4-4-4-4, 4-4-4-4-3, Amex 4-6-5, Diners 4-6-4): a mix is read as a
 * card only when written as one, not as a list of other numbers.
 */
const cardLayouts = new Set(['4,4,4,4', '4,4,4,4,3', '4,6,5', '4,6,4']);

/**
 * The digits of a card candidate (digit groups with one separator between
 * them), or undefined when it is not grouped like a card (4-4-4-4, 4-6-5,
 * ...: groups of 3 to 6 digits), not a list of small numbers. Separators
 * may differ only when each is one of ` .-_` and the groups follow a card
 * layout (`cardLayouts`).
 */
function cardDigits(value: string): { digits: string; separator: string } | undefined {
  let separator: string | undefined;
  let mixed = false;
  const groups: number[] = [];
  let group = 0;
  let digits = '';
  for (let index = 0; index < value.length; ) {
    const code = value.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      digits += value[index++];
      group++;
      continue;
    }
    let end = index + 1;
    while (end < value.length && (value.charCodeAt(end) < 48 || value.charCodeAt(end) > 57)) end++;
    const between = value.slice(index, end);
    if (separator !== undefined && between !== separator) {
      if (separator.length !== 1 || between.length !== 1) return undefined;
      if (!mixableSeparators.includes(between) || !mixableSeparators.includes(separator)) {
        return undefined;
      }
      mixed = true;
    }
    separator ??= between;
    if (group < 3 || group > 6) return undefined;
    groups.push(group);
    group = 0;
    index = end;
  }
  if (separator === undefined) return { digits, separator: '' };
  if (group < 3 || group > 6) return undefined;
  groups.push(group);
  if (mixed && !cardLayouts.has(groups.join(','))) return undefined;
  return { digits, separator };
}

/**
 * Separators that the candidate pattern's lookarounds do not check on the
 * far side (`-` and `.` before or after a digit are): the same separator and
 * a digit right before or after the groups make a longer number
 * (`2024/4111/1111/1111/1111`, `4111--1111--1111--1111--5678`,
 * `4111  1111  1111  1111  5678`).
 */
export function continuesWithSeparator(
  text: string,
  start: number,
  end: number,
  separator: string,
): boolean {
  if (separator !== '/' && separator !== ' - ' && separator !== '--' && separator !== '  ')
    return false;
  const digitAt = (at: number) => {
    const code = text.charCodeAt(at);
    return code >= 48 && code <= 57;
  };
  return (
    (text.startsWith(separator, end) && digitAt(end + separator.length)) ||
    (text.startsWith(separator, start - separator.length) && digitAt(start - separator.length - 1))
  );
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
    const grouped = cardDigits(value);
    if (grouped === undefined || allSameDigit(grouped.digits)) return;
    const end = match.index + value.length;
    if (continuesWithSeparator(text, match.index, end, grouped.separator)) return;
    if (cardIssuerValid(grouped.digits) && luhnValid(grouped.digits)) add(match.index, end);
  });
};

export const cardFinder: EntityFinder = { find: findCards, maxLength: 40, priority: 9 };
