import { addressRuns, isHouseNumber } from './address-runs';
import { brandOrganisations } from './brands';
import { cuedLowerNames, isMaskedPlaceholder, nameCuePairs, redactedOffsets } from './chat-names';
import { coordinatedLists, type TokenSpan } from './coordination';
import {
  Flag,
  type Gazetteers,
  isCompound,
  MAX_FEATURES,
  type Scanned,
  scanText,
  surelyOutside,
  tokenFeatures,
} from './features';
import {
  entityOfLabel,
  isInside,
  LABEL_COUNT,
  type NerEntity,
  nerEntities,
  nerMaxLength,
} from './labels';
import { greetingWords, isImperative, notEntityWords } from './not-entities';
import { organisationSpans } from './organisations';
import { countriesLeftOut, placesAfterTravel } from './places';
import { withoutLanguageNames } from './programming-languages';
import { roleNouns } from './role-nouns';
import { sportsTeams } from './sports';
import { hasClass as isIn, WordClasses } from './word-classes';

/**
 * Scores every label of one token from its feature buckets (adds into `scores`). `startsOnly`
 * (round 49): the caller reads the outside label (0) and the B labels (odd) only, so a scorer
 * may leave the I labels (even, from 2) as they were; one that scores them anyway is as right.
 */
export type ScoreTokens = (
  buckets: Int32Array,
  count: number,
  scores: Float64Array,
  startsOnly?: boolean,
) => void;

/** One entity found by the tagger: `[start, end)` offsets into the tagged text. */
export interface NerSpan {
  type: NerEntity;
  start: number;
  end: number;
}

// Module-level copies: the hot loop reads no imported bindings.
const labelCount = LABEL_COUNT;
const maxLengthOfLabel = Array.from({ length: LABEL_COUNT }, (_, label) =>
  label === 0 ? 0 : nerMaxLength[nerEntities[(label - 1) >> 1]!],
);
const addressInside = 2 + 2 * nerEntities.indexOf('STREET_ADDRESS');

/**
 * Tags `tokens` left to right, one label per token (greedy, no search): a
 * token's label depends on its features (two tokens either side) and the two
 * labels before it, so the cost is linear in the number of tokens. An I label
 * is only allowed after B or I of the same type and while the entity stays
 * within its type's length bound. `typed`: per token, the B label of the
 * type of a redaction placeholder starting there (0 for none): the token is
 * no name itself, and the tokens after it read it as the name it replaced,
 * of two tokens (B then I, the history a given and family name leave), so
 * window mode re-judges the words after an already redacted name as
 * generate judged them beside the name; no I label follows it (the name
 * ended there).
 */
export function tagTokens(
  scanned: Scanned,
  score: ScoreTokens,
  typed?: Uint8Array,
  base?: BaseReading,
  spanStarts?: Int32Array,
): Uint8Array {
  const count = scanned.count;
  const flags = scanned.flags;
  const starts = scanned.start;
  const ends = scanned.end;
  const newlines = scanned.newline;
  const labels = new Uint8Array(count);
  const reuse =
    base !== undefined && base.reading.scanned.words === scanned.words && wordsKept(base.reading)
      ? base
      : undefined;
  const buckets = new Int32Array(MAX_FEATURES);
  const scores = new Float64Array(labelCount);
  let previous = 0;
  let previous2 = 0;
  let spanStart = 0;
  let afterPlaceholder = false;
  for (let index = 0; index < count; index++) {
    const placeholder = typed === undefined ? 0 : typed[index]!;
    if (placeholder !== 0) {
      labels[index] = 0;
      if (spanStarts !== undefined) spanStarts[index] = spanStart;
      previous2 = placeholder;
      previous = placeholder + 1;
      afterPlaceholder = true;
      continue;
    }
    if (previous === 0 && surelyOutside(flags[index]!)) {
      labels[index] = 0;
      if (spanStarts !== undefined) spanStarts[index] = spanStart;
      previous2 = previous;
      continue;
    }
    // The I label that may follow `previous` (B or I of one type), if any.
    const inside = previous === 0 ? 0 : previous % 2 === 1 ? previous + 1 : previous;
    const insideAllowed =
      inside !== 0 &&
      !afterPlaceholder &&
      ends[index]! - spanStart <= maxLengthOfLabel[inside]! &&
      (newlines[index] === 0 || inside === addressInside);
    let best = 0;
    const same =
      reuse === undefined || afterPlaceholder
        ? -1
        : sameInputs(scanned, index, previous, previous2, insideAllowed, reuse);
    if (same >= 0) best = reuse!.reading.labels[same]!;
    else {
      const features = tokenFeatures(scanned, index, previous, previous2, buckets);
      // Zeroed in a loop the compiler inlines, not by a `fill` call per scored token (round 49, hB).
      for (let label = 0; label < labelCount; label++) scores[label] = 0;
      // No I label may follow here: only the outside and B labels are compared (round 49, hB).
      score(buckets, features, scores, !insideAllowed);
      for (let label = 1; label < labelCount; label += 2) {
        if (scores[label]! > scores[best]!) best = label;
      }
      if (insideAllowed && scores[inside]! > scores[best]!) best = inside;
    }
    if (best !== 0 && best % 2 === 1) spanStart = starts[index]!;
    if (spanStarts !== undefined) spanStarts[index] = spanStart;
    labels[index] = best;
    previous2 = previous;
    previous = best;
    afterPlaceholder = false;
  }
  return labels;
}

/**
 * A plain reading (no typed placeholder) of a chunk: its tokens, their
 * labels and where the span each token's label continued started (the
 * offset `tagTokens` held when it labelled the token).
 */
export interface ChunkReading {
  scanned: Scanned;
  labels: Uint8Array;
  spanStarts: Int32Array;
  /** The word table's word list when the chunk was scanned: a cleared table hands out new ones. */
  words: string[];
}

/**
 * A reading `tagTokens` may take labels from: `aligned[i]` is the token of
 * `reading` starting where token `i` starts once the text's changes are
 * undone (-1 for none).
 */
export interface BaseReading {
  reading: ChunkReading;
  aligned: Int32Array;
}

/** Whether a reading's word ids still name its words (its table was not cleared since). */
function wordsKept(reading: ChunkReading): boolean {
  return reading.scanned.words.lower === reading.words;
}

