import { type BloomFilter, Flag, type Scanned } from './features';
import { entityOfLabel, isInside, nerEntities, nerMaxLength } from './labels';
import { hasClass, WordClasses } from './word-classes';

/**
 * Names written in lower case, as people write them in chat (`tell
 * ingvild i'll be late`, `thx mateo!!`): the tagger learnt names from text
 * that capitalises them, so a lower-case name is found here by the word
 * before it (a cue) and the name lists. Fixed lists of whole categories
 * (docs/pii-ner-model.md), not words picked from the evaluation data.
 */

const personBegin = 1 + 2 * nerEntities.indexOf('PERSON');
const personMaxLength = nerMaxLength.PERSON;
/** The longest word a rule makes a name of (the gazetteers see a token's first 40 characters only). */
const maxNameWord = 32;

/** Words after which a lower-case name-list word is a name ("my name is lena", "call anders"). */
const nameCues: ReadonlySet<string> = new Set([
  'named',
  'called',
  'call',
  'ask',
  'tell',
  'meet',
  'met',
  'friend',
  "i'm",
  'im',
]);

/**
 * Verbs whose object is a person, opening a request (round 43, issue 17: `Ask Turing about the
 * budget`, `Tell Nkechi the meeting moved`): a capitalised word right after one of them at a
 * sentence's start (or after `please`) is whom the request names (`capitalisedAfterImperatives`).
 */
const addressVerbs: ReadonlySet<string> = new Set(
  'ask tell call remind email e-mail text message ping phone ring thank invite warn inform notify cc congratulate'.split(
    ' ',
  ),
);

/** Words of a request before its verb at a sentence's start (`Please ask X`, `pls tell X`). */
const requestWords: ReadonlySet<string> = new Set(['please', 'pls', 'plz', 'kindly']);

/** Two-word cues, keyed by their last word: "name is", "name's", "i am", "this is". */
export const nameCuePairs: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['is', new Set(['name', 'this'])],
  ["'s", new Set(['name'])],
  ['am', new Set(['i'])],
]);

/** Greetings and thanks written right before whom a message speaks to ("hey priya", "thx mateo"). */
const vocatives: ReadonlySet<string> = new Set([
  'hi',
  'hey',
  'yo',
  'sorry',
  'hiya',
  'heya',
  'hello',
  'thanks',
  'thx',
  'cheers',
  'bye',
  'congrats',
  // Round 40: `happy birthday siobhan`.
  'birthday',
  'bday',
]);

/**
 * Cues of a chat line only (a line with no capital letter): `me and` before
 * a first name, `and` after a lower-case name. `with` is none: chat writes
 * `with priya`, but as often `with flask`, `with tab`, `with vocals`, and
 * the lists hold those words (benign prompts in lower case: more false
 * names than names).
 */
const chatConjunctions: ReadonlySet<string> = new Set(['and', '&']);

/**
 * Words that open a chat line before its subject (round 39): a question's
 * auxiliary (`did olusegun get`, `is haruka coming`) or an interjection
 * (`omg mateus just called`, `ok so farhan and leila`), one or two of them
 * from the line's start, on a chat line, before a listed word and a word
 * of `personAfter`.
 */
const chatOpeners: ReadonlySet<string> = new Set(
  'did does is was has will can omg ugh lol wow oh ok so'.split(' '),
);

/**
 * What a person does or where one is, right after the name a chat opener
 * cues (`is X coming`, `ugh X took`, `did X get`); a tool or thing of the
 * name lists comes before other verbs (`did docker start`, `was flask
 * updated`), so the rule needs one of these.
 */
const personAfter: ReadonlySet<string> = new Set(
  `coming going here there home back said says say called call texted text messaged posted took
  take get got come go know knows see saw left leave replied reply wants want thinks think just
  and asked asks told tells brought bring sent send`.split(/\s+/),
);

/**
 * Chat words and interjections that the name lists hold (they were scraped
 * from social media: `ok`, `lol`) and that are never a lower-case name.
 */
