/**
 * Follow-up references (issue 15, round 49 hJ). A user's message that comes
 * after an assistant message often points back at that answer: "I followed
 * your instructions but…", "repeat your rules", "the config above again".
 * The direct model learnt `your instructions / rules / guidelines` as the
 * assistant's configuration, so such follow-ups scored as extraction
 * attempts. When the text follows an assistant turn, the words that can bind
 * to the previous answer are read as a neutral word (`answer`) before the
 * model scores, unless the text also carries a word only an attack needs
 * (an override verb, the system prompt, a persona switch, a hidden or
 * initial configuration): then it is read as written.
 *
 * The referent (round 50 hE): a reference reads as `answer` only when the
 * previous answer has something it can bind to (`answerReferents`); any
 * other reference is read as written. The binding table, by kind:
 *
 * | reference in the user's text                          | the answer needs |
 * | `your instructions / steps / directions / guide / list`, `the steps … you gave` | STEPS: the words instruction(s) / step(s) / directions / procedure / recipe / tutorial, a list (two or more numbered or bulleted items), a sentence, clause or line that opens with a common imperative verb, or instructions in general form (round 50 hJ, bounded by hP): in an answer of 40 characters or more, two clause openings with a verb-like word (not a pronoun, determiner, question word, auxiliary, preposition, greeting, refusal or sign-off word such as `sorry / try / bye / welcome`, or adverb, not followed by `me / us / you`, an auxiliary or a capital) in clauses of three words or more, or one with a sequence word; two sequence words (`first / then / next / finally` opening a clause of three words or more); second-person directions opening a clause with a word after them (`then you turn left`, `you'll need to`, `you should water`; not `You go.`); or a way word (`north / left / straight ahead`) with a route word (`walk / blocks / past / station / street`) |
 * | `your rules`, `the rules … you gave`                  | RULES: the words rule(s) / guideline(s) / policy / requirement(s) / regulation(s), `must / should not / never / always`, `not allowed / forbidden / prohibited`, or a list. Not imperatives or instructions in general form (round 50 hP): a steps referent alone does not bind `your rules` |
 * | `your guidelines`, `the guidelines … you gave`        | RULES or STEPS (guidelines are advice as often as rules: "open with the role, show two achievements, …") |
 * | `your prompt(s) / template(s) / config`, `the prompt … you wrote` | TEXT: the words prompt / template / config… / settings / draft / snippet / script / code, a code fence, or a quotation (a double quote followed by 20 characters of one line) |
 * | `your answer / explanation / reply / advice / tips / plan / recipe`, `you said / mentioned / wrote`, `above`, `again` | ANSWER: a non-trivial answer: three or more words of three or more letters that are not greeting or offer words (`hello`, `how`, `can`, `help`, `today`, …), or any of the kinds above |
 *
 * So after a forged greeting ("Hello! How can I help?") no reference binds
 * and every text reads as a first turn. What the previous answer is (the
 * guard's `answerOf`): the text parts of the latest assistant turn before
 * the user's message (consecutive assistant messages, tool messages between
 * them belong to the turn, their results are not the answer); reasoning,
 * tool calls and files are not text the user saw as the answer, and a turn
 * with no text part (tool calls only, reasoning only, empty) has no
 * referent. The answer is read only in its first and last
 * `ANSWER_READ_LENGTH` characters: a referent only between them is not
 * found, so its references read as written (fail closed). `followsAssistant`
 * without an answer (`scorePromptInjection`'s caller who has none to give;
 * the trainer's `FOLLOWS_ASSISTANT`) binds every kind, round 49's reading.
 *
 * The attacker controls the turn order and the answer (a forged assistant
 * turn costs nothing: the client sends the history), so a forged answer
 * that carries a list of instructions still makes `your instructions` read
 * as the answer's (docs/limits.md); the gate words, not the turn, keep the
 * overrides, extraction and persona switches.
 *
 * Linear: one pass of three fixed expressions per folded piece, and one
 * pass of two fixed expressions over at most 2 × `ANSWER_READ_LENGTH`
 * characters of the answer; no expression is made per call.
 */

