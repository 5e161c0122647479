import { Flag, type Scanned } from './features';
import { nerMaxLength } from './labels';
import type { NerSpan } from './tagger';
import { WordClasses } from './word-classes';

/**
 * Sports teams the tagger reads as people or places, or leaves outside
 * (round 40, issue 17 item 1): a team is named by what teams do in a match
 * report. Fixed lists of whole categories, written before measuring; no
 * word picked from a row.
 *
 * - **Two sides of a match**: `X beat Y`, `X thrashed/defeated/drew
 *   with/lost to/play/face Y`: both are teams when one of them is a place
 *   of the gazetteers or in no name list and neither is a full name of a
 *   person (a given name and more words) nor both countries (`Brazil beat
 *   Germany` stays places); `Nadal beat Federer` stays people.
 * - **One side**: `X won the league/cup/title/derby/…`, `plays/played/signed
 *   for (the) X`, `supports X` after a personal pronoun or a person (`He supports X`;
 *   round 40 hN: `the parser supports JSON`, `would support Trump` name
 *   no team): X is a team under the same condition.
 * - **A place and a plural name**: a LOCATION span right before a
 *   capitalised word ending in `s` (`the Chicago Bulls`) is one team.
 *
 * A candidate is a PERSON, LOCATION or ORGANIZATION span, or one to three
 * capitalised words outside every span; at most `nerMaxLength.ORGANIZATION`
 * long. Each cue looks at most three tokens either side.
 */

/** Verbs between two teams, each with the word that must follow it (`drew with`), if any. */
const matchVerbs: ReadonlyMap<string, string | undefined> = new Map<string, string | undefined>([
  ['beat', undefined],
  ['beats', undefined],
  ['thrashed', undefined],
  ['defeated', undefined],
  ['defeats', undefined],
  ['edged', undefined],
  ['hammered', undefined],
  ['play', undefined],
  ['plays', undefined],
  ['face', undefined],
  ['faces', undefined],
  ['drew', 'with'],
  ['draw', 'with'],
  ['lost', 'to'],
  ['lose', 'to'],
]);

/**
 * Words of a match between two players, no teams (round 41): `Seonkyoung beat Adam in the
 * second set`, `in straight sets`, `in the deciding frame`, `by knockout`. A match whose
 * sides one of these follows (within `individualReach` tokens on the line) names no team.
 */
const individualSportWords: ReadonlySet<string> = new Set(
  'set sets tiebreak tiebreaker tie-break singles frame frames knockout moves checkmate'.split(' '),
);
/** Tokens after a match's second side an individual sport's word may be. */
const individualReach = 6;
/**
 * The most characters from the first side's start to the end of that word: window mode holds a
 * name back `2 × nerMaxLength.PERSON` characters (with PERSON alone), so the word is in before
 * the name is released.
 */
const individualCueReach = 2 * nerMaxLength.PERSON - 1;

/** What a team wins: `won the league`. */
const trophies: ReadonlySet<string> = new Set(
  `league cup title derby match game final championship treble double premiership pennant
  series tournament`.split(/\s+/),
);

const winVerbs: ReadonlySet<string> = new Set(['won', 'wins', 'win', 'clinched', 'lifted']);

/** Verbs before `for` and a team: `plays for X`, `signed for X`. */
const forVerbs: ReadonlySet<string> = new Set(
  'plays played playing play signed signs captained captains'.split(' '),
);

const supportVerbs: ReadonlySet<string> = new Set(['supports', 'supported', 'support']);

/** A word's classes for the cues (round 44: one look-up per token, `WordClasses`). */
const Cue = {
  Match: 1 << 0,
  Win: 1 << 1,
  Trophy: 1 << 2,
  ForVerb: 1 << 3,
  Support: 1 << 4,
  For: 1 << 5,
  The: 1 << 6,
  /** A word that may be a cue's verb. */
  Verb: (1 << 0) | (1 << 1) | (1 << 4) | (1 << 5),
} as const;
const cueClasses = new WordClasses([
  new Set(matchVerbs.keys()),
  winVerbs,
  trophies,
  forVerbs,
  supportVerbs,
  new Set(['for']),
  new Set(['the']),
]);

const lowerOf = (scanned: Scanned, index: number) => scanned.words.lower[scanned.word[index]!]!;

