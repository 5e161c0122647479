import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import {
  generateText,
  isStepCount,
  type ModelMessage,
  streamText,
  tool,
  wrapLanguageModel,
} from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { textModel, withoutTiming } from '../../test/helpers';
import { turnsModel } from '../../test/helpers/turns-model';
import type { GuardrailEvent } from '../core/types';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { guardrails } from '../middleware/guardrails-middleware';
import { guardTools } from './guard-tool';

/*
 * A PDF (an image, audio, a file by URL) carries text the model reads that
 * no guardrail reads: no PDF parser in an edge-safe core. `unreadableFiles:
 * 'block'` fails closed on such files; the default `'pass'` lets them
 * through as before.
 */

/**
 * `%PDF-1.4` and text in an image's filtered stream (no guardrail reads it:
 * a `/FlateDecode` stream is inflated and read since round 24, and one that
 * is no deflate data fails closed), as a report tool would return it.
 */
const PDF = btoa(
  '%PDF-1.4\n1 0 obj << /Filter /JPXDecode >> stream\nBT (Card 4111 1111 1111 1111) Tj ET\nendstream',
);

/** A tool returning a report whose model output is a note and the PDF file. */
function reportTool() {
  return tool({
    inputSchema: z.object({ id: z.string() }),
    execute: async () => ({ pdf: PDF }),
    toModelOutput: ({ output }) => ({
      type: 'content',
      value: [
        { type: 'text', text: 'Report attached.' },
        { type: 'file-data', data: output.pdf, mediaType: 'application/pdf' },
      ],
    }),
  });
}

const reportCall = { toolCalls: [{ toolCallId: 'c1', toolName: 'report', input: { id: '7' } }] };

function toolOutputsRead(prompt: LanguageModelV4Prompt | undefined): unknown[] {
  return (prompt ?? []).flatMap(message =>
    message.role === 'tool'
      ? message.content.map(part => (part.type === 'tool-result' ? part.output : part))
      : [],
  );
}

const withheld = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};

const pdfRecord = {
  guardrail: 'unreadable-file',
  kind: 'tool_output',
  status: 'blocked',
  reason:
    "a file of type application/pdf, which no guardrail reads, was withheld (unreadableFiles: 'block')",
  toolName: 'report',
  toolCallId: 'c1',
};

describe("guardTools({ unreadableFiles: 'block' }) withholds a tool output carrying a file no guardrail reads", () => {
  it("by default ('pass') the PDF reaches the model as before", async () => {
    const model = turnsModel([reportCall]);
    await generateText({
      model,
      tools: guardTools({ report: reportTool() }, { output: [pii({ action: 'redact' })] }),
      prompt: 'Report 7',
      stopWhen: isStepCount(2),
    });
    expect(toolOutputsRead(model.doGenerateCalls[1]?.prompt)).toEqual([
      {
        type: 'content',
        value: [
          { type: 'text', text: 'Report attached.' },
          { type: 'file', data: { type: 'data', data: PDF }, mediaType: 'application/pdf' },
        ],
      },
    ]);
  });

  it("with 'block' the model reads the blocked message, the record says why (generateText and streamText)", async () => {
    for (const run of ['generate', 'stream'] as const) {
      const model = turnsModel([reportCall]);
      const events: GuardrailEvent[] = [];
      const tools = guardTools(
        { report: reportTool() },
        {
          output: [pii({ action: 'redact' })],
          unreadableFiles: 'block',
          onEvent: e => events.push(e),
        },
      );
      const options = { model, tools, prompt: 'Report 7', stopWhen: isStepCount(2) };
      if (run === 'generate') await generateText(options);
      else await streamText(options).consumeStream();
      const calls = run === 'generate' ? model.doGenerateCalls : model.doStreamCalls;
      expect(toolOutputsRead(calls[1]?.prompt)).toEqual([withheld]);
      expect(withoutTiming(events.map(e => e.record)).at(-1)).toEqual(pdfRecord);
    }
  });

  it('an unknown value of the option is a GuardrailConfigError naming it, in guardTools and guardrails', () => {
    const message =
      "Invalid guardrail configuration at unreadableFiles: expected 'pass' or 'block', received a string of 6 characters (not shown)";
    expect(() =>
      guardTools({ report: reportTool() }, { unreadableFiles: 'ignore' as never }),
    ).toThrow(message);
    expect(() => guardrails({ unreadableFiles: 'ignore' as never })).toThrow(message);
  });
});

