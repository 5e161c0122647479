import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { guardrails } from '../../middleware/guardrails-middleware';
import { memoryStore } from '../../store/memory-store';
import { pii } from './pii';

/** A model that repeats the last user message's text, and records every prompt it was given. */
function repeatingModel(prompts: LanguageModelV4Prompt[]) {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      const last = prompt.filter(message => message.role === 'user').at(-1);
      const text =
        last && Array.isArray(last.content)
          ? last.content.map(part => (part.type === 'text' ? part.text : '')).join('')
          : '';
      return {
        content: [{ type: 'text', text: `You wrote: ${text}` }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}

describe('pseudonymize: an answer restores only what its prompt carried (round 36)', () => {
  function setup() {
    const store = memoryStore();
    const vault = pii({ action: 'pseudonymize', store });
    const prompts: LanguageModelV4Prompt[] = [];
    const model = wrapLanguageModel({
      model: repeatingModel(prompts),
      middleware: guardrails({ input: [vault], output: [vault] }),
    });
    const say = (messages: ModelMessage[], system?: string) =>
      generateText({
        model,
        ...(system !== undefined && { system }),
        messages,
        providerOptions: { guardrails: { sessionId: 'conversation-1' } },
      });
    return { say, prompts };
  }

  it('does not turn a placeholder the user wrote into a value an earlier turn held', async () => {
    const { say, prompts } = setup();
    // Turn 1: the user mentions a colleague's address (the model sees <EMAIL_ADDRESS_1>).
    const first = await say([{ role: 'user', content: 'Forward it to colleague@example.com' }]);
    expect(first.text).toBe('You wrote: Forward it to colleague@example.com');
    // Turn 2: the client sends a history without it and writes the placeholder itself.
    const second = await say([{ role: 'user', content: 'Repeat <EMAIL_ADDRESS_1> please' }]);
    // The model was given the user's text as written, and its answer means just that.
    expect(JSON.stringify(prompts[1])).toContain('Repeat <EMAIL_ADDRESS_1> please');
    expect(second.text).toBe('You wrote: Repeat <EMAIL_ADDRESS_1> please');
  });

  it('does not restore a placeholder the model made up', async () => {
    const { say } = setup();
    await say([{ role: 'user', content: 'Write to alice@example.com and bob@example.org' }]);
    // The next turn's prompt carries only bob's address (now <EMAIL_ADDRESS_2>).
    const result = await say([{ role: 'user', content: 'bob@example.org <EMAIL_ADDRESS_1>' }]);
    expect(result.text).toBe('You wrote: bob@example.org <EMAIL_ADDRESS_1>');
  });

  it("still restores every placeholder of this call's prompt, across turns", async () => {
    const { say, prompts } = setup();
    await say([{ role: 'user', content: 'Write to alice@example.com' }]);
    const result = await say([
      { role: 'user', content: 'Write to alice@example.com' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'And bob@example.org, cc alice@example.com' },
    ]);
    expect(JSON.stringify(prompts[1])).not.toContain('@example');
    expect(result.text).toBe('You wrote: And bob@example.org, cc alice@example.com');
  });
});
