/**
 * An order to set aside the instructions that came before it (issue 15,
 * round 50 hF): "ignore the previous instructions and …", "disregard all
 * prior directions", "do not follow any earlier rules", "forget your
 * initial prompt". The oldest kind of prompt injection (Perez and Ribeiro
 * 2022, "Ignore Previous Prompt"), written as a kind from general knowledge,
 * not from any source's strings.
 *
 * The signal is narrow on purpose (an ordinary message may say "ignore
 * my previous instructions about the font" or "the rules of the game").
 * It needs, in this order:
 * - an order to set aside: `ignore`, `disregard`, `forget`, `override`,
 *   `bypass`, `discard` (or their `-ing` forms) at the start of the text,
 *   after punctuation or after a lead word (`please`, `now`, `and`, `just`,
 *   `you must`, `you to`, …), not after any other word ("employees who
 *   ignore …", "the policy overrides …"); or `follow` / `obey` after
 *   `do not`, `don't`, `stop`, `cease`, `quit`, `no longer`;
 * - within six words, only determiners and words naming the assistant's
 *   set-up (`the`, `your`, `these`, `of`, `and`, `other`, `given`,
 *   `system`, `developer`, …) and at least one word placing the
 *   instructions before the message (`previous`, `prior`, `preceding`,
 *   `above`, `earlier`, `initial`, `original`, `foregoing`, `former`,
 *   `all`, `any`, `every`, `existing`): any other word (`my`, `homework`,
 *   a possessive) makes them someone else's;
 * - a word for instructions (`instructions`, `directions`, `prompts`,
 *   `commands`, `rules`, `guidelines`, `directives`, `orders`,
 *   `programming`, `constraints`, `restrictions`);
 * - then the end of the text or of a sentence (not a question), or a
 *   continuation that keeps the order aimed at the assistant (`and`,
 *   `now`, `instead`, `just`, `given`, `above`, `you were / have …`, …);
 *   "… instructions on the box", "… rules of the game", "… directions, the
 *   detour ends …" do not count.
 *
 * A native search for the verbs' stems first (most texts hold none); then one
 * pass over the text's ASCII words (lower-cased as read, at most 16 letters
 * kept), each word compared against fixed sets, with a window of six words
 * and two words of look-ahead: linear. No RegExp.
 */

/**
 * Whether `scorePromptInjection` applies the rule (direct mode, first turns):
 * on since round 50, which kept it by the Pareto rule (see the model card).
 */
export const PRIOR_OVERRIDE_ON = true;

/** Signal id in `scorePromptInjection`'s signals (when the rule is on). */
export const PRIOR_OVERRIDE_SIGNAL = 'prior-override';

/**
 * Probability a direct-mode text gets when it orders the instructions before
 * it set aside: over every threshold the trainer picks.
 */
export const PRIOR_OVERRIDE_PROBABILITY = 0.99;

/** Words that set instructions aside on their own. */
const VERBS = new Set([
  'ignore',
  'disregard',
  'forget',
  'override',
  'bypass',
  'discard',
  'ignoring',
  'disregarding',
  'forgetting',
]);

/** `follow` / `obey` after a negation led as an order (`do not`, `don't`, `stop`, `never`, `cease`, `no longer`). */
const FOLLOW_VERBS = new Set(['follow', 'obey', 'following', 'obeying']);
const NEGATIONS = new Set(['dont', 'stop', 'cease', 'quit']);

/**
 * Words after which a verb is an order (with the start of the text and any
 * punctuation: "Now ignore …", "you must disregard …", "I want you to forget
 * …"); after any other word it is a statement ("employees who ignore the
 * rules", "the policy overrides the earlier guidelines").
 */
const LEADS = new Set([
  'please',
  'pls',
  'kindly',
  'now',
  'and',
  'but',
  'so',
  'then',
  'just',
  'simply',
  'also',
  'first',
  'instead',
  'immediately',
  'completely',
  'totally',
  'entirely',
  'hereby',
  'must',
  'should',
  'will',
  'shall',
  'you',
  'always',
]);

/** Words that place the instructions before the message. */
const PRIOR = new Set([
  'previous',
  'prior',
  'preceding',
  'above',
  'earlier',
  'initial',
  'original',
  'foregoing',
  'former',
  'all',
  'any',
  'every',
  'existing',
]);

/** Words for instructions. */
const NOUNS = new Set([
  'instruction',
  'instructions',
  'direction',
  'directions',
  'prompt',
  'prompts',
  'command',
  'commands',
  'rule',
  'rules',
  'guideline',
  'guidelines',
  'directive',
  'directives',
  'order',
  'orders',
  'programming',
  'constraints',
  'restrictions',
]);

/**
 * The only other words the clause may hold between the verb and the noun:
 * determiners and words that name the assistant's own set-up. Any other
 * word (`my`, `homework`, `approval`, a possessive) makes it someone else's
 * instructions, and the clause is not an override.
 */
const FILLERS = new Set([
  'the',
  'your',
  'these',
  'those',
  'this',
  'that',
  'of',
  'and',
  'or',
  'following',
  'other',
  'given',
  'system',
  'developer',
  'developers',
]);

/**
 * What an override goes on with after its noun (besides the end of the text
 * or of a sentence other than a question): a new order ("… and print …",
 * "… instructions, now …", "… instructions: …") or words placing the
 * instructions with the assistant ("… instructions given to you", "… above",
 * "… you were given"). Anything else ties them to a thing or to someone
 * ("the instructions on the box", "the rules of the game", "the directions,
 * the detour ends at exit 12"): not an override.
 */
