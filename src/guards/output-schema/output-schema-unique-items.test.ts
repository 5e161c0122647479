import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel } from '../../../test/helpers';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { outputSchema } from './output-schema';

// ajv's uniqueItems compared every pair of items unless the schema typed them
// as scalars (20,000 small objects, 229 KB of answer: 8 s with the event loop
// blocked), and its scalar path kept seen strings as keys of a plain object,
// where "__proto__" is no key.
async function judge(items: Record<string, unknown>, answer: unknown) {
  const schema = {
    type: 'object',
    properties: { tags: { type: 'array', uniqueItems: true, items } },
  };
  const text = JSON.stringify(answer);
  const result = await generateText({
    model: wrapLanguageModel({
      model: textModel(text),
      middleware: guardrails({ output: [outputSchema({ schema })] }),
    }),
    prompt: 'Tag this.',
  });
  const records = (await getGuardrailOutcome(result))?.records ?? [];
  return {
    passed: result.text === text,
    records: records.map(({ durationMs: _, ...record }) => record),
  };
}

const duplicate = (j: number, i: number) => ({
  passed: false,
  records: [
    {
      guardrail: 'output-schema',
      kind: 'output',
      status: 'blocked',
      message: 'The answer did not have the expected format.',
      reason: `answer does not match the schema at "tags": must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
      severity: 'warning',
      info: { rule: 'schema', path: 'tags' },
    },
  ],
});

describe('outputSchema: a JSON Schema uniqueItems, linear and exact', () => {
  it('finds a repeated "__proto__" string, and repeated objects whatever their key order', async () => {
    expect(await judge({ type: 'string' }, { tags: ['__proto__', 'x', '__proto__'] })).toEqual(
      duplicate(0, 2),
    );
    const objects = { type: 'object' };
    expect(
      await judge(objects, {
        tags: [
          { a: 1, b: [2, { c: null }] },
          { b: [2, { c: null }], a: 1 },
        ],
      }),
    ).toEqual(duplicate(0, 1));
    // Values deeply unequal stay apart: a string and a number, null and "n", {} and [], true and "t".
    expect(
      (
        await judge(
          {},
          { tags: ['1', 1, null, 'n', {}, [], { a: '1' }, { a: 1 }, -0, 2, true, 't'] },
        )
      ).passed,
    ).toBe(true);
    expect(await judge({}, { tags: [0, -0] })).toEqual(duplicate(0, 1));
  });

  it('checks 100,000 distinct objects (1.4 MB of answer), and finds the one repeated last', async () => {
    const tags = Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `tag ${i}` }));
    expect((await judge({ type: 'object' }, { tags })).passed).toBe(true);
    expect(await judge({ type: 'object' }, { tags: [...tags, { name: 'tag 5', id: 5 }] })).toEqual({
      ...duplicate(5, 100_000),
      // The reason leaves the validator's message out: it holds a number the answer holds.
      records: [
        {
          ...duplicate(5, 100_000).records[0],
          reason:
            'answer does not match the schema at "tags": the value there is not valid (the validator quoted the answer, which is left out)',
        },
      ],
    });
  });
});
