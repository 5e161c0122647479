import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { readAll, streamOf, textParts } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

type Part = LanguageModelV4StreamPart;

/**
 * Hold mode releases a whole answer at once; the guard hands it out at most
 * 64 parts per pull (a web stream's queue costs time in its length per
 * read). Every part must still come out, in order, and the stream close
 * only after the last.
 */
async function guardedParts(deltas: string[], mode: 'hold' | 'window') {
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doStream: async () => streamOf(textParts(deltas)) }),
    middleware: guardrails({ output: [pii({ action: 'redact' })], stream: { mode } }),
  });
  const { stream } = await model.doStream({
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }],
  });
  return (await readAll(stream)) as Part[];
}

describe('a guarded stream releasing many parts at once', () => {
  const deltas = Array.from({ length: 1_000 }, (_, i) => `word${'abcdefghij'[i % 10]} `);

  it('hands out every held part in order (hold mode, 1,000 deltas)', async () => {
    const parts = await guardedParts(deltas, 'hold');
    expect(parts.map(part => part.type)).toEqual([
      'stream-start',
      'text-start',
      ...deltas.map(() => 'text-delta'),
      'text-end',
      'finish',
    ]);
    expect(parts.filter(part => part.type === 'text-delta').map(part => part.delta)).toEqual(
      deltas,
    );
  });

  it('and a modified answer as one delta in place of its deltas', async () => {
    const withEmail = [...deltas.slice(0, 500), 'jane.doe@', 'example.com ', ...deltas.slice(500)];
    const parts = await guardedParts(withEmail, 'hold');
    const texts = parts.filter(part => part.type === 'text-delta').map(part => part.delta);
    expect(texts).toEqual([withEmail.join('').replace('jane.doe@example.com', '[EMAIL_ADDRESS]')]);
    expect(parts.at(-1)?.type).toBe('finish');
  });

  it('window mode streams the same text', async () => {
    const parts = await guardedParts(deltas, 'window');
    const text = parts
      .filter(part => part.type === 'text-delta')
      .map(part => part.delta)
      .join('');
    expect(text).toBe(deltas.join(''));
    expect(parts.at(-1)?.type).toBe('finish');
  });
});
