import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardContext } from '../../../test/helpers';
import { turnsModel } from '../../../test/helpers/turns-model';
import { guardTools } from '../../tools/guard-tool';
import { secrets } from './secrets';

/**
 * Round 20: a key split over objects in an array
 * (`[{"k":"sk-proj-…"},{"k":"…rest"}]`) was read one object at a time:
 * the prefix stayed visible, the rest an entropy finding at best. Objects
 * in an array now go on with the array's run of strings (as arrays in an
 * array do since round 19), up to a value in them that is no string (a
 * number, a nested value) or a string of words.
 */

const OPENAI = 'sk-proj-Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt';
const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';

function redacted(value: unknown): string {
  const json = JSON.stringify(value);
  const verdict = secrets({ action: 'redact' }).check(json, {
    ...guardContext('tool_output'),
    value,
  }) as { action: string; content?: string };
  return verdict.action === 'modify' ? verdict.content! : json;
}

describe('a key split over objects in an array', () => {
  it('is redacted in every piece', () => {
    expect(redacted([{ k: OPENAI.slice(0, 20) }, { k: OPENAI.slice(20) }])).toBe(
      '[{"k":"[OPENAI_API_KEY]"},{"k":"[OPENAI_API_KEY]"}]',
    );
    expect(redacted({ rows: [{ k: 'sk-' }, { k: 'proj-' }, { k: OPENAI.slice(8) }] })).toBe(
      '{"rows":[{"k":"[OPENAI_API_KEY]"},{"k":"[OPENAI_API_KEY]"},{"k":"[OPENAI_API_KEY]"}]}',
    );
  });

  it('leaves objects apart when a number, a nested value or words stand between', () => {
    // (Records of more fields or nested values are read by their columns
    // since round 24: `[{a, m, n}, {a}]` and `[{a, b: {c}}, {a}]` join their
    // `a`s, indexed-records.test.ts.)
    for (const value of [
      [{ a: GITHUB.slice(0, 14) }, 7, { a: GITHUB.slice(14) }],
      [{ a: GITHUB.slice(0, 14) }, { a: 'a sentence of words' }, { a: GITHUB.slice(14) }],
    ]) {
      expect(redacted(value)).not.toContain('[GITHUB_TOKEN]');
    }
  });

  it('guardTools: the model reads the result with every piece redacted', async () => {
    const model = turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'keys', input: {} }] }]);
    await generateText({
      model,
      tools: guardTools(
        {
          keys: tool({
            inputSchema: z.object({}),
            execute: async () => [{ k: OPENAI.slice(0, 24) }, { k: OPENAI.slice(24) }],
          }),
        },
        { output: [secrets({ action: 'redact' })] },
      ),
      prompt: 'Keys',
      stopWhen: isStepCount(2),
    });
    const message = model.doGenerateCalls[1]!.prompt.find(m => m.role === 'tool')!;
    expect((message.content[0] as { output: unknown }).output).toEqual({
      type: 'json',
      value: [{ k: '[OPENAI_API_KEY]' }, { k: '[OPENAI_API_KEY]' }],
    });
  });
});
