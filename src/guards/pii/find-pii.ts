import type { CountryCode } from 'libphonenumber-js/max';
import { acceptedByCallback } from '../../core/callback-result';
import { readingCallerArgument } from '../../core/caller-values';
import { GuardrailConfigError } from '../../core/errors';
import { validateOptionsOnce } from '../../core/options';
import {
  chunkedScanFrom,
  type PiecesRead,
  scanInChunks,
  type TextSource,
} from '../shared/chunked-scan';
import { brokenText, otherReadings, spansAroundBreaks } from '../shared/invisible-breaks';
import {
  type NormalizationPoints,
  type NormalizedText,
  normalizeText,
} from '../shared/normalize-text';
import { withSpansApart, withWiderSpans } from '../shared/private-use';
import { lowerBound, upperBound } from '../shared/sorted-search';
import { type DetectedSpan, firstStartAtOrAfter, resolveOverlapsBeside } from '../shared/spans';
import { cardFinder } from './finders/card';
import { cryptoFinder } from './finders/crypto';
import { emailFinder } from './finders/email';
import {
  codeTable,
  type EntityFinder,
  isInTable,
  type PhoneVerdicts,
  type Resolved,
} from './finders/finder';
import { ibanFinder } from './finders/iban';
import { ipFinder } from './finders/ip';
import { macFinder } from './finders/mac';
import { phoneFinder } from './finders/phone';
import { nhsFinder, ninoFinder } from './finders/uk';
import { urlFinder } from './finders/url';
import { forgetNineDigitMatches, itinFinder, ssnFinder } from './finders/us-ssn';
import { TaggedChunks } from './ner/find-named-entities';
import { type NerEntity, nerEntities, nerMaxLength } from './ner/labels';
import { namedEntityCandidates } from './ner/merge';
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
  | 'UK_NHS'
  | NerEntity;

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
  ...nerEntities,
];

/**
 * The entity types checked by default: those with a validator strong enough
 * to keep false alarms rare in ordinary text. `URL` (most links are not
 * personal), `UK_NHS` (collides with 10-digit phone numbers) and the types
 * of the named-entity tagger (`PERSON`, `STREET_ADDRESS`, `LOCATION`,
 * `ORGANIZATION`: a statistical model, see docs/pii-ner-model.md) are opt-in.
 */
export const defaultPiiEntities: readonly PiiEntity[] = allPiiEntities.filter(
  entity =>
    entity !== 'URL' && entity !== 'UK_NHS' && !(nerEntities as readonly string[]).includes(entity),
);

/**
 * Every pattern entity's finder (one file each under `finders/`): adding an
 * entity is its finder file, one entry here and its name in `PiiEntity` /
 * `allPiiEntities`.
 */
const entityFinders: Record<Exclude<PiiEntity, NerEntity>, EntityFinder> = {
  EMAIL_ADDRESS: emailFinder,
  PHONE_NUMBER: phoneFinder,
  CREDIT_CARD: cardFinder,
  IBAN_CODE: ibanFinder,
  US_SSN: ssnFinder,
  US_ITIN: itinFinder,
  IP_ADDRESS: ipFinder,
  URL: urlFinder,
  MAC_ADDRESS: macFinder,
  CRYPTO: cryptoFinder,
  UK_NINO: ninoFinder,
  UK_NHS: nhsFinder,
};

/**
 * The longest original text a match can span for these options: the
 * normalised length, doubled to allow one invisible character between every
 * two visible ones.
 */
export function piiMaxMatchLength(options: FindPiiOptions = {}): number {
  // Read once, each field and custom pattern: a getter or a Proxy trap that
  // throws is a TypeError naming it by kind. Then checked as `findPii`
  // checks its options (round 42: a NaN or infinite `maxLength`, or a
  // string for the options or for `custom`, gave NaN, Infinity or 800 where
  // `findPii` throws).
  const read = readingCallerArgument('piiMaxMatchLength', 'options', () => readCopy(options));
  const { entities, custom } = checkedFindPiiOptions(read);
  const customLengths = (custom ?? []).map(pattern => pattern.maxLength ?? 64);
  const types = resolveEntities(entities);
  let longest = 0;
  for (const entity of types) {
    longest = Math.max(
      longest,
      isNerEntity(entity) ? nerMaxLength[entity] : entityFinders[entity].maxLength,
    );
  }
  for (const length of customLengths) longest = Math.max(longest, length);
  return longest * 2;
}

/**
 * A copy of a plain object's own fields (its `custom` patterns copied too),
 * for a check and a use that read no getter twice; anything else as it is.
 */
function readCopy(options: FindPiiOptions): FindPiiOptions {
  if (!isPlainObject(options)) return options;
  const copy: Record<string, unknown> = { ...options };
  if (Array.isArray(copy.custom)) {
    copy.custom = [...copy.custom].map(pattern =>
      isPlainObject(pattern) ? { ...pattern } : pattern,
    );
  }
  return copy as FindPiiOptions;
}