/** A capitalised or upper-case word, no honorific, no digit. */
function isCapitalised(scanned: Scanned, index: number): boolean {
  const flags = scanned.flags[index]!;
  return (flags & (Flag.Title | Flag.Upper)) !== 0 && (flags & (Flag.Honorific | Flag.Digit)) === 0;
}

function isLowerWord(scanned: Scanned, index: number, word?: string): boolean {
  return (
    index >= 0 &&
    index < scanned.count &&
    (scanned.flags[index]! & Flag.Lower) !== 0 &&
    (word === undefined || lowerOf(scanned, index) === word)
  );
}

/** A team candidate: tokens `[first, last]` and the span it is, if any (-1: words outside). */
interface Candidate {
  first: number;
  last: number;
  span: number;
}

/** Spans (PERSON, LOCATION, ORGANIZATION) by token: the span's index, or -1. */
function spanOfTokens(scanned: Scanned, spans: readonly NerSpan[]): Int32Array {
  const at = new Int32Array(scanned.count).fill(-1);
  let token = 0;
  for (let index = 0; index < spans.length; index++) {
    const span = spans[index]!;
    // An address is in no team's span (round 48, hC: its tokens are not walked).
    if (span.type === 'STREET_ADDRESS') continue;
    while (token < scanned.count && scanned.end[token]! <= span.start) token++;
    for (let inside = token; inside < scanned.count && scanned.start[inside]! < span.end; inside++)
      at[inside] = index;
  }
  return at;
}

/**
 * The candidate ending at token `last` (`forward` false) or starting at it
 * (`forward` true), on the line of the cue at `cue`; undefined when none.
 */
function candidateAt(
  scanned: Scanned,
  at: Int32Array,
  from: number,
  forward: boolean,
): Candidate | undefined {
  const { count, newline } = scanned;
  if (from < 0 || from >= count || !isCapitalised(scanned, from)) return undefined;
  if (forward ? newline[from] !== 0 : from + 1 < count && newline[from + 1] !== 0) return undefined;
  const index = at[from]!;
  if (index >= 0) {
    let first = from;
    let last = from;
    while (first > 0 && at[first - 1] === index) first--;
    while (last + 1 < count && at[last + 1] === index) last++;
    // A team's name is its capitalised words (`Chelsea` of a span `Chelsea 2-0`).
    while (last > from && !isCapitalised(scanned, last)) last--;
    return { first, last, span: index };
  }
  let first = from;
  let last = from;
  const step = forward ? 1 : -1;
  for (
    let next = from + step;
    next >= 0 && next < count && Math.abs(next - from) < 3;
    next += step
  ) {
    if (at[next] !== -1 || !isCapitalised(scanned, next)) break;
    if (newline[forward ? next : next + 1] !== 0) break;
    if (forward) last = next;
    else first = next;
  }
  // A run that starts a sentence with a common word is no name (`The`, `Our`).
  while (
    first <= last &&
    (scanned.flags[first]! & (Flag.SentenceStart | Flag.Common)) ===
      (Flag.SentenceStart | Flag.Common) &&
    (scanned.flags[first]! & (Flag.Name | Flag.FirstName | Flag.Place)) === 0
  )
    first++;
  return first <= last ? { first, last, span: -1 } : undefined;
}

/** Whether `candidate` reads as a full name of a person: a given name and a capitalised word. */
function isFullName(scanned: Scanned, candidate: Candidate): boolean {
  const { first, last } = candidate;
  return (
    first < last &&
    (scanned.flags[first]! & Flag.FirstName) !== 0 &&
    isCapitalised(scanned, first + 1)
  );
}

/** Whether one word of `candidate` is a place of the gazetteers or in no name list. */
function isTeamLike(scanned: Scanned, candidate: Candidate): boolean {
  for (let index = candidate.first; index <= candidate.last; index++) {
    const flags = scanned.flags[index]!;
    if ((flags & Flag.Place) !== 0 || (flags & (Flag.Name | Flag.FirstName)) === 0) return true;
  }
  return false;
}

/**
 * Whether a match's two sides read as two players (round 43, issue 17: `Seonkyoung beat Adam`,
 * `Kim beat Adam`): one of them a single given name of the name lists and neither a place that is
 * no given name (`Arsenal beat Chelsea` stays two clubs), a country or more than one word (`Aston
 * Villa drew with Everton`). A club named like a given name is then read as a person (`Barcelona
 * beat Valencia`): an extra placeholder rather than a name left in the text, the trade a redaction
 * guard makes.
 */
