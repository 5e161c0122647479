import { allow, block, defineGuardrail } from '../../core/define-guardrail';
import { validateFactoryOptions } from '../../core/options';
import type { Guardrail, GuardrailContext, GuardrailKind } from '../../core/types';
import { readsJson } from '../shared/json-string-spans';
import { bestJsonReading } from '../shared/json-text';
import { ANSWER_READ_LENGTH, answerReferents } from './follow-up-reference';
import { loadHarmfulScorer, withHarmfulScorer } from './harmful-model-loader';
import { MODEL_WINDOW } from './injection-model';
import { promptInjectionOptionShape } from './prompt-injection-options';
import {
  DEFAULT_INDIRECT_PROMPT_INJECTION_THRESHOLD,
  DEFAULT_PROMPT_INJECTION_THRESHOLD,
  scoreInMode,
} from './score-prompt-injection';

/** Options of `promptInjection`. */
export interface PromptInjectionOptions {
  /**
   * Block when the calibrated probability that the text is an injection is
   * at or above this value, in (0, 1]. Default: `DEFAULT_PROMPT_INJECTION_THRESHOLD`
   * in direct mode and `DEFAULT_INDIRECT_PROMPT_INJECTION_THRESHOLD` in
   * indirect mode (`DEFAULT_TOOL_DEFINITION_PROMPT_INJECTION_THRESHOLD` on
   * tool definitions), each picked on benign data held apart from training for a
   * false-positive rate within 1% (direct mode: on sources the model did not
   * see; see docs/prompt-injection-model.md). Higher
   * blocks less; the score is a probability, so 0.9 means "block only when
   * nine in ten texts scored like this were injections" on the training mix.
   */
  threshold?: number;
  /**
   * `'direct'` judges a user's own message; `'indirect'` judges data the model
   * reads (tool results, documents) and also flags instructions addressed to
   * the assistant. Default: `'indirect'` on `tool_output` and
   * `tool_definition` (a definition is third-party text), `'direct'` elsewhere.
   */
  mode?: 'direct' | 'indirect';
  /**
   * User-facing message of a block. Default: on a user's message (`direct`)
   * "This request looks like a prompt injection and was blocked."; on a tool
   * result "This tool result looks like a prompt injection and was withheld."
   * (the model reads it in place of the result, and the user's request was
   * fine); on other data judged `indirect` "This content looks like ...".
   */
  message?: string;
  /** Guardrail name in records. Default `'prompt-injection'`. */
  name?: string;
}

/**
 * The default threshold of `promptInjection()` on tool definitions (indirect
 * mode): a definition is documentation addressed to the model, so
 * imperative lines are normal there. Picked on real definitions of public
 * MCP servers held apart from the tests' fixture (the lowest value on a 0.05
 * grid above every one of them; see docs/tools.md).
 */
export const DEFAULT_TOOL_DEFINITION_PROMPT_INJECTION_THRESHOLD = 0.65;

/** Longest string of a JSON text also judged on its own (two model windows): see bestJsonReading. */
const JSON_STRING_ALONE_MAX = 2 * MODEL_WINDOW;

/** The default block message: it names what was judged, not always "this request". */
function defaultMessage(mode: 'direct' | 'indirect', kind: GuardrailKind): string {
  if (mode === 'direct') return 'This request looks like a prompt injection and was blocked.';
  if (kind === 'tool_output')
    return 'This tool result looks like a prompt injection and was withheld.';
  if (kind === 'tool_definition') {
    return 'This tool definition looks like a prompt injection; the tool was not given to the model.';
  }
  return 'This content looks like a prompt injection and was withheld.';
}

/** A user message's text as input guardrails judge it: its text parts joined without a separator. */
function userTextOf(content: GuardrailContext['messages'][number]['content']): string | undefined {
  if (typeof content === 'string' || !Array.isArray(content)) return undefined;
  let text: string | undefined;
  for (const part of content) {
    if (part.type !== 'text') continue;
    text = text === undefined ? part.text : text + part.text;
  }
  return text;
}

/**
 * The text of an assistant message as the user saw it: its text parts
 * joined with a newline (reasoning, tool calls and files are not the answer).
 */
