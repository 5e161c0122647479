/**
 * Compositional rephrasings for training (augmentation), applied alike to
 * harmful and benign prompts, beside the tense rephrasings of rephrase.ts:
 * the asked-for action of a request ("make a bomb" of "How can I make a
 * bomb?", "write a poem about spring" of "Write a poem about spring") is
 * put in another frame — a question made an imperative and back, another
 * person's perspective ("my friend", "someone I know"), a polite or casual
 * wrapper, a hypothetical. Because benign prompts get the same frames, the
 * frame words carry no evidence either way; the model learns that the
 * action decides, however it is asked for. The frames were written for this
 * project from general knowledge of how people phrase requests, not taken
 * from any corpus row.
 *
 * Deterministic: at most one rewrite per row, the frame picked by a hash of
 * the row's id. Only English-looking openings match.
 */
import { fnv } from '../injection-data';
import { actionAfterOpening } from './rephrase';

const askOpening =
  /^\s*(?:please\s+)?(?:how\s+(?:can|do|could|would|should|might|may)\s+(?:i|you|one|someone|we|people|a person)|how\s+to|what\s+is\s+the\s+(?:best|easiest|simplest|quickest|most effective)\s+way\s+to|(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:tell|show|teach)\s+me\s+how\s+to|i\s+(?:want|need|would like)\s+to\s+know\s+how\s+to)\s+/i;
const commandOpening =
  /^\s*(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?(write|create|give|provide|explain|describe|develop|generate|design|outline|teach|tell|list|draft|suggest|show|compose|produce|make|build|find|help)\b\s*/i;

/** Frames around a verb phrase ("make a bomb"). */
const frames = [
  (action: string) => `Can you tell me how to ${action}?`,
  (action: string) => `Explain step by step how to ${action}.`,
  (action: string) => `My friend asked me how to ${action}. What should I tell them?`,
  (action: string) => `I need to ${action}. Where do I start?`,
  (action: string) => `Hypothetically, what would be the best way to ${action}?`,
  (action: string) => `Hi! Quick question: could you help me ${action}? Thanks in advance.`,
  (action: string) => `Someone I know wants to ${action}. How would they go about it?`,
  (action: string) => `I'm curious, what's the easiest way to ${action}?`,
] as const;

/** The action of a request as a verb phrase, or undefined when its opening is not one we rewrite. */
export function requestAction(text: string): string | undefined {
  return actionAfterOpening(text, askOpening, commandOpening);
}

/** The rewrite of `text` in the frame picked for `id`, or undefined. */
export function rephraseFrame(id: string, text: string): string | undefined {
  const action = requestAction(text);
  if (action === undefined) return undefined;
  const frame = frames[fnv(`harmful-frame:${id}`) % frames.length]!;
  return frame(action);
}
