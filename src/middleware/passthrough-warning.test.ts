import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { readAll, streamOf, textParts } from '../../test/helpers';
import { secrets } from '../guards/secrets/secrets';
import { guardrails } from './guardrails-middleware';

// Round 20: the warning `passthrough` logs once said "nothing can be
// withheld", which stopped being true when generated files (output
// guardrails) and tool calls (`toolCalls`) came to be judged before they
// are released in every stream mode. The warning must say what passthrough
// does: streamed text is only reported on; files and judged tool calls are
// withheld.

const WARNING =
  "[ai-guardrails] stream mode 'passthrough': output guardrails only report on streamed text and reasoning (released as written: a trip cannot withhold them); files the model generates are still judged before release (redacted or withheld), and so are tool calls with toolCalls.";
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';

afterEach(() => vi.restoreAllMocks());

describe("stream mode 'passthrough' warning", () => {
  it('says what is withheld and what is not, once per process', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    guardrails({ output: [secrets()], stream: { mode: 'passthrough' } });
    guardrails({ output: [secrets()], stream: { mode: 'passthrough' } });
    expect(warn.mock.calls).toEqual([[WARNING]]);
  });

  it('what it says holds through streamText: the text streams, the file and the call do not', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const executed: unknown[] = [];
    const parts: LanguageModelV4StreamPart[] = [
      ...textParts([`key ${AWS_KEY}`]),
      {
        type: 'file',
        mediaType: 'text/plain',
        data: { type: 'data', data: new TextEncoder().encode(`key: ${AWS_KEY}`) },
      },
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'save',
        input: JSON.stringify({ note: AWS_KEY }),
      },
    ];
    const result = streamText({
      model: wrapLanguageModel({
        model: new MockLanguageModelV4({
          doStream: async () =>
            streamOf(parts, { finishReason: { unified: 'tool-calls', raw: 'tool_calls' } }),
        }),
        middleware: guardrails({
          output: [secrets()],
          toolCalls: [secrets()],
          stream: { mode: 'passthrough' },
        }),
      }),
      tools: {
        save: tool({
          inputSchema: z.object({ note: z.string() }),
          execute: async input => {
            executed.push(input);
            return 'saved';
          },
        }),
      },
      prompt: 'write it',
    });
    const out = await readAll(result.fullStream);
    expect(out.filter(p => p.type === 'text-delta').map(p => p.text)).toEqual([`key ${AWS_KEY}`]);
    expect(out.filter(p => p.type === 'file')).toEqual([]);
    expect(out.filter(p => p.type === 'tool-call')).toEqual([]);
    expect(executed).toEqual([]);
  });
});
