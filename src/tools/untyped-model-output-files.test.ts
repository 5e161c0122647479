import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, isStepCount, tool, wrapLanguageModel } from 'ai';
import * as ai6 from 'ai-v6';
import * as ai6Test from 'ai-v6/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { textModel, withoutTiming } from '../../test/helpers';
import { turnsModel } from '../../test/helpers/turns-model';
import type { GuardrailEvent } from '../core/types';
import { pii } from '../guards/pii/pii';
import { guardrails } from '../middleware/guardrails-middleware';
import { guardTools } from './guard-tool';

/*
 * Round 19: a file part of a guarded tool's `toModelOutput` of media type
 * `application/octet-stream`, or with none, passed the tool's output
 * guardrails unread, though a provider may send its bytes on as text:
 * `Contact jane.doe@corp.io` reached the model. Its bytes are now judged
 * as text when they are UTF-8, as a user's file of no type is; bytes that
 * are not UTF-8 are a file no guardrail reads (`unreadableFiles`). Files of
 * a text media type (`file`, AI SDK 6's `file-data` and `media`) were
 * judged already (the first test).
 */

const TEXT = 'Contact jane.doe@corp.io please';
const REDACTED = 'Contact [EMAIL_ADDRESS] please';
const bytesOf = (text: string) => new TextEncoder().encode(text);
/** Bytes that are not UTF-8 (and no signature the AI SDK names a media type by). */
const BINARY = Uint8Array.from([0x80, 0x81, 0xc0, 0x00, 0xff, 0x41]);

const call = { toolCalls: [{ toolCallId: 'c1', toolName: 'report', input: { id: '7' } }] };

/** A tool whose model output is a note and the given file part. */
function reportTool(file: Record<string, unknown>) {
  return tool({
    inputSchema: z.object({ id: z.string() }),
    execute: async () => 'done',
    toModelOutput: () => ({
      type: 'content',
      value: [{ type: 'text', text: 'Report attached.' }, file as never],
    }),
  });
}

/** What the model read of the tool result in the step after the call, and the records. */
async function modelReads(
  file: Record<string, unknown>,
  unreadableFiles?: 'pass' | 'block',
): Promise<{ output: unknown; records: unknown[] }> {
  const model = turnsModel([call]);
  const events: GuardrailEvent[] = [];
  await generateText({
    model,
    tools: guardTools(
      { report: reportTool(file) },
      { output: [pii({ action: 'redact' })], unreadableFiles, onEvent: e => events.push(e) },
    ),
    prompt: 'Report 7',
    stopWhen: isStepCount(2),
  });
  const prompt = model.doGenerateCalls[1]!.prompt as LanguageModelV4Prompt;
  const output = prompt.flatMap(message =>
    message.role === 'tool'
      ? message.content.map(part => (part.type === 'tool-result' ? part.output : part))
      : [],
  );
  return {
    output: output[0],
    records: withoutTiming(events.map(e => e.record)).map(
      ({ guardrail, status, reason, info }) => ({ guardrail, status, reason, info }),
    ),
  };
}

const piiRecord = {
  guardrail: 'pii',
  status: 'modified',
  reason: undefined,
  info: { types: ['EMAIL_ADDRESS'], spans: [{ type: 'EMAIL_ADDRESS', start: 8, end: 24 }] },
};
const passedRecord = { guardrail: 'pii', status: 'passed', reason: undefined, info: undefined };
const contentOf = (file: unknown) => ({
  type: 'content',
  value: [{ type: 'text', text: 'Report attached.' }, file],
});