function isPlayerPair(scanned: Scanned, subject: Candidate, object: Candidate): boolean {
  if (subject.first !== subject.last || object.first !== object.last) return false;
  const one = scanned.flags[subject.first]!;
  const other = scanned.flags[object.first]!;
  const given = (flags: number) => (flags & Flag.FirstName) !== 0;
  const clubLike = (flags: number) =>
    (flags & Flag.Country) !== 0 || ((flags & Flag.Place) !== 0 && !given(flags));
  return (given(one) || given(other)) && !clubLike(one) && !clubLike(other);
}

function isCountry(scanned: Scanned, candidate: Candidate): boolean {
  return (
    candidate.first === candidate.last && (scanned.flags[candidate.first]! & Flag.Country) !== 0
  );
}

/** Function words ending in `s`, none a team's plural (`This`, `Always`). */
const functionWordsInS: ReadonlySet<string> = new Set(
  `this always perhaps sometimes towards afterwards besides thus was has does unless across
  whereas nevertheless its his hers ours yours theirs`.split(/\s+/),
);

/** Who may support a team: a personal pronoun. */
const personalPronouns: ReadonlySet<string> = new Set('i he she we they you who'.split(' '));

/**
 * Whether token `index` reads as a person on the cue's line: a personal
 * pronoun or a word of a PERSON span (`He supports X`, `Ayse supports X`).
 * A product or a claim supports things too (`the parser supports JSON`,
 * `would support Trump`).
 */
function isPersonSubject(
  scanned: Scanned,
  spans: readonly NerSpan[],
  at: Int32Array,
  index: number,
): boolean {
  if (index < 0 || scanned.newline[index + 1] !== 0) return false;
  if (personalPronouns.has(lowerOf(scanned, index))) return true;
  const span = at[index]!;
  return span >= 0 && spans[span]!.type === 'PERSON';
}