const chatWords: ReadonlySet<string> = new Set([
  'ok',
  'okay',
  'kk',
  'lol',
  'lmao',
  'omg',
  'btw',
  'idk',
  'thx',
  'pls',
  'plz',
  'ur',
  'ya',
  'yep',
  'yup',
  'nope',
  'hmm',
  'haha',
  'rn',
  'tmrw',
  'asap',
  'bro',
  'dude',
  'guys',
  'all',
  'everyone',
  'there',
  // Terms of address (round 39: `bye grandma` was a name).
  'grandma',
  'grandpa',
  'granny',
  'nana',
  'mom',
  'mum',
  'mommy',
  'mama',
  'dad',
  'daddy',
  'papa',
  'sis',
  'babe',
  'baby',
  'honey',
  'hun',
  'buddy',
  'mate',
  'fam',
  'boss',
  'bestie',
]);

/**
 * The classes of a word for these rules (round 45, issue 17: one look-up per token,
 * `WordClasses`; the same answers as the sets, so the same names).
 */
const Cue = {
  Chat: 1 << 0,
  Vocative: 1 << 1,
  Name: 1 << 2,
  Pair: 1 << 3,
  Opener: 1 << 4,
  Conjunction: 1 << 5,
  After: 1 << 6,
  AddressVerb: 1 << 7,
  Request: 1 << 8,
  Its: 1 << 9,
} as const;
const cueClasses = new WordClasses([
  chatWords,
  vocatives,
  nameCues,
  new Set(nameCuePairs.keys()),
  chatOpeners,
  chatConjunctions,
  personAfter,
  addressVerbs,
  requestWords,
  new Set(['its', "it's"]),
]);

/**
 * The classes a word must have for `cueOf` to read it as a cue (round 48, hC: one mask test
 * per candidate; a word in none of them cues no name, and before, its strings were compared
 * and the chat line computed first).
 */
const anyCue = Cue.Vocative | Cue.Name | Cue.Pair | Cue.Opener | Cue.Conjunction | Cue.Its;