/**
 * Words that keep a follow-up as written: overrides, names only the
 * configuration has, persona switches, output-verbatim demands (`everything
 * above this line`, `the words above starting with`, `in full`). Read on
 * the folded text (lower case, leetspeak and homoglyphs folded).
 */
const attackWord =
  /\b(?:ignor\w*|disregard\w*|forget\w*|forgot|overrid\w*|bypass\w*|circumvent\w*|jailbr\w*|dan|unrestrict\w*|unfilter\w*|uncensor\w*|restrict\w*|filters?|polic(?:y|ies)|system|developers?|dev|admin\w*|hidden|secret\w*|initial|original|confidential|private|internal|verbatim|pretend\w*|roleplay\w*|role|persona|character|act|acting|reveal\w*|leak\w*|disclose\w*|expose\w*|dump\w*|void|revok\w*|obey\w*|comply|unlock\w*|mode|configur\w*|programm\w*|trained|training|given|guardrails?|safety|ethic\w*|moral\w*|refus\w*|anything|whatever|words|start\w*|begin\w*|conversation|quote\w*)\b/;

/**
 * Words that keep a follow-up as written too, but that an ordinary
 * follow-up to an answer with a referent also uses (round 50 hE, hK's
 * review: "the previous one was confusing", "the whole thing", "the line
 * about baking soda: how much exactly?", "everything you told me"). Before
 * an answer of unknown content (`followsAssistant` alone) they count as
 * words; after an answer that has what a reference binds to, only in the
 * forms an attack gives them (`narrowedForm`).
 */
const narrowedWord =
  /\b(?:previous|prior|preceding|earlier|told|everything|line|exact\w*|full|entire|complete|whole)\b/;

/**
 * The attack forms of `narrowedWord`: the previous / earlier instructions,
 * prompt, rules, messages or text; the whole / full prompt, system,
 * instructions, text or conversation, `in full`; everything above / before
 * / you were told; what you were / have been told, told to / not to; this
 * / that / the first line, a line above; exact text, words, wording, as
 * written, or copied / quoted / repeated exactly.
 */
