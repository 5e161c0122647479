import { Flag, type Scanned } from './features';
import { nerMaxLength } from './labels';
import type { NerSpan } from './tagger';

/**
 * Where an address written on one line ends: the tagger reads the parts of
 * `Av. Insurgentes Sur 1602, Col. Crédito Constructor, 03940 Ciudad de
 * México, CDMX` or `Mannerheimintie 5 A 7, 00100 Helsinki` as pieces, some
 * of them people or places (a street named after a person, the city). The
 * comma-separated parts around an address the tagger found, on its line,
 * that are written as address parts are one address with it.
 */

const addressMaxLength = nerMaxLength.STREET_ADDRESS;

/** Lower-case words inside street and place names (`Rue de la Loi`, `Ciudad de México`). */
const particles: ReadonlySet<string> = new Set([
  'de',
  'del',
  'la',
  'las',
  'los',
  'le',
  'les',
  'du',
  'des',
  'da',
  'do',
  'dos',
  'das',
  'di',
  'van',
  'von',
  'der',
  'den',
  'am',
  'an',
  'im',
  'sur',
  'y',
  'e',
]);

/** Signs inside an address part: `1200-203`, `5/22`, `#05-01`, `3º`. */
function isAddressSign(code: number): boolean {
  return code === 45 || code === 47 || code === 35 || code === 0xba || code === 0xb0;
}

/**
 * Whether token `index` can be part of an address: a number or a word with
 * digits, a capitalised or upper-case word, a street word (`gate`, `ul`),
 * a particle, a sign of `isAddressSign`, or a full stop right after a short
 * capitalised word (`Co.`, `Av.`, `St.`).
 */
function isAddressToken(text: string, scanned: Scanned, index: number): boolean {
  const flags = scanned.flags[index]!;
  if ((flags & (Flag.Digit | Flag.Title | Flag.Upper | Flag.Street)) !== 0) return true;
  if ((flags & Flag.Lower) !== 0 && (flags & Flag.Punct) === 0 && hasDigit(text, scanned, index))
    return true;
  const start = scanned.start[index]!;
  const length = scanned.end[index]! - start;
  if ((flags & Flag.Punct) === 0) {
    return particles.has(scanned.words.lower[scanned.word[index]!]!);
  }
  if (length !== 1) return false;
  const code = text.charCodeAt(start);
  if (isAddressSign(code)) return true;
  if (code !== 46 || index === 0 || scanned.end[index - 1] !== start) return false;
  const before = scanned.flags[index - 1]!;
  return (before & (Flag.Title | Flag.Street)) !== 0 && start - scanned.start[index - 1]! <= 3;
}

/** 1 to 5 digits, optionally one letter after them (`742`, `221B`, `12a`). */
export function isHouseNumber(text: string, start: number, end: number): boolean {
  let index = start;
  while (index < end && index - start < 6) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) break;
    index++;
  }
  const digits = index - start;
  if (digits === 0 || digits > 5) return false;
  if (index === end) return true;
  const lower = text.charCodeAt(index) | 32;
  return index + 1 === end && lower >= 97 && lower <= 122;
}

/** Whether token `index` has a digit in it (`1602`, `A96`, `T2X8`). */
function hasDigit(text: string, scanned: Scanned, index: number): boolean {
  for (let at = scanned.start[index]!; at < scanned.end[index]!; at++) {
    const code = text.charCodeAt(at);
    if (code >= 48 && code <= 57) return true;
  }
  return false;
}

/** Whether `text[index]` is a comma token. */
function isComma(text: string, scanned: Scanned, index: number): boolean {
  return (
    scanned.end[index]! - scanned.start[index]! === 1 &&
    text.charCodeAt(scanned.start[index]!) === 44
  );
}

/**
 * The address run around the tokens `first`-`last` (an address span) on
 * their line: `[from, to]` tokens, or undefined when it is the span itself.
 * To the left, the address tokens before the span, then whole
 * comma-separated parts of address tokens; to the right, whole parts, and
 * of the last part its address tokens up to a word that is none when that
 * prefix has a digit (`Wellington 6011 until Friday`). The run then starts
 * at its first part with a digit or a street word (a name before an
 * address, `Thandiwe Dlamini, 9 Protea Close`, stays out).
 */
