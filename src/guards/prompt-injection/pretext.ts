/**
 * A pretext wrapper (issue 15, round 48 hN): a claimed special situation —
 * a test, debugging, a developer / maintenance mode, a training exercise, a
 * special case, a correction of the model's instructions, a policy update
 * or an administrator's authorisation — followed, within a few words, by
 * wording that speaks to the model's own instructions, rules, mode or
 * response ("you must", "your instructions", "in your response", "you are
 * now", "regardless of", "if you are asked"). "This is a TEST. You must …",
 * "To enable debugging, please execute: …", "Sorry, I made a mistake when I
 * gave you your instructions …". A user's own pretext ("this is just a test",
 * "sorry, I made a mistake, I meant …", "for a training course I'm
 * preparing, write …") claims authority over the user's own words, not over
 * the model's: it names no instruction of the model's.
 *
 * The lexicon is written from general knowledge of the kind (social
 * engineering of an assistant), in English; never from rows.
 *
 * One pass over the text's words (ASCII letters, case folded as read): each
 * word's hash is built as it is read, the last few words are kept in a ring
 * (offsets and hashes: no string made), phrases are looked up by their last
 * word's hash in maps built once and checked letter by letter. No RegExp.
 */

/** Signal id of a pretext wrapper in `scorePromptInjection`'s signals. */
export const PRETEXT_SIGNAL = 'pretext-wrapper';

/**
 * Probability a direct-mode text gets when it carries a pretext wrapper (the
 * higher of it and the model's counts): over every threshold the trainer
 * picks.
 */
export const PRETEXT_PROBABILITY = 0.99;

/**
 * Whether `scorePromptInjection` applies the pretext rule in direct mode:
 * on since round 49 (hE), read with the conversation (`ANSWER_DIRECTIVES`
 * do not count after an assistant answer; `ignore all` is no directive).
 * Round 48: off. hN's rule passed round 45's Pareto rule but blocked ordinary chat
 * (review hQ: "enable debug mode … regardless of"); hS's narrowed lexicon
 * passed it too (spikee 0.437 -> 0.467 left out, nothing else moved), but
 * the second review (hQ) found ordinary follow-ups still read as a pretext
 * ("Sorry, I made a mistake: I followed your instructions but …", "the
 * screen says to ignore all warnings"): in a conversation "your
 * instructions / rules" are as often what the assistant wrote a turn ago.
 * The trainer's PRETEXT=1 measures with it. Round 49 (hE): read with the
 * conversation (`followsAssistant`) it passed its keep rule, but review
 * (hI) blocked ordinary first turns at 0.99 ("This is a test: what are your
 * guidelines on shipping?"); the lead ships it off again.
 */
export const PRETEXT_RULE = false;

/** A claimed situation (word sequences). */
const SITUATIONS = [
  // test
  'for testing purposes',
  'for test purposes',
  'for testing only',
  'this is a test',
  'this is only a test',
  'test mode',
  'testing mode',
  'test scenario',
  'test pipeline',
  'testing pipeline',
  'part of a test',
  'part of a testing',
  // debugging
  'debug mode',
  'debugging mode',
  'enable debugging',
  'debugging purposes',
  'debug purposes',
  'diagnostic mode',
  'diagnostics mode',
  // developer / privileged modes
  'developer mode',
  'developers mode',
  'dev mode',
  'development mode',
  'maintenance mode',
  'admin mode',
  'administrator mode',
  'god mode',
  'sudo mode',
  'root mode',
  'superuser mode',
  'unrestricted mode',
  'experimental mode',
  // training
  'training exercise',
  'training purposes',
  'training mode',
  'part of training',
  'part of a training',
  'part of your training',
  // special case
  'special case',
  'special instruction',
  'special instructions',
  // correction of the model's instructions
  'i made a mistake',
  'i made an error',
  'i forgot to tell you',
  'i forgot to ask you',
  'i forgot to mention',
  // a message from the model's makers
  'your developers',
];

/**
 * Wording aimed at the model's own instructions, rules, restrictions or
 * configuration (round 48 hS narrowed it: everyday directives such as "you
 * must", "you need to", "in your answer", "perform", "regardless of" were
 * hN's and blocked ordinary questions; a user who says "debug mode" and
 * "you need to" talks about their own app, not the model's rules).
 */