/**
 * How many tokens either side of a token `tokenFeatures` reads (word ids
 * two either side, flags one either side, the token's place run): the
 * window that must be the same for a label to be taken from a base reading.
 */
const FEATURE_REACH = 2;

/**
 * The token of the base reading whose label token `index` gets, or -1: one
 * whose every input to `tagTokens`' choice is the same (the word ids of
 * `FEATURE_REACH` tokens either side and which of them exist, the flags of
 * the token and its neighbours, its place run and line break, the two
 * labels before it, whether an I label may follow): a label is a function
 * of those alone, so it is the one the base reading gave. Round 42: a text
 * read again with a few words changed scores only the tokens near them.
 */
function sameInputs(
  scanned: Scanned,
  index: number,
  previous: number,
  previous2: number,
  insideAllowed: boolean,
  base: BaseReading,
): number {
  const at = base.aligned[index]!;
  if (at < 0) return -1;
  const { scanned: before, labels, spanStarts } = base.reading;
  if ((at > 0 ? labels[at - 1]! : 0) !== previous) return -1;
  if ((at > 1 ? labels[at - 2]! : 0) !== previous2) return -1;
  for (let step = -FEATURE_REACH; step <= FEATURE_REACH; step++) {
    const here = index + step;
    const there = at + step;
    const exists = here >= 0 && here < scanned.count;
    if (exists !== (there >= 0 && there < before.count)) return -1;
    if (!exists) continue;
    if (scanned.word[here] !== before.word[there]) return -1;
    if (step >= -1 && step <= 1 && scanned.flags[here] !== before.flags[there]) return -1;
  }
  if (scanned.placeSpan[index] !== before.placeSpan[at]) return -1;
  if (scanned.newline[index] !== before.newline[at]) return -1;
  if (previous !== 0) {
    // The base reading's own test, with the span it was in (it had no typed placeholder).
    const inside = previous % 2 === 1 ? previous + 1 : previous;
    const allowed =
      before.end[at]! - (at > 0 ? spanStarts[at - 1]! : 0) <= maxLengthOfLabel[inside]! &&
      (before.newline[at] === 0 || inside === addressInside);
    if (allowed !== insideAllowed) return -1;
  }
  return at;
}

/** Whether the token starting at `start` is a word (a letter, a digit or any non-ASCII character first). */
function isWordAt(text: string, start: number): boolean {
  const code = text.charCodeAt(start);
  const lower = code | 32;
  return code > 127 || (code >= 48 && code <= 57) || (lower >= 97 && lower <= 122);
}

const addressEntity = nerEntities.indexOf('STREET_ADDRESS');
// Flag values as module constants (the span rules read no imported binding per token).
const flagTitle = Flag.Title;
const flagFirstName = Flag.FirstName;
const flagName = Flag.Name;
const flagCommon = Flag.Common;
const flagLower = Flag.Lower;
const flagHonorific = Flag.Honorific;
const flagOrganisation = Flag.Organisation;
const flagStreet = Flag.Street;
const personEntity = nerEntities.indexOf('PERSON');
const personMaxLength = nerMaxLength.PERSON;
/** The longest word a rule makes a name of (the gazetteers see a token's first 40 characters only). */
const maxNameWord = 32;
const organisationEntity = nerEntities.indexOf('ORGANIZATION');

/**
 * A first name (or a word of the name lists that prose does not write in
 * lower case) alone at the start of a line, right before a colon with
 * more text after it on the line: a speaker in a transcript or chat log
 * (`Nicole: Remember me?`). Labels it B-PERSON where the tagger left it
 * outside. In a transcript (at least two known speakers near the line:
 * ahead, a listed name or a name the tagger found within `SPEAKER_AHEAD`
 * characters; behind, a speaker made or found a PERSON, or a masked
 * placeholder, within `SPEAKER_BEHIND` characters: round 47), any other capitalised word of 2 to 32 letters that
 * is no common, title, street or organisation word is a speaker in that
 * position too (`Ubul: What a wife.`); outside one,
 * a word in that position that is in no name list is a label, not a name
 * (`Invalid: ZZ:ZZ`, `IPs: 10.0.0.1`), even when the tagger started a
 * PERSON there. Returns `labels` or a changed copy.
 */
function speakerNames(text: string, scanned: Scanned, labels: Uint8Array): Uint8Array {
  const count = scanned.count;
  const flags = scanned.flags;
  const starts = scanned.start;
  const ends = scanned.end;
  const begin = 1 + 2 * personEntity;
  // The speaker positions, and whether each is a known speaker as the text reads.
  const positions: number[] = [];
  const known: boolean[] = [];
  for (let index = 0; index + 2 < count; index++) {
    if (!speakerPosition(text, scanned, labels, index)) continue;
    positions.push(index);
    const flag = flags[index]!;
    known.push(
      labels[index] === begin ||
        isListedSpeaker(flag) ||
        ((flag & flagDigit) !== 0 && isMaskedPlaceholder(scanned, index)),
    );
  }
  if (positions.length === 0) return labels;
  // Round 47 (issue 16): known speakers ahead within `SPEAKER_AHEAD` characters (this one
  // included), counted right to left with two pointers.
  const ahead = new Int32Array(positions.length);
  let far = positions.length;
  let knownAhead = 0;
  for (let at = positions.length - 1; at >= 0; at--) {
    if (known[at]) knownAhead++;
    while (starts[positions[far - 1]!]! - starts[positions[at]!]! > SPEAKER_AHEAD) {
      far--;
      if (known[far]) knownAhead--;
    }
    ahead[at] = knownAhead;
  }
  let result = labels;
  // Behind: the speakers made or found a PERSON, within `SPEAKER_BEHIND` characters as a
  // stream's re-read context measures them (`redactedOffset`).
  const behind: number[] = [];
  let oldest = 0;
  const offset = redactedOffsets(scanned, () => result);
  for (let at = 0; at < positions.length; at++) {
    const index = positions[at]!;
    const here = offset(index);
    while (oldest < behind.length && here - behind[oldest]! > SPEAKER_BEHIND) oldest++;
    const transcript = ahead[at]! + behind.length - oldest >= 2;
    const flag = flags[index]!;
    if (labels[index] === begin) {
      // Outside a transcript, an unlisted word before a colon is a label (`Invalid:`, `IPs:`).
      const placeholder = isMaskedPlaceholder(scanned, index);
      if (transcript || placeholder || isListedSpeaker(flag) || labels[index + 1] !== 0) {
        behind.push(here);
        continue;
      }
      if (result === labels) result = labels.slice();
      result[index] = 0;
      continue;
    }
    if (labels[index] !== 0) continue;
    if (!isListedSpeaker(flag)) {
      const length = ends[index]! - starts[index]!;
      if (!transcript || length < 2 || (flag & speakerExcluded) !== 0) continue;
    }
    if (result === labels) result = labels.slice();
    result[index] = begin;
    behind.push(here);
  }
  return result;
}