function runAround(
  text: string,
  scanned: Scanned,
  first: number,
  last: number,
): [number, number] | undefined {
  const count = scanned.count;
  const newlines = scanned.newline;
  // Only tokens within an address's length of the span: the work per span is bounded.
  const low = scanned.end[last]! - addressMaxLength;
  const high = scanned.start[first]! + addressMaxLength;
  const address = (index: number) =>
    scanned.start[index]! >= low &&
    scanned.end[index]! <= high &&
    isAddressToken(text, scanned, index);
  /** Whether a part's scan stopped at `index` for the bound only (an address token of its line). */
  const cutByBound = (index: number) =>
    index >= 0 &&
    index < count &&
    newlines[index] === 0 &&
    !isComma(text, scanned, index) &&
    !address(index) &&
    isAddressToken(text, scanned, index);
  // Right: over `, part` while the part is all address tokens.
  let to = last;
  while (
    to + 1 < count &&
    newlines[to + 1] === 0 &&
    address(to + 1) &&
    !isComma(text, scanned, to + 1)
  )
    to++;
  for (;;) {
    const comma = to + 1;
    if (comma >= count || newlines[comma] !== 0 || !isComma(text, scanned, comma)) break;
    let end = comma + 1;
    let digit = false;
    while (end < count && newlines[end] === 0 && address(end) && !isComma(text, scanned, end)) {
      digit ||= hasDigit(text, scanned, end);
      end++;
    }
    // A part cut by the bound is not taken.
    if (end === comma + 1 || cutByBound(end)) break;
    const whole =
      end >= count ||
      newlines[end] !== 0 ||
      isComma(text, scanned, end) ||
      isEnd(text, scanned, end);
    if (!whole && !digit) break;
    to = end - 1;
    if (!whole) break;
  }
  // Left: `part ,` while the part is all address tokens; a part that is not (`to Av.
  // Insurgentes Sur 1602`) gives its address tokens when they hold a digit or street word, and ends the run.
  let from = first;
  // The span's own part: the address tokens before it (`Via Garibaldi` before a span `45, 10122
  // Torino`, `5/` before `22 Wattle Street`) when they hold a house number or a street word.
  /** Whether the token before `index` is an address token of its part (no comma), on its line. */
  const addressBefore = (index: number) =>
    index > 0 && newlines[index] === 0 && address(index - 1) && !isComma(text, scanned, index - 1);
  let own = first;
  let ownEvidence = false;
  while (
    addressBefore(own) &&
    (scanned.flags[own - 1]! & (Flag.Honorific | Flag.FirstName)) === 0
  ) {
    own--;
    ownEvidence ||=
      (scanned.flags[own]! & Flag.Street) !== 0 ||
      isHouseNumber(text, scanned.start[own]!, scanned.end[own]!);
  }
  if (ownEvidence) from = own;
  const parts = [from];
  for (;;) {
    const comma = from - 1;
    if (
      comma <= 0 ||
      newlines[from] !== 0 ||
      newlines[comma] !== 0 ||
      !isComma(text, scanned, comma)
    )
      break;
    let start = comma;
    let evidence = false;
    while (addressBefore(start)) {
      start--;
      evidence ||= isStreetOrNumber(text, scanned, start);
    }
    if (start === comma || cutByBound(start - 1)) break;
    const whole =
      start === 0 ||
      newlines[start] !== 0 ||
      isComma(text, scanned, start - 1) ||
      !isWord(scanned, start - 1);
    if (!whole && !evidence) break;
    from = start;
    parts.push(from);
    if (!whole) break;
  }
  // The run starts at its leftmost part with a digit or a street word.
  let start = -1;
  for (let part = parts.length - 1; part >= 0 && start < 0; part--) {
    for (let index = parts[part]!; index <= last; index++) {
      if (isComma(text, scanned, index)) break;
      if (isStreetOrNumber(text, scanned, index)) {
        start = parts[part]!;
        break;
      }
    }
  }
  if (start < 0) start = first;
  while (start < first && !isWordOrDigit(text, scanned, start)) start++;
  while (to > last && !isWordOrDigit(text, scanned, to)) to--;
  if (start === first && to === last) return undefined;
  if (scanned.end[to]! - scanned.start[start]! > addressMaxLength) return undefined;
  return [start, to];
}