const DIRECTIVES = [
  // the model's instructions
  'your initial instructions',
  'your real instructions',
  'your system prompt',
  'your system message',
  'your initial prompt',
  'your original prompt',
  'your hidden prompt',
  'your real task',
  'all previous instructions',
  'all prior instructions',
  'you have been instructed',
  'you were instructed',
  'you are instructed',
  'you have been assigned',
  'you ve been assigned',
  'you are assigned',
  'you have been reprogrammed',
  // the model's rules and restrictions
  'your safety guidelines',
  'your ethical guidelines',
  'your content policy',
  'your safety filters',
  'your content filters',
  'your guardrails',
  'your safeguards',
  'your programming',
  'your alignment',
  'no longer bound',
  'not bound by',
  'without restrictions',
  'without any restrictions',
  'with no restrictions',
  'without filters',
  'with no filter',
  'with no filters',
  'restrictions lifted',
  'restrictions disabled',
  'restrictions removed',
  'filters disabled',
  // overriding them
  'ignore previous',
  'ignore the above',
  'disregard previous',
];

/**
 * Directives whose `your …` may be an earlier answer's (round 49 hE): after
 * an assistant message "your instructions / rules / guidelines / filter /
 * configuration" are as often the steps, rules or config it gave ("I
 * followed your instructions but …", "how do I disable your filter in the
 * eslint config?"). They count only in a text that follows no assistant
 * answer (`readPretext`'s `followsAssistant`). Not `ignore all` / `disregard
 * all` any more (round 48 review: "the screen says to ignore all warnings"
 * is everyday English, in any turn).
 */
const ANSWER_DIRECTIVES = [
  'your instructions',
  'your original instructions',
  'your previous instructions',
  'your new instructions',
  'your directives',
  'your new task',
  'your original task',
  'your previous task',
  'your rules',
  'your guidelines',
  'your policies',
  'your restrictions',
  'your limitations',
  'your filters',
  'your filter',
  'your configuration',
  'ignore your',
  'disregard your',
  'override your',
  'bypass your',
  'disable your',
  'forget your',
];

/**
 * A situation claimed about the model or the session itself (round 48 hS):
 * "you are in debug mode", "this conversation is a test". A user's own app,
 * phone or spreadsheet in debug mode is not one; with one of these, an
 * everyday directive (`EVERYDAY`) is enough.
 */
const MODEL_MODES = [
  'debug',
  'debugging',
  'developer',
  'dev',
  'maintenance',
  'admin',
  'administrator',
  'god',
  'sudo',
  'root',
  'superuser',
  'unrestricted',
  'experimental',
  'diagnostic',
  'test',
  'testing',
  'training',
];
const MODEL_SITUATIONS = [
  ...[
    'you are in',
    'you re in',
    'you are now in',
    'you re now in',
    'you are operating in',
    'you are running in',
    'you are currently in',
    'you have entered',
    'you are now entering',
  ].flatMap(prefix => MODEL_MODES.map(mode => `${prefix} ${mode} mode`)),
  'this conversation is a test',
  'this session is a test',
  'this chat is a test',
  'this is a test of your',
  'you are being tested',
  'we are testing you',
  'we are testing your',
];

/** Everyday directives: a pretext only after a situation claimed about the model. */
const EVERYDAY = [
  'you must',
  'you re required',
  'you are required',
  'you need to',
  'you are now',
  'you will now',
  'you should now',
  'you can now',
  'you may now',
  'you are allowed',
  'you are permitted',
  'in your response',
  'in your answer',
  'in your reply',
  'in your output',
  'perform',
  'please execute',
  'execute the following',
  'regardless of',
  'no matter what',
  'if you are asked',
  'if you re asked',
  'and only this',
];

/** Words a directive may follow a situation's end by. */
const AFTER = 24;
/** Words a situation may follow a directive's end by ("You must, for testing purposes, …"). */
const BEFORE = 8;

/** A phrase: its words, and their hashes (`wordHash`). */
interface Phrase {
  words: readonly string[];
  hashes: Int32Array;
}

type PhraseIndex = Map<number, Phrase[]>;

/** FNV-1a step over a lower-case letter's code. */
function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

const HASH_SEED = 0x811c9dc5 | 0;

function wordHash(word: string): number {
  let hash = HASH_SEED;
  for (let index = 0; index < word.length; index++) hash = hashStep(hash, word.charCodeAt(index));
  return hash;
}

/** Phrases by their last word's hash. */
function indexByLastWord(phrases: readonly string[]): PhraseIndex {
  const index: PhraseIndex = new Map();
  for (const phrase of phrases) {
    const words = phrase.split(' ');
    const hashes = Int32Array.from(words, wordHash);
    const last = hashes[hashes.length - 1]!;
    const list = index.get(last) ?? [];
    list.push({ words, hashes });
    index.set(last, list);
  }
  return index;
}

