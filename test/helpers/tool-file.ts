import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, isStepCount, tool } from 'ai';
import { z } from 'zod';
import { pii } from '../../src/guards/pii/pii';
import { guardTools } from '../../src/tools/guard-tool';
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
      { output: [pii({ action: 'redact' })] },
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
