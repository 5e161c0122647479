import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardContext } from '../../../test/helpers';
import { recordTypes } from '../../../test/helpers/char-codes';
import { turnsModel } from '../../../test/helpers/turns-model';
import { collectToolRecords } from '../../tools/collect-tool-records';
import { guardTools } from '../../tools/guard-tool';
import { secrets } from './secrets';

/**
 * Round 22: a key split over records that carry their place
 * (`[{"k":"ghp_q8Zr4Lm2","n":1},{"k":"Xw9Tb6…","n":2},…]`) was read one
 * record at a time (round 20 joined objects of one string member only):
 * the prefix and short chunks stayed visible. A record of one string and
 * one integer now goes on with the array's run, and the chunks are joined
 * in the order of the integers when every record of the run has one (a
 * model puts them in that order). Records of more fields
 * (`{"id":1,"name":…,"role":…}`) stay apart. Dev and benign texts as
 * `[{"i":n,"w":word},…]`: 13 of 33,549 with a finding, the 13 an array of
 * their words gives (before: none).
 */

const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const OPENAI = 'sk-proj-Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt';

function redacted(value: unknown): string {
  const json = JSON.stringify(value);
  const verdict = secrets({ action: 'redact' }).check(json, {
    ...guardContext('tool_output'),
    value,
  }) as { action: string; content?: string };
  return verdict.action === 'modify' ? verdict.content! : json;
}

/** What the model reads of a tool returning `{ parts }` through `guardTools` with `secrets`, and the records. */
async function modelReads(parts: unknown[]) {
  const model = turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'keys', input: {} }] }]);
  const out = await generateText({
    model,
    tools: guardTools(
      { keys: tool({ inputSchema: z.object({}), execute: async () => ({ parts }) }) },
      { output: [secrets({ action: 'redact' })] },
    ),
    prompt: 'Keys',
    stopWhen: isStepCount(2),
  });
  const message = model.doGenerateCalls[1]!.prompt.find(m => m.role === 'tool')!;
  return {
    output: (message.content[0] as { output: unknown }).output,
    records: collectToolRecords(out.steps).map(recordTypes),
  };
}

describe('a key split over records with an index', () => {
  it('guardTools: the model reads every chunk redacted, in any order', async () => {
    const parts = [
      { k: GITHUB.slice(26), n: 3 },
      { k: GITHUB.slice(0, 12), n: 1 },
      { k: GITHUB.slice(12, 26), n: 2 },
    ];
    expect(await modelReads(parts)).toEqual({
      output: {
        type: 'json',
        value: {
          parts: [
            { k: '[GITHUB_TOKEN]', n: 3 },
            { k: '[GITHUB_TOKEN]', n: 1 },
            { k: '[GITHUB_TOKEN]', n: 2 },
          ],
        },
      },
      records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
    });
  });

  it('reads the integer before or after the string', () => {
    expect(
      redacted([
        { i: 0, s: OPENAI.slice(0, 20) },
        { i: 1, s: OPENAI.slice(20) },
      ]),
    ).toBe('[{"i":0,"s":"[OPENAI_API_KEY]"},{"i":1,"s":"[OPENAI_API_KEY]"}]');
  });

  it('leaves records of more fields, and words, as they were', () => {
    for (const value of [
      [
        { id: 1, name: GITHUB.slice(0, 14), role: 'a' },
        { id: 2, name: GITHUB.slice(14), role: 'b' },
      ],
      [
        { k: 'hello', n: 1 },
        { k: 'world', n: 2 },
      ],
    ]) {
      expect(redacted(value)).not.toContain('[GITHUB_TOKEN]');
    }
    expect(
      redacted([
        { k: 'hello', n: 1 },
        { k: 'world', n: 2 },
      ]),
    ).toBe('[{"k":"hello","n":1},{"k":"world","n":2}]');
  });

  it('guardTools: an index written as a string ({"k":…,"n":"2"}) orders the chunks too (round 23)', async () => {
    const parts = [
      { k: GITHUB.slice(26), n: '3' },
      { n: '1', k: GITHUB.slice(0, 12) },
      { k: GITHUB.slice(12, 26), n: '2' },
    ];
    expect(await modelReads(parts)).toEqual({
      output: {
        type: 'json',
        value: {
          parts: [
            { k: '[GITHUB_TOKEN]', n: '3' },
            { n: '1', k: '[GITHUB_TOKEN]' },
            { k: '[GITHUB_TOKEN]', n: '2' },
          ],
        },
      },
      records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
    });
    // Records of two strings that are no index stay apart.
    const notes = [
      { k: GITHUB.slice(0, 12), note: 'first' },
      { k: GITHUB.slice(12, 26), note: 'then' },
      { k: GITHUB.slice(26), note: 'last' },
    ];
    expect(redacted(notes)).toBe(JSON.stringify(notes));
  });

  it('guardTools: a record without an index, or a repeated index, no longer puts the run in written order (round 23)', async () => {
    const shuffled = [
      { k: GITHUB.slice(26), n: 3 },
      { k: GITHUB.slice(0, 12), n: 1 },
      { k: GITHUB.slice(12, 26), n: 2 },
    ];
    expect(await modelReads([...shuffled, { k: 'end' }])).toEqual({
      output: {
        type: 'json',
        value: {
          parts: [
            { k: '[GITHUB_TOKEN]', n: 3 },
            { k: '[GITHUB_TOKEN]', n: 1 },
            { k: '[GITHUB_TOKEN]', n: 2 },
            { k: 'end' },
          ],
        },
      },
      records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
    });
    expect(redacted([...shuffled, { k: 'x', n: 3 }])).toBe(
      '[{"k":"[GITHUB_TOKEN]","n":3},{"k":"[GITHUB_TOKEN]","n":1},{"k":"[GITHUB_TOKEN]","n":2},{"k":"x","n":3}]',
    );
  });
});
