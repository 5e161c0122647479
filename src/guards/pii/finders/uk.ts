import { isValidPhoneNumber } from 'libphonenumber-js/max';
import type { EntityFinder, Finder } from './finder';

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

export const ninoFinder: EntityFinder = { find: findNinos, maxLength: 13, priority: 7 };
export const nhsFinder: EntityFinder = { find: findNhs, maxLength: 12, priority: 7 };
