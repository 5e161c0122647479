import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, stop, usage, withoutTiming } from '../../test/helpers';
import { generatedText } from '../../test/helpers/window';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from './get-guardrail-outcome';
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
 * (a 10 MB answer is 10 MB in memory). Fixed in round 50 (hL): see below.
 */

const middleware = guardrails({
  output: [pii({ entities: ['PERSON', 'ORGANIZATION'], action: 'redact' })],
  stream: { mode: 'window' },
  blockedMessage: 'BLOCKED',
});

/** The stream parts (text deltas, start, end, finish), where the first text came, and the records. */
async function streamedParts(text: string) {
  const { model, pushed } = pulledModel(text);
  const wrapped = wrapLanguageModel({ model, middleware });
  const result = streamText({ model: wrapped, prompt: 'hi' });
  const parts: string[] = [];
  let firstText = -1;
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      if (firstText < 0) firstText = pushed();
      parts.push(`delta:${part.text}`);
    } else if (part.type === 'text-start' || part.type === 'text-end') parts.push(part.type);
    else if (part.type === 'finish') parts.push(`finish:${part.finishReason}`);
  }
  const records = withoutTiming((await getGuardrailOutcome(result))?.records);
  return { parts, firstText, pushed: pushed(), records };
}

const heldPastBound = (heldBack: number) => [
  {
    guardrail: 'pii',
    kind: 'output',
    status: 'blocked',
    reason:
      "window mode: more than 16384 characters held back by changes with no break to release at between them (a long run of names); stream such answers in 'hold' mode or with a larger stream.window",
    info: { heldBack, bound: 16_384 },
  },
];

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
  // Fixed (round 50, hL): the bound applied only with every guardrail's
  // hook; `pii` with NER entities has none, and each check's release of a
  // name list found no break its spans line up with (the tagger's PERSON
  // spans reach over every cut), so it released nothing, with no bound.
  // Now the check that leaves more than 16,384 held, scheduled at 16,385,
  // fails closed. Before: the first text after all 64,008 characters,
  // finish `stop`.
  it('blocks once 16,384 characters of `Maria Lopez ` are held (64 KB, deltas of 3)', async () => {
    const text = 'Maria Lopez '.repeat(5_334);
    expect(text.length).toBe(64_008);
    const { parts, firstText, records } = await streamedParts(text);
    expect(parts).toEqual(['text-start', 'delta:BLOCKED', 'text-end', 'finish:content-filter']);
    expect(firstText).toBe(16_386);
    expect(records).toEqual(heldPastBound(16_386));
  }, 120_000);

  // Memory: a 1 MB answer is read no further than the bound (before: all of it held).
  it('1 MB of `Maria Lopez `: held back at most the bound and one delta, the model read no further', async () => {
    const text = 'Maria Lopez '.repeat(87_382);
    expect(text.length).toBe(1_048_584);
    const { parts, firstText, pushed, records } = await streamedParts(text);
    expect(parts).toEqual(['text-start', 'delta:BLOCKED', 'text-end', 'finish:content-filter']);
    expect(firstText).toBe(16_386);
    expect(pushed).toBeLessThanOrEqual(16_384 + 3);
    expect(records).toEqual(heldPastBound(16_386));
  }, 120_000);

  // A list with other words between the names released its first pieces,
  // then held on with no bound too (at the base: 126,138 characters held
  // in a 132,000-character list): now the same block past the bound.
  it('a mixed name list: its first pieces, then the block once 16,384 are held', async () => {
    const text = 'Maria Lopez, Juan Perez and Anna Smith met. '.repeat(3_000);
    const { parts, pushed, records } = await streamedParts(text);
    const released = parts.slice(1, 5).map(part => part.slice('delta:'.length));
    expect(released.map(piece => piece.length)).toEqual([2_289, 5, 2_289, 5]);
    expect(released[1]).toBe('met. ');
    // What went out is what generate gives (the answer whole, redacted), up to there.
    expect((await generatedText(middleware, text)).startsWith(released.join(''))).toBe(true);
    expect(parts.slice(5)).toEqual([
      'text-end',
      'text-start',
      'delta:BLOCKED',
      'text-end',
      'finish:content-filter',
    ]);
    expect(pushed).toBe(21_843);
    expect(records).toEqual(heldPastBound(16_387));
  }, 120_000);
});
