import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel } from '../../../test/helpers';
import { nameDigest } from '../../../test/helpers/cut-names';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { tokenBudget } from './token-budget';

// The session id is often the chat id of the request body, which the client
// writes: it went whole and raw into the block's reason, so a line break and
// an ANSI escape forged or rewrote the log line where records are printed,
// and a 100,000-character id made a 100 KB reason.
describe('tokenBudget: the session id in a reason', () => {
  it('is quoted as JSON, its controls escaped, cut to 64 characters', async () => {
    const model = wrapLanguageModel({
      model: textModel('ok'),
      middleware: guardrails({ input: [tokenBudget({ perSession: { maxTokens: 10 } })] }),
    });
    const reasonFor = async (sessionId: string) => {
      const result = await generateText({
        model,
        prompt: 'hello there',
        maxOutputTokens: 20,
        providerOptions: { guardrails: { sessionId } },
      });
      expect(result.finishReason).toBe('content-filter');
      return (await getGuardrailOutcome(result))?.records[0]?.reason;
    };
    expect(await reasonFor('chat-1')).toBe(
      'session "chat-1" would use 22 tokens, over its budget of 10',
    );
    expect(await reasonFor('c1"\n[INFO] all good\u001b[2K\u202e')).toBe(
      'session "c1\\"\\n[INFO] all good\\u001b[2K\\u202e" would use 22 tokens, over its budget of 10',
    );
    const long = `chat-${'x'.repeat(100_000)}`;
    expect(await reasonFor(long)).toBe(
      `session "chat-${'x'.repeat(59)}…#${nameDigest(long)}" would use 22 tokens, over its budget of 10`,
    );
  });
});
