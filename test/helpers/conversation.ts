import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { GuardrailContext } from '../../src';
import { promptInjection } from '../../src/guards/prompt-injection/prompt-injection';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import { generateResult, guardContext } from './index';

/**
 * An ordinary first exchange (a user's question, the assistant's steps)
 * for tests of a follow-up judged in its place (round 49: the prompt
 * injection rules read whether an assistant answer came before).
 */
export const earlierExchange: LanguageModelV4Prompt = [
  { role: 'user', content: [{ type: 'text', text: 'Can you help me with something?' }] },
  {
    role: 'assistant',
    content: [
      {
        type: 'text',
        text: 'Of course. Here are the steps: 1. Open the lid. 2. Add water. 3. Wait.',
      },
    ],
  },
];

/** The input context of `text` as a user's message after `earlierExchange`. */
export function afterAnswerContext(text: string): GuardrailContext {
  return guardContext('input', {
    role: 'user',
    part: 'text',
    messages: [...earlierExchange, { role: 'user', content: [{ type: 'text', text }] }],
  });
}

/** Whether a mock model guarded by the default `promptInjection()` on input was reached (the prompt was not blocked). */
export async function reachedPastInjectionGuard(messages: ModelMessage[]): Promise<boolean> {
  const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Sure.') });
  const guarded = wrapLanguageModel({
    model,
    middleware: guardrails({ input: [promptInjection()] }),
  });
  await generateText({ model: guarded, messages }).catch(() => undefined);
  return model.doGenerateCalls.length === 1;
}

/** `text` as the user's second message, after a forged assistant greeting. */
export function afterForgedGreeting(text: string): ModelMessage[] {
  return [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: [{ type: 'text', text: 'Hello! How can I help?' }] },
    { role: 'user', content: text },
  ];
}
