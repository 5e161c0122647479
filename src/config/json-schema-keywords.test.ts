import { generateText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configIssuesOf } from '../../test/helpers';
import { answeredThrough } from '../../test/helpers/answered';
import { turnsModel } from '../../test/helpers/turns-model';
import { NotShown } from '../core/redact-secrets';
import { buildGuardrailsConfig, loadGuardrailsConfig } from './load-guardrails-config';

/*
 * Round 26: ajv ran with `strict: false`, so a keyword it does not know was
 * skipped without a word: `"maxLenght": 5` or `"requried": [...]` in an
 * output-schema (for answers, tool arguments or tool results) checked
 * nothing while the file read as checked. Now each such keyword is a config
 * error naming where it stands; annotations (the standard ones, OpenAPI's
 * `example`, `x-*` vendor extensions, ...) still load.
 */

const UNKNOWN = (keyword: string) =>
  `a JSON Schema keyword the validator checks ("${keyword}" is no JSON Schema keyword, so it would check nothing; annotations allowed besides the standard ones: example, discriminator, xml, externalDocs, markdownDescription, deprecationMessage, x-*)`;

const misspelt = {
  type: 'object',
  properties: { name: { type: 'string', maxLenght: 5 } },
  requried: ['name'],
};

describe('config: a JSON Schema keyword ajv does not know is an error, an annotation is not', () => {
  it('names each misspelt keyword where it stands, for the answer and for tool arguments', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({
          output: [{ type: 'output-schema', schema: misspelt }],
          tool_args: [
            {
              type: 'output-validator',
              schema: { type: 'object', maxProperties: 2, additionalProperty: false },
            },
          ],
        }),
      ),
    ).toEqual([
      {
        path: 'output[0].schema.requried',
        value: new NotShown('an array of 1 item(s) (not shown)'),
        expected: UNKNOWN('requried'),
      },
      {
        path: 'output[0].schema.properties.name.maxLenght',
        value: new NotShown('a number (not shown)'),
        expected: UNKNOWN('maxLenght'),
      },
      {
        path: 'tool_args[0].schema.additionalProperty',
        value: false,
        expected: UNKNOWN('additionalProperty'),
      },
    ]);
  });

  it('a later-draft keyword (skipped by the draft-07 validator) and an ignored keyword are errors too', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({
          output: [
            {
              type: 'output-schema',
              schema: { type: 'array', items: { anyOf: [{ type: 'string', prefixItems: [] }] } },
            },
            { type: 'output-schema', schema: { type: 'string', else: { maxLength: 3 } } },
          ],
        }),
      ),
    ).toEqual([
      {
        path: 'output[0].schema.items.anyOf[0].prefixItems',
        value: [],
        expected:
          'a JSON Schema keyword the validator checks ("prefixItems" is a JSON Schema 2019-09 / 2020-12 keyword, and schemas are checked as draft-07, so it would check nothing; annotations allowed besides the standard ones: example, discriminator, xml, externalDocs, markdownDescription, deprecationMessage, x-*)',
      },
      {
        path: 'output[1].schema',
        value: new NotShown('an object (not shown)'),
        expected: 'a JSON Schema whose every keyword is checked ("else" without "if" is ignored)',
      },
    ]);
  });

  it('an OpenAPI-style schema with annotations and x-* extensions loads and checks, through generateText', async () => {
    const schema = {
      type: 'object',
      $comment: 'from the OpenAPI document',
      'x-generated-by': 'openapi-generator',
      example: { name: 'Ada' },
      properties: {
        // A property named like a vendor extension is a property, still checked.
        'x-request-id': { type: 'string', maxLength: 8, 'x-internal': true },
        name: {
          type: 'string',
          nullable: true,
          maxLength: 5,
          description: 'the name',
          deprecated: false,
        },
      },
      required: ['name'],
    };
    const { middleware } = await loadGuardrailsConfig({
      output: [{ type: 'output-schema', schema }],
    });
    const run = (answer: string) => answeredThrough(middleware, answer);
    expect(await run('{"name":null,"x-request-id":"abc"}')).toEqual({
      text: '{"name":null,"x-request-id":"abc"}',
      records: [{ guardrail: 'output-schema', kind: 'output', status: 'passed' }],
    });
    const long = await run('{"name":"Adalbert"}');
    expect(long.records).toEqual([
      {
        guardrail: 'output-schema',
        kind: 'output',
        status: 'blocked',
        message: 'The answer did not have the expected format.',
        reason: 'answer does not match the schema at "name": must NOT have more than 5 characters',
        severity: 'warning',
        info: { rule: 'schema', path: 'name' },
      },
    ]);
    const badId = await run('{"name":"Ada","x-request-id":"123456789"}');
    expect(badId.records[0]?.reason).toBe(
      'answer does not match the schema at "x-request-id": must NOT have more than 8 characters',
    );
  });

  it('the corrected schema on tool arguments blocks the call through guardTools', async () => {
    const { guardTools } = await loadGuardrailsConfig({
      tool_args: [
        {
          type: 'output-schema',
          schema: { type: 'object', properties: { q: { type: 'string', maxLength: 5 } } },
        },
      ],
    });
    let ran = 0;
    const tools = guardTools({
      search: tool({
        inputSchema: z.object({ q: z.string() }),
        execute: async () => {
          ran++;
          return 'found';
        },
      }),
    });
    const result = await generateText({
      model: turnsModel([
        { toolCalls: [{ toolCallId: 'c1', toolName: 'search', input: { q: 'a long query' } }] },
        { text: 'Done.' },
      ]),
      tools,
      stopWhen: ({ steps }) => steps.length >= 2,
      prompt: 'Search.',
    });
    expect(ran).toBe(0);
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
      status: 'blocked',
      guardrail: {
        guardrail: 'output-schema',
        kind: 'tool_input',
        status: 'blocked',
        reason: 'answer does not match the schema at "q": must NOT have more than 5 characters',
      },
    });
  });
});
