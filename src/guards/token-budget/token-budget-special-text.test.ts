import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel } from '../../../test/helpers';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { tokenBudget } from './token-budget';

// Round 30: the default count went through gpt-tokenizer's `countTokens`,
// which throws on text that spells a special token ("Disallowed special
// token found: <|endoftext|>"). A user who pasted one (a chat about
// tokenizers, a model's raw output) got an error record and a blocked
// call, whatever the budget. It is now counted as the text it is, as a
// provider encodes a user's text: `<|`, `endoftext` and `|>`.
describe('tokenBudget: text that spells a special token', () => {
  it('is counted as text, and the call under the cap passes', async () => {
    const model = wrapLanguageModel({
      model: textModel('ok'),
      middleware: guardrails({ input: [tokenBudget({ maxInputTokens: 18 })] }),
    });
    const result = await generateText({
      model,
      prompt: 'What does <|endoftext|> mean, and <|im_start|>?',
    });
    expect(result.text).toBe('ok');
    expect(result.finishReason).toBe('stop');
    const records = (await getGuardrailOutcome(result))?.records ?? [];
    expect(records.map(({ guardrail, status, info }) => ({ guardrail, status, info }))).toEqual([
      { guardrail: 'token-budget', status: 'passed', info: { tokens: 18, source: 'tokenizer' } },
    ]);
  });

  it('is over the cap as any text is', async () => {
    const model = wrapLanguageModel({
      model: textModel('ok'),
      middleware: guardrails({ input: [tokenBudget({ maxInputTokens: 17 })] }),
    });
    const result = await generateText({
      model,
      prompt: 'What does <|endoftext|> mean, and <|im_start|>?',
    });
    expect(result.finishReason).toBe('content-filter');
    const records = (await getGuardrailOutcome(result))?.records ?? [];
    expect(records.map(({ status, reason }) => ({ status, reason }))).toEqual([
      { status: 'blocked', reason: 'input is 18 tokens, over the per-request cap of 17' },
    ]);
  });
});