describe("guardTools: files in a tool's toModelOutput", () => {
  it('a text/plain file (AI SDK 7 file, AI SDK 6 file-data and media) is judged and redacted', async () => {
    for (const [file, sent] of [
      [
        { type: 'file', data: { type: 'data', data: bytesOf(TEXT) }, mediaType: 'text/plain' },
        { type: 'file', data: { type: 'data', data: bytesOf(REDACTED) }, mediaType: 'text/plain' },
      ],
      [
        { type: 'file-data', data: btoa(TEXT), mediaType: 'text/plain' },
        // generateText turns AI SDK 6's file-data into a file.
        { type: 'file', data: { type: 'data', data: btoa(REDACTED) }, mediaType: 'text/plain' },
      ],
      [
        { type: 'media', data: btoa(TEXT), mediaType: 'text/plain' },
        { type: 'media', data: btoa(REDACTED), mediaType: 'text/plain' },
      ],
    ] as const) {
      const { output, records } = await modelReads(file);
      expect(output).toEqual(contentOf(sent));
      expect(records).toEqual([passedRecord, passedRecord, piiRecord]);
    }
  });

  it('UTF-8 bytes of application/octet-stream or of no type are judged as text (they reached the model unjudged)', async () => {
    for (const [file, sent] of [
      [
        {
          type: 'file',
          data: { type: 'data', data: bytesOf(TEXT) },
          mediaType: 'application/octet-stream',
        },
        {
          type: 'file',
          data: { type: 'data', data: bytesOf(REDACTED) },
          mediaType: 'application/octet-stream',
        },
      ],
      [
        { type: 'file-data', data: btoa(TEXT) },
        { type: 'file', data: { type: 'data', data: btoa(REDACTED) } },
      ],
      [
        { type: 'media', data: btoa(TEXT), mediaType: 'application/octet-stream; x=1' },
        { type: 'media', data: btoa(REDACTED), mediaType: 'application/octet-stream; x=1' },
      ],
    ] as const) {
      const { output, records } = await modelReads(file);
      expect(output).toEqual(contentOf(sent));
      // A parameter but a charset: the media type is judged too (round 23), and passes.
      const typeJudged = 'mediaType' in file && file.mediaType.includes(';');
      expect(records).toEqual([
        passedRecord,
        passedRecord,
        piiRecord,
        ...(typeJudged ? [passedRecord] : []),
      ]);
    }
  });

  it('bytes that are not UTF-8 are a file no guardrail reads: they pass, or are withheld with unreadableFiles block', async () => {
    const file = {
      type: 'file',
      data: { type: 'data', data: BINARY },
      mediaType: 'application/octet-stream',
    };
    expect(await modelReads(file)).toEqual({
      output: contentOf(file),
      records: [passedRecord, passedRecord],
    });
    expect(await modelReads(file, 'block')).toEqual({
      output: {
        type: 'text',
        value: 'The result of the "report" tool call was withheld by a guardrail.',
      },
      records: [
        passedRecord,
        passedRecord,
        {
          guardrail: 'unreadable-file',
          status: 'blocked',
          reason:
            "a file of type application/octet-stream, which no guardrail reads, was withheld (unreadableFiles: 'block')",
          info: undefined,
        },
      ],
    });
  });

  it('UTF-8 text longer than can be judged is withheld; binary of that size passes unread, the note after it judged', async () => {
    const long = {
      type: 'file',
      data: { type: 'data', data: new Uint8Array(3_000_010).fill(0x61) },
    };
    const withheld = await modelReads(long);
    expect(withheld.output).toEqual({
      type: 'text',
      value: 'The result of the "report" tool call was withheld by a guardrail.',
    });
    expect(withheld.records.at(-1)).toMatchObject({
      status: 'error',
      reason: expect.stringContaining('the text is longer than 1000000 characters'),
    });
    const binary = new Uint8Array(3_000_010).fill(0xff);
    const file = {
      type: 'file',
      data: { type: 'data', data: binary },
      mediaType: 'application/octet-stream',
    };
    const model = turnsModel([call]);
    await generateText({
      model,
      tools: guardTools(
        {
          report: tool({
            inputSchema: z.object({ id: z.string() }),
            execute: async () => 'done',
            toModelOutput: () => ({
              type: 'content',
              value: [file as never, { type: 'text', text: TEXT }],
            }),
          }),
        },
        { output: [pii({ action: 'redact' })] },
      ),
      prompt: 'Report 7',
      stopWhen: isStepCount(2),
    });
    const tool1 = model.doGenerateCalls[1]!.prompt.find(m => m.role === 'tool')!;
    const part = tool1.content[0] as { output: { value: unknown[] } };
    // The same bytes, not a copy (compared by identity: 3 MB).
    expect((part.output.value[0] as typeof file).data.data).toBe(binary);
    expect(part.output.value[1]).toEqual({ type: 'text', text: REDACTED });
  });

  it('with AI SDK 6: an application/octet-stream file-data part is judged', async () => {
    const model = new ai6Test.MockLanguageModelV3({
      doGenerate: [
        {
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'report', input: '{"id":"7"}' },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 1, text: 1, reasoning: undefined },
          },
          warnings: [],
        },
        {
          content: [{ type: 'text', text: 'ok' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 1, text: 1, reasoning: undefined },
          },
          warnings: [],
        },
      ],
    });
    await ai6.generateText({
      model,
      // ai@6's tool types differ from ai@7's, which guardTools is typed with (as in test/compat).
      tools: guardTools(
        {
          report: ai6.tool({
            inputSchema: z.object({ id: z.string() }),
            execute: async () => 'done',
            toModelOutput: () => ({
              type: 'content',
              value: [
                { type: 'file-data', data: btoa(TEXT), mediaType: 'application/octet-stream' },
              ],
            }),
          }) as never,
        },
        { output: [pii({ action: 'redact' })] },
      ) as never,
      prompt: 'Report 7',
      stopWhen: ai6.stepCountIs(2) as never,
    });
    const toolMessage = model.doGenerateCalls[1]!.prompt.find(m => m.role === 'tool')!;
    expect((toolMessage.content[0] as { output: unknown }).output).toEqual({
      type: 'content',
      value: [{ type: 'file-data', data: btoa(REDACTED), mediaType: 'application/octet-stream' }],
    });
  });
});

describe('guardrails({ toolOutputs }): an application/octet-stream file in a tool result of the prompt', () => {
  it('is judged as text when it is UTF-8 (it reached the model unjudged)', async () => {
    const model = textModel('ok');
    await generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({ toolOutputs: [pii({ action: 'redact' })] }),
      }),
      messages: [
        { role: 'user', content: 'Read the report.' },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'report', input: {} }],
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
                  {
                    type: 'file',
                    data: { type: 'data', data: bytesOf(TEXT) },
                    mediaType: 'application/octet-stream',
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const toolMessage = model.doGenerateCalls[0]!.prompt.find(m => m.role === 'tool')!;
    expect((toolMessage.content[0] as { output: unknown }).output).toEqual({
      type: 'content',
      value: [
        {
          type: 'file',
          data: { type: 'data', data: bytesOf(REDACTED) },
          mediaType: 'application/octet-stream',
        },
      ],
    });
  });
});
