import { generateText, NoObjectGeneratedError, Output, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardContext, serialisedWithoutTiming, textModel } from '../../../test/helpers';
import { GuardrailConfigError, GuardrailTripwireError } from '../../core/errors';
import type { Verdict } from '../../core/types';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { outputSchema } from './output-schema';

const ctx = guardContext('output');

function reasonOf(verdict: Verdict): string | undefined {
  return verdict.action === 'block' ? verdict.reason : undefined;
}

const person = z.object({ name: z.string(), age: z.number() });
const personJsonSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'number' } },
  required: ['name', 'age'],
};

describe('outputSchema', () => {
  it('passes JSON that matches a zod schema, also inside a json fence', async () => {
    const guard = outputSchema({ schema: person });
    expect(await guard.check('{"name":"Ada","age":36}', ctx)).toEqual({ action: 'allow' });
    expect(await guard.check('```json\n{"name":"Ada","age":36}\n```', ctx)).toEqual({
      action: 'allow',
    });
  });

  it('names the path and the issue when a zod schema fails', async () => {
    expect(await outputSchema({ schema: person }).check('{"name":"Ada","age":"old"}', ctx)).toEqual(
      {
        action: 'block',
        message: 'The answer did not have the expected format.',
        reason:
          'answer does not match the schema at "age": Invalid input: expected number, received string',
        severity: 'warning',
        info: { rule: 'schema', path: 'age' },
      },
    );
  });

  it('never quotes a key of the answer the schema does not name: it may be a value (an e-mail, a token)', async () => {
    const answer = JSON.stringify({
      users: { 'alice@corp.example': { age: 'old' } },
      tokens: { ghp_SECRETtoken123: 'x' },
    });
    const zodSchema = z.object({
      users: z.record(z.string(), z.object({ age: z.number() })),
      tokens: z.record(z.string(), z.number()),
    });
    expect(await outputSchema({ schema: zodSchema }).check(answer, ctx)).toEqual({
      action: 'block',
      message: 'The answer did not have the expected format.',
      reason:
        'answer does not match the schema at "users.*.age": Invalid input: expected number, received string',
      severity: 'warning',
      info: { rule: 'schema', path: 'users.*.age' },
    });
    const jsonSchema = {
      type: 'object',
      properties: {
        users: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { age: { type: 'number' } } },
        },
      },
    };
    const verdict = await outputSchema({ schema: jsonSchema }).check(answer, ctx);
    expect(verdict).toEqual({
      action: 'block',
      message: 'The answer did not have the expected format.',
      reason: 'answer does not match the schema at "users.*.age": must be number',
      severity: 'warning',
      info: { rule: 'schema', path: 'users.*.age' },
    });
    const tokens = await outputSchema({
      schema: z.object({ tokens: z.record(z.string(), z.number()) }),
    }).check(answer, ctx);
    expect(JSON.stringify(tokens)).not.toContain('ghp_SECRET');
    expect(JSON.stringify(tokens)).toContain('"path":"tokens.*"');
  });

  it('validates JSON Schema with ajv', async () => {
    const guard = outputSchema({ schema: personJsonSchema });
    expect(await guard.check('{"name":"Ada","age":36}', ctx)).toEqual({ action: 'allow' });
    expect(reasonOf(await guard.check('{"name":"Ada","age":"x"}', ctx))).toBe(
      'answer does not match the schema at "age": must be number',
    );
    expect(reasonOf(await guard.check('{"name":"Ada"}', ctx))).toBe(
      "answer does not match the schema: must have required property 'age'",
    );
  });

  it('blocks an answer that is not JSON', async () => {
    expect(reasonOf(await outputSchema({ schema: person }).check('Sure! Ada is 36.', ctx))).toMatch(
      /^answer is not valid JSON \(/,
    );
  });

  it('checks patterns and lengths in text mode', async () => {
    const guard = outputSchema({
      mustMatch: [/^Answer:/],
      mustNotMatch: [/as an ai language model/i],
      minLength: 10,
      maxLength: 40,
    });
    expect(await guard.check('Answer: 42, says the book.', ctx)).toEqual({ action: 'allow' });
    expect(reasonOf(await guard.check('42', ctx))).toBe(
      'answer is 2 characters, fewer than minLength 10',
    );
    expect(reasonOf(await guard.check('The answer is 42 today.', ctx))).toBe(
      'answer does not match /^Answer:/',
    );
    expect(reasonOf(await guard.check('Answer: As an AI language model...', ctx))).toBe(
      'answer matches mustNotMatch[0]',
    );
    expect(reasonOf(await guard.check(`Answer: ${'x'.repeat(40)}`, ctx))).toBe(
      'answer is 48 characters, more than maxLength 40',
    );
  });

  it('requires top-level fields of a JSON object (requiredFields)', async () => {
    const guard = outputSchema({ requiredFields: ['answer', 'sources'] });
    expect(await guard.check('{"answer": "42", "sources": []}', ctx)).toEqual({
      action: 'allow',
    });
    expect(await guard.check('{"answer": "42"}', ctx)).toEqual({
      action: 'block',
      message: 'The answer did not have the expected format.',
      reason: 'answer has no field "sources"',
      severity: 'warning',
      info: { rule: 'requiredFields', path: 'sources' },
    });
    expect(reasonOf(await guard.check('["answer", "sources"]', ctx))).toBe(
      'answer is not a JSON object',
    );
    expect(reasonOf(await guard.check('answer: 42', ctx))).toMatch(/^answer is not valid JSON/);
    expect(() => outputSchema({ requiredFields: ['a'], mode: 'text' })).toThrow(
      "output-schema.requiredFields: expected no requiredFields in mode 'text'",
    );
  });

  it('is not stream-safe with JSON rules, and window mode says why at construction', () => {
    expect(outputSchema({ schema: person }).streamSafe).toBe(false);
    expect(() =>
      guardrails({ output: [outputSchema({ schema: person })], stream: { mode: 'window' } }),
    ).toThrow(
      `output[0]: expected a stream-safe guardrail in window mode ("output-schema": its JSON rules (schema, requiredFields, mode json) need the whole answer; use stream mode 'hold')`,
    );
  });

  it('rejects invalid options with their paths', () => {
    try {
      outputSchema({ schema: { type: 'nope' }, minLength: -1 });
      expect.unreachable();
    } catch (error) {
      expect(GuardrailConfigError.isInstance(error)).toBe(true);
      expect((error as GuardrailConfigError).issues.map(issue => issue.path)).toEqual([
        'output-schema.minLength',
        'output-schema.schema',
      ]);
    }
  });

  it('guards generateText with Output.object', async () => {
    const modelAnswering = (text: string) =>
      wrapLanguageModel({
        model: textModel(text),
        middleware: guardrails({ output: [outputSchema({ schema: person })] }),
      });

    const good = await generateText({
      model: modelAnswering('{"name":"Ada","age":36}'),
      output: Output.object({ schema: person }),
      prompt: 'Who?',
    });
    expect(good.output).toEqual({ name: 'Ada', age: 36 });

    const bad = await generateText({
      model: modelAnswering('{"name":"Ada"}'),
      prompt: 'Who?',
    });
    expect(bad.finishReason).toBe('content-filter');
    expect((await getGuardrailOutcome(bad))?.records[0]).toMatchObject({
      guardrail: 'output-schema',
      status: 'blocked',
      reason:
        'answer does not match the schema at "age": Invalid input: expected number, received undefined',
    });
  });
});

