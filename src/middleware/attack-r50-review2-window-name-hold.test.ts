import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, stop, usage } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

/*
 * Round 50 second review (hI) of r50-hC (issue 16), memory: docs/streaming.md
 * ("A hold with no end of its own is bounded") says window mode never holds
 * more than 2 x window + 64 characters, at least 16,384, for long: past it
 * the window judges what is held or fails closed (`content-filter`). A
 * repeated name list (`Maria Lopez ` again and again) with pii's NER
 * entities, streamed in deltas of 3, is held whole: the first text comes
 * out only after the model's last delta, and nothing blocks. The same at
 * the base 14a3fe92 (not new in r50-hC): 32 KB, 128 KB, 1 MB all held whole
 * (a 10 MB answer is 10 MB in memory).
 */

/** A model streaming `text` in deltas of 3, pulled one at a time; `pushed()` is how much it has given. */
function pulledModel(text: string) {
  let at = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async () => generateResult(text),
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV4StreamPart>(
        {
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't1' });
          },
          pull(controller) {
            if (at >= text.length) {
              controller.enqueue({ type: 'text-end', id: 't1' });
              controller.enqueue({ type: 'finish', finishReason: stop, usage });
              controller.close();
              return;
            }
            controller.enqueue({ type: 'text-delta', id: 't1', delta: text.slice(at, at + 3) });
            at += 3;
          },
        },
        { highWaterMark: 0 },
      ),
    }),
  });
  return { model, pushed: () => at };
}

describe('attack r50 review 2: window mode holds a repeated name list whole', () => {
  // Open (pre-existing, base too): expected the first text before about
  // 1.5 x 16,384 characters were given, or a `content-filter` finish;
  // observed the first text after all 64,008 characters, finish `stop`.
  it.fails('releases or blocks before 3 x 16,384 characters of `Maria Lopez ` (64 KB, deltas of 3)', async () => {
    const text = 'Maria Lopez '.repeat(5_334);
    const { model, pushed } = pulledModel(text);
    const wrapped = wrapLanguageModel({
      model,
      middleware: guardrails({
        output: [pii({ entities: ['PERSON', 'ORGANIZATION'], action: 'redact' })],
        stream: { mode: 'window' },
      }),
    });
    let firstText = -1;
    let finish = '';
    for await (const part of streamText({ model: wrapped, prompt: 'hi' }).fullStream) {
      if (part.type === 'text-delta' && firstText < 0) firstText = pushed();
      if (part.type === 'finish') finish = part.finishReason;
    }
    expect(text.length).toBe(64_008);
    const outcome =
      finish === 'content-filter'
        ? 'blocked'
        : firstText >= 0 && firstText < 3 * 16_384
          ? 'released'
          : `held ${firstText}, finish ${finish}`;
    expect(outcome).not.toMatch(/^held/);
  }, 120_000);
});
