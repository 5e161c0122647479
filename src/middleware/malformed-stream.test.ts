import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { readAll, streamOf } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

type Part = LanguageModelV4StreamPart;

/** The text parts `streamText` releases for a model that streams `parts` as written. */
async function releasedTextParts(parts: Part[], mode: 'hold' | 'window') {
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doStream: async () => streamOf(parts) }),
    middleware: guardrails({ output: [pii({ action: 'redact' })], stream: { mode } }),
  });
  const result = streamText({ model, prompt: 'q' });
  const released = await readAll(result.fullStream);
  // Ids are left out: streamText gives a block reopened after its end an id of its own.
  // Consecutive deltas are joined: window mode releases a block in as many deltas as it can.
  const sequence: string[] = [];
  for (const part of released) {
    if (part.type === 'text-start' || part.type === 'text-end') sequence.push(part.type);
    else if (part.type !== 'text-delta') continue;
    else if (sequence.at(-1)?.startsWith('delta:')) sequence.push(`${sequence.pop()}${part.text}`);
    else sequence.push(`delta:${part.text}`);
  }
  return sequence;
}

const delta = (text: string, id = 't1'): Part => ({ type: 'text-delta', id, delta: text });

describe.each(['window', 'hold'] as const)('a malformed part sequence in %s mode', mode => {
  it('judges a delta that has no text-start (it opens its block)', async () => {
    const released = await releasedTextParts(
      [delta('write to jane.doe@example.com '), delta('today'), { type: 'text-end', id: 't1' }],
      mode,
    );
    expect(released.join('|')).not.toContain('jane.doe');
    expect(released).toEqual(['text-start', 'delta:write to [EMAIL_ADDRESS] today', 'text-end']);
  });

  it('judges text after its text-end as a new block', async () => {
    const released = await releasedTextParts(
      [
        { type: 'text-start', id: 't1' },
        delta('hello '),
        { type: 'text-end', id: 't1' },
        delta('mail jane.doe@example.com'),
        { type: 'text-end', id: 't1' },
      ],
      mode,
    );
    expect(released).toEqual([
      'text-start',
      'delta:hello ',
      'text-end',
      'text-start',
      'delta:mail [EMAIL_ADDRESS]',
      'text-end',
    ]);
  });

  it('keeps the text before a repeated text-start and judges the block whole', async () => {
    const released = await releasedTextParts(
      [
        { type: 'text-start', id: 't1' },
        delta('reach jane.doe@exa'),
        { type: 'text-start', id: 't1' },
        delta('mple.com soon'),
        { type: 'text-end', id: 't1' },
      ],
      mode,
    );
    expect(released).toEqual(['text-start', 'delta:reach [EMAIL_ADDRESS] soon', 'text-end']);
  });

  it('judges a delta after text-end that never ends (the stream ends the block)', async () => {
    const released = await releasedTextParts(
      [
        { type: 'text-start', id: 't1' },
        delta('ok'),
        { type: 'text-end', id: 't1' },
        delta('call +44 20 7946 0958'),
      ],
      mode,
    );
    expect(released.join('|')).not.toContain('7946');
    expect(released.slice(0, 3)).toEqual(['text-start', 'delta:ok', 'text-end']);
    expect(released.slice(3, 5)).toEqual(['text-start', 'delta:call [PHONE_NUMBER]']);
  });
});
