import type {
  LanguageModelV4Content,
  LanguageModelV4Prompt,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { readingCallerArgument } from '../core/caller-values';
import type { Guardrail, GuardrailRecord } from '../core/types';

/** The `retry` option of `guardrails()`: ask the model again after an output trip. */
export interface RetryOptions {
  /**
   * How many extra model calls a tripped answer may cost (1 to 10). Each
   * retry is a full model call: its tokens are paid and added to the usage.
   */
  maxAttempts: number;
  /**
   * The text of the user message that tells the model why its answer was
   * blocked. Default: the guardrail's name, reason and message
   * ({@link defaultRetryFeedback}). Give only what the model may see: the
   * text is sent to the model provider.
   */
  feedback?: (record: GuardrailRecord) => string;
}

/**
 * The default feedback after a blocked answer: the guardrail's name, its
 * reason and its message (never the answer itself nor any value a guardrail
 * hid: records carry neither).
 */
export function defaultRetryFeedback(record: GuardrailRecord): string {
  return readingCallerArgument('defaultRetryFeedback', 'record', () => {
    const details = [record.reason, record.message].filter(
      (text): text is string => typeof text === 'string' && text.length > 0,
    );
    return [
      `Your previous answer was blocked by the "${record.guardrail}" guardrail.`,
      ...details.map(text => `- ${text}`),
      'Write a new answer to the request that follows this rule.',
    ].join('\n');
  });
}

/**
 * Whether an output trip may be retried: a `blocked` output record (an
 * error is a broken check, not a fixable answer), not marked
 * `retryable: false` by its verdict, of a guardrail that is neither
 * `retryable: false` nor per-call (a budget or a rate limit: asking again
 * costs more of what ran out).
 */
export function isRetryableTrip(record: GuardrailRecord, output: readonly Guardrail[]): boolean {
  if (record.kind !== 'output' || record.status !== 'blocked') return false;
  if (record.retryable === false) return false;
  const guardrail = output.find(candidate => candidate.name === record.guardrail);
  if (!guardrail) return false;
  return guardrail.retryable !== false && !guardrail.perCall;
}

/**
 * Whether the blocked answer may go back to the model with the feedback:
 * not when its block is `'without-answer'` (by verdict or guardrail), nor
 * when a guardrail modified a value of this attempt's answer (a redaction:
 * what a guardrail hid is never sent again).
 */
export function mayResendAnswer(
  trip: GuardrailRecord,
  output: readonly Guardrail[],
  attemptRecords: readonly GuardrailRecord[],
): boolean {
  if (trip.retryable === 'without-answer') return false;
  const guardrail = output.find(candidate => candidate.name === trip.guardrail);
  if (guardrail?.retryable === 'without-answer') return false;
  return !attemptRecords.some(record => record.status === 'modified');
}

/**
 * The prompt of a retry: the call's prompt (its input modifications
 * applied), the blocked answer's text as an assistant turn, and the
 * feedback as a user turn. The answer is left out when a guardrail
 * modified a value in this attempt (`answerSafe` false): what a guardrail
 * hid must not be sent again.
 */
export function retryPrompt({
  prompt,
  content,
  answerSafe,
  feedback,
}: {
  prompt: LanguageModelV4Prompt;
  content: readonly LanguageModelV4Content[];
  answerSafe: boolean;
  feedback: string;
}): LanguageModelV4Prompt {
  // Only text: tool calls without their results would make an invalid prompt,
  // and reasoning is the provider's own.
  const texts = answerSafe
    ? content.flatMap(part => (part.type === 'text' && part.text.length > 0 ? [part.text] : []))
    : [];
  const answer: LanguageModelV4Prompt =
    texts.length > 0
      ? [{ role: 'assistant', content: texts.map(text => ({ type: 'text' as const, text })) }]
      : [];
  return [...prompt, ...answer, { role: 'user', content: [{ type: 'text', text: feedback }] }];
}

function add(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : a + b;
}

/** The usage of several model calls, added field by field (unknown + unknown stays unknown). */
export function addUsage(a: LanguageModelV4Usage, b: LanguageModelV4Usage): LanguageModelV4Usage {
  return {
    inputTokens: {
      total: add(a.inputTokens.total, b.inputTokens.total),
      noCache: add(a.inputTokens.noCache, b.inputTokens.noCache),
      cacheRead: add(a.inputTokens.cacheRead, b.inputTokens.cacheRead),
      cacheWrite: add(a.inputTokens.cacheWrite, b.inputTokens.cacheWrite),
    },
    outputTokens: {
      total: add(a.outputTokens.total, b.outputTokens.total),
      text: add(a.outputTokens.text, b.outputTokens.text),
      reasoning: add(a.outputTokens.reasoning, b.outputTokens.reasoning),
    },
  };
}
