import { continuesWithSeparator } from './card';
import { forEachMatchInRuns, forgetDigitRuns } from './digit-runs';
import type { EntityFinder, Finder } from './finder';

// A `.` before the number rejects it only after a digit (a decimal) or `]`, as for cards.
// The groups are joined by one of ` `, `.`, `-` (or nothing), `_`, `/`, ` - `, `--` or two spaces.
export const nineDigits =
  /(\d(?<!(?:\w|\d-|[\d\]]\.)\d)\d{2})( - |--| {2}|[- ._/]|)(\d{2})( - |--| {2}|[- ._/]|)(\d{4})(?![\w]|-\d|\.\d)/g;

/** `_`, `/`, ` - `, `--` and two spaces join the groups only when they join both (`536/22/1234`). */
const pairedSeparators = new Set(['_', '/', ' - ', '--', '  ']);
const sampleSsns = new Set(['078051120', '219099999', '457555462', '123456789']);

function separatorsConsistent(first: string, second: string): boolean {
  if (pairedSeparators.has(first) || pairedSeparators.has(second)) return first === second;
  return first === '' || second === '' || first === second;
}

/** A nine-digit match that is not part of a longer number written with the same separator. */
function standsAlone(text: string, match: RegExpExecArray): boolean {
  return !continuesWithSeparator(text, match.index, match.index + match[0].length, match[2]!);
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
  if (nineDigitCache?.text !== text) {
    const matches: RegExpExecArray[] = [];
    forEachMatchInRuns(text, nineDigits, 9, match => matches.push(match));
    nineDigitCache = { text, matches };
  }
  return nineDigitCache.matches;
}

const findSsns: Finder = (text, add) => {
  for (const match of nineDigitMatches(text)) {
    const [value, area, sep1, group, sep2, serial] = match as unknown as string[];
    if (!separatorsConsistent(sep1!, sep2!) || !standsAlone(text, match)) continue;
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
    if (!standsAlone(text, match)) continue;
    if (area![0] !== '9') continue;
    const middle = Number(group);
    const validGroup =
      (middle >= 50 && middle <= 65) || (middle >= 70 && middle <= 88) || middle >= 90;
    if (validGroup && middle !== 93) add(match.index, match.index + value!.length);
  }
};

/** Drops the cached nine-digit matches and digit runs, so the last text is not kept alive. */
export function forgetNineDigitMatches(): void {
  nineDigitCache = undefined;
  forgetDigitRuns();
}

// 9 digits and two ` - ` separators.
export const ssnFinder: EntityFinder = { find: findSsns, maxLength: 15, priority: 7 };
export const itinFinder: EntityFinder = { find: findItins, maxLength: 15, priority: 7 };