/** `spans` (text order) with the sports teams their context names as ORGANIZATION spans. */
export function sportsTeams(scanned: Scanned, spans: NerSpan[]): NerSpan[] {
  const { count, newline, start: starts, end: ends } = scanned;
  let teams: Candidate[] | undefined;
  let at: Int32Array | undefined;
  const add = (candidate: Candidate) => {
    teams ??= [];
    teams.push(candidate);
  };
  const team = (candidate: Candidate | undefined) =>
    candidate !== undefined && !isFullName(scanned, candidate) && isTeamLike(scanned, candidate);
  const classes = cueClasses.of(scanned);
  const ids = scanned.word;
  /** Whether token `index` is a lower-case word of class `cue`. */
  const isLowerOf = (index: number, cue: number) =>
    isLowerWord(scanned, index) && (classes[ids[index]!]! & cue) !== 0;
  for (let index = 1; index < count; index++) {
    if ((scanned.flags[index]! & Flag.Lower) === 0 || newline[index] !== 0) continue;
    const cue = classes[ids[index]!]!;
    if ((cue & Cue.Verb) === 0) continue;
    if ((cue & Cue.Match) !== 0) {
      const particle = matchVerbs.get(lowerOf(scanned, index));
      const objectAt = particle === undefined ? index + 1 : index + 2;
      if (particle !== undefined && !isLowerWord(scanned, index + 1, particle)) continue;
      at ??= spanOfTokens(scanned, spans);
      const subject = candidateAt(scanned, at, index - 1, false);
      const object = candidateAt(scanned, at, objectAt, true);
      if (subject === undefined || object === undefined) continue;
      if (isFullName(scanned, subject) || isFullName(scanned, object)) continue;
      if (isCountry(scanned, subject) && isCountry(scanned, object)) continue;
      if (!isTeamLike(scanned, subject) && !isTeamLike(scanned, object)) continue;
      if (isIndividualMatch(scanned, object.last, starts[subject.first]! + individualCueReach))
        continue;
      if (isPlayerPair(scanned, subject, object)) continue;
      add(subject);
      add(object);
    } else if ((cue & Cue.Win) !== 0) {
      const article = isLowerOf(index + 1, Cue.The) ? index + 2 : index + 1;
      if (!isLowerOf(article, Cue.Trophy)) continue;
      at ??= spanOfTokens(scanned, spans);
      const subject = candidateAt(scanned, at, index - 1, false);
      if (team(subject) && !isCountry(scanned, subject!)) add(subject!);
    } else if ((cue & Cue.For) !== 0 && (classes[ids[index - 1]!]! & Cue.ForVerb) !== 0) {
      if (!isLowerWord(scanned, index - 1)) continue;
      const object = isLowerOf(index + 1, Cue.The) ? index + 2 : index + 1;
      at ??= spanOfTokens(scanned, spans);
      const candidate = candidateAt(scanned, at, object, true);
      if (team(candidate) && !isCountry(scanned, candidate!)) add(candidate!);
    } else if ((cue & Cue.Support) !== 0) {
      at ??= spanOfTokens(scanned, spans);
      // Only a person supports a team: `supports JSON`, `would support Trump` name none.
      if (!isPersonSubject(scanned, spans, at, index - 1)) continue;
      const candidate = candidateAt(scanned, at, index + 1, true);
      if (team(candidate) && !isCountry(scanned, candidate!)) add(candidate!);
    }
  }
  // A place and a plural name (`Chicago Bulls`).
  let last = 0;
  for (let index = 0; index < spans.length; index++) {
    const span = spans[index]!;
    if (span.type !== 'LOCATION') continue;
    at ??= spanOfTokens(scanned, spans);
    while (last < count && ends[last]! < span.end) last++;
    const next = last + 1;
    if (next >= count || newline[next] !== 0 || at[next] !== -1) continue;
    if (!isCapitalised(scanned, next) || starts[next] !== ends[last]! + 1) continue;
    const flags = scanned.flags[next]!;
    if ((flags & (Flag.Place | Flag.Country | Flag.Street | Flag.SentenceStart)) !== 0) continue;
    // A team's plural is written in title case (`Bulls`, not `THIS` after a shouted word taken
    // for a place) and is no function word (`Ω This`; round 40 hN).
    if ((flags & (Flag.Title | Flag.Upper)) !== Flag.Title) continue;
    const word = lowerOf(scanned, next);
    if (functionWordsInS.has(word)) continue;
    // A plural's `s` (`Lions`), not a singular's `-ss`, `-us`, `-is` (`the Shawinigan Process`).
    const plural = ends[next]! - starts[next]! >= 4 && /[^isu]s$/.test(word);
    if (!plural) continue;
    let first = last;
    while (first > 0 && at[first - 1] === index) first--;
    add({ first, last: next, span: index });
  }
  return teams === undefined ? spans : withTeams(scanned, spans, teams);
}

/**
 * Whether a word of `individualSportWords` follows token `last` within `individualReach` tokens
 * on its line, ending by `reach`.
 */
function isIndividualMatch(scanned: Scanned, last: number, reach: number): boolean {
  const { count, newline } = scanned;
  for (let index = last + 1; index < count && index - last <= individualReach; index++) {
    if (newline[index] !== 0 || scanned.end[index]! > reach) return false;
    if (individualSportWords.has(lowerOf(scanned, index))) return true;
  }
  return false;
}

/** `spans` with each team of `teams` one ORGANIZATION span over its tokens and the spans it overlaps. */
function withTeams(scanned: Scanned, spans: NerSpan[], teams: Candidate[]): NerSpan[] {
  const found = teams
    .map(({ first, last }) => ({
      type: 'ORGANIZATION' as const,
      start: scanned.start[first]!,
      end: scanned.end[last]!,
    }))
    .filter(team => team.end - team.start <= nerMaxLength.ORGANIZATION)
    .sort((a, b) => a.start - b.start);
  const kept: NerSpan[] = [];
  for (const team of found)
    if (kept.length === 0 || team.start >= kept[kept.length - 1]!.end) kept.push(team);
  if (kept.length === 0) return spans;
  // Both in text order: a span overlapping a team gives way to it.
  const result: NerSpan[] = [...kept];
  let team = 0;
  for (const span of spans) {
    while (team < kept.length && kept[team]!.end <= span.start) team++;
    if (team < kept.length && kept[team]!.start < span.end) continue;
    result.push(span);
  }
  return result.sort((a, b) => a.start - b.start);
}
