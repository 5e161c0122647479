import { generateText, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configIssuesOf, textModel } from '../../../test/helpers';
import { buildGuardrailsConfig, loadGuardrailsConfig } from '../../config/load-guardrails-config';
import { NotShown } from '../../core/redact-secrets';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { Re2RegExp } from '../shared/re2-regexp';

// A JSON Schema's `pattern` ran on ajv's default engine (`new RegExp`), which
// backtracks: with "^(a+)+$" an answer of 28 a's and a "b" took a second and
// each character more doubled it, with the event loop blocked (no timeout
// can fire in synchronous code). The answer is the model's, which a prompt
// steers.
const schemaConfig = (pattern: string) => ({
  output: [
    {
      type: 'output-schema',
      schema: {
        type: 'object',
        properties: { id: { type: 'string', pattern } },
        patternProperties: { '^x-(a+)+$': { type: 'number' } },
      },
    },
  ],
});

async function recordsFor(answer: string) {
  const { middleware } = await loadGuardrailsConfig(schemaConfig('^(a+)+$'));
  const result = await generateText({
    model: wrapLanguageModel({ model: textModel(answer), middleware }),
    prompt: 'Give me an id.',
  });
  const records = (await getGuardrailOutcome(result))?.records ?? [];
  return {
    text: result.text,
    records: records.map(({ durationMs: _, ...record }) => record),
  };
}

describe('outputSchema: a JSON Schema pattern from a config file runs on RE2', () => {
  afterEach(() => vi.restoreAllMocks());

  it('blocks an answer the pattern does not match, searched by RE2, in time linear in the answer', async () => {
    const exec = vi.spyOn(Re2RegExp.prototype, 'exec');
    const short = await recordsFor(JSON.stringify({ id: `${'a'.repeat(20)}b` }));
    expect(exec).toHaveBeenCalled();
    const blocked = {
      text: 'The answer did not have the expected format.',
      records: [
        {
          guardrail: 'output-schema',
          kind: 'output',
          status: 'blocked',
          message: 'The answer did not have the expected format.',
          reason: 'answer does not match the schema at "id": must match pattern "^(a+)+$"',
          severity: 'warning',
          info: { rule: 'schema', path: 'id' },
        },
      ],
    };
    expect(short).toEqual(blocked);
    // 100,000 characters: hours on a backtracking engine.
    expect(await recordsFor(JSON.stringify({ id: `${'a'.repeat(100_000)}b` }))).toEqual(blocked);
    // patternProperties too: a key of 100,000 characters is read by RE2 (and its number checked).
    const key = `x-${'a'.repeat(100_000)}`;
    expect(await recordsFor(JSON.stringify({ id: 'aaa', [key]: 'not a number' }))).toEqual({
      ...blocked,
      records: [
        {
          ...blocked.records[0],
          reason: 'answer does not match the schema at "*": must be number',
          info: { rule: 'schema', path: '*' },
        },
      ],
    });
    const passed = await recordsFor(JSON.stringify({ id: 'aaa', 'x-aa': 1 }));
    expect(passed.text).toBe(JSON.stringify({ id: 'aaa', 'x-aa': 1 }));
    expect(passed.records.map(record => record.status)).toEqual(['passed']);
  });

  it('a pattern RE2 cannot run (lookaround, backreference) is a config error naming the schema', () => {
    for (const pattern of ['^(?!admin)[a-z]+$', '^(a)\\1$']) {
      const issues = configIssuesOf(() => buildGuardrailsConfig(schemaConfig(pattern)));
      expect(issues).toHaveLength(1);
      expect(issues[0]?.path).toBe('output[0].schema');
      expect(issues[0]?.expected).toMatch(
        /^a valid JSON Schema \(a pattern RE2 can run in linear time \(no lookaround, no backreferences\): /,
      );
    }
  });
});

describe('outputSchema: a JSON Schema format ajv cannot check', () => {
  it('is a config error, not a schema that passes every value there', async () => {
    const config = {
      output: [
        {
          type: 'output-schema',
          schema: {
            type: 'object',
            properties: { email: { type: 'string', format: 'email' } },
            required: ['email'],
          },
        },
      ],
    };
    // Before: ajv warned "unknown format ... ignored" and "not an e-mail" passed.
    expect(configIssuesOf(() => buildGuardrailsConfig(config))).toEqual([
      {
        path: 'output[0].schema',
        value: new NotShown('an object (not shown)'),
        expected:
          'a JSON Schema whose every keyword is checked: unknown format "email" ignored in schema at path "#/properties/email" (no format is checked here: write a pattern for it, or use a Standard Schema such as zod)',
      },
    ]);
    // A pattern in its place is checked, on RE2.
    const { middleware } = await loadGuardrailsConfig({
      output: [
        {
          type: 'output-schema',
          schema: {
            type: 'object',
            properties: { email: { type: 'string', pattern: '^[^@\\s]+@[^@\\s]+$' } },
          },
        },
      ],
    });
    const result = await generateText({
      model: wrapLanguageModel({ model: textModel('{"email":"not an e-mail"}'), middleware }),
      prompt: 'Your address?',
    });
    expect(result.text).toBe('The answer did not have the expected format.');
  });
});
