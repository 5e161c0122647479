import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome, guardrailOutcomeOf } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

describe('guardrailOutcomeOf', () => {
  it('reads the outcome from one call’s provider metadata, synchronously and typed', async () => {
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({ doGenerate: async () => generateResult('Noted.') }),
      middleware: guardrails({ input: [pii({ action: 'redact' })] }),
    });
    const result = await generateText({ model, prompt: 'Write to jane@example.com' });
    const outcome = guardrailOutcomeOf(result.providerMetadata);
    expect(outcome).toMatchObject({
      status: 'modified',
      records: [
        { guardrail: 'pii', kind: 'input', status: 'modified', info: { types: ['EMAIL_ADDRESS'] } },
      ],
    });
    expect(outcome).toEqual(await getGuardrailOutcome(result));
  });

  it('is undefined without an outcome or for a value of another shape', () => {
    expect(guardrailOutcomeOf(undefined)).toBeUndefined();
    expect(guardrailOutcomeOf({ openai: { id: 'x' } })).toBeUndefined();
    expect(guardrailOutcomeOf({ guardrails: { status: 'passed' } })).toBeUndefined();
  });
});
