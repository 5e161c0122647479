import { openai } from '@ai-sdk/openai';
import { wrapLanguageModel } from 'ai';
import { guardrails, guardTools, pii, promptInjection, secrets } from 'ai-guardrails';
import { scriptedChatModel } from './scripted-chat';
import { search } from './search-tool';

/**
 * One middleware for the whole server, so the input memo (durable redaction
 * of earlier turns that the chat client sends again) is shared by all calls.
 */
const middleware = guardrails({
  input: [promptInjection(), pii({ action: 'redact' })],
  output: [pii({ action: 'redact' }), secrets({ action: 'redact' })],
  stream: { mode: 'window' },
});

/** The real model when `OPENAI_API_KEY` is set, else the offline script. */
export const model = wrapLanguageModel({
  model: process.env.OPENAI_API_KEY
    ? openai(process.env.OPENAI_MODEL ?? 'gpt-4.1-mini')
    : scriptedChatModel,
  middleware,
});

/** Tool results are untrusted: instructions hidden in them are withheld from the model. */
export const tools = guardTools(
  { search },
  {
    output: [promptInjection()],
    blockedMessage: record =>
      `The ${record.toolName} result was withheld by ${record.guardrail}: it contained instructions addressed to the assistant.`,
  },
);