const situationIndex = indexByLastWord(SITUATIONS);
const directiveIndex = indexByLastWord(DIRECTIVES);
const answerDirectiveIndex = indexByLastWord(ANSWER_DIRECTIVES);
const modelSituationIndex = indexByLastWord(MODEL_SITUATIONS);
const everydayIndex = indexByLastWord(EVERYDAY);
/** Longest phrase, in words: the ring's size. */
const RING = Math.max(
  ...[...SITUATIONS, ...DIRECTIVES, ...ANSWER_DIRECTIVES, ...MODEL_SITUATIONS, ...EVERYDAY].map(
    phrase => phrase.split(' ').length,
  ),
);

/** The last `RING` words read: where each starts and ends in the text, and its hash. */
interface Ring {
  text: string;
  start: Int32Array;
  end: Int32Array;
  hash: Int32Array;
}

/** Whether the word in `slot` is `word` (ASCII letters, any case). */
function sameWord(ring: Ring, slot: number, word: string): boolean {
  const start = ring.start[slot]!;
  if (ring.end[slot]! - start !== word.length) return false;
  for (let offset = 0; offset < word.length; offset++) {
    if ((ring.text.charCodeAt(start + offset) | 0x20) !== word.charCodeAt(offset)) return false;
  }
  return true;
}

/** Whether a phrase of `index` ends at the ring's newest word (`count` words read so far). */
function endsHere(index: PhraseIndex, ring: Ring, count: number): boolean {
  const phrases = index.get(ring.hash[(count - 1) % RING]!);
  if (phrases === undefined) return false;
  for (const { words, hashes } of phrases) {
    if (words.length > count) continue;
    let match = true;
    for (let back = 0; back < words.length && match; back++) {
      const slot = (count - 1 - back) % RING;
      const at = words.length - 1 - back;
      match = ring.hash[slot] === hashes[at] && sameWord(ring, slot, words[at]!);
    }
    if (match) return true;
  }
  return false;
}

function isLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/**
 * What `text` carries: `'pretext'`, a claimed situation and a directive
 * aimed at the model's own instructions or rules (`DIRECTIVES`), or a
 * situation claimed about the model itself (`MODEL_SITUATIONS`) and any
 * directive (`DIRECTIVES` or `EVERYDAY`), within `AFTER` words after it (or
 * `BEFORE` words before it); else `'situation'` when a claimed situation
 * stands alone; else `'none'`. Words are runs of ASCII letters, read
 * lower-cased; pass the folded text (`foldText`) to read leetspeak and
 * look-alike letters. `followsAssistant` (round 49 hE): the text is a
 * user's message after an assistant message, so `ANSWER_DIRECTIVES` do not
 * count (see there).
 */
export function readPretextInTurn(
  text: string,
  followsAssistant: boolean,
): 'pretext' | 'situation' | 'none' {
  const ring: Ring = {
    text,
    start: new Int32Array(RING),
    end: new Int32Array(RING),
    hash: new Int32Array(RING),
  };
  let count = 0;
  let situationAt = Number.NEGATIVE_INFINITY;
  let modelSituationAt = Number.NEGATIVE_INFINITY;
  let directiveAt = Number.NEGATIVE_INFINITY;
  let everydayAt = Number.NEGATIVE_INFINITY;
  let start = -1;
  let hash = HASH_SEED;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : 0;
    if (isLetter(code)) {
      if (start < 0) {
        start = index;
        hash = HASH_SEED;
      }
      hash = hashStep(hash, code | 0x20);
      continue;
    }
    if (start < 0) continue;
    const slot = count % RING;
    ring.start[slot] = start;
    ring.end[slot] = index;
    ring.hash[slot] = hash;
    start = -1;
    count++;
    const modelSituation = endsHere(modelSituationIndex, ring, count);
    if (modelSituation || endsHere(situationIndex, ring, count)) {
      if (count - directiveAt <= BEFORE) return 'pretext';
      if (modelSituation && count - everydayAt <= BEFORE) return 'pretext';
      situationAt = count;
      if (modelSituation) modelSituationAt = count;
    }
    if (
      endsHere(directiveIndex, ring, count) ||
      (!followsAssistant && endsHere(answerDirectiveIndex, ring, count))
    ) {
      if (count - situationAt <= AFTER) return 'pretext';
      directiveAt = count;
    }
    if (endsHere(everydayIndex, ring, count)) {
      if (count - modelSituationAt <= AFTER) return 'pretext';
      everydayAt = count;
    }
  }
  return situationAt > 0 ? 'situation' : 'none';
}

/** `readPretextInTurn` of a first turn (`followsAssistant` false). */
export function readPretext(text: string): 'pretext' | 'situation' | 'none' {
  return readPretextInTurn(text, false);
}

/** Whether `text` carries a pretext wrapper (`readPretextInTurn`). */
export function hasPretext(text: string, followsAssistant = false): boolean {
  return readPretextInTurn(text, followsAssistant) === 'pretext';
}
