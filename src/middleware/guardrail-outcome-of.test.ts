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

describe('getGuardrailOutcome on a value that is not a result', () => {
  it('rejects with a TypeError that says what it expected', async () => {
    const cases: Array<[unknown, string]> = [
      [
        5,
        'its argument must be a generateText / streamText result or one of its steps, received number',
      ],
      [
        null,
        'its argument must be a generateText / streamText result or one of its steps, received null',
      ],
      [
        'result',
        'its argument must be a generateText / streamText result or one of its steps, received string',
      ],
      [{ steps: 'no' }, 'its steps must be an array of steps, received string'],
      [{ steps: Promise.resolve([null]) }, 'a step must be an object, received null'],
    ];
    for (const [value, message] of cases) {
      await expect(
        getGuardrailOutcome(value as Parameters<typeof getGuardrailOutcome>[0]),
      ).rejects.toThrow(new TypeError(`getGuardrailOutcome: ${message}`));
    }
  });

  it('is undefined for an object with no guardrail outcome, as before', async () => {
    await expect(getGuardrailOutcome({})).resolves.toBeUndefined();
    await expect(getGuardrailOutcome({ steps: [] })).resolves.toBeUndefined();
  });
});
