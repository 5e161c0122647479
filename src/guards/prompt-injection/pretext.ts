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
 * One pass over the text's words (ASCII letters, lower-cased as read); the
 * last few words are kept in a ring, phrases are looked up by their last
 * word in maps built once. No RegExp.
 */

/** Signal id of a pretext wrapper in `scorePromptInjection`'s signals. */
export const PRETEXT_SIGNAL = 'pretext-wrapper';

/**
 * Probability a direct-mode text gets when it carries a pretext wrapper (the
 * higher of it and the model's counts; only with the trainer's PRETEXT=1 and
 * `PRETEXT_RULE`): over every threshold the trainer picks.
 */
export const PRETEXT_PROBABILITY = 0.99;

/** Whether `scorePromptInjection` applies the pretext rule (off: its LOSO keep rule decides). */
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

/** Wording that speaks to the model's instructions, rules, mode or response. */
const DIRECTIVES = [
  'you must',
  'you re required',
  'you are required',
  'you are instructed',
  'you have been instructed',
  'you have been given',
  'you ve been given',
  'you have been assigned',
  'you ve been assigned',
  'you are assigned',
  'you need to',
  'you are given',
  'you were given',
  'you are now',
  'you re now',
  'you will now',
  'you should now',
  'you can now',
  'you may now',
  'you are allowed',
  'you are permitted',
  'your instructions',
  'your system prompt',
  'your prompt',
  'your rules',
  'your guidelines',
  'your restrictions',
  'your programming',
  'your configuration',
  'your settings',
  'your filters',
  'your policies',
  'your safety',
  'in your response',
  'in your answer',
  'in your reply',
  'in your output',
  'generate a response',
  'perform',
  'mode enabled',
  'mode activated',
  'mode is enabled',
  'mode is activated',
  'mode is now',
  'mode has been',
  'please execute',
  'execute the following',
  'perform the following',
  'and only this',
  'regardless of',
  'no matter what',
  'if you are told',
  'if you are asked',
  'if you re asked',
  'make sure to also',
  'without restrictions',
  'without any restrictions',
];

/** Words a directive may follow a situation's end by. */
const AFTER = 24;
/** Words a situation may follow a directive's end by ("You must, for testing purposes, …"). */
const BEFORE = 8;

type PhraseIndex = Map<string, string[][]>;

/** Phrases as word arrays, by their last word. */
function indexByLastWord(phrases: readonly string[]): PhraseIndex {
  const index: PhraseIndex = new Map();
  for (const phrase of phrases) {
    const words = phrase.split(' ');
    const last = words[words.length - 1]!;
    const list = index.get(last) ?? [];
    list.push(words);
    index.set(last, list);
  }
  return index;
}

const situationIndex = indexByLastWord(SITUATIONS);
const directiveIndex = indexByLastWord(DIRECTIVES);
/** Longest phrase, in words: the ring's size. */
const RING = Math.max(...[...SITUATIONS, ...DIRECTIVES].map(phrase => phrase.split(' ').length));

/** Whether a phrase of `index` ends at the ring's newest word (`count` words read so far). */
function endsHere(index: PhraseIndex, ring: string[], count: number): boolean {
  const phrases = index.get(ring[(count - 1) % RING]!);
  if (phrases === undefined) return false;
  for (const words of phrases) {
    if (words.length > count) continue;
    let match = true;
    for (let back = 1; back < words.length && match; back++) {
      match = ring[(count - 1 - back) % RING] === words[words.length - 1 - back];
    }
    if (match) return true;
  }
  return false;
}

function isLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/**
 * What `text` carries: `'pretext'`, a claimed situation and a directive to
 * the model within `AFTER` words after it (or `BEFORE` words before it);
 * else `'situation'` when a claimed situation stands alone; else `'none'`.
 * Words are runs of ASCII letters, read lower-cased; pass the folded text
 * (`foldText`) to read leetspeak and look-alike letters.
 */
export function readPretext(text: string): 'pretext' | 'situation' | 'none' {
  const ring: string[] = new Array(RING).fill('');
  let count = 0;
  let situationAt = Number.NEGATIVE_INFINITY;
  let directiveAt = Number.NEGATIVE_INFINITY;
  let start = -1;
  for (let index = 0; index <= text.length; index++) {
    if (index < text.length && isLetter(text.charCodeAt(index))) {
      if (start < 0) start = index;
      continue;
    }
    if (start < 0) continue;
    ring[count % RING] = text.slice(start, index).toLowerCase();
    start = -1;
    count++;
    if (endsHere(situationIndex, ring, count)) {
      if (count - directiveAt <= BEFORE) return 'pretext';
      situationAt = count;
    }
    if (endsHere(directiveIndex, ring, count)) {
      if (count - situationAt <= AFTER) return 'pretext';
      directiveAt = count;
    }
  }
  return situationAt > 0 ? 'situation' : 'none';
}

/** Whether `text` carries a pretext wrapper (`readPretext`). */
export function hasPretext(text: string): boolean {
  return readPretext(text) === 'pretext';
}
