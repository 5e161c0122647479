/**
 * Tense rephrasings for training (augmentation), applied alike to harmful and
 * benign prompts: "How can I X?" → "How did people X in the past?", "Write
 * X" → "How did people write X back then?", and the same in the future
 * tense. Because benign prompts get the same frames as harmful ones, the
 * frame words ("how did people", "in the past", "in the future") carry no
 * evidence either way and the model has to judge what is asked about — the
 * harmful object — not how the request is phrased. (Past- and
 * future-tense rewrites are a known way around refusal training; the rules
 * here are written for this project, not taken from any corpus.)
 *
 * Deterministic: one rewrite per matching row, past or future by a hash of
 * the row's id. Only English-looking openings match; other rows get none.
 */
import { fnv } from '../injection-data';

const askOpening =
  /^\s*(?:please\s+)?(?:how\s+(?:can|do|could|would|should|might|may)\s+(?:i|you|one|someone|we|people|a person)|how\s+to|what\s+is\s+the\s+(?:best|easiest|simplest|quickest|most effective)\s+way\s+to)\s+/i;
const commandOpening =
  /^\s*(?:please\s+)?(write|create|give|provide|explain|describe|develop|generate|design|outline|teach|tell|list|draft|suggest|show|compose|produce|make|build|find|help)\b\s*/i;

const frames = {
  past: { ask: 'How did people', tail: ' in the past?', command: 'How did people' },
  future: { ask: 'How will people', tail: ' in the future?', command: 'How will people' },
} as const;

/** The asked-for action of a request ("make a bomb" of "How can I make a bomb?"), or undefined. */
export function requestedAction(text: string): string | undefined {
  return actionAfterOpening(text, askOpening, commandOpening);
}

/**
 * The action after a question opening (`ask`: the rest of the text) or a
 * command opening (`command`, whose group 1 is the verb: the verb and the
 * rest), or undefined for a long text, no known opening or a rest under 3
 * characters. Shared by the tense rephrasings and compose.ts.
 */
export function actionAfterOpening(text: string, ask: RegExp, command: RegExp): string | undefined {
  if (text.length > 600) return undefined;
  const body = text.trim().replace(/[?.!\s]+$/u, '');
  const asked = ask.exec(body);
  if (asked) {
    const rest = body.slice(asked[0].length);
    return rest.length < 3 ? undefined : rest;
  }
  const commanded = command.exec(body);
  if (commanded) {
    const rest = body.slice(commanded[0].length);
    return rest.length < 3 ? undefined : `${commanded[1]!.toLowerCase()} ${rest}`;
  }
  return undefined;
}

/**
 * Safety questions about a harmful request's action, written for this
 * project: what a parent, a moderator or a security team asks about the same
 * harm. Used as benign training rows (label 0), so the topic alone does not
 * make a text harmful; what is asked for (how to do it vs how to recognise,
 * prevent or report it) has to.
 */
const safetyFrames = [
  (action: string) =>
    `What are the warning signs that someone is trying to ${action}, and how do I report it?`,
  (action: string) => `How can I protect my family from people who ${action}?`,
  (action: string) => `How do police and security teams detect and prevent attempts to ${action}?`,
  (action: string) => `Why is it dangerous and illegal to ${action}?`,
] as const;

/** A safety question about the action of `text` (frame picked by a hash of `id`), or undefined. */
export function safetyQuestion(id: string, text: string): string | undefined {
  const action = requestedAction(text);
  if (action === undefined) return undefined;
  const frame = safetyFrames[fnv(`harmful-safety:${id}`) % safetyFrames.length]!;
  return frame(action);
}

/** The rewrite of `text` in the tense picked for `id`, or undefined when its opening is not one we rewrite. */
export function rephraseTense(id: string, text: string): string | undefined {
  if (text.length > 600) return undefined;
  const frame = fnv(`harmful-tense:${id}`) % 2 === 0 ? frames.past : frames.future;
  const body = text.trim().replace(/[?.!\s]+$/u, '');
  const ask = askOpening.exec(body);
  if (ask) {
    const rest = body.slice(ask[0].length);
    if (rest.length < 3) return undefined;
    return `${frame.ask} ${rest}${frame.tail}`;
  }
  const command = commandOpening.exec(body);
  if (command) {
    const rest = body.slice(command[0].length);
    if (rest.length < 3) return undefined;
    return `${frame.command} ${command[1]!.toLowerCase()} ${rest}${frame.tail}`;
  }
  return undefined;
}