/**
 * How far, in characters, `speakerNames` counts the known speakers that make a transcript
 * (round 47, issue 16: what window mode reads around a line). Ahead: a known speaker (a listed
 * name or one the tagger found) starting within `SPEAKER_AHEAD` characters of the line's
 * speaker; a stream holds back `2 × nerMaxLength.PERSON` = 128 characters, read as they came.
 * Behind: a speaker made or found a PERSON within `SPEAKER_BEHIND` characters, counting each
 * entity (and each masked placeholder) as `PLACEHOLDER_WIDTH` characters, as a stream's context
 * of released text (at least 128 characters) holds it. Before (round 46) 1,024 tokens either
 * side, so a stream read a speaker one way and `generateText` the other.
 */
export const SPEAKER_AHEAD = 64;
export const SPEAKER_BEHIND = 96;

/** Common, title, street and organisation words: never a speaker of a transcript on their own (`Note:`, `Dr:`). */
const speakerExcluded = Flag.Common | Flag.Honorific | Flag.Street | Flag.Organisation;

/** A first name, or a name-list word prose does not write in lower case. */
function isListedSpeaker(flag: number): boolean {
  return (flag & flagFirstName) !== 0 || (flag & (flagName | flagCommon)) === flagName;
}

/**
 * Token `index` is one capitalised word of at most 32 characters at the start of a line (or
 * the text), a colon right after it and more text on the line, which the tagger did not put
 * in a name with the token after the colon.
 */
function speakerPosition(
  text: string,
  scanned: Scanned,
  labels: Uint8Array,
  index: number,
): boolean {
  if (index !== 0 && scanned.newline[index] === 0) return false;
  // A speaker a stream released (`[PERSON]: hi`, masked) is one where it stood.
  const flag = scanned.flags[index]!;
  if (
    (flag & flagTitle) === 0 &&
    ((flag & flagDigit) === 0 || !isMaskedPlaceholder(scanned, index))
  )
    return false;
  if (scanned.end[index]! - scanned.start[index]! > maxNameWord) return false;
  const colon = index + 1;
  return (
    text.charCodeAt(scanned.start[colon]!) === 58 &&
    scanned.start[colon] === scanned.end[index] &&
    scanned.newline[colon + 1] === 0 &&
    labels[colon + 1] !== 2 + 2 * personEntity
  );
}

/**
 * A multi-word place of the gazetteers (`Cape Town`, `New Zealand`: the
 * scanner's `placeSpan`) is one name: when the tagger put every one of its
 * tokens in an entity but switched type inside it (`Cape` as an address,
 * `Town` as a place), its tokens take the type of its last token (the head
 * of an English name), the first as B. Returns `labels` or a changed copy.
 */
function wholePlaces(scanned: Scanned, labels: Uint8Array): Uint8Array {
  const count = scanned.count;
  const placeSpan = scanned.placeSpan;
  let result = labels;
  for (let index = 0; index < count; index++) {
    const run = placeSpan[index]!;
    // A place run starts at step 0: 1 + length.
    if (run === 0 || run > 4) continue;
    const length = run - 1;
    const last = index + length - 1;
    if (last >= count) continue;
    let mixed = false;
    let covered = true;
    const entity = entityOfLabel(labels[last]!);
    for (let step = index; step <= last; step++) {
      if (labels[step] === 0) covered = false;
      else if (entityOfLabel(labels[step]!) !== entity) mixed = true;
    }
    if (!covered || !mixed) continue;
    if (result === labels) result = labels.slice();
    result[index] = 1 + 2 * entity;
    for (let step = index + 1; step <= last; step++) result[step] = 2 + 2 * entity;
    index = last;
  }
  return result;
}

/** Verbs of speech after which a capitalised word is the speaker ("…," says Bergqvist). */
const speechCues: ReadonlySet<string> = new Set([
  'says',
  'said',
  'asks',
  'asked',
  'replies',
  'replied',
]);

/**
 * Whether token `cue` ends an introduction of a name: 1 after `name is`,
 * `name's`, `name:` (`Her maiden name is LeBatelier`), 2 after `I'm`, `I
 * am`, `this is` (`I'm Will Turner`; a first name must follow), else 0.
 * The words of `nameCuePairs` (chat-names.ts), for capitalised names.
 */
function introduction(scanned: Scanned, cue: number): number {
  const newlines = scanned.newline;
  const word = lowerOf(scanned, cue);
  if (word === "i'm" || word === 'im') return 2;
  if (cue === 0 || newlines[cue] !== 0) return 0;
  const before = lowerOf(scanned, cue - 1);
  if (before === 'name' && (word === 'is' || word === "'s" || word === ':')) return 1;
  return nameCuePairs.get(word)?.has(before) ? 2 : 0;
}

/** The most tokens a cue makes a name of (`Mrs. Anna Maria Baker` keeps three). */
const cuedNameTokens = 3;

/**
 * Capitalised names after a cue the tagger left outside: after an
 * honorific (`Mrs. Baker`, `Dr Holst`; a full stop may follow it) any
 * capitalised word, after a lower-case verb of speech (`says Bergqvist`,
 * `said Felix`) or `name is` one that is no common word unless a first name
 * (or a name-list word), after `I'm`, `I am`, `this is` a first name, one
 * that is a common word only before an uncommon capitalised word (`I'm Will
 * Turner`, not `I'm Happy`; `introduction`). It starts a
 * PERSON; up to two more capitalised words that are no common words (or
 * names the tagger started there) continue it, on the same line, within
 * the PERSON bound. Returns `labels` or a changed copy.
 */
