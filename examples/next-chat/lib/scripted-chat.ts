import type { ScriptInput } from 'ai-guardrails/testing';
import { scriptedModel } from 'ai-guardrails/testing';

type PromptMessage = ScriptInput['prompt'][number];

/** A tool's result as the model sees it: text (a withheld result) or the page found. */
function toolOutput(
  message: PromptMessage | undefined,
): string | { title: string; snippet: string } {
  if (message?.role !== 'tool') return '';
  for (const part of message.content) {
    if (part.type !== 'tool-result') continue;
    if (part.output.type === 'text') return part.output.value;
    if (part.output.type === 'json') {
      const { value } = part.output;
      // A JSON value is checked, not cast: the page found is { title, snippet }.
      if (typeof value === 'object' && value !== null && 'title' in value && 'snippet' in value) {
        const { title, snippet } = value;
        if (typeof title === 'string' && typeof snippet === 'string') return { title, snippet };
      }
    }
  }
  return '';
}

/**
 * The offline stand-in for a real model: a deterministic script keyed on the
 * user's message, so the app (and its browser test) runs without an API key.
 *
 * - a message mentioning an e-mail address or a contact: an answer that
 *   itself contains an e-mail address (the output guardrails redact it);
 * - "search" / "wiki": a call of the `search` tool, then an answer from its
 *   result (or a note that the result was withheld);
 * - "deploy key": an answer that leaks a token (the output guardrails redact it);
 * - anything else: a short echo.
 *
 * An injected message never reaches this model: the input guardrails block it.
 */
export const scriptedChatModel = scriptedModel({
  modelId: 'scripted-chat',
  chunkSize: 6,
  delayMs: 15,
  respond: ({ lastUserText, afterToolResult, prompt }) => {
    const text = lastUserText.toLowerCase();
    if (afterToolResult) {
      const output = toolOutput(prompt.at(-1));
      return typeof output === 'string'
        ? 'I searched the wiki, but the result was withheld by a guardrail, so I will not rely on it.'
        : `According to the wiki (${output.title}): ${output.snippet}`;
    }
    if (/\b(search|wiki)\b/.test(text)) {
      return { toolCalls: [{ toolName: 'search', input: { query: lastUserText } }] };
    }
    if (/\[email_address\]|e-?mail|contact/.test(text)) {
      return `Thanks, I have your address as ${
        lastUserText.match(/\[EMAIL_ADDRESS\]/)?.[0] ?? 'unknown'
      } (I never see the original). Our billing team answers at billing.team@acme-corp.com within a day.`;
    }
    if (/deploy key/.test(text)) {
      return 'The deploy key is ghp_R8a7Qm2Lx9Vt4Kp1Zs6Wn3Yc5Hd0Jf8Gb2Ue and it must stay secret.';
    }
    return `You said: ${lastUserText}`;
  },
});
