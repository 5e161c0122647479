import { type CountryCode, findPhoneNumbersInText, Metadata } from 'libphonenumber-js/max';
import { digitRunsOf } from './digit-runs';
import { codeTable, type EntityFinder, type Finder, isInTable } from './finder';
import { phoneContextWords, phoneGlueWords } from './phone-context';
import { withReusedRegExps } from './reused-regexps';

// A phone run: a digit run (`digit-runs.ts`: a digit, then digits and the
// separators space ( ) . - /) holding at least seven digits, with the `(`
// and the `+` right before its first digit (in that order): the matches of
// `\+?\(?\d(?=(?:[ ().\-/]*\d){6})[\d ().\-/]*`, which this finder ran
// over the whole text before the runs were shared. A run with fewer digits
// is never a phone number, and none of its suffixes can hold more.
export const phoneRunMinDigits = 7;

/**
 * Where the phone run of the digit run starting at `firstDigit` starts: a
 * `(` and a `+` right before the digit (in that order) belong to it.
 * Neither belongs to the run before: a `(` there would have joined the two
 * runs, and a `+` is no separator, so it ends a run.
 */
export function phoneRunStart(text: string, firstDigit: number): number {
  let index = firstDigit;
  if (text.charCodeAt(index - 1) === 40) index--;
  if (text.charCodeAt(index - 1) === 43) index--;
  return index;
}

/**
 * The run as libphonenumber reads it, same length (offsets unchanged): an
 * international access prefix (`00`, `011`) becomes `+`, a trunk prefix
 * written after the country code (`+41 (0)96`) becomes blanks.
 */
function dialable(run: string): string {
  let text = run;
  if (/^011[ \-.]?[1-9]/.test(text)) text = `  +${text.slice(3)}`;
  else if (/^00[ \-.]?[1-9]/.test(text)) text = ` +${text.slice(2)}`;
  if (/^ {0,2}\+\d{1,3}[ \-.]?\(0\)/.test(text)) text = text.replace('(0)', '   ');
  return text;
}

/** The part of libphonenumber's numbering plan (its `Metadata`) read below; not in its types. */
interface NumberingPlan {
  callingCode(): string;
  IDDPrefix(): string | undefined;
  nationalPrefixForParsing(): string | undefined;
  nationalPrefixTransformRule(): string | undefined;
  hasTypes(): boolean;
  type(type: string): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
}

/** The plan of a region or calling code, and the regions of a calling code. */
function numberingPlan(regionOrCallingCode: string): {
  plan: NumberingPlan;
  regionsOf(callingCode: string): string[] | undefined;
} {
  const metadata = new Metadata() as unknown as {
    selectNumberingPlan(code: string): void;
    numberingPlan: NumberingPlan;
    getCountryCodesForCallingCode(code: string): string[] | undefined;
  };
  metadata.selectNumberingPlan(regionOrCallingCode);
  return {
    plan: metadata.numberingPlan,
    regionsOf: code => metadata.getCountryCodesForCallingCode(code),
  };
}

/** The number types `isValid` tries (libphonenumber's `getNumberType`). */
const numberTypes = [
  'FIXED_LINE',
  'MOBILE',
  'PREMIUM_RATE',
  'TOLL_FREE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
];

/**
 * What a valid number read in a region without a `+` can be: its region's
 * international access prefix (`011`), and, by length, one pattern of
 * every number type of every region sharing its calling code.
 */
interface NationalShapes {
  accessPrefix: RegExp | undefined;
  byLength: Array<[number, RegExp]>;
  /** The calling code, which parsing may take off a number's start. */
  callingCode: string;
  /** The national prefixes parsing may take off (the region's and its calling code's plan), anchored. */
  nationalPrefixes: RegExp[];
}

const nationalShapesOf = new Map<string, NationalShapes | null>();

/**
 * `NationalShapes` of `region` from libphonenumber's metadata (computed once
 * per region), or null when a national number could be longer than the
 * digits it was read from (a national prefix transform rule, such as VI's
 * `340$1`, adds an area code) or a region of the calling code has no type
 * patterns: then nothing is ruled out.
 */
