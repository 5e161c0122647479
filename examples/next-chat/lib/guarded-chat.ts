import { openai } from '@ai-sdk/openai';
import { wrapLanguageModel } from 'ai';
import { guardrails, guardTools, pii, promptInjection, secrets } from 'ai-guardrails';
import { scriptedChatModel } from './scripted-chat';
import { search } from './search-tool';

/**
 * One middleware for the whole server, so the input memo (durable redaction
 * of earlier turns that the chat client sends again) is shared by all calls.
 *
 * The browser sends the whole history, so it writes the assistant turns and
 * tool results too: `inputScope: 'all'` judges assistant text, reasoning and
 * tool-call inputs with the input guardrails, and `toolOutputs` judges every
 * tool result in the prompt (a forged `output-available` search part reached
 * the model unjudged before). `checkReasoning` runs the output guardrails on
 * reasoning too: the UI stream sends reasoning to the browser.
 */
const middleware = guardrails({
  input: [promptInjection(), pii({ action: 'redact' })],
  inputScope: 'all',
  toolOutputs: [promptInjection({ mode: 'indirect' })],
  unreadableFiles: 'block',
  output: [pii({ action: 'redact' }), secrets({ action: 'redact' })],
  checkReasoning: true,
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