function isPlainObject(value: unknown): value is object {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** `findPii`'s options checked (a `GuardrailConfigError` listing every problem), as read. */
function checkedFindPiiOptions(options: FindPiiOptions): FindPiiOptions {
  return validateOptionsOnce(options, {
    prefix: 'findPii',
    root: 'findPii.options',
    shape: findPiiOptionShape,
  });
}

const nerEntitySet: ReadonlySet<string> = new Set(nerEntities);

function isNerEntity(entity: PiiEntity): entity is NerEntity {
  return nerEntitySet.has(entity);
}

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

/** Rounds of `spansBesidePlaceholders` after the first scan: a chain longer than this is hostile text. */
const placeholderRounds = 3;

/**
 * How far a finder reads around its match (phone context words 40
 * characters before a number, the NHS context 60, a lookaround or an
 * extension a few): a verdict depends on no character farther away.
 */
const contextReach = 64;

/**
 * The priorities of candidates in the order they were added, as runs of
 * equal ones (a finder's candidates share its priority): not on each
 * candidate, since the kept candidates are the spans `findPii` returns, and
 * not one array entry per candidate, which on text full of values costs
 * about what the object does.
 */
class PriorityRuns {
  /** Where each run starts, and its priority. */
  private readonly starts: number[] = [];
  private readonly values: number[] = [];
  /** How many candidates' priorities were added. */
  length = 0;

  /** Adds the next candidate's priority. */
  push(priority: number): void {
    if (this.values.length === 0 || this.values[this.values.length - 1] !== priority) {
      this.starts.push(this.length);
      this.values.push(priority);
    }
    this.length++;
  }

  /** The priority of candidate `index`. */
  at(index: number): number {
    // The last run starting at or before it (the first starts at 0).
    return this.values[upperBound(this.starts, index) - 1]!;
  }
}

/** Adds the pattern matches in `text` to `candidates`, their priorities to `priorities`. */
type FindPatterns = (text: string, candidates: DetectedSpan[], priorities: PriorityRuns) => void;

/**
 * The pattern matches in `source` with `spans` replaced by their
 * placeholders (`placeholderOf`, else the default `[TYPE]`), mapped back to `source`: those outside every
 * placeholder (a placeholder is never part of a value). A match the first
 * scan did not make lies within `reach` (the longest match and its
 * context) of a placeholder, so only the text within twice that of the
 * spans of `fresh` (the ones the last round added) is read, redacted, and
 * a match within `reach` of where that slice was cut is left to the scan
 * of the whole text it was part of. Linear: the slices do not overlap.
 */
function spansBesidePlaceholders(
  source: string,
  spans: readonly DetectedSpan[],
  fresh: Uint8Array,
  reach: number,
  findPatterns: FindPatterns,
  placeholderOf: ReadonlyMap<string, string> | undefined,
): { added: DetectedSpan[]; priorities: PriorityRuns } {
  const added: DetectedSpan[] = [];
  const addedPriorities = new PriorityRuns();
  /** Scans `source[from, to)` with `spans[first..last]` (all inside it) redacted, as `written`. */
  const scanAs = (
    written: ReadonlyMap<string, string> | undefined,
    from: number,
    to: number,
    first: number,
    last: number,
  ) => {
    // Where each placeholder sits in the slice, and how far the text after it moved.
    const starts: number[] = [];
    const ends: number[] = [];
    const shifts: number[] = [];
    let redacted = '';
    let cursor = from;
    for (let index = first; index <= last; index++) {
      const span = spans[index]!;
      redacted += source.slice(cursor, span.start);
      starts.push(redacted.length);
      redacted += written?.get(span.type) ?? `[${span.type}]`;
      ends.push(redacted.length);
      shifts.push(span.end - redacted.length);
      cursor = span.end;
    }
    redacted += source.slice(cursor, to);
    const found: DetectedSpan[] = [];
    const priorities = new PriorityRuns();
    findPatterns(redacted, found, priorities);
    for (let index = 0; index < found.length; index++) {
      const { type, start, end } = found[index]!;
      if ((from > 0 && start < reach) || (to < source.length && end > redacted.length - reach))
        continue;
      // The last placeholder starting before the match's end.
      const before = lowerBound(starts, end) - 1;
      if (before >= 0 && ends[before]! > start) continue; // it holds a placeholder
      const shift = before >= 0 ? shifts[before]! : from;
      added.push({ type, start: start + shift, end: end + shift });
      addedPriorities.push(priorities.at(index));
    }
  };
  // A caller's own placeholder is read too: `***` leaves a phone's context
  // word in reach where `[IP_ADDRESS]` (a word) did not. The default one
  // still: a value may run into `XXXX` or `***` (an e-mail's local part),
  // where `[`…`]` ends it and the value beside it is found.
  const scan = (from: number, to: number, first: number, last: number) => {
    scanAs(undefined, from, to, first, last);
    if (placeholderOf !== undefined) scanAs(placeholderOf, from, to, first, last);
  };
  // Slices around the fresh spans, merged where they meet, never cutting a span.
  let first = -1;
  let last = -1;
  let from = 0;
  let to = 0;
  for (let index = 0; index < spans.length; index++) {
    if (fresh[index] !== 1) continue;
    const span = spans[index]!;
    const sliceStart = Math.max(0, span.start - 2 * reach);
    if (first >= 0 && sliceStart <= to) {
      // Joins the current slice: take in every span up to this one's reach.
      to = Math.max(to, Math.min(source.length, span.end + 2 * reach));
    } else {
      if (first >= 0) scan(from, to, first, last);
      first = index;
      while (first > last + 1 && spans[first - 1]!.end > sliceStart) first--;
      from = Math.min(sliceStart, spans[first]!.start);
      to = Math.min(source.length, span.end + 2 * reach);
    }
    last = Math.max(last, index);
    while (last + 1 < spans.length && spans[last + 1]!.start < to) {
      last++;
      to = Math.max(to, spans[last]!.end);
    }
  }
  if (first >= 0) scan(from, to, first, last);
  return { added, priorities: addedPriorities };
}

/** `flags` (a new one of `length` when undefined) with `index` set. */
function flagged(flags: Uint8Array | undefined, length: number, index: number): Uint8Array {
  const result = flags ?? new Uint8Array(length);
  result[index] = 1;
  return result;
}

/** White space: a placeholder after or before it reads as the value did. */
function isSpaceAt(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) return true;
  const code = text.charCodeAt(index);
  return code <= 32 || (code >= 0x7f && /\s/.test(text[index]!));
}

