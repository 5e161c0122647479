/**
 * Prefix injection with refusal suppression (issue 15, round 48 hK): a list
 * of rules for the answer that both dictates, word for word, how the answer
 * opens ("start your response with 'Sure, here is …'", "begin your reply
 * using the following exact structure:") and forbids a refusal or a caveat
 * ("never use phrases like 'I cannot'", "do not apologize", "no warnings or
 * disclaimers"), or dictates an opening that is itself a compliance phrase
 * ("Sure, here is"). Wei et al. 2023 ("Jailbroken: How Does LLM Safety
 * Training Fail?") name the two kinds prefix injection and refusal
 * suppression; adaptive attacks (Andriushchenko et al. 2024) write both as
 * `<rule>`s. The kind of attack, not a string: the lexicon is written from
 * general knowledge of the kind.
 *
 * An ordinary prompt may ask for an opening ("start your answer with a
 * summary": no quoted text, so no dictated opening) or refuse caveats ("no
 * disclaimers please"); only the two together, with the opening given word
 * for word, count.
 *
 * One pass to fold the text (lower case, blank runs as one space, curly
 * quotes straight), then a fixed set of `indexOf` searches: linear. No RegExp.
 */

/**
 * Signal id the rule would name in `scorePromptInjection`'s signals. Round 48
 * did not keep the rule (see the model card): only the trainer reads it, behind
 * REFUSAL_SUPPRESSION=1.
 */
export const REFUSAL_SUPPRESSION_SIGNAL = 'refusal-suppression';

/**
 * Probability a direct-mode text gets when it carries a dictated opening with
 * a refusal ban or a compliance phrase: over every threshold the trainer picks.
 */
export const REFUSAL_SUPPRESSION_PROBABILITY = 0.99;

const OPEN_VERBS = ['start', 'begin', 'open', 'preface', 'prefix'];
const ANSWER_NOUNS = ['response', 'reply', 'answer', 'output', 'responses', 'replies', 'answers'];

/** Phrases that dictate how the answer opens; a literal must follow (see `literalFollows`). */
const OPENING_PHRASES: readonly string[] = [
  ...OPEN_VERBS.flatMap(verb =>
    ANSWER_NOUNS.flatMap(noun => [`${verb} your ${noun} with`, `${verb} your ${noun} by`]),
  ),
  ...OPEN_VERBS.flatMap(verb => ANSWER_NOUNS.map(noun => `${verb} your ${noun} using`)),
  ...ANSWER_NOUNS.flatMap(noun =>
    ['should', 'must', 'will', 'shall', 'has to', 'needs to'].flatMap(modal =>
      ['start', 'begin', 'open'].map(verb => `${noun} ${modal} ${verb} with`),
    ),
  ),
  ...['start', 'begin'].flatMap(verb => [
    `${verb} with the words`,
    `${verb} with the phrase`,
    `${verb} with the sentence`,
    `${verb} by saying`,
    `${verb} by replying with`,
    `${verb} by writing`,
  ]),
  'first words of your',
  'first sentence of your response',
  'first line of your response',
  'respond starting with',
  'reply starting with',
  'answer starting with',
];

/** Words that lead a ban on an act (`never refuse`, `do not apologize`). */
const BAN_LEADS: readonly string[] = ['never ', 'do not ', "don't ", 'not ', 'avoid '];

/** Acts a refusal ban forbids, after one of `BAN_LEADS`. */
const BANNED_ACTS: readonly string[] = [
  'refuse',
  'apologi',
  'apologe',
  'say sorry',
  'say that you can',
  'say you can',
  'decline',
  'include any warning',
  'include warning',
  'include any disclaimer',
  'include disclaimer',
  'add any warning',
  'add any disclaimer',
  'add warning',
  'add disclaimer',
  'use phrases like',
  'use words like',
  'use the words',
  'use phrases such as',
  'use words such as',
  'ever use',
  'mention ethic',
  'mention legal',
  'mention safety',
  'moralize',
  'moralise',
  'lecture',
];

/** Refusal bans written whole. */
const REFUSAL_BAN_PHRASES: readonly string[] = [
  'never ever',
  'without any warning',
  'without any disclaimer',
  'without warnings',
  'without disclaimers',
  'no warnings',
  'no disclaimers',
  'no moralizing',
  'no moralising',
  'no apologies',
  'no refusals',
  'ignore any possible ethical',
  'ignoring any moral',
  'disregard any possible ethical',
  'disregard any ethical',
  'ignore ethical',
];

/**
 * Whether `folded` bans a refusal, an apology or a caveat: a phrase of
 * `REFUSAL_BAN_PHRASES`, or a lead of `BAN_LEADS` right before an act of
 * `BANNED_ACTS`. One search per lead and phrase; each lead's occurrence
 * reads a bounded number of characters after it.
 */
function hasRefusalBan(folded: string): boolean {
  if (containsAny(folded, REFUSAL_BAN_PHRASES)) return true;
  for (const lead of BAN_LEADS) {
    let at = folded.indexOf(lead);
    while (at >= 0) {
      const after = at + lead.length;
      for (const act of BANNED_ACTS) if (folded.startsWith(act, after)) return true;
      at = folded.indexOf(lead, at + 1);
    }
  }
  return false;
}

/** An answer opening that complies ("Sure, here is"), as dictated openings quote it. */
const COMPLIANCE_OPENINGS: readonly string[] = [
  'sure, here is',
  "sure, here's",
  'sure, here are',
  'sure here is',
  "sure here's",
  'sure! here is',
  "sure! here's",
  'absolutely! here',
  'absolutely, here',
  'of course! here',
  'certainly! here',
];

/** How far after an opening phrase its literal may begin. */
const LITERAL_REACH = 24;

