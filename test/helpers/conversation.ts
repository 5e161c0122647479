import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { GuardrailContext } from '../../src';
import { guardContext } from './index';

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