function cuedCapitalisedNames(
  text: string,
  scanned: Scanned,
  labels: Uint8Array,
  masks: Int32Array,
): Uint8Array {
  const { count, flags, start: starts, end: ends, newline: newlines } = scanned;
  const begin = 1 + 2 * personEntity;
  let result = labels;
  for (let index = 1; index < count; index++) {
    const flag = flags[index]!;
    if (labels[index] !== 0 || newlines[index] !== 0 || (flag & flagTitle) === 0) continue;
    if ((flag & (flagHonorific | flagStreet | flagOrganisation)) !== 0) continue;
    if (ends[index]! - starts[index]! > maxNameWord) continue;
    let cue = index - 1;
    if (text.charCodeAt(starts[cue]!) === 46 && ends[cue]! - starts[cue]! === 1 && cue > 0) cue--;
    const cueFlags = flags[cue]!;
    const honorific = (cueFlags & flagHonorific) !== 0 && newlines[cue + 1] === 0;
    if (!honorific) {
      if (cue !== index - 1) continue;
      const introduced = introduction(scanned, cue);
      if (introduced === 0) {
        if ((cueFlags & flagLower) === 0) continue;
        if (!isShortIn(scanned, masks, cue, Word.Speech)) continue;
        if ((flag & (flagCommon | flagFirstName)) === flagCommon) continue;
      } else if (introduced === 1) {
        if ((flag & (flagCommon | flagFirstName | flagName)) === flagCommon) continue;
      } else {
        // A first name; one that is also a common word (`Will`, `Happy`) only before a surname.
        if ((flag & flagFirstName) === 0) continue;
        const next = index + 1;
        if (
          (flag & flagCommon) !== 0 &&
          (next >= count ||
            newlines[next] !== 0 ||
            (flags[next]! & (flagTitle | flagCommon)) !== flagTitle)
        )
          continue;
      }
    }
    if (result === labels) result = labels.slice();
    result[index] = begin;
    let last = index;
    while (
      last + 1 < count &&
      last + 1 - index < cuedNameTokens &&
      newlines[last + 1] === 0 &&
      (flags[last + 1]! & flagTitle) !== 0 &&
      (labels[last + 1] === begin ||
        (labels[last + 1] === 0 && (flags[last + 1]! & flagCommon) === 0)) &&
      ends[last + 1]! - starts[index]! <= personMaxLength
    ) {
      last++;
      result[last] = begin + 1;
    }
    index = last;
  }
  return result;
}

/**
 * A capitalised word in no name list and not a common word that is two
 * common words joined (`Dataweave`, `Opencounter`, `Facebook`): a brand,
 * not a person (surnames made so, `Goodman`, are in the name lists).
 */
function isBrandWord(scanned: Scanned, index: number): boolean {
  const flag = scanned.flags[index]!;
  if ((flag & (flagTitle | flagName | flagFirstName | flagCommon)) !== flagTitle) return false;
  const words = scanned.words;
  return isCompound(words.lower[scanned.word[index]!]!, words.gazetteers);
}

/** Letters after a name that are no organisation: generational suffixes, roman numerals, degrees and honours. */
const postNominals: ReadonlySet<string> = new Set(
  `jr sr ii iii iv vi vii viii ix xi xii md dds dmd cpa rn mba esq phd dvm do od pa np qc kc mp
  obe mbe cbe kbe frs`.split(/\s+/),
);

/**
 * An acronym of 2 to 4 capital letters (`TV`, `MAC`) in no name list and no
 * post-nominal (`JR`, `III`, `MD`): a name ending in one is an organisation
 * or a product (`Fuse TV`), not a person.
 */
function isAcronym(text: string, scanned: Scanned, index: number): boolean {
  const flag = scanned.flags[index]!;
  if ((flag & (flagUpper | flagName | flagFirstName)) !== flagUpper) return false;
  const start = scanned.start[index]!;
  const end = scanned.end[index]!;
  if (end - start < 2 || end - start > 4) return false;
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code < 65 || code > 90) return false;
  }
  return !postNominals.has(text.slice(start, end).toLowerCase());
}

/** Kinds of work named after their author ("the Tolkien novel", "a Kubrick film"). */
const workNouns: ReadonlySet<string> = new Set([
  'novel',
  'novels',
  'book',
  'books',
  'film',
  'films',
  'movie',
  'movies',
  'album',
  'song',
  'play',
  'poem',
  'painting',
  'opera',
  'symphony',
  'biography',
  'memoir',
  'trilogy',
]);

/** Determiners before an author's name used as a modifier. */
const workDeterminers: ReadonlySet<string> = new Set(['the', 'a', 'an']);

/** Words that never make an author's name: common words (unless first names), places, titles, street and organisation words. */
const notAuthor = Flag.Place | Flag.Country | Flag.Honorific | Flag.Street | Flag.Organisation;

/**
 * An author named as the modifier of a work ("the Christiansen novel", "a
 * Kubrick film"): after a lower-case `the`, `a` or `an`, one or two
 * capitalised words the tagger left outside, on one line, then a lower-case
 * noun of `workNouns`. The words are no common words (unless first names),
 * places, titles, street or organisation words, at most 32 letters each.
 * They become a PERSON. Returns `labels` or a changed copy.
 */
function authorsOfWorks(scanned: Scanned, labels: Uint8Array, masks: Int32Array): Uint8Array {
  const { count, flags, start: starts, end: ends, newline: newlines } = scanned;
  const begin = 1 + 2 * personEntity;
  const author = (index: number) => {
    const flag = flags[index]!;
    return (
      labels[index] === 0 &&
      newlines[index] === 0 &&
      (flag & flagTitle) !== 0 &&
      (flag & notAuthor) === 0 &&
      (flag & (flagCommon | flagFirstName)) !== flagCommon &&
      ends[index]! - starts[index]! <= maxNameWord
    );
  };
  let result = labels;
  for (let index = 1; index + 1 < count; index++) {
    if (!author(index)) continue;
    const determiner = index - 1;
    if ((flags[determiner]! & flagLower) === 0) continue;
    if (!isShortIn(scanned, masks, determiner, Word.Determiner)) continue;
    const last = index + 2 < count && author(index + 1) ? index + 1 : index;
    const noun = last + 1;
    if ((flags[noun]! & flagLower) === 0 || newlines[noun] !== 0) continue;
    if (!isShortIn(scanned, masks, noun, Word.WorkNoun)) continue;
    if (result === labels) result = labels.slice();
    result[index] = begin;
    if (last > index) result[last] = begin + 1;
    index = noun;
  }
  return result;
}

