import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnsModel } from '../../test/helpers/turns-model';
import { allow, defineGuardrail } from '../core/define-guardrail';
import { collectToolRecords } from './collect-tool-records';
import { guardTools } from './guard-tool';

/*
 * What the model reads of a guarded tool's result has the limit of a tool
 * result in the prompt (`toolOutputs`): 1,000,000 characters. Past it the
 * result is withheld unjudged, with a `tool-output-unreadable` error record.
 */

const LIMIT = 1_000_000;

function spy() {
  const seen: number[] = [];
  const guardrail = defineGuardrail({
    name: 'spy',
    check: content => {
      seen.push(content.length);
      return allow();
    },
  });
  return { seen, guardrail };
}

function toolOutputsRead(prompt: LanguageModelV4Prompt | undefined): unknown[] {
  return (prompt ?? []).flatMap(message =>
    message.role === 'tool'
      ? message.content.map(part => (part.type === 'tool-result' ? part.output : part))
      : [],
  );
}

// biome-ignore lint/suspicious/noExplicitAny: each test passes a tool of its own types.
async function run(report: any) {
  const { seen, guardrail } = spy();
  const model = turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'report', input: {} }] }]);
  const result = await generateText({
    model,
    tools: guardTools({ report }, { output: [guardrail] }),
    prompt: 'Report',
    stopWhen: isStepCount(2),
  });
  return {
    seen,
    read: toolOutputsRead(model.doGenerateCalls[1]?.prompt),
    records: collectToolRecords(result.steps).map(r => [r.guardrail, r.status, r.reason]),
  };
}

const withheld = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};
const tooLong = [
  'tool-output-unreadable',
  'error',
  `the result of tool "report" was not judged: the text is longer than ${LIMIT} characters`,
];

describe('guardTools: the length limit of what the model reads', () => {
  it("withholds a model output of the tool's own toModelOutput past the limit", async () => {
    const { seen, read, records } = await run(
      tool({
        inputSchema: z.object({}),
        execute: async () => ({ pages: 2 }),
        toModelOutput: () => ({ type: 'text', value: 'a'.repeat(LIMIT + 1) }),
      }),
    );
    expect(read).toEqual([withheld]);
    expect(seen).toEqual([11]); // the result only: the model output was not judged
    expect(records).toEqual([['spy', 'passed', undefined], tooLong]);
  });

  it('counts every text of a content output together, files by their bytes before decoding', async () => {
    const half = 'b'.repeat(LIMIT / 2);
    const { seen, read, records } = await run(
      tool({
        inputSchema: z.object({}),
        execute: async () => 'ok',
        toModelOutput: () => ({
          type: 'content',
          value: [
            { type: 'text', text: half },
            { type: 'text', text: half },
            // 3,000,012 bytes: at least 1,000,003 characters, refused undecoded.
            {
              type: 'file-data',
              data: btoa('c'.repeat(3_000_012)),
              mediaType: 'text/plain',
            },
          ],
        }),
      }),
    );
    expect(read).toEqual([withheld]);
    expect(seen).toEqual([2, LIMIT / 2, LIMIT / 2]);
    expect(records.at(-1)).toEqual(tooLong);
  });

  it('withholds a JSON model output past the limit without building its text', async () => {
    const { read, records } = await run(
      tool({
        inputSchema: z.object({}),
        execute: async () => 'ok',
        toModelOutput: () => ({ type: 'json', value: { rows: Array(LIMIT).fill(1) } }),
      }),
    );
    expect(read).toEqual([withheld]);
    expect(records.at(-1)).toEqual(tooLong);
  });

  it('withholds a result past the limit (what the model reads without toModelOutput)', async () => {
    const { seen, read, records } = await run(
      tool({ inputSchema: z.object({}), execute: async () => 'd'.repeat(LIMIT + 1) }),
    );
    expect(read).toEqual([withheld]);
    expect(seen).toEqual([]);
    expect(records).toEqual([tooLong]);
  });

  it('judges a result and a model output of exactly the limit', async () => {
    const { seen, read, records } = await run(
      tool({
        inputSchema: z.object({}),
        execute: async () => 'e'.repeat(LIMIT),
        toModelOutput: ({ output }) => ({ type: 'text', value: `${output.slice(1)}!` }),
      }),
    );
    expect(seen).toEqual([LIMIT, LIMIT]);
    expect(read).toEqual([{ type: 'text', value: `${'e'.repeat(LIMIT - 1)}!` }]);
    expect(records).toEqual([
      ['spy', 'passed', undefined],
      ['spy', 'passed', undefined],
    ]);
  });
});
