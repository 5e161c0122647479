import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateResult, readAll, streamOf } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

// A toolCalls guardrail that redacts a call's arguments changed the model's
// response as much as one that withholds the call: the provider's raw data
// (response.body, the logprobs of providerMetadata, the outcome) holds the
// arguments as the model wrote them.

const CARD = '4111 1111 1111 1111';
const input = JSON.stringify({ card: CARD });
const toolCallsFinish = { unified: 'tool-calls', raw: 'tool_calls' } as const;
const tools = {
  save: tool({ inputSchema: z.object({ card: z.string() }), execute: async () => 'saved' }),
};

describe('toolCalls: a redacted call leaves no raw copy of its arguments', () => {
  it('generateText: the response body that holds the card is dropped', async () => {
    let step = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () =>
        ++step === 1
          ? generateResult([{ type: 'tool-call', toolCallId: 'c1', toolName: 'save', input }], {
              finishReason: toolCallsFinish,
              response: { id: 'r1', body: { tool_calls: [{ arguments: input }] } },
            })
          : generateResult('done', { response: { id: 'r2', body: { content: 'done' } } }),
    });
    const ran: unknown[] = [];
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({ toolCalls: [pii({ action: 'redact' })] }),
      }),
      tools: {
        save: tool({
          inputSchema: z.object({ card: z.string() }),
          execute: async args => {
            ran.push(args);
            return 'saved';
          },
        }),
      },
      prompt: 'save my card',
      include: { responseBody: true },
      stopWhen: () => step >= 2,
    });
    expect(ran).toEqual([{ card: '[CREDIT_CARD]' }]);
    expect(result.steps[0]!.response.body).toBeUndefined();
    // The provider stores the call as written under its response id: the id goes too.
    expect(result.steps[0]!.response.id).toMatch(/^aitxt-/);
    expect(JSON.stringify(result.steps)).not.toContain(CARD);
    // The last step's answer was not changed: its body stays.
    expect(result.response.body).toEqual({ content: 'done' });
  });

  it('streamText: the outcome says modified, and the finish drops the logprobs', async () => {
    const model = new MockLanguageModelV4({
      doStream: async () =>
        streamOf(
          [
            { type: 'tool-input-start', id: 'c1', toolName: 'save' },
            { type: 'tool-input-delta', id: 'c1', delta: input },
            { type: 'tool-input-end', id: 'c1' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'save', input },
          ] satisfies LanguageModelV4StreamPart[],
          {
            finishReason: toolCallsFinish,
            providerMetadata: {
              openai: { responseId: 'resp_1', logprobs: [{ token: input, logprob: -0.1 }] },
            },
          },
        ),
    });
    const result = streamText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({ toolCalls: [pii({ action: 'redact' })] }),
      }),
      tools,
      prompt: 'save my card',
    });
    const parts = await readAll(result.fullStream);
    expect(JSON.stringify(parts)).not.toContain(CARD);
    const metadata = await result.providerMetadata;
    expect(metadata?.openai).toEqual({});
    expect((metadata?.guardrails as { status?: string } | undefined)?.status).toBe('modified');
  });
});
