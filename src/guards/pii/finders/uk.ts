import { isValidPhoneNumber } from 'libphonenumber-js/max';
import { anchoredMatcher, stickyPattern } from '../../shared/anchored-scan';
import { forEachMatchInRuns } from './digit-runs';
import type { EntityFinder, Finder } from './finder';

/** A UK National Insurance number (exported for the test that checks the anchored scan). */
export const nino =
  /(?<![\w])(?!(?:BG|GB|KN|NK|NT|TN|ZZ))[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?!\w)/gi;

// What follows a NINO's two letters (and optional space): the scan looks for
// this, which begins with a digit the engine can skip to, instead of trying
// the letter pair of `nino` at every letter of the text (on 1 MB of real
// text 0.5 ms instead of 2.7 ms).
export const ninoTail = /\d{2} ?\d{2} ?\d{2} ?[A-D](?!\w)/gi;
const stickyNino = stickyPattern(nino);

/**
 * The matches of `nino`, found where its tail occurs: the letters sit two
 * characters before the tail, or three when a space separates them. Every
 * position the tail matches is visited (no tail starts inside another: its
 * six digits would run into the other's final letter), and the starts come
 * in increasing order, so `anchoredMatcher` gives exactly the matches of
 * `text.matchAll(nino)`.
 */
const findNinos: Finder = (text, add) => {
  const matcher = anchoredMatcher(stickyNino, text);
  // The tail's six digits lie in a digit run; its letter is the character
  // at the run's end, and the lookahead reads one more.
  forEachMatchInRuns(text, ninoTail, 6, tail => {
    const digits = tail.index;
    const start = text.charCodeAt(digits - 1) === 32 ? digits - 3 : digits - 2;
    if (start < 0) return;
    const match = matcher.at(start);
    if (match) add(match.index, match.index + match[0].length);
  });
};

export const nhsCandidate = /(?<![\w-]|[\d\]]\.)\d{3}([- ]?)\d{3}\1\d{4}(?![\w]|-\d)/g;
const nhsContext = /\b(?:nhs|health|patient|hospital)\b/i;

function nhsChecksumValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < 9; index++) sum += Number(digits[index]) * (10 - index);
  const check = 11 - (sum % 11);
  const expected = check === 11 ? 0 : check;
  return expected !== 10 && expected === Number(digits[9]);
}

const findNhs: Finder = (text, add, { defaultRegion }) => {
  forEachMatchInRuns(text, nhsCandidate, 10, match => {
    const digits = match[0].replace(/\D/g, '');
    if (/^(\d)\1{9}$/.test(digits) || !nhsChecksumValid(digits)) return;
    // A number that is also a valid phone number needs NHS context to count.
    if (isValidPhoneNumber(match[0], defaultRegion)) {
      const before = text.slice(Math.max(0, match.index - 60), match.index);
      if (!nhsContext.test(before)) return;
    }
    add(match.index, match.index + match[0].length);
  });
};

export const ninoFinder: EntityFinder = { find: findNinos, maxLength: 13, priority: 7 };
export const nhsFinder: EntityFinder = { find: findNhs, maxLength: 12, priority: 7 };
