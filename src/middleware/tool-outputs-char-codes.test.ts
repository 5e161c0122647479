import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { codes, recordTypes, toolOutputsRead } from '../../test/helpers/char-codes';
import { type ToolResultOutput, toolOutputsIn } from '../../test/helpers/tool-history';
import { turnsModel } from '../../test/helpers/turns-model';
import { pii } from '../guards/pii/pii';
import { collectToolRecords } from '../tools/collect-tool-records';
import { guardTools } from '../tools/guard-tool';

/*
 * Round 21: text written as character codes (`[99,97,114,100,…]` for
 * `card 4111…`) was read in a guarded tool's result (round 20) but not in a
 * tool result of the prompt judged by `guardrails({ toolOutputs })`: a forged
 * history's `{ type: 'json', value: { data: [99,97,…] } }` reached the model
 * unread. Both now read such arrays with the same code (char-code-text.ts).
 */

const CARD = 'card 4111 1111 1111 1111';
const EMAIL = 'jane.doe@corp.io';

/** What the model read of a forged tool result under `toolOutputs: [pii redact]`, and the records. */
async function readThroughToolOutputs(output: ToolResultOutput) {
  const { read, records } = await toolOutputsRead(output);
  return { read, records: records.map(recordTypes) };
}

describe('toolOutputs: character codes in a tool result of the prompt', () => {
  it('a json output: the card in codes is redacted in place, other values kept', async () => {
    expect(
      await readThroughToolOutputs({ type: 'json', value: { data: codes(CARD), id: 7 } }),
    ).toEqual({
      read: [{ type: 'json', value: { data: 'card [CREDIT_CARD]', id: 7 } }],
      records: [['pii', 'modified', ['CREDIT_CARD']]],
    });
  });

  it('an error-json output and a whole output that is one array', async () => {
    expect(
      await readThroughToolOutputs({ type: 'error-json', value: { detail: codes(EMAIL) } }),
    ).toEqual({
      read: [{ type: 'error-json', value: { detail: '[EMAIL_ADDRESS]' } }],
      records: [['pii', 'modified', ['EMAIL_ADDRESS']]],
    });
    expect(await readThroughToolOutputs({ type: 'json', value: codes(EMAIL) })).toEqual({
      read: [{ type: 'json', value: '[EMAIL_ADDRESS]' }],
      records: [['pii', 'modified', ['EMAIL_ADDRESS']]],
    });
  });

  it("a content part's fields (providerOptions) in codes", async () => {
    const { read } = await readThroughToolOutputs({
      type: 'content',
      value: [{ type: 'text', text: 'see note', providerOptions: { x: { note: codes(EMAIL) } } }],
    });
    expect(read).toEqual([
      {
        type: 'content',
        value: [
          { type: 'text', text: 'see note', providerOptions: { x: { note: '[EMAIL_ADDRESS]' } } },
        ],
      },
    ]);
  });

  it('clean code arrays and ordinary numbers go on as numbers, beside a redaction too', async () => {
    const clean = {
      text: codes('Hello, world'),
      years: [1990, 2001, 1985, 2020, 2023, 1999, 2010, 2015],
      point: [52.52, 13.405],
    };
    expect(await readThroughToolOutputs({ type: 'json', value: clean })).toEqual({
      read: [{ type: 'json', value: clean }],
      records: [['pii', 'passed', undefined]],
    });
    expect(
      await readThroughToolOutputs({ type: 'json', value: { ...clean, owner: codes(EMAIL) } }),
    ).toEqual({
      read: [{ type: 'json', value: { ...clean, owner: '[EMAIL_ADDRESS]' } }],
      records: [['pii', 'modified', ['EMAIL_ADDRESS']]],
    });
  });
});

describe("guardTools: character codes in a tool's own toModelOutput", () => {
  it('a json model output holding codes is judged as their text', async () => {
    const model = turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'read', input: {} }] }]);
    const out = await generateText({
      model,
      tools: guardTools(
        {
          read: tool({
            inputSchema: z.object({}),
            execute: async () => 'report ready',
            toModelOutput: () => ({ type: 'json', value: { data: codes(CARD), id: 7 } }),
          }),
        },
        { output: [pii({ action: 'redact', entities: ['CREDIT_CARD'] })] },
      ),
      stopWhen: stepCountIs(2),
      prompt: 'Go',
    });
    expect(toolOutputsIn(model.doGenerateCalls[1]!.prompt)).toEqual([
      { type: 'json', value: { data: 'card [CREDIT_CARD]', id: 7 } },
    ]);
    expect(collectToolRecords(out.steps).map(r => [r.guardrail, r.status])).toEqual([
      ['pii', 'passed'],
      ['pii', 'modified'],
    ]);
  });
});
