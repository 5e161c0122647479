import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel, withoutTiming } from '../../test/helpers';
import { pseudoRandomBytes } from '../../test/helpers/binary-heads';
import { streamedFileOutcome, toolOutputSent, userFileOutcome } from '../../test/helpers/tool-file';
import { toolResultHistory } from '../../test/helpers/tool-history';
import type { GuardrailEvent } from '../core/types';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/**
 * Round 25. A file of no known binary format is judged on its readable runs
 * (round 24); past ~9 MB of random bytes those runs are over 1,000,000
 * characters, and the file failed closed saying `a text file is longer than
 * 1000000 characters`: it is no text file. The reason now says what it is.
 */
const BIG = pseudoRandomBytes(9_500_000);
const WHY =
  'a file of type application/x-data, binary with no known format, has readable text longer than 1000000 characters';

describe('a formatless binary file whose readable text is over the limit', () => {
  it("a user's file: input-unreadable, the reason names a binary file", async () => {
    expect(await userFileOutcome(BIG, 'application/x-data')).toEqual({
      calls: 0,
      records: [
        {
          guardrail: 'input-unreadable',
          kind: 'input',
          status: 'error',
          reason: `message 0 (user) was not judged: ${WHY}`,
          part: 'file',
        },
      ],
    });
  }, 60_000);

  it('a generated file (streamText): withheld, the reason names a binary file', async () => {
    expect(await streamedFileOutcome(BIG, 'application/x-data')).toEqual({
      files: [],
      records: [
        {
          guardrail: 'output-unreadable',
          kind: 'output',
          status: 'error',
          reason: `file 0 of the response was withheld unjudged: ${WHY}`,
          part: 'file',
        },
      ],
    });
  }, 60_000);

  it("guardTools (round 26): the tool's file output is withheld, the same reason", async () => {
    const events: GuardrailEvent[] = [];
    expect(await toolOutputSent(BIG, 'application/x-data', events)).toEqual({
      type: 'text',
      value: 'The result of the "report" tool call was withheld by a guardrail.',
    });
    const records = events.flatMap(event => ('record' in event ? [event.record] : []));
    expect(withoutTiming(records).at(-1)).toEqual({
      guardrail: 'tool-output-unreadable',
      kind: 'tool_output',
      status: 'error',
      reason: `the result of tool "report" was not judged: ${WHY}`,
      toolName: 'report',
      toolCallId: 'c1',
    });
  }, 60_000);

  it('toolOutputs (round 26): a tool result in the history, the same reason', async () => {
    const mock = textModel('ok');
    const result = await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ toolOutputs: [pii({ action: 'redact' })] }),
      }),
      messages: toolResultHistory({
        type: 'content',
        value: [
          { type: 'file', data: { type: 'data', data: BIG }, mediaType: 'application/x-data' },
        ],
      }),
    });
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      {
        guardrail: 'tool-output-unreadable',
        kind: 'tool_output',
        status: 'error',
        reason: `the result of tool "fetchPage" was not judged: ${WHY}`,
        toolName: 'fetchPage',
        toolCallId: 'c1',
      },
    ]);
  }, 60_000);
});