/** Lower-case particles written inside a name (`Willemine ten Pas`, `Maria de la Cruz`, `Omar bin Said`). */
const nameParticles: ReadonlySet<string> = new Set(
  `van von der den ten ter de del della di da dos das du la le bin ibn al el`.split(' '),
);

/** Words that never start or continue a name after a role noun: titles, street, organisation words, digits. */
const notAppositive = Flag.Honorific | Flag.Street | Flag.Organisation | Flag.Digit;

/**
 * The last token of a name of one to three capitalised words (initials and
 * lower-case particles inside it allowed) starting at `index` on the same
 * line, or -1. A name starting with a common word that is no name-list
 * word is one only when `list` (`founders: Reed and Graves`; `the Princess
 * Royal`, `Musicians Of The 70s` are none).
 */
function appositiveName(
  text: string,
  scanned: Scanned,
  masks: Int32Array,
  index: number,
  list: boolean,
): number {
  const { count, flags, start: starts, end: ends, newline: newlines } = scanned;
  const word = (at: number) =>
    at < count &&
    newlines[at] === 0 &&
    (flags[at]! & notAppositive) === 0 &&
    ends[at]! - starts[at]! <= maxNameWord &&
    ((flags[at]! & flagTitle) !== 0 || isInitial(text, starts[at]!, ends[at]!));
  if (!word(index) || (flags[index]! & flagTitle) === 0) return -1;
  let last = index;
  let words = 1;
  for (;;) {
    const next = last + 1;
    if (word(next) && words < cuedNameTokens) {
      last = next;
      words++;
      continue;
    }
    const particle =
      next < count &&
      newlines[next] === 0 &&
      (flags[next]! & flagLower) !== 0 &&
      isIn(scanned, masks, next, Word.Particle);
    if (particle && word(next + 1) && words < cuedNameTokens) {
      last = next + 1;
      words++;
      continue;
    }
    break;
  }
  // The name must end there: a capitalised word right after it (`Queen Mary University`) is a longer name.
  if (
    last + 1 < count &&
    newlines[last + 1] === 0 &&
    (flags[last + 1]! & (flagTitle | flagUpper)) !== 0
  )
    return -1;
  if (ends[last]! - starts[index]! > personMaxLength) return -1;
  if (!list && (flags[index]! & (flagCommon | flagName | flagFirstName)) === flagCommon) return -1;
  return last;
}

/** Articles: a title takes none before a name (`President Biden`, not `the President Biden`). */
const articles: ReadonlySet<string> = new Set(['the', 'a', 'an']);

/** A word's flags: letters in lower case, capitalised or in capitals (no digit, no sign). */
const flagWord = Flag.Lower | Flag.Title | Flag.Upper;

/** Whether token `index` is a colon on the line of the token before it. */
function isColon(text: string, scanned: Scanned, index: number): boolean {
  const start = scanned.start[index]!;
  return (
    scanned.newline[index] === 0 &&
    scanned.end[index]! - start === 1 &&
    text.charCodeAt(start) === 58
  );
}

/** Whether token `index` joins the items of a list (`,`, `and`, `&`) on the same line. */
function isListJoin(text: string, scanned: Scanned, index: number): boolean {
  if (index >= scanned.count || scanned.newline[index] !== 0) return false;
  const start = scanned.start[index]!;
  const end = scanned.end[index]!;
  if (end - start === 1) {
    const code = text.charCodeAt(start);
    return code === 44 || code === 38;
  }
  return end - start === 3 && text.slice(start, end) === 'and';
}

/**
 * Names in apposition to a noun of a person's role (`role-nouns.ts`):
 * right after a singular one (`songwriter Zoe Young`, `Producer James
 * Sparks`; a colon may come between) a name of one to three capitalised
 * words is a PERSON; after a plural one (`our 3 founders: Kónya, Becker and
 * Vasquez`) each item of the list of such names is one, whatever the tagger
 * said, unless the role noun is itself inside a span of another type (`the
 * Student Union`). The role noun and the joins between the items leave any
 * span. Each token is read a bounded number of times; at most `ROLE_ITEMS`
 * names are taken after one role noun (round 46), so a decision reads a
 * bounded span. Returns `labels` or a changed copy.
 */
function namesAfterRoles(
  text: string,
  scanned: Scanned,
  labels: Uint8Array,
  masks: Int32Array,
): Uint8Array {
  const { count, flags } = scanned;
  const begin = 1 + 2 * personEntity;
  let result = labels;
  for (let index = 0; index + 1 < count; index++) {
    // Only before a capitalised word, or a colon and one (most tokens stop here).
    if ((flags[index]! & flagWord) === 0) continue;
    const next = index + 2 < count && isColon(text, scanned, index + 1) ? index + 2 : index + 1;
    if ((flags[next]! & flagTitle) === 0) continue;
    const label = labels[index]!;
    if (label !== 0 && entityOfLabel(label) !== personEntity) continue;
    if (!isIn(scanned, masks, index, Word.Role)) continue;
    const role = roleNouns.get(lowerOf(scanned, index))!;
    const one = role === 1;
    // A capitalised role noun after an article is part of a title, not before a name (`the Princess Royal`).
    if (
      (flags[index]! & (flagTitle | flagUpper)) !== 0 &&
      index > 0 &&
      isIn(scanned, masks, index - 1, Word.Article)
    )
      continue;
    let at = index + 1;
    const colon = isColon(text, scanned, at);
    if (colon) at++;
    const items: number[] = [];
    for (;;) {
      const last = appositiveName(text, scanned, masks, at, colon && !one);
      if (last < 0) break;
      items.push(at, last);
      if (one || items.length >= 2 * ROLE_ITEMS) break;
      let next = last + 1;
      if (!isListJoin(text, scanned, next)) break;
      next++;
      if (isListJoin(text, scanned, next)) next++;
      at = next;
    }
    if (items.length === 0) continue;
    if (result === labels) result = labels.slice();
    for (let at = index; at < items[0]!; at++) result[at] = 0;
    for (let item = 0; item < items.length; item += 2) {
      const first = items[item]!;
      const last = items[item + 1]!;
      result[first] = begin;
      for (let at = first + 1; at <= last; at++) result[at] = begin + 1;
      const next = item + 2 < items.length ? items[item + 2]! : last + 1;
      for (let at = last + 1; at < next; at++) result[at] = 0;
    }
    // A span the tagger ran on past the last name is cut there.
    let after = items[items.length - 1]! + 1;
    while (after < count && isInside(result[after]!)) result[after++] = 0;
    index = after - 1;
  }
  return result;
}