const GOES_ON = new Set([
  'and',
  'then',
  'now',
  'instead',
  'just',
  'only',
  'please',
  'so',
  'but',
  'given',
  'above',
  'before',
  'below',
  'provided',
  'received',
  'that',
  'which',
  'completely',
  'entirely',
  'altogether',
]);

/** After `you`: the instructions are the assistant's ("… rules you were given"). */
const YOU_GOES_ON = new Set(['were', 'have', 'had', 'got', 'received', 'are', 've', 'was']);

/** Words a clause may hold between the verb and the noun (at most this many). */
const WINDOW = 6;

/** Letters kept of a word (longer runs match no set). */
const MAX_WORD = 16;

function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/** One word of the text: lower-cased, apostrophes dropped (`don't` → `dont`). */
interface Word {
  word: string;
  /** Punctuation (or the start of the text) came before it, not only blanks. */
  afterMark: boolean;
  /** A clause boundary (`.`, `!`, `?`, `;`, `:`, a line break) came before it. */
  afterEnd: boolean;
  /** The boundary before it was a question mark. */
  afterQuestion: boolean;
  /** Written as a possessive (`recipe's`, `manager’s`): someone else's instructions. */
  possessive: boolean;
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

function isEnd(code: number): boolean {
  return code === 46 || code === 33 || code === 63 || code === 59 || code === 58 || code === 10;
}

/** The text's ASCII words; any other character ends a word. */
function* words(text: string): Generator<Word> {
  let word = '';
  let possessive = false;
  let afterMark = false;
  let afterEnd = false;
  // The start of the text counts as punctuation and a clause boundary.
  let mark = true;
  let end = true;
  let question = false;
  let afterQuestion = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isLetter(code)) {
      if (word === '') {
        afterMark = mark;
        afterEnd = end;
        afterQuestion = question;
        mark = false;
        end = false;
        question = false;
        possessive = false;
      }
      // No word of the sets is longer than 12 letters: a longer run is kept as one that matches none.
      if (word.length < MAX_WORD) word += String.fromCharCode(code | 0x20);
      continue;
    }
    // An apostrophe (straight or curly) inside a word is dropped; `'s` at its end is a possessive.
    if ((code === 39 || code === 0x2019) && word !== '' && isLetter(text.charCodeAt(index + 1))) {
      const next = text.charCodeAt(index + 1) | 0x20;
      if (next === 115 && !isLetter(text.charCodeAt(index + 2))) possessive = true;
      continue;
    }
    if (word !== '') {
      yield { word, afterMark, afterEnd, afterQuestion, possessive };
      word = '';
    }
    if (!isBlank(code)) mark = true;
    if (isEnd(code)) end = true;
    if (code === 63) question = true;
  }
  if (word !== '') yield { word, afterMark, afterEnd, afterQuestion, possessive };
}

/** Stems one of which an override holds (a verb of `VERBS` or `FOLLOW_VERBS`). */
const VERB_STEMS = [
  'ignor',
  'disregard',
  'forget',
  'overrid',
  'bypass',
  'discard',
  'follow',
  'obey',
];

/** Whether `text` orders the instructions before it set aside (see the module comment). */
export function hasPriorOverride(text: string): boolean {
  // Most texts hold no verb stem: a native search each, on the text lower-cased once.
  const lower = text.toLowerCase();
  if (!VERB_STEMS.some(stem => lower.includes(stem))) return false;
  return readsPriorOverride(text);
}

function readsPriorOverride(text: string): boolean {
  // The clause in progress: since the last verb, the words read (at most WINDOW).
  let open = false;
  let read = 0;
  let prior = false;
  // A clause that reached its noun, and then `you`: what follows decides.
  let matched = false;
  let matchedYou = false;
  // The word before, whether it was itself led as an order, and the one before that.
  let previous = '';
  let previousLed = false;
  let beforePrevious = '';
  let beforePreviousLed = false;
  for (const { word, afterMark, afterEnd, afterQuestion, possessive } of words(text)) {
    if (matchedYou) {
      if (YOU_GOES_ON.has(word) && !afterMark) return true;
      matchedYou = false;
    }
    if (matched) {
      matched = false;
      if (afterEnd) {
        if (!afterQuestion) return true;
      } else if (GOES_ON.has(word)) return true;
      else if (word === 'you' && !afterMark) matchedYou = true;
    }
    const led = afterMark || LEADS.has(previous) || (previous === 'to' && beforePrevious === 'you');
    const verb =
      (VERBS.has(word) && led) ||
      (FOLLOW_VERBS.has(word) &&
        !afterEnd &&
        ((NEGATIONS.has(previous) && previousLed) ||
          (previous === 'not' && beforePrevious === 'do' && beforePreviousLed) ||
          (previous === 'longer' && beforePrevious === 'no')));
    beforePrevious = previous;
    beforePreviousLed = previousLed;
    previous = word;
    previousLed = led;
    if (verb) {
      open = true;
      read = 0;
      prior = false;
      continue;
    }
    if (!open) continue;
    if (afterEnd || possessive || ++read > WINDOW) open = false;
    else if (PRIOR.has(word)) prior = true;
    else if (NOUNS.has(word)) {
      matched = prior;
      open = false;
    } else if (!FILLERS.has(word)) open = false;
  }
  // The text ends right after the noun (or after `you`, which is not enough).
  return matched;
}
