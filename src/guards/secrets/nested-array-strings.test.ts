import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardContext } from '../../../test/helpers';
import { turnsModel } from '../../../test/helpers/turns-model';
import { guardTools } from '../../tools/guard-tool';
import { secrets } from './secrets';

/**
 * Round 19: a key split over the strings of arrays in an array
 * (`{"k":[["sk-proj-"],["…"]]}`, `[["ghp_…","…"],["…"]]`) was read one
 * inner array at a time: the prefix stayed visible and the rest was an
 * entropy finding at best, though whoever reads the JSON joins the leaves.
 * Arrays in an array are now read as their strings in order, up to
 * anything else between them (a number, an object, a sentence).
 */

const OPENAI = 'sk-proj-Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt';
const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';

/** What `secrets({ action: 'redact' })` lets through at `tool_input` for this value. */
function redacted(value: unknown): string {
  const json = JSON.stringify(value);
  const verdict = secrets({ action: 'redact' }).check(json, {
    ...guardContext('tool_input'),
    value,
  }) as { action: string; content?: string };
  return verdict.action === 'modify' ? verdict.content! : json;
}

describe('a key split over the strings of nested arrays', () => {
  it('is redacted in every piece', () => {
    expect(redacted({ k: [[OPENAI.slice(0, 8)], [OPENAI.slice(8)]] })).toBe(
      '{"k":[["[OPENAI_API_KEY]"],["[OPENAI_API_KEY]"]]}',
    );
    expect(redacted({ k: [['sk-'], ['proj-'], [OPENAI.slice(8)]] })).toBe(
      '{"k":[["[OPENAI_API_KEY]"],["[OPENAI_API_KEY]"],["[OPENAI_API_KEY]"]]}',
    );
    expect(redacted([[[GITHUB.slice(0, 14)]], [[GITHUB.slice(14)]]])).toBe(
      '[[["[GITHUB_TOKEN]"]],[["[GITHUB_TOKEN]"]]]',
    );
    expect(redacted([[GITHUB.slice(0, 14), GITHUB.slice(14, 24)], [GITHUB.slice(24)]])).toBe(
      '[["[GITHUB_TOKEN]","[GITHUB_TOKEN]"],["[GITHUB_TOKEN]"]]',
    );
  });

  it('leaves rows apart when something else stands between them', () => {
    for (const value of [
      [[GITHUB.slice(0, 14)], 7, [GITHUB.slice(14)]],
      [[GITHUB.slice(0, 14)], { n: 1 }, [GITHUB.slice(14)]],
      [[GITHUB.slice(0, 14)], ['a sentence of words'], [GITHUB.slice(14)]],
    ]) {
      expect(redacted(value)).not.toContain('[GITHUB_TOKEN]');
    }
  });

  it('guardTools at tool_input: the tool receives every piece redacted', async () => {
    const received: unknown[] = [];
    const model = turnsModel([
      {
        toolCalls: [
          {
            toolCallId: 'c1',
            toolName: 'store',
            input: { k: [[OPENAI.slice(0, 8)], [OPENAI.slice(8)]] },
          },
        ],
      },
      { text: 'Stored.' },
    ]);
    const tools = guardTools(
      {
        store: tool({
          inputSchema: z.object({ k: z.array(z.array(z.string())) }),
          execute: async input => {
            received.push(input);
            return 'ok';
          },
        }),
      },
      { input: [secrets({ action: 'redact' })] },
    );
    await generateText({ model, tools, prompt: 'Store it', stopWhen: isStepCount(3) });
    expect(received).toEqual([{ k: [['[OPENAI_API_KEY]'], ['[OPENAI_API_KEY]']] }]);
  });
});