/** A word in no name list that a strong cue makes a name: letters, at least three (`ingvild`, `jae-hyun`). */
const unlistedName = /^\p{L}{3,}(?:[-']\p{L}+)?$/u;

/** Lower case, not a common word, no title, no chat word. */
function isLowerWord(scanned: Scanned, masks: Int32Array, index: number): boolean {
  return (
    (scanned.flags[index]! & (Flag.Lower | Flag.Common | Flag.Honorific)) === Flag.Lower &&
    scanned.end[index]! - scanned.start[index]! <= maxNameWord &&
    !hasClass(scanned, masks, index, Cue.Chat)
  );
}

/**
 * In a name list: the word itself, or each part of a hyphenated word
 * (`jae-hyun`, `jean-luc`: the lists hold given names one part at a time).
 */
function isListed(scanned: Scanned, index: number): boolean {
  if ((scanned.flags[index]! & (Flag.Name | Flag.FirstName)) !== 0) return true;
  const word = lowerOf(scanned, index);
  const hyphen = word.indexOf('-');
  if (!/^\p{L}+-\p{L}+$/u.test(word)) return false;
  const names: BloomFilter = scanned.words.gazetteers.names;
  return names.has(word.slice(0, hyphen)) && names.has(word.slice(hyphen + 1));
}

/** The lower-case text of token `index` as the word table holds it (no string built). */
function lowerOf(scanned: Scanned, index: number): string {
  return scanned.words.lower[scanned.word[index]!]!;
}

/** Whether token `index` starts its line (or the text). */
function lineStart(scanned: Scanned, index: number): boolean {
  return index === 0 || scanned.newline[index] !== 0;
}

/**
 * How far, in characters, `chatLines` looks for a capitalised word (round 47, issue 16: what
 * window mode reads around a word): ahead, a capitalised word starting within `CHAT_AHEAD`
 * characters of the word's start on its line; behind, the last capitalised word, entity or
 * placeholder on its line ending within `CHAT_BEHIND` characters of it. Round 46 read 128 tokens
 * either side (about 500 characters), farther than a stream holds back (`2 × nerMaxLength`
 * characters) or keeps as context, so a stream read a word one way and `generateText` the other.
 */
export const CHAT_AHEAD = 64;
export const CHAT_BEHIND = 64;

/** Whether token `index` is a masked placeholder (`maskPlaceholders` writes one as zeros). */
export function isMaskedPlaceholder(scanned: Scanned, index: number): boolean {
  // The flag first (round 48, hC): one array read rules out almost every token.
  if ((scanned.flags[index]! & Flag.Digit) === 0) return false;
  if (scanned.end[index]! - scanned.start[index]! < 4) return false;
  return /^0+$/.test(lowerOf(scanned, index));
}

/**
 * Whether each token has a capitalised or upper-case word starting within `CHAT_AHEAD`
 * characters after its start on its line (itself included). Right to left, linear.
 */
function capitalAhead(scanned: Scanned): Uint8Array {
  const { count, newline: newlines, flags, start: starts } = scanned;
  const capital = Flag.Title | Flag.Upper;
  const ahead = new Uint8Array(count);
  let next = Number.POSITIVE_INFINITY;
  for (let index = count - 1; index >= 0; index--) {
    if ((flags[index]! & capital) !== 0) next = starts[index]!;
    if (next - starts[index]! <= CHAT_AHEAD) ahead[index] = 1;
    if (newlines[index] !== 0) next = Number.POSITIVE_INFINITY;
  }
  return ahead;
}

/** The width an entity counts for behind a word (`[PERSON]`: the placeholder a stream re-reads). */
export const PLACEHOLDER_WIDTH = 8;

/**
 * Offsets of token starts with each run of an entity's tokens (in the labels `current()`
 * returns when asked) and each masked placeholder counted as `PLACEHOLDER_WIDTH` characters,
 * its inner blanks as none: the text as a stream re-reads it once redacted. Asked with rising
 * tokens; each question reads the tokens since the last one: linear.
 */
export function redactedOffsets(
  scanned: Scanned,
  current: () => Uint8Array,
): (index: number) => number {
  const { count, start: starts, end: ends } = scanned;
  /** Whether token `index` continues the entity of the token before it (no width of its own). */
  const continues = (labels: Uint8Array, index: number) => {
    const label = labels[index]!;
    if (index === 0 || label === 0 || !isInside(label)) return false;
    const previous = labels[index - 1]!;
    return previous !== 0 && entityOfLabel(previous) === entityOfLabel(label);
  };
  let at = 0;
  let offset = 0;
  return index => {
    const labels = current();
    for (; at < index; at++) {
      if (labels[at] !== 0) offset += continues(labels, at) ? 0 : PLACEHOLDER_WIDTH;
      else offset += isMaskedPlaceholder(scanned, at) ? PLACEHOLDER_WIDTH : ends[at]! - starts[at]!;
      if (at + 1 < count && !continues(labels, at + 1)) offset += starts[at + 1]! - ends[at]!;
    }
    return offset;
  };
}

/**
 * Whether tokens are on a chat line, asked left to right (round 47): no capitalised word within
 * `CHAT_AHEAD` characters ahead on the line, and behind no capitalised word outside every entity
 * ending within `CHAT_BEHIND` characters on the line, measured as a stream's re-read context
 * holds the text (`redactedOffsets`: an entity, in the labels as they stand when asked, or a
 * masked placeholder counts as `PLACEHOLDER_WIDTH` characters). An entity behind is no capital:
 * a stream re-reads it as a placeholder, which says nothing of its case. Each question reads the
 * tokens since the last one asked: linear.
 */
function chatLines(scanned: Scanned): (labels: Uint8Array, index: number) => boolean {
  const ahead = capitalAhead(scanned);
  const { newline: newlines, flags, start: starts, end: ends } = scanned;
  const capital = Flag.Title | Flag.Upper;
  let current: Uint8Array | undefined;
  const offset = redactedOffsets(scanned, () => current!);
  let absorbed = 0;
  let lastEnd = Number.NEGATIVE_INFINITY;
  return (labels, index) => {
    current = labels;
    for (; absorbed < index; absorbed++) {
      if (newlines[absorbed] !== 0) lastEnd = Number.NEGATIVE_INFINITY;
      if ((flags[absorbed]! & capital) !== 0 && labels[absorbed] === 0)
        lastEnd = offset(absorbed) + ends[absorbed]! - starts[absorbed]!;
    }
    if (newlines[index] !== 0) return ahead[index] === 0;
    return ahead[index] === 0 && offset(index) - lastEnd > CHAT_BEHIND;
  };
}

/**
 * How token `index - 1` (and the one before it) cues a lower-case name at
 * `index`: 2 when even a word in no name list is one (`my name is X`,
 * `its X here`, a greeting or thanks opening the line, when the word ends
 * the phrase: a sign or the line's end after it), 1 when a listed word is
 * (the cues above; on a chat line `and` after a name, `me and` before a
 * first name), else 0.
 */
function cueOf(
  scanned: Scanned,
  masks: Int32Array,
  labels: Uint8Array,
  index: number,
  chat: (index: number) => boolean,
): number {
  const newlines = scanned.newline;
  if (newlines[index] !== 0) return 0;
  const cueClass = masks[scanned.word[index - 1]!]!;
  if ((cueClass & anyCue) === 0) return 0;
  const cue = lowerOf(scanned, index - 1);
  const hasBefore = index >= 2 && newlines[index - 1] === 0;
  const before = hasBefore ? lowerOf(scanned, index - 2) : '';
  const next = index + 1 < scanned.count && newlines[index + 1] === 0 ? index + 1 : -1;
  const endsPhrase = next < 0 || (scanned.flags[next]! & Flag.Punct) !== 0;
  const introduced = (cue === 'is' || cue === "'s") && before === 'name';
  if (introduced && endsPhrase) return 2;
  const its = cue === 'its' || cue === "it's" || (cue === "'s" && before === 'it');
  if (its && next >= 0 && lowerOf(scanned, next) === 'here') return 2;
  if ((cueClass & Cue.Vocative) !== 0) return lineStart(scanned, index - 1) && endsPhrase ? 2 : 1;
  if ((cueClass & Cue.Name) !== 0) return 1;
  if ((cueClass & Cue.Pair) !== 0 && nameCuePairs.get(cue)?.has(before)) return 1;
  // The chat line is asked about only for a cue of one (it reads the tokens up to `index` once,
  // whenever asked: the same answer asked later).
  if ((cueClass & (Cue.Opener | Cue.Conjunction)) === 0 || !chat(index)) return 0;
  if ((cueClass & Cue.Opener) !== 0)
    return next >= 0 &&
      (scanned.flags[next]! & Flag.Lower) !== 0 &&
      hasClass(scanned, masks, next, Cue.After) &&
      (lineStart(scanned, index - 1) ||
        (lineStart(scanned, index - 2) &&
          hasBefore &&
          hasClass(scanned, masks, index - 2, Cue.Opener)))
      ? 1
      : 0;
  if ((cueClass & Cue.Conjunction) === 0) return 0;
  const firstName = (scanned.flags[index]! & Flag.FirstName) !== 0;
  const left = labels[index - 2];
  const person = left === personBegin || left === personBegin + 1;
  return (before === 'me' && firstName) || (index >= 2 && person) ? 1 : 0;
}

/** Whether token `index` is a first name and `and i` / `and me` follow it on its line. */
function withMe(scanned: Scanned, index: number): boolean {
  if ((scanned.flags[index]! & Flag.FirstName) === 0 || index + 2 >= scanned.count) return false;
  if (scanned.newline[index + 1] !== 0 || scanned.newline[index + 2] !== 0) return false;
  const pronoun = lowerOf(scanned, index + 2);
  return lowerOf(scanned, index + 1) === 'and' && (pronoun === 'i' || pronoun === 'me');
}

/**
 * Whether token `index` opens a request to someone: a verb of `addressVerbs` at a sentence's
 * start, or right after a `requestWords` word that starts one, outside every entity.
 */
function isAddressVerb(
  scanned: Scanned,
  masks: Int32Array,
  labels: Uint8Array,
  index: number,
): boolean {
  const flags = scanned.flags;
  if (labels[index] !== 0 || (flags[index]! & (Flag.Title | Flag.Lower)) === 0) return false;
  if (!hasClass(scanned, masks, index, Cue.AddressVerb)) return false;
  if ((flags[index]! & Flag.SentenceStart) !== 0) return true;
  const before = index - 1;
  return (
    before >= 0 &&
    scanned.newline[index] === 0 &&
    (flags[before]! & Flag.SentenceStart) !== 0 &&
    hasClass(scanned, masks, before, Cue.Request)
  );
}

/** A capitalised word a cue may make a name of: in title case, no title, street, firm or number word, not too long. */
function isCapitalisedNameWord(scanned: Scanned, index: number): boolean {
  const flags = scanned.flags[index]!;
  return (
    (flags & (Flag.Title | Flag.Honorific | Flag.Street | Flag.Organisation | Flag.Digit)) ===
      Flag.Title && scanned.end[index]! - scanned.start[index]! <= maxNameWord
  );
}

/**
 * Capitalised names the tagger left outside right after a request's verb (round 43, issue 17:
 * `Ask Turing about the budget`, `Please remind Okafor to sign`): a word outside any entity after
 * `isAddressVerb` on the same line, in title case, no common word unless a given name (`Call
 * Support`, `Email Marketing` are none; `Tell Will` is one), no place or country unless in a name
 * list of given names (`Call London`), starts a PERSON; up to two more such words of two letters
 * or more that are no common words continue it (`Tell Will I said` keeps `Will`), within the
 * PERSON bound. What follows must be a lower-case word, a sign or the
 * line's end (`Text Editor Pro` is none). Returns `labels` or a changed copy.
 */
function capitalisedAfterImperatives(
  scanned: Scanned,
  masks: Int32Array,
  labels: Uint8Array,
): Uint8Array {
  const { count, flags, newline, start: starts, end: ends } = scanned;
  let result = labels;
  for (let index = 1; index < count; index++) {
    if (labels[index] !== 0 || newline[index] !== 0 || !isCapitalisedNameWord(scanned, index))
      continue;
    const flag = flags[index]!;
    if ((flag & (Flag.Common | Flag.FirstName)) === Flag.Common) continue;
    if ((flag & (Flag.Place | Flag.Country)) !== 0 && (flag & Flag.FirstName) === 0) continue;
    if (!isAddressVerb(scanned, masks, labels, index - 1)) continue;
    let last = index;
    while (
      last + 1 < count &&
      last + 1 - index < 3 &&
      newline[last + 1] === 0 &&
      labels[last + 1] === 0 &&
      isCapitalisedNameWord(scanned, last + 1) &&
      (flags[last + 1]! & Flag.Common) === 0 &&
      ends[last + 1]! - starts[last + 1]! >= 2 &&
      ends[last + 1]! - starts[index]! <= personMaxLength
    )
      last++;
    const next = last + 1;
    if (next < count && newline[next] === 0 && (flags[next]! & (Flag.Lower | Flag.Punct)) === 0)
      continue;
    if (result === labels) result = labels.slice();
    result[index] = personBegin;
    for (let inside = index + 1; inside <= last; inside++) result[inside] = personBegin + 1;
    index = last;
  }
  return result;
}

/**
 * Lower-case names after a cue (`my name is lena andersson`, `call anders
 * tomorrow`, `hey priya`, `thx mateo!!`, `i'm with chidi`, `chidi and
 * funmi`): a word outside any entity, in lower case and not a common or
 * chat word, right after a cue on the same line (`cueOf`), starts a
 * PERSON when it is in a name list or the cue is strong; one more listed
 * such word after it continues it. Then the capitalised names after a
 * request's verb (`capitalisedAfterImperatives`, round 43: here so the
 * tagger's chain of rules is unchanged). Returns `labels` or a changed copy.
 */
export function cuedLowerNames(scanned: Scanned, labels: Uint8Array): Uint8Array {
  const count = scanned.count;
  const starts = scanned.start;
  const ends = scanned.end;
  const newlines = scanned.newline;
  let chat: ((labels: Uint8Array, index: number) => boolean) | undefined;
  const masks = cueClasses.of(scanned);
  let result = labels;
  const chatOf = (index: number) => {
    chat ??= chatLines(scanned);
    return chat(result, index);
  };
  for (let index = 0; index < count; index++) {
    if (labels[index] !== 0 || !isLowerWord(scanned, masks, index)) continue;
    if (lineStart(scanned, index)) {
      // A first name opening a chat line before `and i` / `and me` (round 40: `bjorn and i are
      // going fishing`).
      if (!withMe(scanned, index) || !chatOf(index)) continue;
      if (result === labels) result = labels.slice();
      result[index] = personBegin;
      continue;
    }
    if (ends[index - 1]! - starts[index - 1]! > 8) continue;
    const cue = cueOf(scanned, masks, result, index, chatOf);
    if (cue === 0) continue;
    if (!isListed(scanned, index) && (cue === 1 || !unlistedName.test(lowerOf(scanned, index))))
      continue;
    if (result === labels) result = labels.slice();
    result[index] = personBegin;
    if (
      index + 1 < count &&
      labels[index + 1] === 0 &&
      newlines[index + 1] === 0 &&
      isLowerWord(scanned, masks, index + 1) &&
      isListed(scanned, index + 1) &&
      ends[index + 1]! - starts[index]! <= personMaxLength
    ) {
      result[index + 1] = personBegin + 1;
      index++;
    }
  }
  return capitalisedAfterImperatives(scanned, masks, result);
}
