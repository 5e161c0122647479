import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { withoutTiming } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

// With output guardrails, guardStream's read loop judges a provider-executed
// tool's result (and a generated file) as it reads it, not a layer of its own:
// the results, the records and their order are what the layers gave.

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const stop = { unified: 'stop' as const, raw: 'stop' };
const PAGE = 'Opening hours 9-17. Call jane@corp.io about the order.';

/** A file with an address, a web search the provider ran (its result with an address), then text with one. */
function searchingModel() {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    {
      type: 'file',
      mediaType: 'text/plain',
      data: { type: 'data', data: btoa('Mail bob@corp.io') },
    },
    {
      type: 'tool-call',
      toolCallId: 'ws1',
      toolName: 'web_search',
      input: '{"query":"opening hours"}',
      providerExecuted: true,
    },
    { type: 'tool-result', toolCallId: 'ws1', toolName: 'web_search', result: { pages: [PAGE] } },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'They open at 9, ask ' },
    { type: 'text-delta', id: 't', delta: 'ann@corp.io.' },
    { type: 'text-end', id: 't' },
    { type: 'finish', usage, finishReason: stop },
  ];
  return new MockLanguageModelV4({
    doStream: async () => ({ stream: convertArrayToReadableStream(parts) }),
  });
}

describe('provider-executed tool results judged in the stream guard read loop', () => {
  for (const mode of ['window', 'hold', 'passthrough'] as const) {
    it(`${mode}: the result is redacted in place, records in the stream's order`, async () => {
      const model = wrapLanguageModel({
        model: searchingModel(),
        middleware: guardrails({
          output: [pii({ action: 'redact' })],
          toolOutputs: [pii({ action: 'redact' })],
          stream: { mode },
        }),
      });
      const stream = streamText({ model, prompt: 'When do they open?' });
      const seen: unknown[] = [];
      let text = '';
      for await (const part of stream.fullStream) {
        if (part.type === 'text-delta') text += part.text;
        else if (part.type === 'tool-result') seen.push(['tool-result', part.output]);
        else if (part.type === 'file') seen.push(['file', part.file.base64]);
        else if (part.type === 'tool-call') seen.push(['tool-call', part.toolCallId]);
      }
      expect(seen).toEqual([
        ['file', btoa('Mail [EMAIL_ADDRESS]')],
        ['tool-call', 'ws1'],
        ['tool-result', { pages: ['Opening hours 9-17. Call [EMAIL_ADDRESS] about the order.'] }],
      ]);
      expect(text).toBe(
        mode === 'passthrough'
          ? 'They open at 9, ask ann@corp.io.'
          : 'They open at 9, ask [EMAIL_ADDRESS].',
      );
      const outcome = await getGuardrailOutcome(stream);
      expect(withoutTiming(outcome?.records).map(r => [r.kind, r.status, r.part ?? null])).toEqual([
        ['output', 'modified', 'file'],
        ['tool_output', 'modified', null],
        ['output', 'modified', null],
      ]);
    });
  }
});
