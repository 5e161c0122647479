import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { readAll, streamOf, userPrompt } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

type Part = LanguageModelV4StreamPart;

/**
 * An empty delta of a judged block carries no text: `generateText` has no
 * part for it and `streamText` drops it. Window mode never released one;
 * hold mode released it when the block's text was unchanged and dropped it
 * when the text was redacted (round 35). Both now drop it, whatever the check did.
 */
async function released(parts: Part[], mode: 'hold' | 'window') {
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doStream: async () => streamOf(parts) }),
    middleware: guardrails({
      output: [pii({ action: 'redact' })],
      stream: { mode },
      checkReasoning: true,
    }),
  });
  const { stream } = await model.doStream({ prompt: userPrompt('q') });
  const out: Part[] = await readAll(stream);
  return out.filter(part => part.type !== 'stream-start' && part.type !== 'finish');
}

const blockOf = (type: 'text' | 'reasoning', deltas: string[]): Part[] => [
  { type: `${type}-start`, id: 'b' } as Part,
  ...deltas.map(delta => ({ type: `${type}-delta`, id: 'b', delta }) as Part),
  { type: `${type}-end`, id: 'b' } as Part,
];

describe.each(['hold', 'window'] as const)('empty deltas in %s mode', mode => {
  it.each(['text', 'reasoning'] as const)(
    'drops the empty %s deltas of an unchanged block',
    async type => {
      expect(await released(blockOf(type, ['', 'Hello', '', ' there', '']), mode)).toEqual(
        mode === 'hold' ? blockOf(type, ['Hello', ' there']) : blockOf(type, ['Hello there']),
      );
    },
  );

  it('drops them in a redacted block too', async () => {
    expect(await released(blockOf('text', ['', 'mail a@example.com', '', ' now']), mode)).toEqual(
      blockOf('text', ['mail [EMAIL_ADDRESS] now']),
    );
  });

  it('keeps a block whose deltas are all empty, with no delta', async () => {
    expect(await released(blockOf('text', ['', '']), mode)).toEqual(blockOf('text', []));
  });
});
