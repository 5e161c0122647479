import { Flag, type Scanned } from './features';
import type { NerSpan } from './tagger';

/** One span of `spansOfLabels` with the tokens it covers (`first` to `last`, inclusive). */
export interface TokenSpan extends NerSpan {
  first: number;
  last: number;
}

/** The longest word taken for a name (as the other span rules). */
const maxNameWord = 32;
/** The most spans a list has (round 46): a longer run of joined spans is none. */
export const LIST_ITEMS = 16;
/** Names in a list of people with no organisation word: at least this many (`Procter and Gamble`, `Marks and Spencer` are two). */
const minPeople = 3;

/** Whether token `index` is a list separator: `,`, `&`, `and` or `or`. */
function isSeparator(text: string, scanned: Scanned, index: number): boolean {
  const start = scanned.start[index]!;
  const length = scanned.end[index]! - start;
  const code = text.charCodeAt(start);
  if (length === 1) return code === 44 || code === 38;
  if (length === 2) return (code | 32) === 111 && (text.charCodeAt(start + 1) | 32) === 114;
  return (
    length === 3 &&
    (code | 32) === 97 &&
    (text.charCodeAt(start + 1) | 32) === 110 &&
    (text.charCodeAt(start + 2) | 32) === 100
  );
}

/** Whether the tokens strictly between `after` and `before` are one list separator or `,` + `and`/`or`/`&`, on one line. */
function listGap(text: string, scanned: Scanned, after: number, before: number): boolean {
  const between = before - after - 1;
  if (between < 1 || between > 2) return false;
  for (let index = after + 1; index <= before; index++)
    if (scanned.newline[index] !== 0) return false;
  if (!isSeparator(text, scanned, after + 1)) return false;
  return (
    between === 1 ||
    (text.charCodeAt(scanned.start[after + 1]!) === 44 &&
      isSeparator(text, scanned, after + 2) &&
      text.charCodeAt(scanned.start[after + 2]!) !== 44)
  );
}

/** An organisation word (`Corporation`, `Technologies`, not a two-letter `Co`) among the span's tokens. */
function hasOrganisationWord(scanned: Scanned, span: TokenSpan): boolean {
  for (let index = span.first; index <= span.last; index++) {
    const flags = scanned.flags[index]!;
    if ((flags & Flag.Organisation) !== 0 && scanned.end[index]! - scanned.start[index]! > 2)
      return true;
  }
  return false;
}

/** A capitalised word of the name lists that prose does not write in lower case, no street, organisation or title word. */
function isNameWord(scanned: Scanned, index: number): boolean {
  const flags = scanned.flags[index]!;
  return (
    (flags & Flag.Title) !== 0 &&
    (flags & (Flag.Name | Flag.FirstName)) !== 0 &&
    (flags & (Flag.Common | Flag.Street | Flag.Organisation | Flag.Honorific)) === 0 &&
    scanned.end[index]! - scanned.start[index]! <= maxNameWord
  );
}

/**
 * Two or three capitalised words, none a common, street, organisation or
 * title word (`Arvid Lund`, `Dawit Bekele`): shaped as a person's full name.
 */
function isFullName(scanned: Scanned, span: TokenSpan): boolean {
  if (span.last === span.first || span.last - span.first > 2) return false;
  for (let index = span.first; index <= span.last; index++) {
    const flags = scanned.flags[index]!;
    if ((flags & Flag.Title) === 0 || scanned.end[index]! - scanned.start[index]! > maxNameWord)
      return false;
    if ((flags & (Flag.Common | Flag.Street | Flag.Organisation | Flag.Honorific)) !== 0)
      return false;
  }
  return true;
}

/**
 * The names of a span that is only names and list separators (`Becker and
 * Vasquez`: two), or -1 when any other token is in it.
 */
function namesIn(text: string, scanned: Scanned, span: TokenSpan): number {
  let names = 0;
  let inName = false;
  for (let index = span.first; index <= span.last; index++) {
    if (isSeparator(text, scanned, index)) {
      inName = false;
    } else if (isNameWord(scanned, index)) {
      if (!inName) names++;
      inName = true;
    } else return -1;
  }
  return names;
}

