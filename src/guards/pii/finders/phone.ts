import { type CountryCode, findPhoneNumbersInText } from 'libphonenumber-js/max';
import { codeTable, type EntityFinder, type Finder, isInTable } from './finder';

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

export const phoneFinder: EntityFinder = { find: findPhones, maxLength: 48, priority: 5 };