/**
 * Whether the run `[from, to]` around a name or place the tagger found is
 * an address the tagger did not see (`Carrer de Mallorca 401, 08013
 * Barcelona`, `2-4-1 Umeda, Kita-ku, Osaka 530-0001`, `8 rue des Tanneurs,
 * 67000 Strasbourg`): numbers in two of its comma-separated parts, and a
 * street word or a number no year is (5 digits or more, digits joined by
 * `-` or `/`), the span `seed` in a part with a number or a street word. A
 * list of names and years (`Mozart 1756, Haydn 1732`) is none.
 */
function isAddressShaped(
  text: string,
  scanned: Scanned,
  from: number,
  to: number,
  seed: number,
): boolean {
  // The name or place must be in a part with a number or a street word (`Contact: Ravi Shankar
  // Iyer, 2 Orchard Turn, …` keeps the name out: the address is found from its own number).
  if (from > seed) return false;
  let own = seed;
  while (own > from && !isComma(text, scanned, own - 1)) own--;
  let evidence = false;
  for (let index = own; index <= to && !isComma(text, scanned, index) && !evidence; index++)
    evidence = isStreetOrNumber(text, scanned, index);
  if (!evidence) return false;
  let partsWithDigits = 0;
  let digitInPart = false;
  let strong = false;
  for (let index = from; index <= to; index++) {
    if (isComma(text, scanned, index)) {
      digitInPart = false;
      continue;
    }
    if ((scanned.flags[index]! & Flag.Street) !== 0) strong = true;
    if (!hasDigit(text, scanned, index)) continue;
    // Numbers of addresses only: digits and capitals (`401`, `08013`, `SE5`), not `2004'te`.
    const token = text.slice(scanned.start[index]!, scanned.end[index]!);
    if (!/^[\dA-Z]+(?:[-/][\dA-Z]+)*$/.test(token)) continue;
    if (!digitInPart) partsWithDigits++;
    digitInPart = true;
    if (/^\d{5,}$|\d[-/]\d/.test(token)) strong = true;
    if (
      index + 2 <= to &&
      isAddressSign(text.charCodeAt(scanned.start[index + 1]!)) &&
      hasDigit(text, scanned, index + 2)
    )
      strong = true;
  }
  return strong && partsWithDigits >= 2;
}

/** Whether a token of `[first - 3, last + 3]` on the line of `first` has a digit or is a street word. */
function nearNumberOrStreet(text: string, scanned: Scanned, first: number, last: number): boolean {
  const from = Math.max(0, first - 3);
  const to = Math.min(scanned.count - 1, last + 3);
  for (let index = from; index <= to; index++) {
    if (index > first && scanned.newline[index] !== 0) break;
    if (index < first && scanned.newline[index + 1] !== 0) continue;
    if (isStreetOrNumber(text, scanned, index)) return true;
  }
  return false;
}

/** A token with a digit or a street word. */
function isStreetOrNumber(text: string, scanned: Scanned, index: number): boolean {
  return hasDigit(text, scanned, index) || (scanned.flags[index]! & Flag.Street) !== 0;
}

/** A word token (not a sign). */
function isWord(scanned: Scanned, index: number): boolean {
  return (scanned.flags[index]! & Flag.Punct) === 0;
}

/** A word or number that may start or end an address (not a sign). */
function isWordOrDigit(text: string, scanned: Scanned, index: number): boolean {
  return isWord(scanned, index) && text.charCodeAt(scanned.start[index]!) !== 44;
}

/** A sign that ends a phrase: `.`, `!`, `?`, `;`, `)` or `:`. */
function isEnd(text: string, scanned: Scanned, index: number): boolean {
  if (scanned.end[index]! - scanned.start[index]! !== 1) return false;
  const code = text.charCodeAt(scanned.start[index]!);
  return code === 46 || code === 33 || code === 63 || code === 59 || code === 41 || code === 58;
}

/** Words before a time of day (`at 8`, `by 10`). */
const timePrepositions: ReadonlySet<string> = new Set([
  'at',
  'by',
  'until',
  'till',
  'before',
  'after',
  'around',
]);

/**
 * An address that is one number of one or two digits right after `at`,
 * `by`, `until`… with no address word after it (`coming at 8`): a time, not
 * a house number (`lives at 255 Golf Road` keeps its number).
 */