/**
 * Coordination keeps a type: the items of a list (`A, B and C`: spans
 * joined only by `,`, `and`, `or`, `&` on one line) are one kind of thing.
 *
 * - A list with an organisation word in an item of any type (`White,
 *   Willis and Hoffman, Lucid and Loveland Technologies`) is a list of
 *   organisations: its PERSON spans that do not start with a first name
 *   become ORGANIZATION.
 * - A list of PERSON and ORGANIZATION spans with no organisation word
 *   whose items are all names of the name lists, at least three (`Kónya,
 *   Becker and Vasquez`), is a list of people: its ORGANIZATION spans
 *   become one PERSON span per name.
 *
 * Each span is read a bounded number of times (a list is walked once to
 * decide, once to rewrite), so this is linear in the tokens. A run of more
 * than `LIST_ITEMS` joined spans is no list and keeps its types (round 46:
 * the rule's reach; a list of names is shorter, a run so long is a table or
 * a generated text).
 */
export function coordinatedLists(text: string, scanned: Scanned, spans: TokenSpan[]): TokenSpan[] {
  let result: TokenSpan[] | undefined;
  let index = 0;
  while (index < spans.length) {
    const head = spans[index]!;
    let end = index + 1;
    while (end < spans.length && listGap(text, scanned, spans[end - 1]!.last, spans[end]!.first))
      end++;
    // Round 46: a run of more than `LIST_ITEMS` joined spans is no list (its spans stay as they
    // are), so whether a span is retyped reads at most `LIST_ITEMS` spans either side.
    const rewritten =
      end - index <= LIST_ITEMS && (end - index > 1 || head.type === 'ORGANIZATION')
        ? retype(text, scanned, spans, index, end)
        : undefined;
    if (rewritten) {
      result ??= spans.slice(0, index);
      result.push(...rewritten);
    } else if (result) {
      for (let item = index; item < end; item++) result.push(spans[item]!);
    }
    index = end;
  }
  return result ?? spans;
}

/** The spans of the list `spans[from, to)` retyped by `coordinatedLists`, or undefined when it keeps them. */
function retype(
  text: string,
  scanned: Scanned,
  spans: readonly TokenSpan[],
  from: number,
  to: number,
): TokenSpan[] | undefined {
  let organisation = false;
  let people = 0;
  // Round 38: every item shaped as a full name (`isFullName`) and one a PERSON.
  let fullNames = to - from > 1;
  let person = false;
  let changes = false;
  for (let index = from; index < to; index++) {
    const span = spans[index]!;
    if (hasOrganisationWord(scanned, span)) organisation = true;
    const personal = span.type === 'PERSON' || span.type === 'ORGANIZATION';
    const names = people >= 0 && personal ? namesIn(text, scanned, span) : -1;
    people = names < 0 ? -1 : people + names;
    fullNames &&= personal && isFullName(scanned, span);
    person ||= span.type === 'PERSON';
  }
  if (fullNames && person) people = Math.max(people, minPeople);
  const list: TokenSpan[] = [];
  for (let index = from; index < to; index++) {
    const span = spans[index]!;
    if (
      organisation &&
      span.type === 'PERSON' &&
      (scanned.flags[span.first]! & Flag.FirstName) === 0
    ) {
      list.push({ ...span, type: 'ORGANIZATION' });
      changes = true;
    } else if (!organisation && people >= minPeople && span.type === 'ORGANIZATION') {
      changes = true;
      for (let token = span.first; token <= span.last; token++) {
        if (isSeparator(text, scanned, token)) continue;
        let last = token;
        while (last < span.last && !isSeparator(text, scanned, last + 1)) last++;
        list.push({
          type: 'PERSON',
          start: scanned.start[token]!,
          end: scanned.end[last]!,
          first: token,
          last,
        });
        token = last;
      }
    } else list.push(span);
  }
  return changes ? list : undefined;
}
