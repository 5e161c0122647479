import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { readAll, streamOf } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

/*
 * Round 21: window mode released a text part's `text-end` with its
 * citations as soon as that text was judged, so a redaction later in the
 * answer could not take them back: the first text's citation quoted
 * `4111 1111 1111 1111`, the second text redacted it, and the citation still
 * reached fullStream, content and the UI stream. A judged text's end that
 * carries citations now waits for the answer's end: with them when nothing
 * was changed, without them when something was.
 */

const CARD = '4111 1111 1111 1111';
const citation = {
  source: {
    type: 'source' as const,
    sourceType: 'url' as const,
    id: 's1',
    url: 'https://example.com/cards',
    title: 'Cards',
  },
  citedText: `the card ${CARD}`,
};

function model(second: string) {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'See the page.' },
    { type: 'text-end', id: 't1', citations: [citation] },
    { type: 'text-start', id: 't2' },
    { type: 'text-delta', id: 't2', delta: second },
    { type: 'text-end', id: 't2' },
  ];
  return new MockLanguageModelV4({ doStream: async () => streamOf(parts) });
}

async function run(second: string) {
  const result = streamText({
    model: wrapLanguageModel({
      model: model(second),
      middleware: guardrails({
        output: [pii({ action: 'redact' })],
        stream: { mode: 'window' },
      }),
    }),
    prompt: 'my card?',
  });
  const parts = await readAll(result.fullStream);
  const json = JSON.stringify([parts, await result.content, (await result.response).messages]);
  return {
    json,
    ends: parts
      .filter(part => part.type === 'text-end')
      .map(part => [part.id, (part as { citations?: unknown }).citations]),
    order: parts
      .filter(p => p.type.startsWith('text-'))
      .map(p => `${p.type}:${(p as { id?: string }).id}`),
    content: await result.content,
  };
}

describe('window mode: citations of a text released before a later redaction', () => {
  it('are dropped when a later text is redacted', async () => {
    const { json, ends, content } = await run(`Your card is ${CARD}.`);
    expect(json).not.toContain(CARD);
    expect(ends).toEqual([
      ['t2', undefined],
      ['t1', undefined],
    ]);
    expect(content).toEqual([
      { type: 'text', text: 'See the page.' },
      { type: 'text', text: 'Your card is [CREDIT_CARD].' },
    ]);
  });

  it('are kept when nothing was changed (the end comes at the answer end)', async () => {
    const { ends, order } = await run('No card here.');
    expect(ends).toEqual([
      ['t2', undefined],
      ['t1', [citation]],
    ]);
    expect(order).toEqual([
      'text-start:t1',
      'text-delta:t1',
      'text-start:t2',
      'text-delta:t2',
      'text-end:t2',
      'text-end:t1',
    ]);
  });
});