function answerTextOf(content: GuardrailContext['messages'][number]['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (part.type !== 'text') continue;
    text = text.length === 0 ? part.text : `${text}\n${part.text}`;
  }
  return text;
}

/**
 * A user text's place: `undefined` before any assistant message, else the
 * latest assistant turn before it (its text, and its referents once read:
 * `answerReferents` runs only for a text that is judged).
 */
type Place = { answer: string; referents?: number } | undefined;

/**
 * The part of an answer `answerReferents` reads (its first and last
 * `ANSWER_READ_LENGTH` characters), so a place holds no more of it.
 */
function readPart(answer: string): string {
  if (answer.length <= 2 * ANSWER_READ_LENGTH + 1) return answer;
  return `${answer.slice(0, ANSWER_READ_LENGTH)}\n${answer.slice(-ANSWER_READ_LENGTH)}`;
}

/** A prompt's places, with the array's length and last message when they were read. */
interface Places {
  length: number;
  last: unknown;
  places: Map<string, Place>;
}

/**
 * Each user text of a prompt, by its first place: whether an assistant
 * message comes before it. Built once per prompt (the middleware gives
 * every text of one pass the same `ctx.messages`), so a prompt of many
 * messages costs one pass, not one per judged text. Rebuilt when the
 * array's length or last message object differs from when it was built
 * (round 49 review, hI: a caller of `runChain` that appends to, or clears
 * and refills, one array per session got the first check's places).
 */
const placesByPrompt = new WeakMap<GuardrailContext['messages'], Places>();

/**
 * Each user text's place (round 50 hE: with the referents of the answer it
 * follows). The answer is the latest assistant turn: consecutive assistant
 * messages, tool messages between them (their results are not the
 * answer), their text parts joined; a user or system message ends it. Its
 * referents are read once, when a user text after it is judged.
 */
function placesOf(messages: GuardrailContext['messages']): Map<string, Place> {
  const known = placesByPrompt.get(messages);
  const last = messages.at(-1);
  if (known && known.length === messages.length && known.last === last) return known.places;
  const places = new Map<string, Place>();
  let assistantSeen = false;
  let answer = '';
  let inTurn = false;
  let turn: Place;
  for (const message of messages) {
    if (message.role === 'assistant') {
      const text = answerTextOf(message.content);
      if (!inTurn) answer = '';
      answer = answer.length === 0 || text.length === 0 ? answer + text : `${answer}\n${text}`;
      assistantSeen = true;
      inTurn = true;
      turn = undefined;
    } else if (message.role === 'tool') {
      // Part of the assistant's turn (a tool call's result): not its answer.
    } else {
      inTurn = false;
      if (message.role !== 'user') continue;
      const text = userTextOf(message.content);
      if (text === undefined || places.has(text)) continue;
      if (assistantSeen && turn === undefined) turn = { answer: readPart(answer) };
      places.set(text, assistantSeen ? turn : undefined);
    }
  }
  placesByPrompt.set(messages, { length: messages.length, last, places });
  return places;
}

/**
 * Whether `content`, judged on input as a user's text, comes after an
 * assistant message of the prompt (round 49 hE): its first appearance as a
 * user message's text does (the middleware judges a text that recurs once,
 * so the earliest place decides). Anything else (another kind, role or
 * part, a text not found) does not: the rules read it as a first turn.
 */
export function followsAssistantTurn(content: string, ctx: GuardrailContext): boolean {
  return answerReferentsBefore(content, ctx) !== undefined;
}

/**
 * The referents (`answerReferents`) of the assistant turn that `content`,
 * judged on input as a user's text, follows (its first place, as
 * `followsAssistantTurn`), or `undefined` when it follows none (round 50 hE).
 */
export function answerReferentsBefore(content: string, ctx: GuardrailContext): number | undefined {
  if (ctx.kind !== 'input') return undefined;
  if ((ctx.role ?? 'user') !== 'user' || (ctx.part ?? 'text') !== 'text') return undefined;
  const place = placesOf(ctx.messages).get(content);
  if (place === undefined) return undefined;
  place.referents ??= answerReferents(place.answer);
  return place.referents;
}