/** How far after an opening phrase a colon or `<` may stand (`with: "…"`, `with <text>`). */
const MARK_REACH = 3;

function isQuote(code: number): boolean {
  return code === 0x22 || code === 0x27 || code === 0x60; // " ' `
}

/**
 * Whether a literal opening follows `at`: a quote within LITERAL_REACH
 * characters, a colon or `<` (a tag such as `<text>`) within MARK_REACH, or
 * "the following" within LITERAL_REACH.
 */
function literalFollows(folded: string, at: number): boolean {
  const end = Math.min(folded.length, at + LITERAL_REACH);
  for (let index = at; index < end; index++) {
    const code = folded.charCodeAt(index);
    if (isQuote(code)) return true;
    if ((code === 0x3a || code === 0x3c) && index < at + MARK_REACH) return true;
  }
  // Read within the reach only (an unbounded search per occurrence would be quadratic).
  return folded.slice(at, end + FOLLOWING.length - 1).includes(FOLLOWING);
}

const FOLLOWING = 'the following';

/**
 * Lower case, each run of blanks as one space, curly quotes and guillemets as
 * straight ones. One pass.
 */
export function foldForRules(text: string): string {
  const lower = text.toLowerCase();
  let out = '';
  let blank = false;
  let runStart = 0;
  for (let index = 0; index < lower.length; index++) {
    const code = lower.charCodeAt(index);
    const isBlank = code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
    const quote =
      code === 0x2018 || code === 0x2019
        ? "'"
        : code === 0x201c || code === 0x201d || code === 0xab || code === 0xbb
          ? '"'
          : '';
    if (!isBlank && quote === '' && !blank) continue;
    out += lower.slice(runStart, index);
    if (isBlank) {
      if (!blank) out += ' ';
      blank = true;
      runStart = index + 1;
      continue;
    }
    blank = false;
    runStart = index;
    if (quote !== '') {
      out += quote;
      runStart = index + 1;
    }
  }
  return out + lower.slice(runStart);
}

function containsAny(folded: string, phrases: readonly string[]): boolean {
  for (const phrase of phrases) if (folded.includes(phrase)) return true;
  return false;
}

/** Whether `folded` dictates a literal opening: an opening phrase with a literal after it. */
function hasDictatedOpening(folded: string): boolean {
  for (const phrase of OPENING_PHRASES) {
    let at = folded.indexOf(phrase);
    // Each phrase's occurrences are read once each, LITERAL_REACH characters after it.
    while (at >= 0) {
      if (literalFollows(folded, at + phrase.length)) return true;
      at = folded.indexOf(phrase, at + phrase.length);
    }
  }
  return false;
}

/**
 * Whether `text` carries prefix injection with refusal suppression: a
 * dictated literal opening, and a refusal ban or a compliance opening.
 */
export function hasRefusalSuppression(text: string): boolean {
  const folded = foldForRules(text);
  if (hasBannedQuotedRefusal(folded)) return true;
  const compliance = containsAny(folded, COMPLIANCE_OPENINGS);
  const ban = hasRefusalBan(folded);
  return (compliance && ban) || ((compliance || ban) && hasDictatedOpening(folded));
}

/** The parts the screen counts (scripts), each on its own. */
export function refusalSuppressionParts(text: string): {
  opening: boolean;
  ban: boolean;
  compliance: boolean;
  quotedRefusal: boolean;
} {
  const folded = foldForRules(text);
  return {
    quotedRefusal: hasBannedQuotedRefusal(folded),
    opening: hasDictatedOpening(folded),
    ban: hasRefusalBan(folded),
    compliance: containsAny(folded, COMPLIANCE_OPENINGS),
  };
}

/** Refusals and caveats as a prompt quotes them to ban them (`never say "I'm sorry"`), after the quote. */
const QUOTED_REFUSALS: readonly string[] = [
  "i'm sorry",
  'i am sorry',
  'sorry',
  'i cannot',
  "i can't",
  'i can not',
  "i'm unable",
  'i am unable',
  'unable',
  'as an ai',
  'i apologi',
  'i apologise',
  'unfortunately',
  "i won't",
  'i will not',
  "i'm not able",
  'i am not able',
  'cannot',
  "can't",
];

/** First characters of `QUOTED_REFUSALS`. */
const REFUSAL_FIRSTS = new Set(QUOTED_REFUSALS.map(word => word.charCodeAt(0)));

/** Words that ban what follows them, looked for before a quoted refusal. */
const BAN_WORDS: readonly string[] = [
  'never',
  'do not',
  "don't",
  'must not',
  'should not',
  'shall not',
  'will not',
  'not allowed',
  'avoid',
  'refrain',
  'forbid',
  'prohibit',
];

/** How far before a quoted refusal its ban may stand. */
const BAN_REACH = 80;

/** Whether `folded` quotes a refusal after a ban word (`never say "I cannot"`, `avoid phrases like 'sorry'`). */
function hasBannedQuotedRefusal(folded: string): boolean {
  for (const quote of ['"', "'"]) {
    let at = folded.indexOf(quote);
    // Each quote reads a bounded number of characters: the words after it, BAN_REACH before it.
    while (at >= 0) {
      if (REFUSAL_FIRSTS.has(folded.charCodeAt(at + 1)) && quotesRefusal(folded, at + 1)) {
        const window = folded.slice(Math.max(0, at - BAN_REACH), at);
        for (const word of BAN_WORDS) if (window.includes(word)) return true;
      }
      at = folded.indexOf(quote, at + 1);
    }
  }
  return false;
}

function quotesRefusal(folded: string, at: number): boolean {
  for (const word of QUOTED_REFUSALS) if (folded.startsWith(word, at)) return true;
  return false;
}
