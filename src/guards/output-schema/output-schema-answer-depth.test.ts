import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { textModel, withoutTiming } from '../../../test/helpers';
import { answeredThrough } from '../../../test/helpers/answered';
import { loadGuardrailsConfig } from '../../config/load-guardrails-config';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { MAX_ANSWER_DEPTH, outputSchema } from './output-schema';

// Round 29: a JSON answer nested a few thousand levels deep overflowed the
// call stack in ajv (a recursive `$ref`), in zod's `z.lazy` and in the
// linear `uniqueItems` check: the record said only "Maximum call stack size
// exceeded". The depth is now counted before any validator, without
// recursion, and past MAX_ANSWER_DEPTH the answer is blocked with rule `depth`.
const BLOCKED = 'The answer did not have the expected format.';
const objects = (levels: number) => `${'{"c":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const depthRecord = {
  guardrail: 'output-schema',
  kind: 'output',
  status: 'blocked',
  message: BLOCKED,
  reason: `answer nests arrays / objects more than ${MAX_ANSWER_DEPTH} levels deep (MAX_ANSWER_DEPTH)`,
  severity: 'warning',
  info: { rule: 'depth' },
};
const lazyTree: z.ZodType = z.lazy(() => z.object({ c: lazyTree.optional() }));

describe('outputSchema on a deeply nested JSON answer', () => {
  it('blocks with rule depth past MAX_ANSWER_DEPTH, whatever validates it; at the bound it checks as before', async () => {
    expect(MAX_ANSWER_DEPTH).toBe(256);
    const { middleware: recursiveRef } = await loadGuardrailsConfig({
      output: [
        { type: 'output-schema', schema: { type: 'object', properties: { c: { $ref: '#' } } } },
      ],
    });
    const { middleware: uniqueArrays } = await loadGuardrailsConfig({
      output: [{ type: 'output-schema', schema: { type: 'array', uniqueItems: true } }],
    });
    const zod = guardrails({ output: [outputSchema({ schema: lazyTree })] });
    const jsonOnly = guardrails({ output: [outputSchema({ mode: 'json' })] });
    for (const [middleware, nested] of [
      [recursiveRef, objects],
      [zod, objects],
      [uniqueArrays, (levels: number) => `[${arrays(levels - 1)},1]`],
      [jsonOnly, arrays],
    ] as const) {
      expect(await answeredThrough(middleware, nested(5_000))).toEqual({
        text: BLOCKED,
        records: [depthRecord],
      });
      expect(await answeredThrough(middleware, nested(MAX_ANSWER_DEPTH + 1))).toEqual({
        text: BLOCKED,
        records: [depthRecord],
      });
      const atBound = nested(MAX_ANSWER_DEPTH);
      expect(await answeredThrough(middleware, atBound)).toEqual({
        text: atBound,
        records: [{ guardrail: 'output-schema', kind: 'output', status: 'passed' }],
      });
    }
    // Deep inside a wide answer, and an invalid answer at the bound is still a schema failure.
    const wide = `{"a":[1,2,{"b":"x"}],"c":${objects(MAX_ANSWER_DEPTH)}}`;
    expect((await answeredThrough(recursiveRef, wide)).records).toEqual([depthRecord]);
    const invalid = `${'{"c":'.repeat(199)}1${'}'.repeat(199)}`;
    expect((await answeredThrough(recursiveRef, invalid)).records).toEqual([
      {
        ...depthRecord,
        reason: `answer does not match the schema at "${'c.'.repeat(198)}c": must be object`,
        info: { rule: 'schema', path: `${'c.'.repeat(198)}c` },
      },
    ]);
  });

  it('blocks a deep answer in a held stream as in generateText', async () => {
    const answer = objects(10_000);
    const model = () =>
      wrapLanguageModel({
        model: textModel([answer.slice(0, 30_000), answer.slice(30_000)]),
        middleware: guardrails({ output: [outputSchema({ schema: lazyTree })] }),
      });
    const streamed = streamText({ model: model(), prompt: 'Tree?' });
    expect(await streamed.text).toBe(BLOCKED);
    expect(withoutTiming((await getGuardrailOutcome(streamed))?.records)).toEqual([depthRecord]);
    const generated = await generateText({ model: model(), prompt: 'Tree?' });
    expect(generated.text).toBe(BLOCKED);
    expect(withoutTiming((await getGuardrailOutcome(generated))?.records)).toEqual([depthRecord]);
  });

  it('a validator that still overflows the stack is an error saying so, not a RangeError', async () => {
    const overflowing = {
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        validate: (value: unknown): never => {
          const down = (n: number): number => down(n + 1) + 1;
          throw new Error(String(down(value === null ? 0 : 1)));
        },
      },
    };
    const middleware = guardrails({ output: [outputSchema({ schema: overflowing })] });
    expect(await answeredThrough(middleware, '{"c":{}}')).toEqual({
      text: "Sorry, I can't help with that.",
      records: [
        {
          guardrail: 'output-schema',
          kind: 'output',
          status: 'error',
          reason:
            'outputSchema: the schema validator overflowed the call stack on this answer (it recursed more than once per level of nesting); the answer is not passed',
        },
      ],
    });
  });
});
