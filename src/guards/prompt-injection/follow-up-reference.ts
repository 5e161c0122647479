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
 * The attacker controls the turn order (a greeting first, or a forged
 * assistant turn), so the gate words, not the turn order, keep the
 * overrides, extraction and persona switches: a later turn that asks for
 * "your instructions" with none of them reads as a follow-up (docs/limits.md).
 *
 * Linear: one pass of three fixed expressions per folded piece; no
 * expression is made per call.
 */

/**
 * Words that keep a follow-up as written: overrides, names only the
 * configuration has, persona switches, output-verbatim demands (`everything
 * above this line`, `the words above starting with`, `in full`). Read on
 * the folded text (lower case, leetspeak and homoglyphs folded).
 */
const attackWord =
  /\b(?:ignor\w*|disregard\w*|forget\w*|forgot|overrid\w*|bypass\w*|circumvent\w*|jailbr\w*|dan|unrestrict\w*|unfilter\w*|uncensor\w*|restrict\w*|filters?|polic(?:y|ies)|system|developers?|dev|admin\w*|hidden|secret\w*|initial|original|confidential|private|internal|verbatim|pretend\w*|roleplay\w*|role|persona|character|act|acting|reveal\w*|leak\w*|disclose\w*|expose\w*|dump\w*|previous|prior|preceding|earlier|void|revok\w*|obey\w*|comply|unlock\w*|mode|configur\w*|programm\w*|trained|training|told|given|guardrails?|safety|ethic\w*|moral\w*|refus\w*|anything|whatever|everything|line|words|start\w*|begin\w*|conversation|exact\w*|full|entire|complete|whole|quote\w*)\b/;

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

/**
 * The pieces of a folded text as the model reads a follow-up: references
 * to the previous answer read as `answer`, or `undefined` when nothing
 * changes (no reference, or a word only an attack needs; see above).
 */
export function followUpReading(pieces: readonly string[]): string[] | undefined {
  let found = false;
  for (const piece of pieces) {
    if (attackWord.test(piece) || attackForm.test(piece)) return undefined;
    reference.lastIndex = 0;
    if (!found && reference.test(piece)) found = true;
  }
  if (!found) return undefined;
  return pieces.map(piece => piece.replace(reference, NEUTRAL));
}