/**
 * Blocks text that reads like a prompt injection: instruction overrides
 * ("ignore all previous instructions"), jailbreak personas and templates,
 * system prompt extraction, adversarial gibberish suffixes, and, in indirect
 * mode, instructions planted in tool results and documents. A learned
 * detector shipped in the package (see `scorePromptInjection` and
 * docs/prompt-injection-model.md): deterministic, offline, linear time; the
 * text is normalised (NFKC, invisible characters, homoglyphs, leetspeak) and
 * encoded runs (base64, hex, URL, tag characters) are decoded and judged too.
 *
 * The record's `info` holds `{ score, signals, mode, threshold }`.
 *
 * A user's message that comes after an assistant message of `ctx.messages`
 * is scored with `followsAssistant` and that answer (`previousAnswer`, see
 * `scorePromptInjection`): there "your instructions / rules" may be the
 * answer's steps, not the assistant's configuration, when the answer has
 * steps or rules (round 50). The client sends the history, so a forged
 * assistant turn with such a list lets the model read such references as
 * neutral, unless the text carries a word only an attack needs (an
 * override, the system prompt, a persona switch; see follow-up-reference.ts).
 *
 * Not stream-safe: weak signals anywhere in the text add up, so it must see
 * the whole text (use it on input and tool results, or `hold` mode on output).
 *
 * @example
 * guardrails({ input: [promptInjection()] });
 * guardTools(tools, { output: [promptInjection({ mode: 'indirect' })] });
 */
export function promptInjection(options?: PromptInjectionOptions): Guardrail {
  const {
    threshold,
    mode,
    message,
    name = 'prompt-injection',
  } = validateFactoryOptions(options, 'prompt-injection', promptInjectionOptionShape);
  // Direct mode may need the harmful model: its load starts now, so a check
  // long after is synchronous. A check that comes while it still runs waits
  // for it outside its `timeoutMs` (`withHarmfulScorer`, `afterModelLoad`):
  // a timeout with `onError: 'allow'` would let the text through unjudged.
  // A failed load here is retried by the check, which reports it.
  if (mode !== 'indirect') loadHarmfulScorer().catch(() => undefined);
  return defineGuardrail({
    name,
    // Verdicts cached under another configuration must not apply to this one.
    fingerprint: options,
    check(content, ctx) {
      const effectiveMode =
        mode ??
        (ctx.kind === 'tool_output' || ctx.kind === 'tool_definition' ? 'indirect' : 'direct');
      const effectiveThreshold =
        threshold ??
        (ctx.kind === 'tool_definition' && effectiveMode === 'indirect'
          ? DEFAULT_TOOL_DEFINITION_PROMPT_INJECTION_THRESHOLD
          : effectiveMode === 'indirect'
            ? DEFAULT_INDIRECT_PROMPT_INJECTION_THRESHOLD
            : DEFAULT_PROMPT_INJECTION_THRESHOLD);
      // A tool's arguments and results (JSON) are read as the text their strings
      // carry (keys and punctuation are not prose; a document's first and last
      // lines start and end as written), and a dominant string also alone.
      // The harmful model (a decoded segment's signal) loads on first need:
      // the first check whose text decodes to something waits for it.
      const referents =
        effectiveMode === 'direct' ? answerReferentsBefore(content, ctx) : undefined;
      const follows = referents !== undefined;
      return withHarmfulScorer(harmful => {
        const read = (text: string) =>
          scoreInMode(text, effectiveMode, harmful, follows, referents);
        const { score, signals } =
          (readsJson(ctx) ? bestJsonReading(content, read, JSON_STRING_ALONE_MAX) : undefined) ??
          read(content);
        const info = { score, signals, mode: effectiveMode, threshold: effectiveThreshold };
        if (score < effectiveThreshold) return allow(info);
        return block({
          message: message ?? defaultMessage(effectiveMode, ctx.kind),
          reason: `prompt injection score ${score} >= ${effectiveThreshold} (${signals.join(', ')})`,
          severity: 'critical',
          info,
        });
      });
    },
  });
}