/** The first offset from `index` on (stepping by `step`) that is not white space: -1 or `text.length` when none. */
function nextNonSpace(text: string, index: number, step: 1 | -1): number {
  let at = index;
  while (at >= 0 && at < text.length && isSpaceAt(text, at)) at += step;
  return at;
}

/**
 * True when `text[at]` is a letter (or `at` is outside the text) and not
 * `glued`: a letter right against a value is no word of its own
 * (`192.168.1.20GB82…`, where the IBAN was rejected for the digit before it
 * and `]` lets it be found).
 */
function isLetterOrEnd(text: string, at: number, glued = false): boolean {
  if (at < 0 || at >= text.length) return true;
  if (glued) return false;
  const code = text.charCodeAt(at);
  if (code < 0x80) return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return /\p{L}/u.test(text[at]!);
}

/** `,` `'` `"` `<` `>`: marks no built-in finder reads on through to a letter. */
const quietMarks = codeTable(/[,'"<>]/);

/**
 * True when the value's edge character `text[edge]` is an ASCII letter and
 * its neighbour `text[at]` is a mark that quotes, lists or brackets it
 * (`'jane@x.io'`, `<jane@x.io>`, `a@b.io,c@d.io`), or, with white space
 * between (`- jane@x.io`, `Email: jane@x.io`), a `-` or `:`: a YAML list
 * item, a label. No built-in finder's match or look-around runs from such
 * a mark into a letter (digit runs read digits and `( ) . - / _`, an IBAN
 * or a card no mark, an IP or a MAC no blank; a phone context word is read
 * only with separators up to the number, and neither a value nor a
 * placeholder is one), so the value and its placeholder, both starting (or
 * ending) with a character no finder continues with, read alike on that
 * side. Only without custom patterns and caller placeholders
 * (`valuesMeetOverSpace`): those may read anything. On the dev sets' first
 * MB nearly every e-mail was read again for such a side (round 27).
 */
function isQuietMark(text: string, at: number, edge: number, glued: boolean): boolean {
  if (at < 0 || at >= text.length) return false;
  const code = text.charCodeAt(at);
  if (code === 58 || code === 45) {
    if (quietWhateverTheEdge(text, at, edge, glued, code)) return true;
  }
  const edgeCode = text.charCodeAt(edge);
  if (!((edgeCode | 0x20) >= 97 && (edgeCode | 0x20) <= 122)) return false;
  return isInTable(quietMarks, code) || (!glued && (code === 45 || code === 58));
}

/**
 * Round 28: the sides that read alike whatever the value's edge character
 * (a digit too: `Phone Number: 555-555-1234`, then `\n\n---`;
 * `jane@x.io: rw`, where the e-mail's `m:` is no mark before a letter):
 * - a `:` with white space between it and the value. The only reading that
 *   crosses blanks into digits is a run of digits and separators (phone,
 *   card, SSN, NHS), which never holds a `:`; a `:` starts no match
 *   followed by white space, and a match ending at it looks on by one
 *   character at most (a phone's `x` extension and check letter need no
 *   `:` first).
 * - a `:` right after the value followed by white space (or the end): the
 *   same, with the match after the blank seeing a blank before it either
 *   way (an IPv6 address after a label needs a word character and `:`
 *   before it, and a `:` with a blank after it is neither).
 * - a `-` with a line break in the white space between: no digit run, IBAN,
 *   NINO, e-mail or address reads across a line break (a phone's context
 *   does, but only through separators, and neither the value nor its
 *   placeholder is one), and the obfuscated `[at]` domain crosses blanks
 *   only to a `.` or `[dot]`.
 * The context read before a match from farther away (an IP word before an
 * address with a blank) is `ipWordMayReachOver`'s.
 */
function quietWhateverTheEdge(
  text: string,
  at: number,
  edge: number,
  glued: boolean,
  code: number,
): boolean {
  if (code === 58) return !glued || (at > edge && isSpaceAt(text, at + 1));
  if (glued) return false;
  const [from, to] = at > edge ? [edge + 1, at] : [at + 1, edge];
  for (let index = from; index < to; index++) {
    const blank = text.charCodeAt(index);
    if (blank === 10 || blank === 13) return true;
  }
  return false;
}

/** A dot, a blank and a digit: what an IPv4 address with a blank holds (`10.0. 0.1`). */
const dotBlankDigit = /\.[ \t]\d/;

/**
 * True when an IPv4 address with a blank (`ipv4OneBlank`, read only with an
 * IP word within 32 characters before it on its line) may start within 32
 * characters after `end`, on its line: its three dots lie within 12
 * characters of its start. A value longer than its placeholder brings an IP
 * word before it closer to such an address (`ip: jane.doe.longername@…
 * and 10.0. 0.1`: 40 characters away, 24 once the e-mail is
 * `[EMAIL_ADDRESS]`), so the redacted text reads an address the first
 * scan did not, whatever lies on either side of the value. Every other
 * context a finder reads before its match (a phone word) takes only
 * separators between it and the number, which neither a value nor a
 * placeholder is.
 */
function ipWordMayReachOver(text: string, end: number): boolean {
  if (end + 3 > text.length) return false;
  const after = text.slice(end, end + 48);
  const lineEnd = after.indexOf('\n');
  return dotBlankDigit.test(lineEnd >= 0 ? after.slice(0, lineEnd) : after);
}

/**
 * The spans whose redaction may change how the text around them reads (the
 * first round of `spansBesidePlaceholders` reads only beside these), as
 * flags by index (undefined when there are none): a value whose nearest
 * character that is not white space, on either side, is not a letter
 * (`…com+44 20…`, `0132)jane@…`: a finder may have rejected its neighbour
 * for that character), or is a letter with no white space between
 * (`…1.20GB82…`: the same, a value glued to a word); `1111 (415) 555-6460`: a phone run reads digits
 * across spaces), and a value kept over another candidate it overlapped (the
 * other's rest may be a value: `…0130 00'jane@example.com`). A value with
 * white space and then a letter (or nothing) on both sides, and no rival,
 * reads the same as its placeholder to every pattern finder (a placeholder
 * is never a phone context word), so the text beside it is not scanned
 * again: on text full of values that rescan cost as much as the first scan.
 *
 * With `valuesMeetOverSpace` (no custom pattern), a side where only white
 * space separates the value from the next value counts as a letter: once
 * both are redacted, what lies between is white space between two
 * placeholders, where no built-in finder matches (a match holding a
 * placeholder is dropped), so only the far sides of a run of such values
 * (`1.2.3.4 1.2.3.4 …`, where the digits across the spaces made every value
 * of the run be read again) can change what the text beside them reads. A
 * custom pattern may match white space by what surrounds it.
 */
function readingMayChange(
  source: string,
  spans: readonly DetectedSpan[],
  candidates: readonly DetectedSpan[],
  valuesMeetOverSpace: boolean,
): Uint8Array | undefined {
  let fresh: Uint8Array | undefined;
  for (let index = 0; index < spans.length; index++) {
    const span = spans[index]!;
    const before = nextNonSpace(source, span.start - 1, -1);
    const after = nextNonSpace(source, span.end, 1);
    const beforeSafe =
      (valuesMeetOverSpace && index > 0 && before < spans[index - 1]!.end) ||
      isLetterOrEnd(source, before, before === span.start - 1) ||
      (valuesMeetOverSpace && isQuietMark(source, before, span.start, before === span.start - 1));
    const afterSafe =
      (valuesMeetOverSpace && index + 1 < spans.length && after >= spans[index + 1]!.start) ||
      isLetterOrEnd(source, after, after === span.end) ||
      (valuesMeetOverSpace && isQuietMark(source, after, span.end - 1, after === span.end));
    if (!beforeSafe || !afterSafe || ipWordMayReachOver(source, span.end)) {
      fresh = flagged(fresh, spans.length, index);
    }
  }
  if (candidates.length === spans.length) return fresh; // every candidate kept as found
  for (const candidate of candidates) {
    // The spans (in text order, never overlapping) that overlap the candidate.
    for (
      let index = firstStartAtOrAfter(spans, candidate.end) - 1;
      index >= 0 && spans[index]!.end > candidate.start;
      index--
    ) {
      const span = spans[index]!;
      if (span.start !== candidate.start || span.end !== candidate.end)
        fresh = flagged(fresh, spans.length, index);
    }
  }
  return fresh;
}

/** A letter or digit: what a piece of a value that must not stay visible holds. */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
function isLetterOrDigitAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 128)
    return (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 122);
  return LETTER_OR_DIGIT.test(text[index]!);
}