function nationalShapes(region: string): NationalShapes | null {
  let shapes = nationalShapesOf.get(region);
  if (shapes !== undefined) return shapes;
  shapes = null;
  const { plan, regionsOf } = numberingPlan(region);
  const callingCode = plan.callingCode();
  const regions = regionsOf(callingCode);
  const codePlan = numberingPlan(callingCode).plan;
  if (
    regions !== undefined &&
    !plan.nationalPrefixTransformRule() &&
    !codePlan.nationalPrefixTransformRule()
  ) {
    const patterns = new Map<number, string[]>();
    let known = true;
    for (const sharing of regions) {
      const sharingPlan = numberingPlan(sharing).plan;
      if (!sharingPlan.hasTypes()) known = false;
      for (const name of numberTypes) {
        const type = sharingPlan.type(name);
        if (!type?.pattern()) continue;
        const lengths = type.possibleLengths();
        if (lengths === undefined) known = false;
        for (const length of lengths ?? []) {
          const list = patterns.get(length);
          if (list) list.push(type.pattern());
          else patterns.set(length, [type.pattern()]);
        }
      }
    }
    const accessPrefix = plan.IDDPrefix();
    if (known) {
      shapes = {
        accessPrefix: accessPrefix ? new RegExp(accessPrefix) : undefined,
        byLength: [...patterns].map(([length, list]) => [
          length,
          new RegExp(`^(?:${list.join('|')})$`),
        ]),
        callingCode,
        nationalPrefixes: [plan.nationalPrefixForParsing(), codePlan.nationalPrefixForParsing()]
          .filter(prefix => prefix !== undefined && prefix !== '')
          .map(prefix => new RegExp(`^(?:${prefix})`)),
      };
    }
  }
  nationalShapesOf.set(region, shapes);
  return shapes;
}

/**
 * libphonenumber's matcher (`PhoneNumberMatcher` of libphonenumber-js) skips
 * a candidate holding a date written with slashes (`isValidPreCandidate`),
 * inner candidates and all.
 */
const slashSeparatedDate = /(?:(?:[0-3]?\d\/[01]?\d)|(?:[01]?\d\/[0-3]?\d))\/(?:[12]\d)?\d{2}/;

/**
 * The matcher's `INNER_MATCHES` as they read a run of ASCII digits and
 * ` ().-/` (where its only white space is a space and no wide hyphen
 * occurs), in its order: after a candidate fails, the text before the first
 * match of each and each match's group are candidates.
 */