function isClockTime(text: string, scanned: Scanned, index: number): boolean {
  if (index === 0 || index >= scanned.count) return false;
  if ((scanned.flags[index]! & Flag.Digit) === 0 || scanned.newline[index] !== 0) return false;
  if (!timePrepositions.has(scanned.words.lower[scanned.word[index - 1]!]!)) return false;
  const next = index + 1;
  return (
    next >= scanned.count ||
    scanned.newline[next] !== 0 ||
    !isAddressToken(text, scanned, next) ||
    (scanned.flags[next]! & Flag.Punct) !== 0
  );
}

/**
 * `spans` (in text order) with each street address widened to its run on
 * its line (`runAround`): the spans it then overlaps are dropped (a street
 * read as a person, the city as a place, the postcode as a second address).
 * Linear: each address reads its line's tokens around it once, bounded by
 * the address length.
 */
export function addressRuns(text: string, scanned: Scanned, tagged: NerSpan[]): NerSpan[] {
  if (!tagged.some(span => span.type !== 'ORGANIZATION')) return tagged;
  const starts = scanned.start;
  const ends = scanned.end;
  // The widened addresses, in text order, overlapping ones joined.
  const spans: NerSpan[] = [];
  const runs: NerSpan[] = [];
  const widenedRuns: NerSpan[] = [];
  let token = 0;
  for (const span of tagged) {
    const seed = span.type === 'PERSON' || span.type === 'LOCATION';
    if (span.type !== 'STREET_ADDRESS' && !seed) {
      spans.push(span);
      continue;
    }
    while (token < scanned.count && starts[token]! < span.start) token++;
    let last = token;
    while (last + 1 < scanned.count && ends[last + 1]! <= span.end) last++;
    if (!seed && last === token && span.end - span.start <= 2 && isClockTime(text, scanned, token))
      continue;
    spans.push(span);
    // A name or place starts a run only with a number or street word near it (a cheap test first:
    // a line of capitalised words is all address tokens, and a run is read up to 160 characters).
    if (seed && !nearNumberOrStreet(text, scanned, token, last)) continue;
    const run = runAround(text, scanned, token, last);
    if (run === undefined || (seed && !isAddressShaped(text, scanned, run[0], run[1], token)))
      continue;
    widenedRuns.push({ type: 'STREET_ADDRESS', start: starts[run[0]]!, end: ends[run[1]]! });
  }
  joinRuns(widenedRuns, runs);
  if (runs.length === 0) return spans;
  // The spans a widened address overlaps give way to it.
  const result: NerSpan[] = [];
  let run = 0;
  for (const span of spans) {
    while (run < runs.length && runs[run]!.end <= span.start) result.push(runs[run++]!);
    if (run < runs.length && runs[run]!.start < span.end) continue;
    result.push(span);
  }
  while (run < runs.length) result.push(runs[run++]!);
  return result;
}

/**
 * How long a cluster of overlapping widened runs may be (round 46): one
 * longer is no address (a line of address-like parts, a table) and widens
 * nothing, so `addressRuns` reads a bounded span. Before, the runs were
 * joined one after another along the cluster (two overlapping ones when
 * they fit in an address, a third dropped), and a run near the start of a
 * 64 K line of them decided one at its end.
 */
export const ADDRESS_CLUSTER = 4 * addressMaxLength;

/**
 * Appends to `runs` the widened runs `widened` (in the order of their
 * spans) joined: within a cluster of runs that overlap one after another, a
 * run overlapping the last kept one joins it when the two fit in an
 * address, else is dropped; a cluster longer than `ADDRESS_CLUSTER` gives
 * none. Each run is read twice: linear.
 */
function joinRuns(widened: readonly NerSpan[], runs: NerSpan[]): void {
  let first = 0;
  while (first < widened.length) {
    let start = widened[first]!.start;
    let end = widened[first]!.end;
    let next = first + 1;
    while (next < widened.length && widened[next]!.start < end && widened[next]!.end > start) {
      start = Math.min(start, widened[next]!.start);
      end = Math.max(end, widened[next]!.end);
      next++;
    }
    if (end - start <= ADDRESS_CLUSTER) {
      for (let index = first; index < next; index++) {
        const run = widened[index]!;
        const before = runs[runs.length - 1];
        if (before !== undefined && run.start < before.end) {
          if (Math.max(before.end, run.end) - before.start > addressMaxLength) continue;
          before.end = Math.max(before.end, run.end);
        } else runs.push({ ...run });
      }
    }
    first = next;
  }
}
