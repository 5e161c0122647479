import { Flag, type Scanned } from './features';
import { roleNouns } from './role-nouns';
import type { NerSpan } from './tagger';

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
 * Lower-case nouns a country stands before as a modifier (round 44: `the Uganda coach`,
 * `Slovenia leader gives …`): the role nouns (`role-nouns.ts`: `coach`, `minister`,
 * `ambassador`, `spokesman`…) and a few nouns of a state's people and bodies that are no role
 * noun there (`leader`, `official`, `government`, `team`). A person is not written so: a name
 * before a role noun takes `'s` (`Kenya's coach`) or a comma.
 */
const countryModified: ReadonlySet<string> = new Set([
  ...roleNouns.keys(),
  ...`leader leaders official officials government team squad embassy consulate delegation envoy
  envoys secretary`.split(/\s+/),
]);

/** Words that join the items of a list: `Kenya, Uganda and Tanzania`. */
const listWords: ReadonlySet<string> = new Set([',', 'and', 'or', '&', '/']);

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
  const sameLine = (from: number, to: number) => {
    for (let index = from + 1; index <= to; index++) if (newline[index] !== 0) return false;
    return true;
  };
  const country = (index: number) =>
    index >= 0 && index < count && countryWords.has(lowerOf(scanned, index));
  if (token >= 1 && sameLine(token - 1, token)) {
    const before = lowerOf(scanned, token - 1);
    if (placeWords.has(before)) return true;
    if (travelPrepositions.has(before) && token >= 2 && sameLine(token - 2, token - 1)) {
      const verb = lowerOf(scanned, token - 2);
      if (travelVerbs.has(verb) || journeyWords.has(verb)) return true;
    }
    if (listWords.has(before) && token >= 2 && sameLine(token - 2, token) && country(token - 2))
      return true;
  }
  if (
    token + 1 < count &&
    newline[token + 1] === 0 &&
    (scanned.flags[token + 1]! & Flag.Lower) !== 0 &&
    countryModified.has(lowerOf(scanned, token + 1))
  )
    return true;
  if (
    token + 2 < count &&
    sameLine(token, token + 2) &&
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
 * still hides the name). An organisation (a national team) stays one. One
 * pass over tokens and spans: linear.
 */
export function countriesLeftOut(scanned: Scanned, spans: NerSpan[]): NerSpan[] {
  const { count, flags, newline, start: starts, end: ends } = scanned;
  let result: NerSpan[] | undefined;
  let next = 0;
  const capitalised = (index: number) =>
    index >= 0 && index < count && (flags[index]! & (Flag.Title | Flag.Upper)) !== 0;
  for (let token = 0; token < count; token++) {
    const flag = flags[token]!;
    if ((flag & (Flag.Title | Flag.Upper)) === 0) continue;
    if ((flag & (Flag.FirstName | Flag.Common)) !== 0 || !countryWords.has(lowerOf(scanned, token)))
      continue;
    const lineStart = token === 0 || newline[token] !== 0;
    if (lineStart && token + 1 < count && lowerOf(scanned, token + 1) === ':') continue;
    if (
      capitalised(token - 1) &&
      newline[token] === 0 &&
      (flags[token - 1]! & Flag.SentenceStart) === 0
    )
      continue;
    if (capitalised(token + 1) && newline[token + 1] === 0) continue;
    // The spans before this token are as they were.
    while (next < spans.length && spans[next]!.end <= starts[token]!) {
      result?.push(spans[next]!);
      next++;
    }
    const span = spans[next];
    const place: NerSpan = { type: 'LOCATION', start: starts[token]!, end: ends[token]! };
    if (span === undefined || span.start >= ends[token]!) {
      result ??= spans.slice(0, next);
      result.push(place);
    } else if (
      span.type === 'PERSON' &&
      span.start === place.start &&
      span.end === place.end &&
      inPlaceContext(scanned, token)
    ) {
      result ??= spans.slice(0, next);
      result.push(place);
      next++;
    }
  }
  if (result === undefined) return spans;
  while (next < spans.length) result.push(spans[next++]!);
  return result;
}