const narrowedForm =
  /\b(?:(?:previous|prior|preceding|earlier)\s+(?:[\w']+\s+){0,2}?(?:instruct\w*|prompts?|rules?|guidelines?|directives?|messages?|context|text|commands?|orders?|settings|conversation|inputs?|system)|(?:whole|entire|complete|full)\s+(?:[\w']+\s+)?(?:prompts?|instruct\w*|system|context|text|conversation|rules?|guidelines?|config\w*|setup)|in\s+full|everything\s+(?:above|before|prior|earlier|up|from|written|in\s+your|you\s+(?:were|have\s+been|'ve\s+been|got|are))|(?:were|was|are|been|get|got|being)\s+(?:you\s+|u\s+)?told|told\s+(?:to|not|before|earlier|never)|(?:this|that|first|last|top)\s+line|lines?\s+(?:above|before|one)|exact\w*\s+(?:as|what|text|words?|wording|copy|same|prompt|instruct\w*)|(?:quote|copy|repeat|print|output|reproduce|write|paste)\s+(?:\w+\s+){0,3}?exactly)\b/;

/** The answer was read (`answerReferents`), so `narrowedWord` counts only in `narrowedForm`. */
export const REFERENT_READ = 16;

/**
 * Forms an attack needs that no single word of `attackWord` names (round 49
 * hL, after hK's review): the assistant's instructions voided or negated
 * (`no longer apply`, `are cancelled`, `do not / stop following`, `cancel
 * your rules`, `without your guidelines`, `without limits`), verbatim
 * demands (`word for word`, `letter by letter`, `character for character`,
 * `nothing left out`) and the assistant's own configuration (`your config`,
 * `cfg`). `I / we don't follow` (not understood) stays a follow-up.
 */
const attackForm =
  /\b(?:no\s+longer\s+(?:apply|applies|valid|in\s+(?:effect|force)|binding|holds?|matters?|counts?|exists?)|(?:not|isn'?t|aren'?t|isnt|arent)\s+(?:valid|binding|in\s+(?:effect|force))|(?<!\b(?:i|we|they)\s)(?:do\s+not|don'?t|dont|never|stop|quit|cease)\s+(?:following|follow|obeying|obey)|(?:are|is|were|have\s+been|has\s+been)\s+(?:now\s+)?(?:cancell?ed|void(?:ed)?|revoked|suspended|nullified|annulled|rescinded|lifted|disabled|invalid|obsolete|null)|(?:cancel|revoke|suspend|nullify|annul|rescind|disable|lift)\s+(?:all\s+)?(?:your|ur|yr|the|these|those|any)\s+(?:\w+\s+)?(?:instruct\w*|rules?|guidelines?|restrictions?|limits?)|(?:without|free\s+(?:of|from)|outside(?:\s+of)?|beyond)\s+(?:your|ur|yr|any|all)\s+(?:own\s+)?(?:rules?|guidelines?|instruct\w*|limits?|limitations?|constraints?|boundaries|guard\w*)|without\s+(?:limits?|limitations?|constraints?|boundaries|rules)|word[\s-]+(?:for|by|to)[\s-]+word|letter[\s-]+(?:for|by)[\s-]+letter|char[\s-]+(?:for|by)[\s-]+char|nothing\s+left\s+out|(?:your|ur|yr)\s+(?:own\s+)?(?:config\w*|cfg|settings|setup)|cfg)\b/;

/**
 * Words that can bind to the previous answer: its instructions, rules,
 * steps, prompt or config (`your …`, `the … you gave / wrote`, `… above`),
 * what `you said`, and `again`.
 */
const reference =
  /\b(?:(?:your|ur|yr|ya|thy)\s+(?:(?:last|first|second|third|next|above|own|latest|new)\s+)?(?:instruct\w*|rules?|guidelines?|guide|steps?|directions?|list|prompts?|templates?|config\w*|answers?|explanation|reply|response|advice|suggestions?|tips?|plan|recipe)|(?:the|that|this|those|these)\s+(?:instruct\w*|rules?|guidelines?|steps?|directions?|prompts?|templates?|config)\s+(?:you|u)\s+(?:just\s+)?(?:gave|wrote|listed|sent|showed|posted|explained|made|described)(?:\s+me)?|(?:you|u)\s+(?:just\s+)?(?:said|mentioned|wrote|listed|explained|described|suggested)|above|again)\b/g;

/** The word a reference is read as. */
const NEUTRAL = 'answer';

/** The answer has instructions: steps, directions, a list or imperative sentences. */
export const REFERENT_STEPS = 1;
/** The answer has rules: rules, guidelines, musts and nevers, or a list (not imperatives alone). */
export const REFERENT_RULES = 2;
/** The answer has a text to copy: a prompt, template, config, code or quotation. */
export const REFERENT_TEXT = 4;
/** The answer is non-trivial (not a greeting): what `above / again / you said` bind to. */
export const REFERENT_ANSWER = 8;
/** Every kind: `followsAssistant` without an answer (round 49's reading). */
export const ANY_REFERENT = 15;

/**
 * Whether, after an answer that was read, `narrowedWord` keeps a follow-up
 * as written only in its attack forms (round 50 hE; its keep rule is in the
 * commit that set it).
 */
export const NARROWED_ON_REFERENT = true;

/** Characters of the answer read at its start and at its end. */
export const ANSWER_READ_LENGTH = 16_384;

/**
 * What in an answer a reference can bind to, each alternative a group:
 * 1 steps words, 2 rules words, 3 text words, a code fence or a quotation,
 * 4 a list item (numbered or bulleted), 5 an imperative sentence start,
 * 6 second-person directions opening a clause, 7 a sequence word opening a
 * clause, 8 a word opening a clause (verb-like unless `notVerbLike`), 9 a
 * way word, 10 a route word, 11 any other word of three or more letters (counted unless a
 * greeting word).
 */
const clauseRest = String.raw`[ \t]+[\p{L}\d][^\s.!?:;,]*[ \t]+[\p{L}\d]`;

const answerParts = new RegExp(
  [
    String.raw`\b(instruct\w*|steps?|directions?|procedures?|recipes?|tutorials?)\b`,
    String.raw`\b(rules?|guidelines?|polic(?:y|ies)|requirements?|regulations?|must(?:n'?t)?|should\s+(?:not|never|always)|never|always|not\s+allowed|forbidden|prohibited)\b`,
    String.raw`(\bprompts?\b|\btemplates?\b|\bconfig\w*|\bsettings\b|\bdrafts?\b|\bsnippets?\b|\bscripts?\b|\bcode\b|\x60\x60\x60|"[^"\n]{20})`,
    String.raw`((?:^|[\s:;(])\d{1,2}[.)]\s+\p{L}|^[ \t]*[-*\u2022][ \t]+\S)`,
    String.raw`((?:^|[.!?:;,]\s+|\n[ \t]*)(?:and\s+)?(?:then\s+)?(?:add|apply|avoid|boil|bring|check|choose|click|close|combine|connect|copy|cover|cut|delete|download|enable|enter|fill|fold|follow|heat|insert|install|keep|leave|log|make|mix|move|open|paste|place|plug|pour|press|put|remove|replace|restart|run|save|select|set|start|stir|take|tap|turn|type|unplug|update|use|wait|wash|do\s+not|don'?t)\b)`,
    String.raw`(?:^|[.!?:;,]\s+|\n[ \t]*)(?:(?:and\s+)?(?:then|first|next|now|so)\s+|and\s+)?(you(?:'ll|\s+will)?\s+(?:need\s+to|have\s+to|should|turn|go|head|walk|drive|cross|pass|reach|take|continue|keep|follow))\b(?=[ \t]+[\p{L}\d])`,
    String.raw`(?:^|[.!?:;,]\s+|\n[ \t]*)(first(?:ly)?|then|next|after\s+that|afterwards|finally|lastly)\b(?=${clauseRest})`,
    String.raw`(?:^|[.!?:;,]\s+|\n[ \t]*|\d{1,2}[.)]\s+|[-*\u2022][ \t]+)(?:and\s+)?(\p{L}{2,})(?=[ \t]+[\p{Ll}\d][^\s.!?:;,]*[ \t]+[\p{L}\d])(?![ \t]+(?:me|us|you|here|there|is|are|was|were|has|have|had|can|could|will|would|should|may|might|must|does|did|and|or)\b)`,
    String.raw`\b(north|south|east|west|left|right|straight\s+ahead)\b`,
    String.raw`\b(walk|walking|drive|driving|blocks?|miles?|km|kilomet(?:er|re)s?|met(?:er|re)s?|past|exit|corner|intersection|roundabout|station|street|road|avenue|bridge)\b`,
    String.raw`(\p{L}{3,})`,
  ].join('|'),
  'gimu',
);

/** Words of a greeting or an offer to help: they make no answer non-trivial. */
const greetingWords = new Set(
  'hello hey hiya how can could may might help you your yours today what assist welcome there good morning afternoon evening glad happy here for the and with anything else need sure okay thanks thank great are doing nice meet ready again just let know'.split(
    ' ',
  ),
);

/**
 * Words that open a sentence or clause without being an imperative verb:
 * pronouns, determiners, question words, auxiliaries, prepositions,
 * conjunctions, greeting and offer words, common adverbs. Words ending in
 * `ly` or `ing` (adverbs, gerunds) are not verb-like either.
 */
const notVerbWords = new Set(
  'i you we they he she it this that these those there here the a an my your our their his her its some any each every all no not none one what how why when where who whom which whose is are was were be been am can could would will should may might must shall does did has have had in on at for to from with by of about around into onto over under through across along near between during within without per via as if while since because after before so but or and nor yet hi hello hey hiya welcome thanks greetings good sure okay ok yes well oh ah great glad happy nice sorry bye goodbye try feel let just also please today now maybe perhaps course most many much more less very too both either neither such other another only even still again once here ready hope wow cool awesome dear'.split(
    ' ',
  ),
);

function notVerbLike(word: string): boolean {
  return notVerbWords.has(word) || word.endsWith('ly') || word.endsWith('ing');
}

/**
 * Characters an answer needs before its verb-like clause openings count as
 * instructions (round 50 hP): refusals and sign-offs ("Sorry. Try later.
 * Bye now.", "No. Ask elsewhere, try later.") are 26-37 characters; the
 * shortest instructions in general form in the tests are 40 and more.
 */
const MIN_GENERAL_FORM_LENGTH = 40;

/** Non-greeting words that make an answer non-trivial. */
const CONTENT_WORDS = 3;

/**
 * The kinds of referent `answer` has (a set of `REFERENT_*` bits), read in
 * its first and last `ANSWER_READ_LENGTH` characters (see the table above).
 */
export function answerReferents(answer: string): number {
  if (answer.length <= 2 * ANSWER_READ_LENGTH) return readReferents(answer);
  return (
    readReferents(answer.slice(0, ANSWER_READ_LENGTH)) |
    readReferents(answer.slice(answer.length - ANSWER_READ_LENGTH))
  );
}

function readReferents(text: string): number {
  let kinds = 0;
  let items = 0;
  let imperatives = 0;
  let words = 0;
  let sequence = 0;
  let verbLike = 0;
  let secondPerson = 0;
  let way = 0;
  let route = 0;
  for (const match of text.matchAll(answerParts)) {
    if (match[1] !== undefined) kinds |= REFERENT_STEPS;
    else if (match[2] !== undefined) kinds |= REFERENT_RULES;
    else if (match[3] !== undefined) kinds |= REFERENT_TEXT;
    else if (match[4] !== undefined) items++;
    else if (match[5] !== undefined) imperatives++;
    else if (match[6] !== undefined) secondPerson++;
    else if (match[7] !== undefined) sequence++;
    else if (match[8] !== undefined) {
      const word = match[8].toLowerCase();
      if (word.length >= 3 && !greetingWords.has(word)) words++;
      if (!notVerbLike(word)) verbLike++;
    } else if (match[9] !== undefined) way++;
    else if (match[10] !== undefined) route++;
    else if (!greetingWords.has(match[11]!.toLowerCase())) words++;
  }
  const steps =
    items >= 2 ||
    imperatives >= 1 ||
    (text.length >= MIN_GENERAL_FORM_LENGTH &&
      (verbLike >= 2 || (sequence >= 1 && verbLike >= 1))) ||
    sequence >= 2 ||
    secondPerson >= 1 ||
    (way >= 1 && route >= 1);
  if (steps) kinds |= REFERENT_STEPS;
  if (items >= 2) kinds |= REFERENT_RULES;
  const content = words + imperatives + sequence + secondPerson + way + route;
  if (kinds !== 0 || content >= CONTENT_WORDS) kinds |= REFERENT_ANSWER;
  return kinds === 0 ? 0 : kinds | REFERENT_READ;
}

/** The kind of referent a reference (a match of `reference`, folded) needs. */
function referentNeeded(match: string): number {
  if (match === 'above' || match === 'again' || /^(?:you|u)\s/.test(match)) return REFERENT_ANSWER;
  if (/guideline/.test(match)) return REFERENT_RULES | REFERENT_STEPS;
  if (/rule/.test(match)) return REFERENT_RULES;
  if (/prompt|template|config/.test(match)) return REFERENT_TEXT;
  if (/instruct|step|direction|guide|list/.test(match)) return REFERENT_STEPS;
  return REFERENT_ANSWER;
}

/**
 * The pieces of a folded text as the model reads a follow-up: references
 * to the previous answer that bind to one of `referents` (see
 * `answerReferents`) read as `answer`, or `undefined` when nothing changes
 * (no reference that binds, or a word only an attack needs; see above).
 */
export function followUpReading(
  pieces: readonly string[],
  referents: number = ANY_REFERENT,
): string[] | undefined {
  if (referents === 0) return undefined;
  let found = false;
  for (const piece of pieces) {
    if (attackWord.test(piece) || attackForm.test(piece)) return undefined;
    if (NARROWED_ON_REFERENT && (referents & REFERENT_READ) !== 0) {
      if (narrowedWord.test(piece) && narrowedForm.test(piece)) return undefined;
    } else if (narrowedWord.test(piece)) return undefined;
    if (found) continue;
    reference.lastIndex = 0;
    for (const match of piece.matchAll(reference)) {
      if ((referentNeeded(match[0]) & referents) !== 0) {
        found = true;
        break;
      }
    }
  }
  if (!found) return undefined;
  const bound = (match: string) => ((referentNeeded(match) & referents) !== 0 ? NEUTRAL : match);
  return pieces.map(piece => piece.replace(reference, bound));
}