describe('a blocked answer with generateText({ output: Output.object(...) })', () => {
  const person = z.object({ name: z.string(), age: z.number() });
  const answering = (text: string, onTrip: 'return' | 'throw') =>
    wrapLanguageModel({
      model: textModel(text),
      middleware: guardrails({ output: [outputSchema({ schema: person })], onTrip }),
    });

  it("rejects with the AI SDK's NoObjectGeneratedError (the blocked message is not JSON) with onTrip 'return'", async () => {
    const error = await generateText({
      model: answering('{"name":"Ada"}', 'return'),
      output: Output.object({ schema: person }),
      prompt: 'Who?',
    }).catch((failure: unknown) => failure);
    expect(NoObjectGeneratedError.isInstance(error)).toBe(true);
    const { finishReason, text } = error as NoObjectGeneratedError;
    expect({ finishReason, text }).toEqual({
      finishReason: 'content-filter',
      text: 'The answer did not have the expected format.',
    });
  });

  it("rejects with the GuardrailTripwireError and its record with onTrip 'throw'", async () => {
    const error = await generateText({
      model: answering('{"name":"Ada"}', 'throw'),
      output: Output.object({ schema: person }),
      prompt: 'Who?',
    }).catch((failure: unknown) => failure);
    expect(GuardrailTripwireError.isInstance(error)).toBe(true);
    expect((error as GuardrailTripwireError).record).toMatchObject({
      guardrail: 'output-schema',
      kind: 'output',
      status: 'blocked',
      reason:
        'answer does not match the schema at "age": Invalid input: expected number, received undefined',
    });
  });
});

describe('outputSchema on tool results', () => {
  it('validates the result as the tool returned it: a string result is a string, also when it is JSON text', async () => {
    const { tool } = await import('ai');
    const { guardTool } = await import('../../tools/guard-tool');
    const run = async (schema: z.ZodType, result: string) => {
      const guarded = guardTool(tool({ inputSchema: z.object({}), execute: async () => result }), {
        name: 'read',
        output: [outputSchema({ schema })],
      });
      const output = await guarded.execute({}, { toolCallId: 'c1', messages: [], context: {} });
      return typeof output === 'string'
        ? 'passed'
        : (output as { guardrail: { reason?: string } }).guardrail.reason;
    };
    // A string result reaches guardrails as its text (the model reads it so);
    // its JSON rules still judge the string, not a parse of its text.
    expect(await run(z.string().max(50), 'hello world')).toBe('passed');
    expect(await run(z.string(), '{"a":1}')).toBe('passed');
    expect(await run(z.object({ a: z.number() }), '{"a":1}')).toBe(
      'answer does not match the schema: Invalid input: expected object, received string',
    );
  });
});

