import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { userPrompt } from '../../test/helpers';
import { contentFilter } from '../guards/content-filter/content-filter';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { guardrails } from './guardrails-middleware';

/**
 * A model stream that fails while the guard reads held deltas (round 38:
 * `readPastHeld` reads them in a loop of its own and hands a failed read
 * back to the read loop): the guarded stream fails with the model's error,
 * after exactly the text window mode had released, and nothing after it.
 */

type Part = LanguageModelV4StreamPart;

const TEXT =
  'We shipped the parcel on Tuesday and it arrived on Friday morning at the depot near the river. ';

/** Deltas of four characters of `TEXT`, then the read fails with `failure` (a plain or an `async` pull). */
function failingModel(failure: Error, deltas: number, asyncPull: boolean) {
  const parts: Part[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
  ];
  for (let at = 0; at < deltas * 4; at += 4) {
    parts.push({ type: 'text-delta', id: 't', delta: TEXT.slice(at, at + 4) });
  }
  let next = 0;
  const pull = (controller: ReadableStreamDefaultController<Part>) => {
    if (next < parts.length) controller.enqueue(parts[next++]!);
    else controller.error(failure);
  };
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream<Part>(
        asyncPull
          ? {
              async pull(controller) {
                await Promise.resolve();
                pull(controller);
              },
            }
          : { pull },
      ),
    }),
  });
}

async function readUntilFailure(stream: ReadableStream<Part>) {
  const parts: Part[] = [];
  const reader = stream.getReader();
  for (;;) {
    try {
      const { done, value } = await reader.read();
      if (done) return { parts, error: undefined };
      parts.push(value);
    } catch (error) {
      return { parts, error };
    }
  }
}

describe('a model stream that fails among held deltas (window mode)', () => {
  it.each([
    ['a plain pull', false],
    ['an async pull', true],
  ])('%s: fails with the model error after the text released so far', async (_, asyncPull) => {
    const failure = new Error('connection reset');
    // 20 deltas (80 characters): the checks at 32 and 64 characters released text, the rest is held.
    const model = wrapLanguageModel({
      model: failingModel(failure, 20, asyncPull),
      middleware: guardrails({
        output: [pii(), secrets(), contentFilter()],
        stream: { mode: 'window' },
      }),
    });
    const { stream } = await model.doStream({ prompt: userPrompt('q') });
    const { parts, error } = await readUntilFailure(stream);
    expect(error).toBe(failure);
    expect(parts).toEqual([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'We shipped the parcel ' },
      { type: 'text-delta', id: 't', delta: 'on Tuesday and it arrived on Friday ' },
    ]);
  });

  it('fails at once when the first read fails, with nothing released', async () => {
    const failure = new Error('no stream');
    const model = wrapLanguageModel({
      model: failingModel(failure, 0, false),
      middleware: guardrails({ output: [pii()], stream: { mode: 'window' } }),
    });
    const { stream } = await model.doStream({ prompt: userPrompt('q') });
    const { parts, error } = await readUntilFailure(stream);
    expect(error).toBe(failure);
    expect(parts).toEqual([{ type: 'stream-start', warnings: [] }]);
  });
});