/**
 * The most names `namesAfterRoles` takes after one plural role noun (round
 * 46: its reach, at most this many items of up to three words and two joins
 * each; before, the whole list along its line).
 */
export const ROLE_ITEMS = 16;

/**
 * A first name the tagger left outside (or tagged alone as another type)
 * right before a PERSON it started, on the same line with one blank
 * between them, is the name's first word
 * (`Summer Patel`, `Georgia Hill`: first names that are also words or
 * places, which the tagger often leaves out at a sentence start). Returns
 * `labels` or a changed copy.
 */
function firstNamesBeforeNames(scanned: Scanned, labels: Uint8Array): Uint8Array {
  const { count, flags, start: starts, end: ends, newline: newlines } = scanned;
  const begin = 1 + 2 * personEntity;
  let result = labels;
  for (let index = 1; index < count; index++) {
    if (labels[index] !== begin || newlines[index] !== 0) continue;
    // Outside, or a span of one token of another type (`Georgia` typed as a place).
    const before = labels[index - 1]!;
    if (before !== 0 && (before === begin || isInside(before))) continue;
    const flag = flags[index - 1]!;
    if ((flag & (flagTitle | flagFirstName)) !== (flagTitle | flagFirstName)) continue;
    if ((flag & notAppositive) !== 0 || ends[index - 1]! !== starts[index]! - 1) continue;
    if (ends[index - 1]! - starts[index - 1]! > maxNameWord) continue;
    let last = index;
    while (last + 1 < count && result[last + 1] === begin + 1) last++;
    if (ends[last]! - starts[index - 1]! > personMaxLength) continue;
    if (result === labels) result = labels.slice();
    result[index - 1] = begin;
    result[index] = begin + 1;
  }
  return result;
}

const organisationBegin = 1 + 2 * nerEntities.indexOf('ORGANIZATION');

/**
 * A first name the tagger started alone as a PERSON or ORGANIZATION, one or
 * two particles and a capitalised PERSON it started right after them are
 * one PERSON (`Pieter de Vries` tagged `Pieter` ORGANIZATION and `Vries`
 * PERSON),
 * single blanks between, on one line. Returns `labels` or a changed copy.
 */
function namesAcrossParticles(scanned: Scanned, labels: Uint8Array, masks: Int32Array): Uint8Array {
  const { count, flags, start: starts, end: ends, newline: newlines } = scanned;
  const begin = 1 + 2 * personEntity;
  let result = labels;
  for (let index = 1; index + 1 < count; index++) {
    const label = labels[index - 1]!;
    if (label === 0 || isInside(label) || isInside(labels[index]!) || labels[index] !== 0) continue;
    const flag = flags[index - 1]!;
    if ((flag & (flagTitle | flagFirstName | flagHonorific)) !== (flagTitle | flagFirstName))
      continue;
    let next = index;
    while (
      next < count &&
      next - index < 2 &&
      labels[next] === 0 &&
      isParticle(scanned, masks, next)
    )
      next++;
    if (next === index || next >= count || labels[next] !== begin) continue;
    if (label !== begin && label !== organisationBegin) continue;
    if ((flags[next]! & flagTitle) === 0) continue;
    let blanks = true;
    for (let at = index; at <= next; at++)
      blanks &&= newlines[at] === 0 && starts[at]! === ends[at - 1]! + 1;
    let last = next;
    while (last + 1 < count && labels[last + 1] === labels[next]! + 1) last++;
    if (!blanks || ends[last]! - starts[index - 1]! > personMaxLength) continue;
    if (result === labels) result = labels.slice();
    result[index - 1] = begin;
    for (let at = index; at <= last; at++) result[at] = begin + 1;
    index = last;
  }
  return result;
}

/**
 * Whether token `index` is an honorific and a PERSON starts after it (a full stop between allowed),
 * or a number does: a placeholder masked as digits (round 43: `Prof. [PERSON]` read again, where
 * the name was, titles the name the placeholder hides; window mode read it so and generate did not).
 */
function honorificBeforeName(
  text: string,
  scanned: Scanned,
  labels: Uint8Array,
  index: number,
): boolean {
  if ((scanned.flags[index]! & flagHonorific) === 0) return false;
  let next = index + 1;
  if (next < scanned.count && text.charCodeAt(scanned.start[next]!) === 46) next++;
  if (next >= scanned.count) return false;
  return labels[next] === 1 + 2 * personEntity || (scanned.flags[next]! & flagDigit) !== 0;
}

function isParticle(scanned: Scanned, masks: Int32Array, index: number): boolean {
  return (scanned.flags[index]! & flagLower) !== 0 && isIn(scanned, masks, index, Word.Particle);
}

/** A marker word usable to retype a span (not an honorific like `Dr`, not a one- or two-letter abbreviation like `St`). */
function isMarker(flags: number, start: number, end: number, flag: number): boolean {
  return (flags & flag) !== 0 && (flags & flagHonorific) === 0 && end - start > 2;
}

/**
 * The classes of a word for the span rules here (round 45, issue 17: one look-up per token,
 * `WordClasses`, no string made; a map's keys for a map). The same answers as the sets, so the
 * same spans.
 */
const Word = {
  Speech: 1 << 0,
  WorkNoun: 1 << 1,
  Determiner: 1 << 2,
  Particle: 1 << 3,
  Role: 1 << 4,
  Article: 1 << 5,
  Greeting: 1 << 6,
  NotEntity: 1 << 7,
} as const;
const wordClasses = new WordClasses([
  speechCues,
  workNouns,
  workDeterminers,
  nameParticles,
  new Set(roleNouns.keys()),
  articles,
  greetingWords,
  notEntityWords,
]);

/**
 * `isIn` for a token of at most 16 characters: the word lists here were asked about the lower
 * case of such a token only (before round 45, a string made per token; a longer token was none).
 */
function isShortIn(scanned: Scanned, masks: Int32Array, index: number, of: number): boolean {
  return scanned.end[index]! - scanned.start[index]! <= 16 && isIn(scanned, masks, index, of);
}