/**
 * `spans` with the rest of each candidate that lost to an overlapping one
 * brought under it: in `jane@x.io=bob@y.io` the e-mail `x.io=bob@y.io` (the
 * longer) beats `jane@x.io`, and `jane@` stayed visible beside the
 * placeholder, where no rescan reads an address again
 * (`jane@[EMAIL_ADDRESS]`). A lost candidate whose characters outside the
 * spans include a letter or digit joins the spans it overlaps into one, of
 * the type of the longest; one whose rest is punctuation (`00'` before
 * `jane@…`) changes nothing. Each candidate looks up its overlaps by binary
 * search (candidates are at most a match long), so O(n log n).
 */
function coverLostCandidates(
  source: string,
  spans: DetectedSpan[],
  candidates: readonly DetectedSpan[],
): DetectedSpan[] {
  const covers: DetectedSpan[] = [];
  for (const candidate of candidates) {
    const last = firstStartAtOrAfter(spans, candidate.end) - 1;
    if (last < 0 || spans[last]!.end <= candidate.start) continue; // overlaps no span
    let first = last;
    while (first > 0 && spans[first - 1]!.end > candidate.start) first--;
    // The candidate's characters no span covers: before, between and after the overlapped spans.
    let uncoveredValue = false;
    let at = candidate.start;
    for (let index = first; index <= last + 1 && !uncoveredValue; index++) {
      const until = index <= last ? spans[index]!.start : candidate.end;
      for (let c = at; c < until && !uncoveredValue; c++) {
        uncoveredValue = isLetterOrDigitAt(source, c);
      }
      if (index <= last) at = Math.max(at, spans[index]!.end);
    }
    if (!uncoveredValue) continue;
    let longest = spans[first]!;
    for (let index = first + 1; index <= last; index++) {
      const span = spans[index]!;
      if (span.end - span.start > longest.end - longest.start) longest = span;
    }
    covers.push({
      type: longest.type,
      start: Math.min(candidate.start, spans[first]!.start),
      end: Math.max(candidate.end, spans[last]!.end),
    });
  }
  if (covers.length === 0) return spans;
  // Spans and covers in text order, those that overlap joined (a cover holds the spans it overlapped).
  const all = [...spans, ...covers].sort((a, b) => a.start - b.start || b.end - a.end);
  const joined: DetectedSpan[] = [];
  for (const span of all) {
    const previous = joined[joined.length - 1];
    if (previous && span.start < previous.end) {
      if (span.end > previous.end) joined[joined.length - 1] = { ...previous, end: span.end };
    } else {
      joined.push(span);
    }
  }
  return joined;
}

