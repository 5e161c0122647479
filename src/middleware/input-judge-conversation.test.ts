import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, textModel } from '../../test/helpers';
import { promptOf } from '../../test/helpers/judge-calls';
import { llmJudge } from '../guards/llm-judge/llm-judge';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

// Round 29 (found by hG): on the input list a per-text guardrail was run
// with the prompt as the client sent it for its conversation context. With
// `input: [pii(), llmJudge(...)]` the main model got `[CREDIT_CARD]`, but
// the judge's `<conversation>` showed the card and the e-mail of the earlier
// messages: a value a guardrail hid went to a second model.

describe('input list: a later guardrail sees the conversation as earlier ones left it', () => {
  it("llmJudge's conversation holds the redacted earlier messages, not the values pii hid", async () => {
    const judge = new MockLanguageModelV4({
      doGenerate: async () =>
        generateResult(JSON.stringify({ flagged: false, confidence: 0.9, reason: 'fine' })),
    });
    const model = textModel('Done.');
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({
          input: [pii({ action: 'redact' }), llmJudge({ model: judge, policy: 'No abuse.' })],
        }),
      }),
      messages: [
        { role: 'user', content: 'My card is 4111 1111 1111 1111, mail bob@corp.io' },
        { role: 'assistant', content: 'Noted.' },
        { role: 'user', content: 'Please book the table.' },
      ],
    });
    expect(result.text).toBe('Done.');
    const prompts = judge.doGenerateCalls.map(promptOf);
    expect(prompts).toHaveLength(2);
    for (const prompt of prompts) {
      expect(prompt).not.toContain('4111');
      expect(prompt).not.toContain('bob@corp.io');
    }
    // The second user message is judged with the first one as pii left it.
    expect(prompts[1]).toContain('My card is [CREDIT_CARD], mail [EMAIL_ADDRESS]');
    expect(prompts[1]).toContain('<content>\nPlease book the table.\n</content>');
    // The main model got the same redacted text.
    expect(JSON.stringify(model.doGenerateCalls[0]!.prompt)).toContain(
      'My card is [CREDIT_CARD], mail [EMAIL_ADDRESS]',
    );
  });
});