/** The lower-case text of token `index` as the word table holds it (no string built). */
function lowerOf(scanned: Scanned, index: number): string {
  return scanned.words.lower[scanned.word[index]!]!;
}

const locationEntity = nerEntities.indexOf('LOCATION');
const flagDigit = Flag.Digit;
const flagUpper = Flag.Upper;

/** One capital letter, maybe with its full stop (`K.`, `C`). */
function isInitial(text: string, start: number, end: number): boolean {
  const code = text.charCodeAt(start);
  return (
    code >= 65 &&
    code <= 90 &&
    (end - start === 1 || (end - start === 2 && text.charCodeAt(start + 1) === 46))
  );
}

/**
 * Whether tokens `first` to `last` (2 to 4, no digit, no street word, no
 * gazetteer place) are shaped like a person's name: an honorific and
 * capitalised words (`Miss Ramos`), or a capitalised word, an initial and a
 * capitalised word (`Soib K. Kishiev`, `Mijail C Adomo`). Returns the first
 * token of the name (after the honorific and its full stop), or -1.
 */
function personShaped(text: string, scanned: Scanned, first: number, last: number): number {
  if (last - first > 3 || scanned.placeSpan[first] !== 0) return -1;
  const flags = scanned.flags;
  const starts = scanned.start;
  const ends = scanned.end;
  for (let index = first; index <= last; index++)
    if ((flags[index]! & (flagDigit | flagStreet)) !== 0) return -1;
  const capitalised = (index: number) =>
    (flags[index]! & (flagTitle | flagUpper)) !== 0 &&
    (flags[index]! & flagHonorific) === 0 &&
    ends[index]! - starts[index]! <= maxNameWord;
  if ((flags[first]! & flagHonorific) !== 0) {
    let name = first + 1;
    if (name < last && text.charCodeAt(starts[name]!) === 46 && ends[name]! - starts[name]! === 1)
      name++;
    for (let index = name; index <= last; index++) if (!capitalised(index)) return -1;
    return name;
  }
  if (last - first !== 2 || !isInitial(text, starts[first + 1]!, ends[first + 1]!)) return -1;
  const word = (index: number) => capitalised(index) && ends[index]! - starts[index]! >= 2;
  return word(first) && word(last) ? first : -1;
}

/**
 * The entity spans of a label sequence: runs of B/I of one type, trimmed of
 * punctuation at either end (a full stop is kept right after a short word:
 * `St.`, `Apt.`), dropped when no word is left. A PERSON span loses a
 * greeting it starts with; a span of one weekday, language or greeting
 * (`not-entities.ts`) is dropped. An address starts one token
 * earlier when that token is a house number (1-5 digits, maybe a letter) the
 * tagger left outside, on the same line; an address that is only a postcode
 * and a city right after an address on the same line joins it. The items of
 * a list keep one type (`coordinatedLists`, coordination.ts). `typed`: the B label of the
 * typed placeholder at each token (see `tagTokens`), items of lists of places (`countriesLeftOut`).
 */
