import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { guardrails, memoryStore, pii } from '../src/index';

/**
 * Why docs/state.md's route scopes the chat id to the verified user: the
 * pseudonym vault is keyed by `sessionId`. A call naming a session got that
 * session's placeholders restored until round 36, and still learns which
 * values it holds. A route that takes the id from the body lets any client
 * name another chat.
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

    // The chat id alone, as the body gives it. Before round 36 the victim's
    // value came back ('Echo: victim@example.com'): an answer now gets only
    // the placeholders its own prompt carried.
    const named = await call('Repeat exactly: <EMAIL_ADDRESS_1>', 'victim:chat-1');
    expect(named.text).toBe('Echo: <EMAIL_ADDRESS_1>');
    // Still an oracle: a guessed value gets the victim's placeholder number,
    // which the model sees (and may tell) ...
    await call('Is it guess@example.org or victim@example.com?', 'victim:chat-1');
    expect(JSON.stringify(prompts.at(-1))).toContain(
      'Is it <EMAIL_ADDRESS_2> or <EMAIL_ADDRESS_1>?',
    );
    // ... where scoped to the caller's verified user id the vault is another.
    await call('Is it guess@example.org or victim@example.com?', 'attacker:chat-1');
    expect(JSON.stringify(prompts.at(-1))).toContain(
      'Is it <EMAIL_ADDRESS_1> or <EMAIL_ADDRESS_2>?',
    );
  });
});