describe("outputSchema records never quote the blocked answer through the validator's message", () => {
  const blockedRecord = async (guardrail: ReturnType<typeof outputSchema>, answer: string) => {
    const result = await generateText({
      model: wrapLanguageModel({
        model: textModel(answer),
        middleware: guardrails({ output: [guardrail] }),
      }),
      prompt: 'Answer in JSON.',
    });
    expect(result.text).not.toContain('{');
    const outcome = await getGuardrailOutcome(result);
    return {
      record: outcome?.records[0],
      // Without durationMs: a measured float may hold a hidden value's digits by chance.
      everything: serialisedWithoutTiming([outcome, result.providerMetadata]),
    };
  };

  it("zod's Unrecognized key: a key of the answer is left out, as its path is", async () => {
    const { record, everything } = await blockedRecord(
      outputSchema({ schema: z.strictObject({ answer: z.string() }) }),
      '{"answer":"ok","ghp_SECRETtoken123":1}',
    );
    expect(record).toMatchObject({
      guardrail: 'output-schema',
      status: 'blocked',
      reason:
        'answer does not match the schema: the value there is not valid (the validator quoted the answer, which is left out)',
      info: { rule: 'schema', path: '' },
    });
    expect(everything).not.toContain('ghp_SECRET');
  });

  it('an object key of digits (a card, a phone number) shows as *, an array index as [n] (round 37)', async () => {
    const byNumber = outputSchema({
      schema: {
        type: 'object',
        properties: { calls: { type: 'array', items: { type: 'number' } } },
        additionalProperties: { type: 'number' },
      },
    });
    const keyed = await blockedRecord(byNumber, '{"4111111111111111":"visa"}');
    expect(keyed.record).toMatchObject({
      reason: 'answer does not match the schema at "*": must be number',
      info: { rule: 'schema', path: '*' },
    });
    expect(keyed.everything).not.toContain('4111');
    const indexed = await blockedRecord(byNumber, '{"calls":[1,2,"three"]}');
    expect(indexed.record).toMatchObject({
      reason: 'answer does not match the schema at "calls[2]": must be number',
      info: { rule: 'schema', path: 'calls[2]' },
    });
  });

  it('a Standard Schema whose message quotes the value it received (as valibot and ArkType do)', async () => {
    // A validator in the style of valibot: `Expected number but received "…"`.
    const quoting = {
      '~standard': {
        version: 1 as const,
        vendor: 'quoting',
        validate: (value: unknown) => {
          const card = (value as { card?: unknown }).card;
          return typeof card === 'number'
            ? { value }
            : {
                issues: [
                  {
                    message: `Invalid type: Expected number but received ${JSON.stringify(card)}`,
                    path: ['card'],
                  },
                ],
              };
        },
      },
    };
    const { record, everything } = await blockedRecord(
      outputSchema({ schema: quoting }),
      '{"card":"4111 1111 1111 1111"}',
    );
    expect(record).toMatchObject({
      reason:
        'answer does not match the schema at "*": the value there is not valid (the validator quoted the answer, which is left out)',
    });
    expect(everything).not.toContain('4111');
    // A message that quotes nothing of the answer is kept whole; so is a text the schema spells.
    const kept = await blockedRecord(outputSchema({ schema: quoting }), '{"card":true}');
    expect(kept.record).toMatchObject({
      reason:
        'answer does not match the schema at "*": Invalid type: Expected number but received true',
    });
    // Round 37: the value quoted escaped (a quote or a line break in it, as
    // JSON.stringify writes it) or cut short did not equal the answer's text,
    // and the message was kept with the card number in it.
    for (const answer of [
      '{"card":"4111 1111 1111 1111 \\"visa\\""}',
      '{"card":"4111 1111 1111 1111\\nexp 12/29"}',
    ]) {
      const escaped = await blockedRecord(outputSchema({ schema: quoting }), answer);
      expect(escaped.record).toMatchObject({
        reason:
          'answer does not match the schema at "*": the value there is not valid (the validator quoted the answer, which is left out)',
      });
      expect(escaped.everything).not.toContain('4111');
    }
    const cutting = {
      '~standard': {
        ...quoting['~standard'],
        validate: (value: unknown) => ({
          issues: [
            {
              message: `Expected a short code, received "${String((value as { code: string }).code).slice(0, 9)}…"`,
              path: ['code'],
            },
          ],
        }),
      },
    };
    const cut = await blockedRecord(
      outputSchema({ schema: cutting }),
      '{"code":"sk_live_4eC39HqLyjWDarjtT1zdp7dc"}',
    );
    expect(cut.record).toMatchObject({
      reason:
        'answer does not match the schema at "*": the value there is not valid (the validator quoted the answer, which is left out)',
    });
    expect(cut.everything).not.toContain('sk_live');
    const enumValue = await blockedRecord(
      outputSchema({ schema: z.object({ size: z.enum(['small', 'large']), n: z.number() }) }),
      '{"size":"small","n":"large"}',
    );
    expect(enumValue.record).toMatchObject({
      reason:
        'answer does not match the schema at "n": Invalid input: expected number, received string',
    });
  });
});
