import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { configIssuesOf, notShownString, textModel } from '../../../test/helpers';
import { answeredThrough } from '../../../test/helpers/answered';
import { buildGuardrailsConfig, loadGuardrailsConfig } from '../../config/load-guardrails-config';
import { NotShown } from '../../core/redact-secrets';
import { MAX_SCHEMA_DEPTH, MIN_SCHEMA_STEPS, SCHEMA_STEPS_PER_CHAR } from './output-schema';

// A JSON Schema in a config went to ajv as it was: ~700 levels of nesting or
// a $ref chain back to itself overflowed the stack and the config error said
// only "a valid JSON Schema (Maximum call stack size exceeded)"; 1,000
// properties with a misspelt keyword each took ajv's strict mode 4.6 s to
// report (round 27).
const configWith = (schema: unknown) => ({ output: [{ type: 'output-schema', schema }] });
const issuesOf = (schema: unknown) =>
  configIssuesOf(() => buildGuardrailsConfig(configWith(schema)));

describe('outputSchema JSON Schema limits in a config', () => {
  it('a schema nested past MAX_SCHEMA_DEPTH is named at the first level past it, before ajv', () => {
    let deep: unknown = { type: 'string' };
    for (let i = 0; i < 800; i++) deep = { type: 'object', properties: { a: deep } };
    expect(MAX_SCHEMA_DEPTH).toBe(100);
    expect(issuesOf(deep)).toEqual([
      {
        path: `output[0].schema${'.properties.a'.repeat(101)}`,
        value: '(a schema nested 100 levels deep at this point)',
        expected: 'a JSON Schema nested at most 100 levels deep (schemas within schemas)',
      },
    ]);
    let branches: unknown = { type: 'string' };
    for (let i = 0; i < 5_000; i++) branches = { allOf: [branches] };
    expect(issuesOf(branches).map(issue => issue.path)).toEqual([
      `output[0].schema${'.allOf[0]'.repeat(100)}.allOf`,
    ]);
  });

  it('a $ref chain back to itself is named at its $ref; a recursive schema still loads and checks', async () => {
    expect(
      issuesOf({
        $ref: '#/definitions/a',
        definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } },
      }),
    ).toEqual([
      {
        path: 'output[0].schema.$ref',
        value: notShownString('#/definitions/a'),
        expected:
          'a $ref that leads to a schema: this one leads through $refs alone back to itself (a schema defined only as itself)',
      },
    ]);
    expect(issuesOf({ type: 'object', properties: { x: { $ref: '#/properties/x' } } })).toEqual([
      expect.objectContaining({
        path: 'output[0].schema.properties.x.$ref',
        value: notShownString('#/properties/x'),
      }),
    ]);
    const { middleware } = await loadGuardrailsConfig(
      configWith({
        type: 'object',
        properties: { name: { type: 'string' }, child: { $ref: '#' } },
        required: ['name'],
      }),
    );
    const answer = async (text: string) =>
      (
        await generateText({
          model: wrapLanguageModel({ model: textModel(text), middleware }),
          prompt: 'Tree?',
        })
      ).text;
    expect(await answer('{"name":"a","child":{"name":"b"}}')).toBe(
      '{"name":"a","child":{"name":"b"}}',
    );
    expect(await answer('{"name":"a","child":{"nam":"b"}}')).toBe(
      'The answer did not have the expected format.',
    );
  });

  it('unknown keywords are reported before ajv compiles: one issue each, where it first stands', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 1_000; i++) properties[`p${i}`] = { type: 'string', [`maxLenght${i}`]: 5 };
    const issues = issuesOf({ type: 'object', properties, title: 'T', 'x-note': 1, example: {} });
    expect(issues).toHaveLength(1_000);
    expect(issues[0]).toEqual({
      path: 'output[0].schema.properties.p0.maxLenght0',
      value: new NotShown('a number (not shown)'),
      expected:
        'a JSON Schema keyword the validator checks ("maxLenght0" is no JSON Schema keyword, so it would check nothing; annotations allowed besides the standard ones: example, discriminator, xml, externalDocs, markdownDescription, deprecationMessage, x-*)',
    });
    expect(issues[999]!.path).toBe('output[0].schema.properties.p999.maxLenght999');
  });

  it('a schema ajv cannot compile (2,500 properties in one object) is a clear error', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 2_500; i++) properties[`p${i}`] = { type: 'string' };
    const issues = issuesOf({ type: 'object', properties });
    expect(issues.map(({ path, expected }) => ({ path, expected }))).toEqual([
      {
        path: 'output[0].schema',
        expected:
          'a JSON Schema the validator can compile: ajv nests one check per property, and this schema overflowed the call stack (about 2,000 properties in one object is the limit; split it, or use a Standard Schema such as zod)',
      },
    ]);
  });

  // Round 28: ajv reads a subschema again wherever a $ref leads to it. With
  // anyOf branches that each $ref the root, each level of the answer's
  // nesting doubled the work: a 115-character answer took 8 s, and one of
  // 30 levels would have run for hours. Each $ref followed is now a step,
  // and an answer's budget is linear in its length.
  it('an answer that makes a recursive anyOf schema read itself exponentially is an error at the step budget', async () => {
    const branch = (v: number) => ({
      type: 'object',
      properties: { c: { $ref: '#' }, v: { const: v } },
    });
    const { middleware } = await loadGuardrailsConfig(
      configWith({ anyOf: [branch(1), branch(2)] }),
    );
    const answer = (text: string) => answeredThrough(middleware, text);
    const nested = (levels: number, leaf: string) =>
      `${'{"c":'.repeat(levels)}${leaf}${'}'.repeat(levels)}`;
    const hostile = nested(30, '{"v":3}');
    const budget = MIN_SCHEMA_STEPS + SCHEMA_STEPS_PER_CHAR * hostile.length;
    expect(await answer(hostile)).toEqual({
      text: "Sorry, I can't help with that.",
      records: [
        {
          guardrail: 'output-schema',
          kind: 'output',
          status: 'error',
          reason: `outputSchema: checking the answer took more than ${budget} schema steps (a schema read again through $ref for each branch of anyOf / oneOf / allOf grows with each level of the answer's nesting); the answer is not passed`,
        },
      ],
    });
    // A valid tree, and one invalid in a way found before the branches multiply, still read as before.
    expect((await answer(nested(30, '{"v":1}'))).text).toBe(nested(30, '{"v":1}'));
    expect((await answer(nested(3, '{"v":3}'))).text).toBe(
      'The answer did not have the expected format.',
    );
  });
});