describe("guardrails({ unreadableFiles: 'block' }): files in the prompt and in tool results", () => {
  const messages: ModelMessage[] = [
    { role: 'user', content: 'Read the report.' },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'report', input: { id: '7' } }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'report',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'Report attached.' },
              { type: 'file-data', data: PDF, mediaType: 'application/pdf' },
            ],
          },
        },
      ],
    },
  ];

  it('toolOutputs: a tool result with a PDF is withheld with a blocked record; passed by default', async () => {
    for (const unreadableFiles of [undefined, 'block'] as const) {
      const mock = textModel('ok');
      const model = wrapLanguageModel({
        model: mock,
        middleware: guardrails({
          toolOutputs: [pii({ action: 'redact' })],
          ...(unreadableFiles && { unreadableFiles }),
        }),
      });
      const result = await generateText({ model, messages });
      const read = toolOutputsRead(mock.doGenerateCalls[0]!.prompt);
      if (unreadableFiles === undefined) {
        expect(read).toEqual([
          {
            type: 'content',
            value: [
              { type: 'text', text: 'Report attached.' },
              { type: 'file', data: { type: 'data', data: PDF }, mediaType: 'application/pdf' },
            ],
          },
        ]);
      } else {
        expect(read).toEqual([withheld]);
        expect(withoutTiming((await getGuardrailOutcome(result))?.records).at(-1)).toEqual(
          pdfRecord,
        );
      }
    }
  });

  it("input: a user's PDF blocks the call (generateText and streamText); an image too; a text file is judged as before", async () => {
    const prompt = (file: { data: string; mediaType: string }): ModelMessage[] => [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Summarise this.' },
          { type: 'file', data: file.data, mediaType: file.mediaType },
        ],
      },
    ];
    const model = (mock: ReturnType<typeof textModel>) =>
      wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [pii({ action: 'redact' })], unreadableFiles: 'block' }),
      });
    for (const mediaType of ['application/pdf', 'image/png']) {
      const mock = textModel('never');
      const generated = await generateText({
        model: model(mock),
        messages: prompt({ data: PDF, mediaType }),
      });
      await streamText({
        model: model(mock),
        messages: prompt({ data: PDF, mediaType }),
      }).consumeStream();
      expect(mock.doGenerateCalls).toHaveLength(0);
      expect(mock.doStreamCalls).toHaveLength(0);
      expect(generated.finishReason).toBe('content-filter');
      expect(withoutTiming((await getGuardrailOutcome(generated))?.records).at(-1)).toEqual({
        guardrail: 'unreadable-file',
        kind: 'input',
        status: 'blocked',
        reason: `message 0 (user) was not judged: a file of type ${mediaType}, which no guardrail reads (unreadableFiles: 'block')`,
        part: 'file',
      });
    }
    const mock = textModel('ok');
    await generateText({
      model: model(mock),
      messages: prompt({ data: btoa('mail jane@corp.io'), mediaType: 'text/plain' }),
    });
    expect(mock.doGenerateCalls[0]!.prompt[0]!.content).toEqual([
      { type: 'text', text: 'Summarise this.' },
      {
        type: 'file',
        data: { type: 'data', data: btoa('mail [EMAIL_ADDRESS]') },
        mediaType: 'text/plain',
      },
    ]);
  });

  it('a media type carrying a value is not named in the record: only one that reads as a type name is', async () => {
    // The client writes the media type: `application/4111111111111111` was
    // a plain type/subtype to the record, which took the card number to
    // every log and trace its records reach.
    const records: unknown[] = [];
    for (const mediaType of [
      'application/4111111111111111',
      'image/ghp_q8zr4lm2xw9tb6yp1kd7hs3nf5vg0jc7qe2r',
      'application/gb82west12345698765432',
      'audio/mp4',
      'application/vnd.openxmlformats-officedocument.presentationml.slideshow',
    ]) {
      const mock = textModel('never');
      const generated = await generateText({
        model: wrapLanguageModel({
          model: mock,
          middleware: guardrails({ input: [pii()], unreadableFiles: 'block' }),
        }),
        messages: [{ role: 'user', content: [{ type: 'file', data: PDF, mediaType }] }],
      });
      expect(mock.doGenerateCalls).toHaveLength(0);
      records.push((await getGuardrailOutcome(generated))?.records.at(-1)?.reason);
    }
    expect(records).toEqual([
      "message 0 (user) was not judged: a file without a plain media type, which no guardrail reads (unreadableFiles: 'block')",
      "message 0 (user) was not judged: a file without a plain media type, which no guardrail reads (unreadableFiles: 'block')",
      "message 0 (user) was not judged: a file without a plain media type, which no guardrail reads (unreadableFiles: 'block')",
      "message 0 (user) was not judged: a file of type audio/mp4, which no guardrail reads (unreadableFiles: 'block')",
      "message 0 (user) was not judged: a file of type application/vnd.openxmlformats-officedocument.presentationml.slideshow, which no guardrail reads (unreadableFiles: 'block')",
    ]);
  });
});
