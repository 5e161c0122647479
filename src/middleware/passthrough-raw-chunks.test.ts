import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText, type ToolSet, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readAll, streamOf } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { type GuardrailsOptions, guardrails } from './guardrails-middleware';

// Round 21: passthrough mode judges and withholds the files a model
// generates, and with `toolCalls` its tool calls, before release (round 20),
// but it let the provider's `raw` parts (`includeRawChunks`) through as they
// came: the chunk carrying a file's base64 or a call's arguments reached
// `fullStream` and `onChunk` while the file was redacted or the call
// withheld. The raw parts go in passthrough too when the middleware judges
// the response.

const EMAIL = 'jane.doe@corp.io';
const FILE_BASE64 = btoa(`Contact ${EMAIL} today.`);
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';

/** Every part `fullStream` gives, every chunk `onChunk` gets, and the call's outcome. */
async function passthrough(
  parts: LanguageModelV4StreamPart[],
  options: GuardrailsOptions,
  extra: { tools?: ToolSet } = {},
) {
  const chunks: unknown[] = [];
  const result = streamText({
    model: wrapLanguageModel({
      model: new MockLanguageModelV4({ doStream: async () => streamOf(parts) }),
      middleware: guardrails({ ...options, stream: { mode: 'passthrough' } }),
    }),
    prompt: 'write it',
    includeRawChunks: true,
    onChunk: ({ chunk }) => {
      chunks.push(chunk);
    },
    ...extra,
  });
  const all = await readAll(result.fullStream);
  return {
    types: all.map(part => part.type),
    json: JSON.stringify([all, chunks]),
    outcome: await getGuardrailOutcome(result),
  };
}

describe('passthrough mode: raw chunks of what it withholds', () => {
  it('a redacted generated file: no raw chunk carries its base64', async () => {
    const out = await passthrough(
      [
        {
          type: 'raw',
          rawValue: { output: [{ type: 'image_generation_call', result: FILE_BASE64 }] },
        },
        { type: 'file', mediaType: 'text/plain', data: { type: 'data', data: FILE_BASE64 } },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Here it is.' },
        { type: 'text-end', id: 't1' },
      ],
      { output: [pii({ action: 'redact' })] },
    );
    expect(out.types).toEqual([
      'start',
      'start-step',
      'file',
      'text-start',
      'text-delta',
      'text-end',
      'finish-step',
      'finish',
    ]);
    expect(out.json).not.toContain(FILE_BASE64);
    expect(out.json).not.toContain(EMAIL);
    expect(out.json).toContain(btoa('Contact [EMAIL_ADDRESS] today.'));
    expect(out.outcome?.status).toBe('modified');
  });

  it('a withheld tool call (toolCalls): no raw chunk carries its key', async () => {
    const input = JSON.stringify({ key: AWS_KEY });
    const out = await passthrough(
      [
        { type: 'raw', rawValue: { tool_calls: [{ function: { arguments: input } }] } },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'save', input },
      ],
      { toolCalls: [secrets()] },
      {
        tools: {
          save: tool({ inputSchema: z.object({ key: z.string() }), execute: async () => 'ok' }),
        },
      },
    );
    expect(out.json).not.toContain(AWS_KEY);
    expect(out.types).not.toContain('raw');
    expect(out.types).not.toContain('tool-call');
    expect(out.outcome?.records.map(r => [r.guardrail, r.kind, r.status])).toEqual([
      ['secrets', 'tool_input', 'blocked'],
    ]);
  });
});
