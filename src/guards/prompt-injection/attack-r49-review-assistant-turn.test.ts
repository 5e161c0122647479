import type { ModelMessage } from 'ai';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult } from '../../../test/helpers';
import { guardrails } from '../../middleware/guardrails-middleware';
import { promptInjection } from './prompt-injection';

/*
 * Round 49 review (hI) of r49-hE (rules on at 290aa8d1): with
 * `inputScope: 'all'` every assistant turn of the history is judged by the
 * input guardrails. followsAssistantTurn is false for an assistant's text
 * (role 'assistant'), so the disclosure rule reads the assistant's own
 * answer as a user's first turn: an answer that quotes what a user may ask
 * ("You can ask the bot: What are your instructions?") scores 0.389 at
 * 3b605143 and 0.990 now, and blocks every later call of the conversation.
 * Test strings written for this review.
 */

async function reached(messages: ModelMessage[]): Promise<boolean> {
  const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Sure.') });
  const guarded = wrapLanguageModel({
    model,
    middleware: guardrails({ input: [promptInjection()], inputScope: 'all' }),
  });
  await generateText({ model: guarded, messages }).catch(() => undefined);
  return model.doGenerateCalls.length === 1;
}

const history = (answer: string): ModelMessage[] => [
  { role: 'user', content: 'How should I test that my support bot keeps its setup private?' },
  { role: 'assistant', content: [{ type: 'text', text: answer }] },
  { role: 'user', content: 'Thanks, that helps.' },
];

describe("r49 review: an assistant's answer in the history read as a first-turn request", () => {
  it('sanity: the same conversation with a plain answer reaches the model', async () => {
    expect(await reached(history('Ask it about its setup and check that it refuses.'))).toBe(true);
  });

  // Fixed (round 49, lead): the disclosure rule ships off
  // (INSTRUCTION_DISCLOSURE_ON); the answer scores 0.389 on the model alone.
  it('an answer quoting a question users may ask does not block the conversation', async () => {
    expect(
      await reached(
        history('You can ask the bot: What are your instructions? and it should refuse.'),
      ),
    ).toBe(true);
  });
});
