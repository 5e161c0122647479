import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { JUDGE_HEALTH_CHECK_TEXT } from '../../src/guards/llm-judge/llm-judge';

/** The text of a judge model call's user messages, joined by newlines. */
export function promptOf(call: LanguageModelV4CallOptions): string {
  return call.prompt
    .filter(message => message.role === 'user')
    .flatMap(message =>
      typeof message.content === 'string'
        ? [message.content]
        : message.content.flatMap(part => (part.type === 'text' ? [part.text] : [])),
    )
    .join('\n');
}

/** True for the breaker's health-check call (the fixed text no client writes). */
export const isHealthCheck = (call: LanguageModelV4CallOptions) =>
  promptOf(call).includes(JUDGE_HEALTH_CHECK_TEXT);