const innerMatches = [/\/+(.*)/g, /(\([^(]*)/g, /(?: -|- ) *(.+)/g, /\.+ *([^.]+)/g, / +([^ ]+)/g];

/** The digits of `text`. */
const digitsOf = (text: string) => text.replace(/\D/g, '');

/**
 * The digits of every candidate libphonenumber's matcher parses when
 * `findPhoneNumbersInText` reads `run` alone, or undefined when `run` is
 * not of the shape this follows the matcher through: ASCII digits and
 * ` ().-/`, starting with a digit or a `(` and a digit, at most four
 * separators in a row and at most 21 blocks of up to 20 digits (then its
 * `PATTERN` takes the whole run up to its last digit as one candidate,
 * and no other). That candidate is skipped when it holds a slash date (no
 * candidate: `[]`); else it is parsed, and then its inner candidates.
 */
export function matcherCandidateDigits(run: string): string[] | undefined {
  const first = run.charCodeAt(0) === 40 ? 1 : 0;
  const firstCode = run.charCodeAt(first);
  if (!(firstCode >= 48 && firstCode <= 57)) return undefined;
  let lastDigit = -1;
  let separators = 0;
  let blocks = 0;
  let groupDigits = 0;
  for (let index = 0; index < run.length; index++) {
    const code = run.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      if (groupDigits % 20 === 0) blocks++;
      groupDigits++;
      separators = 0;
      lastDigit = index;
      // space ( ) - . /
    } else if (
      code === 32 ||
      code === 40 ||
      code === 41 ||
      code === 45 ||
      code === 46 ||
      code === 47
    ) {
      groupDigits = 0;
      if (++separators > 4) return undefined;
    } else return undefined;
  }
  if (blocks > 21) return undefined;
  const candidate = run.slice(0, lastDigit + 1);
  if (slashSeparatedDate.test(candidate)) return [];
  const read = [digitsOf(candidate)];
  for (const inner of innerMatches) {
    inner.lastIndex = 0;
    let firstMatch = true;
    for (let match = inner.exec(candidate); match; match = inner.exec(candidate)) {
      if (firstMatch) read.push(digitsOf(candidate.slice(0, match.index)));
      firstMatch = false;
      read.push(digitsOf(match[1]!));
    }
  }
  return read;
}

/**
 * The national numbers parsing a candidate's `digits` (no `+`, no access
 * prefix) can give: the digits, without the calling code when they start
 * with it, and either without a national prefix for parsing (of the
 * region's plan or its calling code's: libphonenumber takes off one
 * match of it, or nothing).
 */
function nationalNumbersOf(digits: string, shapes: NationalShapes): string[] {
  const numbers = [digits];
  if (digits.startsWith(shapes.callingCode)) numbers.push(digits.slice(shapes.callingCode.length));
  for (let index = numbers.length - 1; index >= 0; index--) {
    for (const prefix of shapes.nationalPrefixes) {
      const taken = prefix.exec(numbers[index]!)?.[0].length ?? 0;
      if (taken > 0) numbers.push(numbers[index]!.slice(taken));
    }
  }
  return numbers;
}

/**
 * True when `findPhoneNumbersInText(run, { defaultCountry: region })` can
 * find no valid number, decided from the metadata without running its
 * matcher (which for a run of digits that is no number of the region, such
 * as a year range, parses every part of it and, for +1, tries the
 * metadata of each of the 25 regions that share it: most of its cost on
 * real text). Without a `+` or the region's international access prefix
 * in the run, a number is read in the region's calling code: its national
 * number is the digits of the run from somewhere to somewhere (prefixes
 * are only ever taken off its start), and `isValid` needs a type of a
 * region of that calling code whose possible lengths include its length
 * and whose pattern it matches whole. When no stretch of the run's digits
 * does that, nothing is found. Where the matcher's candidates are known
 * (`matcherCandidateDigits`, round 34), only what parsing each can give is
 * tried (`nationalNumbersOf`), and a run it skips holds nothing.
 * `phone.test.ts` compares it with libphonenumber on generated runs for
 * every region. `candidates` is `matcherCandidateDigits(run)`, worked out
 * once per run.
 */
export function cannotHoldValidNumber(
  run: string,
  region: string,
  candidates = matcherCandidateDigits(run),
): boolean {
  if (run.includes('+')) return false;
  if (candidates?.length === 0) return true;
  const shapes = nationalShapes(region);
  if (shapes === null) return false;
  const digits = digitsOf(run);
  if (shapes.accessPrefix?.test(digits)) return false;
  if (candidates !== undefined) {
    for (const candidate of candidates) {
      for (const number of nationalNumbersOf(candidate, shapes)) {
        for (const [length, pattern] of shapes.byLength) {
          if (number.length === length && pattern.test(number)) return false;
        }
      }
    }
    return true;
  }
  for (const [length, pattern] of shapes.byLength) {
    for (let start = 0; start + length <= digits.length; start++) {
      if (pattern.test(digits.slice(start, start + length))) return false;
    }
  }
  return true;
}

function phonesIn(run: string, regions: readonly CountryCode[]): Array<[number, number]> {
  let found: Array<[number, number]> = [];
  const international = /^(?:\+|00)/.test(run);
  run = dialable(run);
  const plus = run.indexOf('+') <= 2 ? run.indexOf('+') : -1;
  // A national number is read in the default region; other regions only get
  // numbers written with a trunk prefix and separators (`090-1234-5678`),
  // since a bare digit string is valid *somewhere* far too often.
  const formattedNational = /^\(?0/.test(run) && /[\s()\-/.]/.test(run);
  const candidates = matcherCandidateDigits(run);
  const tried = (international || !formattedNational ? regions.slice(0, 1) : regions).filter(
    region => !cannotHoldValidNumber(run, region, candidates),
  );
  if (tried.length === 0) return found;
  // libphonenumber throws (and catches) a `ParseError` for most candidates
  // it rejects; capturing each one's stack trace was a large part of its
  // cost. The errors never leave it, so none is needed: stack capture is off
  // while it runs (synchronously) and restored after. Where `Error` is
  // frozen (`--frozen-intrinsics`, SES) it stays as it is: setting it threw,
  // and every text holding a phone-length run failed the guardrail.
  const stackTraceLimit = Error.stackTraceLimit;
  let stackCaptureOff = false;
  try {
    Error.stackTraceLimit = 0;
    stackCaptureOff = true;
  } catch {}
  try {
    // Its regexes are kept between calls (see reused-regexps.ts): after a
    // full collection it would compile every one of them again.
    withReusedRegExps(() => {
      for (const region of tried) {
        // Every match is valid: the matcher's default leniency (`VALID`)
        // keeps only numbers whose `isValid()` holds (round 29: asking
        // again was a fifth of each call).
        const matches = findPhoneNumbersInText(run, { defaultCountry: region });
        // A match starting at the `+` that stands for `00` / `011` covers the prefix too.
        found = matches.map(m => [m.startsAt <= plus ? 0 : m.startsAt, m.endsAt]);
        if (found.length > 0) break;
      }
    });
  } finally {
    if (stackCaptureOff) Error.stackTraceLimit = stackTraceLimit;
  }
  return found;
}

/** Day-month-year or year-month-day, anywhere in the run. */
const dateInRun =
  /(?:^|\D)(?:\d{1,2}[./-]\d{1,2}[./-](?:19|20)\d{2}|(?:19|20)\d{2}[./-]\d{1,2}[./-]\d{1,2})(?!\d)/;
/** A time range: `10.30 - 11.45`. */
const timeRangeInRun =
  /(?:^|\D)(?:[01]?\d|2[0-3])[.:][0-5]\d\s?[-\u2013]\s?(?:[01]?\d|2[0-3])[.:][0-5]\d(?!\d)/;

/**
 * A decimal fraction, `0.493012345678`: no area code is a lone `0`, so a run
 * of `0.` and digits is a number (a loss, a probability, a coordinate),
 * which libphonenumber would otherwise read as a national number in some
 * region, or find a valid number inside.
 */
const decimalFraction = /^0\.\d+$/;

/** Shapes that are something else: SSNs (3-2-4), dotted IPs and versions, decimals, codes ending in one digit. */
function notPhoneShaped(run: string): boolean {
  if (decimalFraction.test(run)) return true;
  const groups = run
    .replace(/^\+/, '')
    .split(/[\s().\-/]+/)
    .filter(Boolean);
  if (groups.length === 3 && groups.map(group => group.length).join('-') === '3-2-4') return true;
  if (/\d{4}-\d{2}-\d{2}/.test(run)) return true; // an ISO date, often followed by a time
  if (timeRangeInRun.test(run)) return true; // opening hours: `07.45 - 16.15`
  if (run.includes('.') && !/[\s()\-/]/.test(run) && groups.every(group => group.length <= 3))
    return true;
  return groups.length > 1 && groups[groups.length - 1]!.length < 2;
}

/** Characters that, just before a run, make it part of a word, an id, a path or an address. */
const phoneBlockedBefore = codeTable(/[\w.\-/@:]/);

/** A digit, or the `]` ending a placeholder that may stand for a number. */
const continuesNumber = (code: number) => (code >= 48 && code <= 57) || code === 93;

const isAsciiLetter = (code: number) => (code | 0x20) >= 97 && (code | 0x20) <= 122;

/** True when `text[at]` is an ASCII letter, or up to three spaces end at `at` right after one. */
function letterBeforeBlanks(text: string, at: number): boolean {
  let index = at;
  while (index > at - 3 && text.charCodeAt(index) === 32) index--;
  return isAsciiLetter(text.charCodeAt(index));
}

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

// Punctuation between a label and its number, `\\,` and `;` of vCard / CSV lines included,
// and `_` of a field name (`tel_415…`).
const separator = '[\\s:.,;|()\\-\u2013\u2014*\'"=#/\\\\_]';
const escapeWord = (word: string) =>
  word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s{1,3}');
/**
 * A phone context word, then only separators and glue words up to the end
 * of the slice (the start of the number). Each glue word is a whole word and
 * no separator is a letter, so every position has one way to match: linear.
 */
const contextBefore = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${phoneContextWords.map(escapeWord).join('|')})(?:${separator}|(?<![\\p{L}])(?:${phoneGlueWords.map(escapeWord).join('|')})(?![\\p{L}]))*$`,
  'iu',
);
/** How far before a number its context word may start. */
const contextReach = 40;

/** True when a phone context word ends, with only glue between, right before `start`. */
function hasPhoneContext(text: string, start: number): boolean {
  return contextBefore.test(text.slice(Math.max(0, start - contextReach), start));
}

/**
 * A run written like a phone number, for numbers strict validation rejects
 * but a context word vouches for: 7 to 15 digits after an optional
 * international or trunk prefix, groups of two or more digits (one short
 * group allowed first: a country code or trunk digit), and not a date, a
 * time range, a dotted quad, an ISBN or a long id.
 */
function phoneShaped(run: string): boolean {
  const body = dialable(run).trim().replace(/^\+/, '').replace('(0)', '');
  const groups = body.split(/[\s().\-/]+/).filter(Boolean);
  if (groups.length === 0 || groups.length > 7) return false;
  const digits = groups.join('');
  if (digits.length < 7 || digits.length > 15) return false;
  for (let index = 1; index < groups.length; index++) if (groups[index]!.length < 2) return false;
  if (dateInRun.test(run) || timeRangeInRun.test(run)) return false;
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(run)) return false; // an IPv4 address
  if (decimalFraction.test(run)) return false;
  if (/^97[89]/.test(digits) && digits.length === 13) return false; // an ISBN-13
  if (/^(\d)\1+$/.test(digits)) return false; // 0000000
  return true;
}

/** An extension right after a number: `x4587`, ` ext. 12`, ` extension 3`. */
const extensionAfter = /^ ?(?:x|ext\.?|extn\.?|extension) ?\d{1,6}(?!\d)/i;

const noPhones: Array<[number, number]> = [];

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

const findPhones: Finder = (
  text,
  add,
  { defaultRegion, phoneRegions, phoneRegionOrder, phoneVerdicts },
) => {
  const regions = phoneRegionOrder ?? [
    defaultRegion,
    ...phoneRegions.filter(region => region !== defaultRegion),
  ];
  // Run -> phone numbers in it (empty when its shape rules it out), for this
  // call only: a cache that outlived the call would keep the user's phone
  // numbers in process memory and answer later calls from them.
  const verdicts = phoneVerdicts ?? new Map<string, Array<[number, number]>>();
  forEachPhoneRun(text, (firstDigit, end) =>
    findPhonesInRun(text, firstDigit, end, regions, verdicts, add),
  );
};

/**
 * Calls `found` with the first digit and the end of each digit run holding
 * at least `phoneRunMinDigits` digits. `_` joins the groups of cards and
 * SSNs (`4111_1111_1111_1111`), not of phone numbers: a run holding one is
 * read as its parts between the `_`, each from its first digit, as they
 * would be runs without `_` among the separators.
 */
export function forEachPhoneRun(
  text: string,
  found: (firstDigit: number, end: number) => void,
): void {
  const runs = digitRunsOf(text);
  // The first '_' at or after the current run, searched again only once
  // passed (runs come in order): searching from each run's start to the
  // end of the text was quadratic on 1 MB of runs without one. -2: not
  // searched yet; never a search made before the loop and only read in it
  // (the shape that let V8 re-run the e-mail finder's `indexOf('.')` per
  // '@', round 32).
  let underscore = -2;
  for (let at = 0; at < runs.length; at += 3) {
    if (runs[at + 2]! < phoneRunMinDigits) continue;
    const start = runs[at]!;
    const end = runs[at + 1]!;
    if (underscore !== -1 && underscore < start) underscore = text.indexOf('_', start);
    if (underscore < 0 || underscore >= end) {
      found(start, end);
      continue;
    }
    let first = -1;
    let digits = 0;
    for (let index = start; index <= end; index++) {
      const code = index < end ? text.charCodeAt(index) : 95;
      if (code === 95) {
        if (digits >= phoneRunMinDigits) found(first, index);
        first = -1;
        digits = 0;
      } else if (code >= 48 && code <= 57) {
        if (first < 0) first = index;
        digits++;
      }
    }
  }
}

/** The phone numbers of the digit run whose first digit is at `firstDigit`, ending at `runEnd`. */
function findPhonesInRun(
  text: string,
  firstDigit: number,
  runEnd: number,
  regions: readonly CountryCode[],
  verdicts: Map<string, Array<[number, number]>>,
  add: Parameters<Finder>[1],
): void {
  const index = phoneRunStart(text, firstDigit);
  const runText = text.slice(index, runEnd);
  const before = index > 0 ? text.charCodeAt(index - 1) : -1;
  // `Phone:4673395` has its context word glued on with a colon. A `.`
  // continues a number only after a digit (`1.415…`) or `]` (a
  // placeholder that stood for one); after a word it ends a sentence
  // (`Call me.+44 20…`).
  const blocked =
    before >= 0 &&
    isInTable(phoneBlockedBefore, before) &&
    !(before === 46 && !continuesNumber(text.charCodeAt(index - 2)));
  // `tel-415-555-0132`: a `-` after a word joins a label as `:` does; the
  // context path below reads the number only when that word is a phone word.
  // So does a `_` (`tel_415-555-0132`, a field name), and blanks between
  // the word and its mark (`tel\u00a0-415…`: NFKC makes the NBSP a space).
  const labelDash = (before === 45 || before === 95) && letterBeforeBlanks(text, index - 2);
  if (blocked && before !== 58 && !labelDash) return;
  const run = trimRunEnd(runText);
  let phones = blocked ? noPhones : phonesInRun(run, regions, verdicts);
  if (phones.length === 0) {
    // Strict validation rejected it (a local number without its area
    // code, a number outside today's numbering plan): a phone word right
    // before it still makes it one when it is written like one.
    if (run.length > 48 || !phoneShaped(run) || !hasPhoneContext(text, index)) return;
    if (/[$\u20ac\u00a3\u00a5] ?$/.test(text.slice(Math.max(0, index - 2), index))) return; // a price
    phones = [[0, run.length]];
  }
  let numberEnd = index + run.length;
  const extension = extensionAfter.exec(text.slice(numberEnd, numberEnd + 20));
  if (extension) numberEnd += extension[0].length;
  // Three characters: the check below must see what follows the letter.
  const after = text.slice(numberEnd, numberEnd + 3);
  // `55555555-K` is an id with a check letter; `-Office` after a number is a label.
  if (/^(?:[A-Za-z_]|[-/][A-Za-z0-9](?![A-Za-z0-9]))/.test(after)) return;
  for (const [start, end] of phones) {
    add(index + start, extension && index + end === index + run.length ? numberEnd : index + end);
  }
}

// 48 for the number, 16 for an extension.
export const phoneFinder: EntityFinder = { find: findPhones, maxLength: 64, priority: 5 };
