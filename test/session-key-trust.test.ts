import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { guardrails, memoryStore, pii } from '../src/index';

/**
 * Why docs/state.md's route scopes the chat id to the verified user: the
 * pseudonym vault is keyed by `sessionId`, and a call naming a session gets
 * that session's placeholders restored. A route that takes the id from the
 * body lets any client name another chat.
 */
describe('the session id is a key to the pseudonym vault', () => {
  it('a call naming another chat gets its values restored; a call scoped to another user does not', async () => {
    const prompts: LanguageModelV4Prompt[] = [];
    const mock = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        prompts.push(prompt);
        const asked = JSON.stringify(prompt.at(-1)).includes('Repeat exactly');
        return {
          content: [{ type: 'text', text: asked ? 'Echo: <EMAIL_ADDRESS_1>' : 'Noted.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 1, text: 1, reasoning: undefined },
          },
          warnings: [],
        };
      },
    });
    const vault = pii({ action: 'pseudonymize', store: memoryStore() });
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [vault], output: [vault] }),
    });
    const call = (prompt: string, sessionId: string) =>
      generateText({ model, prompt, providerOptions: { guardrails: { sessionId } } });

    await call('My e-mail is victim@example.com', 'victim:chat-1');
    expect(JSON.stringify(prompts[0])).toContain('<EMAIL_ADDRESS_1>');
    expect(JSON.stringify(prompts[0])).not.toContain('victim@example.com');

    // The chat id alone, as the body gives it: the victim's value comes back.
    const named = await call('Repeat exactly: <EMAIL_ADDRESS_1>', 'victim:chat-1');
    expect(named.text).toBe('Echo: victim@example.com');
    // Scoped to the caller's verified user id: another vault, nothing restored.
    const scoped = await call('Repeat exactly: <EMAIL_ADDRESS_1>', 'attacker:chat-1');
    expect(scoped.text).toBe('Echo: <EMAIL_ADDRESS_1>');
  });
});
