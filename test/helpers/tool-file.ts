import type { LanguageModelV4Content, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, isStepCount, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import type { Guardrail, GuardrailEvent, GuardrailRecord } from '../../src/core/types';
import { pii } from '../../src/guards/pii/pii';
import { getGuardrailOutcome } from '../../src/middleware/get-guardrail-outcome';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import { guardTools } from '../../src/tools/guard-tool';
import { generateResult, streamOf, textModel, withoutTiming } from './index';
import { turnsModel } from './turns-model';

/**
 * The bytes the model is sent for an `application/octet-stream` file a
 * guarded tool returns from `toModelOutput` (output guardrail: redacting
 * `pii`), read from the second step's prompt.
 */
export async function octetStreamToolFileSent(data: Uint8Array): Promise<Uint8Array> {
  return (await toolFileSent(data, 'application/octet-stream')).data as Uint8Array;
}

/**
 * The media type and data the model is sent for a file of `mediaType` a
 * guarded tool returns from `toModelOutput` (output guardrail: redacting
 * `pii`), read from the second step's prompt.
 */
export async function toolFileSent(
  data: Uint8Array | string,
  mediaType: string,
): Promise<{ mediaType: string; data: Uint8Array | string }> {
  const output = (await toolOutputSent(data, mediaType)) as {
    value: Array<{ mediaType: string; data: { data: Uint8Array | string } }>;
  };
  const file = output.value[0]!;
  return { mediaType: file.mediaType, data: file.data.data };
}

/**
 * The tool result output the model is sent for a file of `mediaType` a
 * guarded tool returns from `toModelOutput` (output guardrail: redacting
 * `pii`): the `content` output, or the text a withheld one is replaced by.
 */
export async function toolOutputSent(
  data: Uint8Array | string,
  mediaType: string,
  events?: GuardrailEvent[],
): Promise<unknown> {
  const model = turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'report', input: {} }] }]);
  await generateText({
    model,
    tools: guardTools(
      {
        report: tool({
          inputSchema: z.object({}),
          execute: async () => 'done',
          toModelOutput: () => ({
            type: 'content',
            value: [{ type: 'file', data: { type: 'data', data }, mediaType } as never],
          }),
        }),
      },
      {
        output: [pii({ action: 'redact' })],
        ...(events && { onEvent: (event: GuardrailEvent) => events.push(event) }),
      },
    ),
    prompt: 'Report',
    stopWhen: isStepCount(2),
  });
  const prompt = model.doGenerateCalls[1]!.prompt as LanguageModelV4Prompt;
  const result = prompt
    .flatMap(message => (message.role === 'tool' ? message.content : []))
    .find(part => part.type === 'tool-result') as { output: unknown };
  return result.output;
}

/**
 * What `generateText` gives for a file of `mediaType` the model generates
 * (beside a text), with a redacting `pii` as the output guardrail: the
 * files in `result.files` (their bytes) and each record's guardrail and status.
 */
export async function generatedFileOutcome(
  data: Uint8Array | string,
  mediaType: string,
): Promise<{ files: Uint8Array[]; records: Array<[string, string]> }> {
  const file: LanguageModelV4Content = { type: 'file', mediaType, data: { type: 'data', data } };
  const result = await generateText({
    model: wrapLanguageModel({
      model: new MockLanguageModelV4({
        doGenerate: async () => generateResult([{ type: 'text', text: 'Here.' }, file]),
      }),
      middleware: guardrails({ output: [pii({ action: 'redact' })] }),
    }),
    prompt: 'write it',
  });
  const records = (await getGuardrailOutcome(result))?.records ?? [];
  return {
    files: result.files.map(generated => generated.uint8Array),
    records: records.map(record => [record.guardrail, record.status]),
  };
}

/**
 * What `generateText` does with a user's file of `mediaType` (input
 * guardrail: `pii`, redacting): how many times the model was called, and
 * the records (no timing).
 */
export async function userFileOutcome(
  data: Uint8Array | string,
  mediaType: string,
): Promise<{ calls: number; records: ReturnType<typeof withoutTiming<GuardrailRecord>> }> {
  const mock = textModel('ok');
  const result = await generateText({
    model: wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [pii({ action: 'redact' })] }),
    }),
    messages: [{ role: 'user', content: [{ type: 'file', mediaType, data }] }],
  });
  return {
    calls: mock.doGenerateCalls.length,
    records: withoutTiming((await getGuardrailOutcome(result))?.records),
  };
}

/**
 * What `streamText` gives for a file of `mediaType` the model streams
 * (alone), with a redacting `pii` as the output guardrail: the file parts
 * that reached the stream, and the records (no timing).
 */
export async function streamedFileOutcome(
  data: Uint8Array | string,
  mediaType: string,
): Promise<{ files: unknown[]; records: ReturnType<typeof withoutTiming<GuardrailRecord>> }> {
  const result = streamText({
    model: wrapLanguageModel({
      model: new MockLanguageModelV4({
        doStream: async () => streamOf([{ type: 'file', mediaType, data: { type: 'data', data } }]),
      }),
      middleware: guardrails({ output: [pii({ action: 'redact' })] }),
    }),
    prompt: 'write it',
  });
  const files: unknown[] = [];
  for await (const part of result.fullStream) if (part.type === 'file') files.push(part);
  return { files, records: withoutTiming((await getGuardrailOutcome(result))?.records) };
}

/**
 * What the model is sent for a user's file of `mediaType` (`meeting at
 * noon` as bytes) after a text part, with `guardrail` (default `pii`) as
 * the input guardrail: how many times the model was called, the media type
 * it got (`undefined` when not called) and the records that did not pass.
 */
export async function userFileSent(mediaType: string, guardrail: Guardrail = pii()) {
  const mock = textModel('ok');
  const result = await generateText({
    model: wrapLanguageModel({ model: mock, middleware: guardrails({ input: [guardrail] }) }),
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Read this.' },
          { type: 'file', mediaType, data: new TextEncoder().encode('meeting at noon') },
        ],
      },
    ],
  });
  const sent = mock.doGenerateCalls[0]?.prompt[0]?.content as unknown as
    | Array<Record<string, unknown>>
    | undefined;
  return {
    calls: mock.doGenerateCalls.length,
    mediaType: sent?.[1]?.mediaType,
    records: withoutTiming((await getGuardrailOutcome(result))?.records)?.filter(
      record => record.status !== 'passed',
    ),
  };
}