export function spansOfLabels(
  text: string,
  scanned: Scanned,
  tagged: Uint8Array,
  typed?: Uint8Array,
): NerSpan[] {
  const spans: TokenSpan[] = [];
  const masks = wordClasses.of(scanned);
  const labels = namesAcrossParticles(
    scanned,
    namesAfterRoles(
      text,
      scanned,
      firstNamesBeforeNames(
        scanned,
        authorsOfWorks(
          scanned,
          cuedCapitalisedNames(
            text,
            scanned,
            cuedLowerNames(scanned, speakerNames(text, scanned, wholePlaces(scanned, tagged))),
            masks,
          ),
          masks,
        ),
      ),
      masks,
    ),
    masks,
  );
  const flags = scanned.flags;
  const count = scanned.count;
  const starts = scanned.start;
  const ends = scanned.end;
  let index = 0;
  while (index < count) {
    const label = labels[index]!;
    if (label === 0) {
      index++;
      continue;
    }
    let entity = entityOfLabel(label);
    let end = index + 1;
    while (end < count && isInside(labels[end]!) && entityOfLabel(labels[end]!) === entity) end++;
    let first = index;
    let last = end - 1;
    while (first <= last && !isWordAt(text, starts[first]!)) first++;
    while (last >= first && !isWordAt(text, starts[last]!)) {
      const abbreviation =
        ends[last]! - starts[last]! === 1 &&
        text.charCodeAt(starts[last]!) === 46 &&
        last - 1 >= first &&
        ends[last - 1]! === starts[last]! &&
        ends[last - 1]! - starts[last - 1]! <= 4 &&
        /^\p{L}+$/u.test(text.slice(starts[last - 1]!, ends[last - 1]!));
      if (abbreviation) break;
      last--;
    }
    // A greeting before a name is not part of it ("Hi Freddy").
    if (entity === personEntity) {
      while (first < last && isShortIn(scanned, masks, first, Word.Greeting)) first++;
    }
    // One weekday, language or greeting alone is no entity ("Sunday", "English", "Hello"); nor is
    // an honorific alone before a name the tagger started again (`Prof.` of `Prof. Ada Obi`), nor
    // a word at a sentence start right before an object, a verb (`Sue the landlord`).
    if (
      first === last &&
      (isShortIn(scanned, masks, first, Word.NotEntity) ||
        (entity === personEntity &&
          (honorificBeforeName(text, scanned, labels, first) || isImperative(scanned, first))))
    ) {
      index = end;
      continue;
    }
    // A "name" that ends in an organisation word is an organisation ("Miller Ltd"); one that
    // starts or ends with a street word is an address ("Rua Mina", "John Street").
    if (entity === personEntity && first <= last) {
      if (
        isMarker(flags[last]!, starts[last]!, ends[last]!, flagOrganisation) ||
        (first === last && isBrandWord(scanned, first)) ||
        (first < last && isAcronym(text, scanned, last))
      )
        entity = organisationEntity;
      else if (
        isMarker(flags[first]!, starts[first]!, ends[first]!, flagStreet) ||
        isMarker(flags[last]!, starts[last]!, ends[last]!, flagStreet)
      )
        entity = addressEntity;
    }
    // A place or address shaped like a person's name is one ("Miss Ramos", "Soib K. Kishiev").
    if ((entity === locationEntity || entity === addressEntity) && first < last) {
      const name = personShaped(text, scanned, first, last);
      if (name >= 0) {
        entity = personEntity;
        first = name;
      }
    }
    if (first <= last) {
      // A house number right before a street the tagger started after it ("742 Evergreen Terrace").
      if (
        entity === addressEntity &&
        first === index &&
        first > 0 &&
        labels[first - 1] === 0 &&
        scanned.newline[first] === 0 &&
        isHouseNumber(text, starts[first - 1]!, ends[first - 1]!) &&
        ends[last]! - starts[first - 1]! <= nerMaxLength.STREET_ADDRESS
      ) {
        first--;
      }
      // Never longer than the type's bound (the stream window relies on it): the tagger bounds
      // runs of tokens, but one token longer than the bound ("AAAA…") is no entity.
      const type = nerEntities[entity]!;
      if (ends[last]! - starts[first]! <= nerMaxLength[type])
        spans.push({ type, start: starts[first]!, end: ends[last]!, first, last });
    }
    index = end;
  }
  return countriesLeftOut(
    scanned,
    brandOrganisations(
      text,
      scanned,
      withoutLanguageNames(
        scanned,
        sportsTeams(
          scanned,
          placesAfterTravel(
            scanned,
            organisationSpans(
              text,
              scanned,
              addressRuns(
                text,
                scanned,
                joinPostcodeCity(
                  text,
                  coordinatedLists(text, scanned, spans).map(({ type, start, end }) => ({
                    type,
                    start,
                    end,
                  })),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
    typed,
  );
}

/** A postcode (4-5 digits) and a capitalised place name of one to three words, nothing else. */
const postcodeCity = /^\d{4,5} \p{Lu}[\p{L}\p{M}'-]*(?: \p{Lu}[\p{L}\p{M}'-]*){0,2}$/u;

/**
 * A street address and, right after it on the same line (a comma and a
 * blank between them at most), an address that is only a postcode and a
 * city are one address: `15 rue de la Paix, 75002 Paris`. Each span is
 * read once and is at most `nerMaxLength.STREET_ADDRESS` long, so this is
 * linear in the spans.
 */
function joinPostcodeCity(text: string, spans: NerSpan[]): NerSpan[] {
  if (spans.length < 2) return spans;
  const joined: NerSpan[] = [spans[0]!];
  for (let index = 1; index < spans.length; index++) {
    const span = spans[index]!;
    const before = joined[joined.length - 1]!;
    const gap = span.start - before.end;
    if (
      span.type === 'STREET_ADDRESS' &&
      before.type === 'STREET_ADDRESS' &&
      gap <= 2 &&
      /^,? ?$/.test(text.slice(before.end, span.start)) &&
      span.end - before.start <= nerMaxLength.STREET_ADDRESS &&
      postcodeCity.test(text.slice(span.start, span.end))
    ) {
      joined[joined.length - 1] = { type: before.type, start: before.start, end: span.end };
      continue;
    }
    joined.push(span);
  }
  return joined;
}

/** A redaction placeholder of a tagged type in a text: where it is and its type's B label. */
export type TypedPlaceholder = { start: number; end: number; begin: number };

/**
 * Tokenises, tags and returns the spans of `text`. `placeholders`: the
 * placeholders of a tagged type in it, in text order (see `tagTokens`).
 */
export function tagText(
  text: string,
  gazetteers: Gazetteers,
  score: ScoreTokens,
  placeholders: readonly TypedPlaceholder[] = [],
): NerSpan[] {
  return tagChunk(text, gazetteers, score, placeholders).spans;
}

/**
 * `tagText`, with the reading it made (its tokens and labels; with no
 * placeholder, a base for reading a changed copy of the text). `base`: a
 * plain reading of a text this one equals but in places, and where each
 * unchanged offset of this text was there (`baseOffset`, -1 in a change):
 * a token whose inputs are all as there takes its label from it (see
 * `tagTokens`), so the spans are those of a fresh reading. Without
 * `baseOffset`, `base` is a reading of this very text: its tokens are
 * reused too.
 */
export function tagChunk(
  text: string,
  gazetteers: Gazetteers,
  score: ScoreTokens,
  placeholders: readonly TypedPlaceholder[] = [],
  base?: ChunkReading,
  baseOffset?: (offset: number) => number,
): { spans: NerSpan[]; reading: ChunkReading } {
  const scanned =
    base !== undefined && baseOffset === undefined && wordsKept(base)
      ? base.scanned
      : scanText(text, gazetteers);
  const spanStarts = new Int32Array(scanned.count);
  const reading: ChunkReading = {
    scanned,
    labels: new Uint8Array(0),
    spanStarts,
    words: scanned.words.lower,
  };
  if (scanned.count === 0) return { spans: [], reading };
  let typed: Uint8Array | undefined;
  if (placeholders.length > 0) {
    typed = new Uint8Array(scanned.count);
    let next = 0;
    for (let index = 0; index < scanned.count && next < placeholders.length; index++) {
      const start = scanned.start[index]!;
      while (next < placeholders.length && placeholders[next]!.end <= start) next++;
      const placeholder = placeholders[next];
      if (placeholder !== undefined && placeholder.start === start)
        typed[index] = placeholder.begin;
    }
  }
  const aligned = base === undefined ? undefined : alignTokens(scanned, base, baseOffset);
  reading.labels = tagTokens(
    scanned,
    score,
    typed,
    aligned && { reading: base!, aligned },
    spanStarts,
  );
  return { spans: spansOfLabels(text, scanned, reading.labels, typed), reading };
}

/**
 * For each token of `scanned`, the token of `base` starting at the offset
 * `baseOffset` gives for its start (the same offset without it), or -1.
 * One pass over both: the offsets only grow.
 */
function alignTokens(
  scanned: Scanned,
  base: ChunkReading,
  baseOffset: ((offset: number) => number) | undefined,
): Int32Array {
  const aligned = new Int32Array(scanned.count).fill(-1);
  const before = base.scanned;
  let at = 0;
  for (let index = 0; index < scanned.count; index++) {
    const start = scanned.start[index]!;
    const offset = baseOffset === undefined ? start : baseOffset(start);
    if (offset < 0) continue;
    while (at < before.count && before.start[at]! < offset) at++;
    if (at < before.count && before.start[at] === offset) aligned[index] = at;
  }
  return aligned;
}