/** A character of an e-mail's local part (as the e-mail finder reads one). */
const LOCAL_PART_CHAR = /[A-Za-z0-9._%+\-'!#$&*=?^`{|}~]/;

/**
 * `spans` with an e-mail that starts right after an `@` taking in that `@`
 * and the local part before it: in `jane@x.io-jane@x.io` the finder reads
 * `x.io-jane@x.io` (a domain never runs into an `@`, so `jane@x.io` is no
 * candidate) and `jane@` stayed visible (`jane@[EMAIL_ADDRESS]`). Never
 * past the span before; each character is read once, so linear.
 */
function coverGluedLocalParts(source: string, spans: DetectedSpan[]): DetectedSpan[] {
  let result: DetectedSpan[] | undefined;
  for (let index = 0; index < spans.length; index++) {
    const span = spans[index]!;
    if (span.type !== 'EMAIL_ADDRESS' || source[span.start - 1] !== '@') continue;
    const floor = index > 0 ? spans[index - 1]!.end : 0;
    let start = span.start;
    // A chain (`a@x.io-b@y.io-c@z.io`, read as `y.io-c@z.io`) is taken in whole.
    while (start > floor && source[start - 1] === '@') {
      start--;
      while (start > floor && LOCAL_PART_CHAR.test(source[start - 1]!)) start--;
    }
    result ??= spans.slice();
    result[index] = { type: span.type, start, end: span.end };
  }
  return result ?? spans;
}

/**
 * `findPii` tagging with the model of the caller's `withNerModel` (`pii()`'s
 * loaded one). The public `findPii` (`find-pii-bundled.ts`) gives it the
 * bundled model: not here, so `pii()`'s module graph holds no weights.
 */
export function findPiiWithScopedModel(text: string, options?: FindPiiOptions): PiiSpan[] {
  // A long text: its options read here once, for the pieces and, if they are not read in pieces, the whole text.
  const long = typeof text === 'string' && text.length >= chunkedScanFrom;
  const checked = long ? checkedPiiOptions(options) : options;
  const inPieces = long ? findPiiInChunks(text, checked) : undefined;
  return inPieces ?? findPiiNormalized(normalizeText(text), checked);
}

/**
 * The caller's options as read for this call (`validateOptionsOnce`: each
 * field read once per call, checked again when one changed), a copy that
 * the readings and pieces of the call get back as is; `undefined` for none.
 */
function checkedPiiOptions(options: FindPiiOptions | undefined): FindPiiOptions | undefined {
  return options === undefined ? undefined : checkedFindPiiOptions(options);
}

/**
 * `findPiiInNormalForm(normalizeText(text), ...).spans` of a long text,
 * found piece by piece (`scanInChunks`: no megabyte-sized normal form), or
 * undefined when the text is short, the pieces disagree at a seam, or the
 * options find what pieces might judge otherwise: names and addresses (the
 * tagger reads sentences) and the caller's `custom` patterns (which may
 * read any distance). Then the caller scans the whole text.
 */
export function findPiiInChunks(
  text: TextSource,
  options?: FindPiiOptions,
  placeholders?: RegExp,
  placeholderOf?: ReadonlyMap<string, string>,
  read?: { normalizationPoints?: Int32Array; pieces?: PiecesRead },
): PiiSpan[] | undefined {
  if (!(text.length >= chunkedScanFrom)) return undefined;
  const checked = checkedPiiOptions(options);
  if (!patternsOnly(checked)) return undefined;
  // One memo of phone runs for every piece: a run's verdict depends on the
  // run and the regions alone, and a run repeated in another piece (or read
  // again in the overlap of two) is not validated again. For this call only.
  const phoneVerdicts: PhoneVerdicts = new Map();
  const found = scanInChunks(
    text,
    (_piece, points, normalized) => {
      return {
        spans: findPiiInNormalForm(
          normalized,
          checked,
          placeholders,
          placeholderOf,
          phoneVerdicts,
          points,
        ).spans,
        normalForm: normalized,
      };
    },
    { keepPieceForms: read !== undefined },
  );
  // Where the text holds what its normal form may change, and the normal
  // forms of the pieces it found nothing in, for the reader of its redaction.
  if (read && found?.normalizationPoints) read.normalizationPoints = found.normalizationPoints;
  if (read && found?.pieces) read.pieces = found.pieces;
  return found?.spans;
}

/** A tab beside a digit, or before a bracket or `+`: only then can a tab join a value's parts. */
const tabBesideNumberPattern = /\d\t|\t[\d(+]/;

/**
 * Whether `tabBesideNumberPattern` matches in `text`, read at each tab
 * (found by `indexOf`) rather than by the regex's walk over every
 * character (round 29: on the dev sets' first MB, 40 tabs in all, and the
 * regex walked each piece holding one). Past 256 tabs (tab-indented code,
 * a table) the regex reads the text: one call per tab would cost more.
 */
function tabBesideNumber(text: string): boolean {
  let tabs = 0;
  for (let at = text.indexOf('\t'); at >= 0; at = text.indexOf('\t', at + 1)) {
    if (++tabs > 256) return tabBesideNumberPattern.test(text);
    const before = text.charCodeAt(at - 1);
    const after = text.charCodeAt(at + 1);
    if (
      (before >= 48 && before <= 57) ||
      (after >= 48 && after <= 57) ||
      after === 40 ||
      after === 43
    )
      return true;
  }
  return false;
}

/**
 * `text` with each tab a space (same length, same offsets), as the pattern
 * finders read it: a tab between a value's parts reads as a space does
 * (`4111\t1111\t1111\t1111` is a card to a model), and every finder takes
 * a space where it takes a blank. Done here, not in `normalizeText`: code
 * indented with tabs would otherwise leave the normaliser's ASCII fast path
 * at every line and be copied whole. Here a text is copied only when a tab
 * sits beside a digit (every value a tab can split holds digits next to one
 * of its blanks: cards, phones, SSNs, IBANs, NINOs), found at each tab
 * (`tabBesideNumber`), and copied unit by unit
 * (`replaceAll` on a table with a tab every 5 characters: 180 ms per MB).
 * (The other blanks are a space in the normal form: NFKC folds NBSP and
 * U+2000–U+200A, U+202F, U+205F, U+3000; U+1680 and U+2800 are folded by
 * `normalizeText`.) Custom patterns and the name tagger read the normal form
 * as it is.
 */
function tabsAsSpaces(text: string): string {
  if (!tabBesideNumber(text)) return text;
  let copy = '';
  const units = new Uint16Array(Math.min(text.length, 8192));
  for (let from = 0; from < text.length; from += units.length) {
    const count = Math.min(units.length, text.length - from);
    for (let index = 0; index < count; index++) {
      const code = text.charCodeAt(from + index);
      units[index] = code === 9 ? 32 : code;
    }
    copy += String.fromCharCode.apply(
      null,
      count === units.length
        ? (units as unknown as number[])
        : (units.subarray(0, count) as unknown as number[]),
    );
  }
  return copy;
}

/** `findPii` on a text already normalised with `normalizeText` (default options). */
export function findPiiNormalized(normalized: NormalizedText, options?: FindPiiOptions): PiiSpan[] {
  return findPiiInNormalForm(normalized, options).spans;
}

/**
 * `findPiiNormalized`, also giving each span's offsets in the normal form
 * (`normalizedSpans[i]` is `spans[i]` before mapping to the original), so a
 * redaction can derive the normal form of its result (see `redacted-normal-form.ts`).
 * `placeholders`: the redaction placeholders the name tagger masks, when a
 * caller writes its own format (`placeholderPattern`; default `[TYPE]` and `<TYPE_N>`).
 * `placeholderOf`: the text a redaction writes for each type, when not
 * `[TYPE]`: the values beside the redacted ones are read as they will be.
 * `points`: the normaliser's, when `normalized` is a piece of a longer text.
 */
export function findPiiInNormalForm(
  normalized: NormalizedText,
  options?: FindPiiOptions,
  placeholders?: RegExp,
  placeholderOf?: ReadonlyMap<string, string>,
  phoneVerdicts: PhoneVerdicts = new Map(),
  points?: NormalizationPoints,
): { spans: PiiSpan[]; normalizedSpans: DetectedSpan[]; otherReading?: true } {
  const checked = checkedPiiOptions(options);
  // Private-use characters are also read through (round 24: `4111\uE0001111…`
  // was no card): a value read whole takes the place of its pieces.
  const { readThrough, broken } = otherReadings(normalized, points);
  // Round 34: a text read again tags again only the chunks whose text changed
  // (a 3.9 MB text with breaks was tagged whole three times).
  const memo =
    (readThrough !== undefined || broken !== undefined) && planOf(checked).namedTypes.length > 0
      ? new TaggedChunks()
      : undefined;
  const found = findInNormalForm(
    normalized,
    checked,
    placeholders,
    placeholderOf,
    phoneVerdicts,
    memo,
  );
  /** The spans of another reading of the text (same offsets), with this call's options and memos. */
  const readAgain = (text: string) =>
    findInNormalForm(normalizeText(text), checked, placeholders, placeholderOf, phoneVerdicts, memo)
      .spans;
  let spans = found.spans;
  if (readThrough !== undefined) spans = withWiderSpans(spans, readAgain(readThrough));
  // An invisible character beside a letter is also read as a blank (round 24:
  // `cc\u200B4111 1111 1111 1111` was a card glued to a word, so none).
  // Round 25: only the text around the breaks is read again (a text with
  // one break was read whole twice), unless the options read farther than
  // a finder does (the name tagger reads sentences, a custom pattern any
  // length); then the whole text is read, and the tagger tags only the
  // chunks whose text the breaks changed (`memo`).
  if (broken !== undefined) {
    const reach = patternReach(checked);
    const apart = (all: boolean) =>
      reach === undefined
        ? readAgain(brokenText(broken, all))
        : spansAroundBreaks(broken, all, reach, readAgain);
    spans = withSpansApart(spans, apart(false));
    // Round 25: and with those beside a digit too, between two digits as line
    // breaks (`12\u200B4111 1111 1111 1111` was one run of 18 digits, no card).
    if (broken.beyondLetters) spans = withSpansApart(spans, apart(true));
  }
  // The added spans have no offsets in this normal form: no normal form is derived from them.
  return spans === found.spans ? found : { ...found, spans, otherReading: true };
}

/**
 * How far from a character a pattern finder's verdict can depend on it
 * (the longest match and its context, as `spansBesidePlaceholders` reads),
 * or undefined when the options find names and addresses or hold custom
 * patterns, which may read any distance.
 */
function patternReach(options: FindPiiOptions | undefined): number | undefined {
  return patternsOnly(options) ? reachOf(planOf(options), []) : undefined;
}

/**
 * Whether only pattern finders read the text with these options: not when
 * they find names and addresses (the tagger reads sentences) or hold
 * custom patterns (which may read any distance).
 */
function patternsOnly(options: FindPiiOptions | undefined): boolean {
  const plan = planOf(options);
  const custom = options?.custom;
  return (custom === undefined || custom.length === 0) && plan.namedTypes.length === 0;
}

/** What a `findPii` call does with its options, worked out once per options object. */
interface PiiPlan {
  /** The named-entity types (the tagger's). */
  namedTypes: NerEntity[];
  /** The pattern types' finders, in the order of `types`. */
  finders: Array<{
    type: Exclude<PiiEntity, NerEntity>;
    find: EntityFinder['find'];
    priority: number;
  }>;
  /** The longest normalised match of the pattern types (without custom patterns). */
  patternLongest: number;
  /** The finders' options (the phone verdicts are each call's own). */
  resolved: Omit<Resolved, 'phoneVerdicts'>;
}

/** The plan of each options copy `validateOptionsOnce` returned (a new copy when a field changed). */
const plans = new WeakMap<FindPiiOptions, PiiPlan>();
let defaultPlan: PiiPlan | undefined;

/**
 * The plan of `options` (validated): the entity types resolved and split
 * into the tagger's and the finders', the phone regions in the order they
 * are tried, the longest match. Made once per checked copy of the options:
 * `validateOptionsOnce` gives the same copy while the caller's fields hold
 * what they held, list items included (round 30: resolving them on every
 * call was about a third of a short text's `findPii` CPU, on the dev rows
 * one call per text). Since round 43 the checked copy holds copies of
 * the custom patterns too, read once per call and checked as read.
 */
function planOf(options: FindPiiOptions | undefined): PiiPlan {
  const checked = checkedPiiOptions(options);
  if (checked === undefined) {
    defaultPlan ??= makePlan({});
    return defaultPlan;
  }
  let plan = plans.get(checked);
  if (plan === undefined) {
    plan = makePlan(checked);
    plans.set(checked, plan);
  }
  return plan;
}

function makePlan({
  entities,
  defaultRegion = 'US',
  phoneRegions = ['GB', 'DE', 'FR', 'IL', 'IN', 'CA', 'BR', 'JP', 'CN'],
  obfuscatedEmails = true,
}: FindPiiOptions): PiiPlan {
  const types = resolveEntities(entities);
  const patternTypes = types.filter(type => !isNerEntity(type)) as Exclude<PiiEntity, NerEntity>[];
  return {
    namedTypes: types.filter(isNerEntity),
    finders: patternTypes.map(type => ({
      type,
      find: entityFinders[type].find,
      priority: entityFinders[type].priority,
    })),
    patternLongest: piiMaxMatchLength({ entities: patternTypes }) / 2,
    resolved: {
      defaultRegion,
      phoneRegions,
      phoneRegionOrder: [defaultRegion, ...phoneRegions.filter(region => region !== defaultRegion)],
      obfuscatedEmails,
      hasNhs: types.includes('UK_NHS'),
    },
  };
}

/** The longest normalised match of the plan's types and `custom`'s patterns, and the context read around it. */
function reachOf(plan: PiiPlan, custom: readonly CustomPiiPattern[]): number {
  let longest = plan.patternLongest;
  for (const pattern of custom) longest = Math.max(longest, pattern.maxLength ?? 64);
  return longest + contextReach;
}

function findInNormalForm(
  normalized: NormalizedText,
  options?: FindPiiOptions,
  placeholders?: RegExp,
  placeholderOf?: ReadonlyMap<string, string>,
  phoneVerdicts: PhoneVerdicts = new Map(),
  memo?: TaggedChunks,
): { spans: PiiSpan[]; normalizedSpans: DetectedSpan[] } {
  const plan = planOf(options);
  const custom = options?.custom ?? [];
  const source = normalized.text;
  // Shared by the scans of this call (see `spansBesidePlaceholders`), dropped with it.
  // Written out: a spread of the plan's object cost 0.4 µs a call.
  const { defaultRegion, phoneRegions, phoneRegionOrder, obfuscatedEmails, hasNhs } = plan.resolved;
  const resolved: Resolved = {
    defaultRegion,
    phoneRegions,
    phoneRegionOrder,
    obfuscatedEmails,
    hasNhs,
    phoneVerdicts,
  };
  const findPatterns: FindPatterns = (text, candidates, priorities) => {
    const blanked = tabsAsSpaces(text);
    // One `add` for every finder of the scan, told whose matches it takes.
    let type: Exclude<PiiEntity, NerEntity> = 'EMAIL_ADDRESS';
    let priority = 0;
    const add = (start: number, end: number) => {
      candidates.push({ type, start, end });
      priorities.push(priority);
    };
    for (const finder of plan.finders) {
      type = finder.type;
      priority = finder.priority;
      finder.find(blanked, add, resolved);
    }
    for (const [index, { type, pattern, validate }] of custom.entries()) {
      // The global copy is made by the pattern's species, as `matchAll` copies
      // a RegExp: a config pattern stays on RE2 (`Re2RegExp`, linear time)
      // without this module importing it (an edge bundle of pii() leaves re2js out).
      const Species =
        (pattern.constructor as RegExpConstructor | undefined)?.[Symbol.species] ?? RegExp;
      // Always a copy: `matchAll` starts at the pattern's own lastIndex, so a
      // global pattern the caller had used (`test`) hid every value before it.
      const global = new Species(pattern, pattern.global ? pattern.flags : `${pattern.flags}g`);
      for (const match of text.matchAll(global)) {
        if (match[0].length === 0) continue;
        if (validate && !acceptedByCallback(validate(match[0]), `custom[${index}].validate`)) {
          continue;
        }
        candidates.push({ type, start: match.index, end: match.index + match[0].length });
        priorities.push(11);
      }
    }
    forgetNineDigitMatches(); // do not keep the text alive
  };
  const candidates: DetectedSpan[] = [];
  const priorities = new PriorityRuns();
  findPatterns(source, candidates, priorities);
  // Names and addresses last: a pattern match inside one is cut out of it.
  for (const span of namedEntityCandidates(
    source,
    plan.namedTypes,
    candidates,
    placeholders,
    memo,
  )) {
    candidates.push({ type: span.type, start: span.start, end: span.end });
    priorities.push(span.priority);
  }
  // The kept candidates themselves: one object per value.
  let normalizedSpans = resolveOverlapsBeside(candidates, index => priorities.at(index));
  // Redacting must be idempotent (window mode re-checks released text as
  // context): what the finders find next to the placeholders is found now.
  // A value glued to another (`jane@example.com+44 20 7946 0958`, `(415)
  // 555-0132)jane@example.com`) or whose start lost an overlap to another
  // (`…0130 00'jane@example.com`, the e-mail read from `00'`) was rejected
  // for characters the redaction replaces. Each round reads the text as
  // redacted so far; at most `placeholderRounds` of them (linear), and
  // only while the last one found more.
  const reach = reachOf(plan, custom);
  // Values that meet over white space read as round 12 did with a custom
  // pattern or placeholder (`***` is no word: a phone context word reads across it).
  let fresh = readingMayChange(
    source,
    normalizedSpans,
    candidates,
    custom.length === 0 && placeholderOf === undefined,
  );
  // Whether a candidate lost to another (then its rest may be left visible).
  let lost = candidates.length !== normalizedSpans.length;
  for (let round = 0; round < placeholderRounds && fresh !== undefined; round++) {
    const { added, priorities: addedPriorities } = spansBesidePlaceholders(
      source,
      normalizedSpans,
      fresh,
      reach,
      findPatterns,
      placeholderOf,
    );
    if (added.length === 0) break;
    lost = true;
    const earlier = normalizedSpans;
    // The values kept so far rank below every new match.
    normalizedSpans = resolveOverlapsBeside([...earlier, ...added], index =>
      index < earlier.length ? 0 : addedPriorities.at(index - earlier.length),
    );
    // Fresh: those starting where no earlier span started (spans never overlap: a start names one).
    fresh = undefined;
    let old = 0;
    for (let index = 0; index < normalizedSpans.length; index++) {
      const { start } = normalizedSpans[index]!;
      while (old < earlier.length && earlier[old]!.start < start) old++;
      if (old < earlier.length && earlier[old]!.start === start) continue;
      fresh = flagged(fresh, normalizedSpans.length, index);
    }
  }
  if (lost) normalizedSpans = coverLostCandidates(source, normalizedSpans, candidates);
  normalizedSpans = coverGluedLocalParts(source, normalizedSpans);
  // A text the normaliser left as it is has the same offsets: its spans are
  // the normal form's (one object per value fewer on text full of values).
  if (!normalized.changed) return { spans: normalizedSpans, normalizedSpans };
  return {
    // One object per span (not a mapped span spread into another): text
    // full of values makes hundreds of thousands.
    spans: normalizedSpans.map(span => ({
      type: span.type,
      start: normalized.toOriginal(span.start),
      end: normalized.toOriginalEnd(span.end),
    })),
    normalizedSpans,
  };
}
