import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { type LanguageModelMiddleware, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { cut, generateResult, stop, usage } from './helpers/index';

/*
 * Round 51 review (hH): a model that counts what it has streamed, for the
 * first-text delay of window mode (test/r51-blind.test.ts and the r51
 * review's window tests).
 */

/** A model streaming `deltas` one per pull, counting the characters it has sent. */
export function countingModel(answer: string, deltas: string[]) {
  const sent = { chars: 0 };
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't1' },
    ...deltas.map(delta => ({ type: 'text-delta' as const, id: 't1', delta })),
    { type: 'text-end', id: 't1' },
    { type: 'finish', finishReason: stop, usage },
  ];
  let at = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async () => generateResult(answer),
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV4StreamPart>(
        {
          pull(controller) {
            const part = parts[at++];
            if (part === undefined) return controller.close();
            if (part.type === 'text-delta') sent.chars += part.delta.length;
            controller.enqueue(part);
          },
        },
        { highWaterMark: 0 },
      ),
    }),
  });
  return { model, sent };
}

/**
 * `text` streamed in deltas of `sizes` through `middleware`: the text the
 * reader got, and how many characters the model had sent when the first
 * text reached the reader (-1 when none did).
 */
export async function firstText(
  middleware: LanguageModelMiddleware,
  text: string,
  sizes: number[],
): Promise<{ first: number; out: string }> {
  const { model, sent } = countingModel(text, cut(text, sizes));
  const guarded = wrapLanguageModel({ model, middleware });
  let first = -1;
  let out = '';
  for await (const delta of streamText({ model: guarded, prompt: 'hi' }).textStream) {
    if (first < 0 && delta.length > 0) first = sent.chars;
    out += delta;
  }
  return { first, out };
}
