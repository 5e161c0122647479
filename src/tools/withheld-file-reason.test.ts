import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, isStepCount, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serialisedWithoutTiming, textModel, withoutTiming } from '../../test/helpers';
import { pngChunk, realPng, realZip } from '../../test/helpers/binary-files';
import { toolResultHistory } from '../../test/helpers/tool-history';
import { turnsModel } from '../../test/helpers/turns-model';
import type { GuardrailEvent } from '../core/types';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { guardrails } from '../middleware/guardrails-middleware';
import { guardTools } from './guard-tool';

// Round 24: a tool output withheld for one of its files named the output's
// type alone: `toolOutputs` said `its output is not a tool result output
// the guardrails can read (type "content")` of a PNG whose text chunk held
// a card, `guardTools` `… (a guardrail changed the text read from a file
// that is not text …)` with no place. The reason now says which part, what
// file (its type when it reads as a type name) and what was found there
// (guardrail and types, never the value).

const latin1 = (text: string) => Array.from(text, c => c.charCodeAt(0));
const PNG = realPng(8, 8, [pngChunk('tEXt', latin1('Comment\0card 4111 1111 1111 1111'))]);
const BOMB = realZip([{ name: 'a.txt', data: new Uint8Array(20_000_000) }]);
const content = (data: Uint8Array, mediaType: string) => ({
  type: 'content' as const,
  value: [
    { type: 'text' as const, text: 'Report attached.' },
    { type: 'file' as const, data: { type: 'data' as const, data }, mediaType },
  ],
});

async function viaGuardTools(data: Uint8Array, mediaType: string) {
  const events: GuardrailEvent[] = [];
  await generateText({
    model: turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'report', input: {} }] }]),
    tools: guardTools(
      {
        report: tool({
          inputSchema: z.object({}),
          execute: async () => 'done',
          toModelOutput: () => content(data, mediaType) as never,
        }),
      },
      { output: [pii({ action: 'redact' })], onEvent: e => events.push(e) },
    ),
    prompt: 'Report',
    stopWhen: isStepCount(2),
  });
  return withoutTiming(events.map(e => e.record)).map(r => [r.guardrail, r.status, r.reason]);
}

async function viaToolOutputs(data: Uint8Array, mediaType: string) {
  const mock = textModel('ok');
  const messages = toolResultHistory(content(data, mediaType) as never, 'report');
  const result = await generateText({
    model: wrapLanguageModel({
      model: mock,
      middleware: guardrails({ toolOutputs: [pii({ action: 'redact' })] }),
    }),
    messages,
  });
  const prompt = mock.doGenerateCalls[0]!.prompt as LanguageModelV4Prompt;
  const sent = prompt.flatMap(m => (m.role === 'tool' ? m.content : []));
  const records = withoutTiming((await getGuardrailOutcome(result))?.records);
  return { sent, records: records.map(r => [r.guardrail, r.status, r.reason]) };
}

describe("a withheld tool output's reason says which file and what was found", () => {
  it('guardTools: a card in a PNG text chunk, a zip bomb', async () => {
    // The tool's result, then its model output's text part, pass.
    expect(await viaGuardTools(PNG, 'image/png')).toEqual([
      ['pii', 'passed', undefined],
      ['pii', 'passed', undefined],
      ['pii', 'modified', undefined],
      [
        'pii',
        'error',
        "the tool's model output was withheld: content part 1 (a file of type image/png): a guardrail changed the text read from it, a file that is not text, whose bytes are never rewritten; pii found CREDIT_CARD",
      ],
    ]);
    expect(await viaGuardTools(BOMB, 'application/zip')).toEqual([
      ['pii', 'passed', undefined],
      ['pii', 'passed', undefined],
      [
        'pii',
        'error',
        "the tool's model output was withheld: content part 1 (a file of type application/zip): a zip file whose text could not be read: compressed parts that inflate to more than 8000000 bytes",
      ],
    ]);
  });

  it("toolOutputs: the same, as the prompt's tool result", async () => {
    const { sent, records } = await viaToolOutputs(PNG, 'image/png');
    expect(JSON.stringify(sent)).not.toContain('image/png');
    expect(records).toEqual([
      ['pii', 'passed', undefined],
      ['pii', 'modified', undefined],
      [
        'tool-output-unreadable',
        'error',
        'the result of tool "report" was withheld: content part 1 (a file of type image/png): a guardrail changed the text read from it, a file that is not text, whose bytes are never rewritten; pii found CREDIT_CARD',
      ],
    ]);
    expect(serialisedWithoutTiming(records)).not.toContain('4111');
  });
});
