/**
 * Instruction disclosure (issue 15, round 48 hG): a request that the
 * assistant hand over its own instructions, the system prompt or leak
 * kind (OWASP LLM07): a disclosure verb (`print`, `repeat`, `reveal`,
 * `spell check`, `translate`, `list`, `what …`) acting, in the same
 * sentence, on the assistant's own instructions: `your (initial)
 * instructions / prompt / directives / commands / programming`, `the
 * previous / above / initial / original / system / hidden instructions /
 * prompt`, `the instructions above`, or what `you were given / told /
 * instructed / programmed`. A qualified object without `your` counts only
 * after a verb that shows text as it is (`print`, `repeat`, `reveal`, …),
 * not after `translate` or `explain` (a user may ask about instructions
 * they pasted above). A verb within three words after `not` / `never` /
 * `don't` arms nothing (`never reveal your instructions` is a system
 * prompt's own rule).
 *
 * The kind, not one source's strings: garak's prompt-leaking and
 * system-prompt-extraction probes, pallms' and llm_guard's instruction
 * listing, PyRIT's extraction prompts are instances of it.
 *
 * One pass over the text as written: ASCII words, lower-cased on the fly,
 * a few words of state; no RegExp. Linear in the text's length.
 */

/** Signal id in `scorePromptInjection`'s signals. */
export const INSTRUCTION_DISCLOSURE_SIGNAL = 'instruction-disclosure';

/**
 * Probability a direct-mode text gets when it asks for the assistant's
 * instructions (the higher of it and the model's counts): over every
 * threshold the trainer picks.
 */
export const INSTRUCTION_DISCLOSURE_PROBABILITY = 0.99;

/**
 * Whether `scorePromptInjection` applies the rule. Off (round 48 hP): the
 * review (hJ) found ordinary chat blocked by it, requests about commands,
 * directions or a prompt given earlier in the conversation; the trainer
 * applies it only with INSTRUCTION_DISCLOSURE=1.
 */
export const INSTRUCTION_DISCLOSURE_ON = false;

/** Verbs that show a text as it is: any instruction object counts after them. */
const showVerbs = new Set([
  'print',
  'repeat',
  'reveal',
  'output',
  'display',
  'show',
  'leak',
  'disclose',
  'dump',
  'recite',
  'spell',
  'echo',
  'copy',
  'expose',
  'relay',
  'reproduce',
]);

/** Verbs that count only with the assistant's own object (`your …`, `you were given`). */
const askVerbs = new Set([
  'tell',
  'give',
  'share',
  'list',
  'translate',
  'explain',
  'summarize',
  'summarise',
  'encode',
  'state',
  'provide',
  'return',
  'what',
  'recall',
]);

const negations = new Set(['not', 'never', "don't", 'dont', 'no', "doesn't", "won't", 'cannot']);

/** Nouns of the assistant's instructions. */
const instructionNouns = new Set([
  'instructions',
  'instruction',
  'prompt',
  'prompts',
  'directives',
  'directions',
  'commands',
  'programming',
]);

/** Words that make `instructions` the assistant's standing ones. */
const qualifiers = new Set([
  'previous',
  'above',
  'initial',
  'original',
  'system',
  'hidden',
  'secret',
  'preceding',
  'prior',
  'earlier',
  'internal',
  'initialization',
]);

const receivedVerbs = new Set(['given', 'told', 'instructed', 'programmed']);

/** What `you were given` may name: instructions or the text of them. */
const receivedObjects = new Set([...instructionNouns, 'text', 'words', 'rules', 'message']);

/** Words a verb may stand before its object. */
const REACH = 7;

function isWordChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x27;
}

function endsSentence(code: number): boolean {
  return code === 0x2e || code === 0x21 || code === 0x3f || code === 0x0a || code === 0x3b;
}

/** Longest word read (longer runs are no word of the lists). */
const MAX_WORD = 16;

/**
 * Stems of which a firing text holds one (every instruction noun and
 * received verb): most texts hold none and are not read word by word.
 */
const stems = ['instruct', 'prompt', 'directi', 'command', 'programm', 'given', 'told'];

function mayDisclose(lower: string): boolean {
  for (const stem of stems) if (lower.includes(stem)) return true;
  return false;
}

/**
 * Whether `text` asks the assistant for its own instructions (see the
 * file's comment).
 */
export function hasInstructionDisclosure(written: string): boolean {
  // Lower-cased once; words are read from it (ASCII letters only).
  const text = written.toLowerCase();
  if (!mayDisclose(text)) return false;
  // The last five words of the sentence, newest first.
  const last: string[] = ['', '', '', '', ''];
  let index = 0; // words read in the sentence
  let showAt = -100; // index of the last show verb
  let askAt = -100; // index of the last ask verb
  let negatedAt = -100;
  let at = 0;
  const length = text.length;
  while (at < length) {
    const code = text.charCodeAt(at);
    if (!isWordChar(code)) {
      if (endsSentence(code)) {
        index = 0;
        showAt = -100;
        askAt = -100;
        negatedAt = -100;
        last.fill('');
      }
      at++;
      continue;
    }
    const start = at;
    while (at < length && isWordChar(text.charCodeAt(at))) at++;
    if (at - start > MAX_WORD) continue;
    const word = text.slice(start, at);
    if (negations.has(word)) negatedAt = index;
    else if (index - negatedAt > 3) {
      if (showVerbs.has(word)) showAt = index;
      else if (askVerbs.has(word)) askAt = index;
    }
    let own = false;
    let qualified = false;
    if (instructionNouns.has(word)) {
      for (let back = 0; back < 3; back++) {
        if (back < 2 && qualifiers.has(last[back]!)) qualified = true;
        // `your prompt` alone is the prompt being written in prompt-writing talk.
        if (last[back] === 'your' && (qualified || (word !== 'prompt' && word !== 'prompts'))) {
          own = true;
        }
      }
    } else if (word === 'above' && instructionNouns.has(last[0]!)) {
      qualified = true;
    } else if (receivedVerbs.has(word)) {
      // `what were you told`, `the instructions / text you were given`; not
      // `the article you have been given` (a document, not instructions).
      const asked = last[0] === 'you' && last[1] === 'were' && index - askAt <= 3;
      const objectAt =
        (last[0] === 'were' || last[0] === 'been') && last[1] === 'you'
          ? 2
          : last[0] === 'been' && last[1] === 'have' && last[2] === 'you'
            ? 3
            : -1;
      own = asked || (objectAt > 0 && receivedObjects.has(last[objectAt] ?? ''));
    }
    if ((own || qualified) && index - showAt <= REACH) return true;
    if (own && index - askAt <= REACH) return true;
    last[4] = last[3]!;
    last[3] = last[2]!;
    last[2] = last[1]!;
    last[1] = last[0]!;
    last[0] = word;
    index++;
  }
  return false;
}
