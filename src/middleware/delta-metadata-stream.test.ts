import type { LanguageModelV4StreamPart, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { readAll, streamOf, userPrompt } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

type Part = LanguageModelV4StreamPart;

/**
 * A text delta's `providerMetadata` (round 36). Hold mode releases an
 * unchanged block's deltas as the model sent them, metadata and all. Window
 * mode releases metadata that cannot quote the answer (no string but a short
 * known-safe id: `withoutAnswerQuotes` keeps all of it) on the released delta
 * that ends where the model's delta ended, as soon as that text is released;
 * metadata that may quote the answer (and the block's metadata after it)
 * goes as empty deltas before the block's end, and those and the end wait
 * for the answer's end (all of its text judged, as citations do): as the
 * model sent it when nothing of the answer was changed, else at once
 * without what may quote it (no part when that leaves nothing).
 */
async function released(parts: Part[], mode: 'hold' | 'window') {
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doStream: async () => streamOf(parts) }),
    middleware: guardrails({ output: [pii({ action: 'redact' })], stream: { mode } }),
  });
  const { stream } = await model.doStream({ prompt: userPrompt('q') });
  const out: Part[] = await readAll(stream);
  return out.filter(part => part.type !== 'stream-start' && part.type !== 'finish');
}

const start: Part = { type: 'text-start', id: 't' };
const end: Part = { type: 'text-end', id: 't' };
const delta = (text: string, providerMetadata?: SharedV4ProviderMetadata): Part => ({
  type: 'text-delta',
  id: 't',
  delta: text,
  ...(providerMetadata && { providerMetadata }),
});

/** Token counts only: cannot quote the answer. */
const COUNTS = { acme: { tokens: 3, final: false } };
/** An id and a quote of the delta: may quote the answer. */
const quoting = (text: string) => ({ acme: { itemId: 'msg_1', text, tokens: 4 } });
const DONE = { acme: { final: true } };

describe('a text delta\u2019s provider metadata', () => {
  const unchanged = [
    start,
    delta('Hello', COUNTS),
    delta(' there', quoting(' there')),
    delta(' friend.'),
    delta('', DONE),
    end,
  ];

  it('hold mode: an unchanged block keeps every delta as the model sent it', async () => {
    expect(await released(unchanged, 'hold')).toEqual(unchanged);
  });

  it('window mode: an unchanged block keeps each metadata, in order, none before its text', async () => {
    expect(await released(unchanged, 'window')).toEqual([
      start,
      delta('Hello', COUNTS),
      delta(' there friend.'),
      // Once one waits for the block's end, those after it wait too (the order is kept).
      delta('', quoting(' there')),
      delta('', DONE),
      end,
    ]);
  });

  const changed = [
    start,
    delta('Mail ', COUNTS),
    delta('a@example.com', quoting('a@example.com')),
    delta(' now', { acme: { itemId: 'msg_1' } }),
    end,
  ];

  it('hold mode: a changed block loses its deltas\u2019 metadata', async () => {
    expect(await released(changed, 'hold')).toEqual([
      start,
      delta('Mail [EMAIL_ADDRESS] now'),
      end,
    ]);
  });

  it('window mode: a changed block keeps what cannot quote it, never the hidden value', async () => {
    const parts = await released(changed, 'window');
    expect(parts).toEqual([
      start,
      delta('Mail ', COUNTS),
      delta('[EMAIL_ADDRESS] now'),
      delta('', { acme: { tokens: 4 } }),
      // `{ itemId }` without its string leaves nothing: no part.
      end,
    ]);
    expect(JSON.stringify(parts)).not.toContain('example.com');
  });

  it('window mode: metadata that may quote waits for the answer’s end, with its block’s end', async () => {
    const other = (part: Part): Part => ({ ...part, id: 'u' }) as Part;
    const parts = [
      start,
      delta('Hi', quoting('Hi')),
      end,
      other(start),
      other(delta('mail a@example.com')),
      other(end),
    ];
    // A later block redacted: the metadata goes without what may quote (a later
    // block's text may be in it), after the rest of the answer.
    expect(await released(parts, 'window')).toEqual([
      start,
      delta('Hi'),
      other(start),
      other(delta('mail [EMAIL_ADDRESS]')),
      other(end),
      delta('', { acme: { tokens: 4 } }),
      end,
    ]);
    // Nothing hidden: as the model sent it, still after the rest.
    expect(
      await released(parts.slice(0, 4).concat(other(delta('ok')), other(end)), 'window'),
    ).toEqual([
      start,
      delta('Hi'),
      other(start),
      other(delta('ok')),
      other(end),
      delta('', quoting('Hi')),
      end,
    ]);
  });

  it('window mode: metadata that cannot quote goes with the release that ends its delta', async () => {
    // Long enough for early release: 4-character deltas, one carrying counts.
    const text =
      'The weather was fine all week and we walked along the river every morning before work, ' +
      'then read in the garden until it got dark and the birds went quiet again.';
    const chunks = text.match(/[\s\S]{1,4}/g)!;
    const plain = await released([start, ...chunks.map(chunk => delta(chunk)), end], 'window');
    const marked = await released(
      [start, ...chunks.map((chunk, i) => (i === 9 ? delta(chunk, COUNTS) : delta(chunk))), end],
      'window',
    );
    // The same releases, the one that holds the tenth delta's end cut there.
    const expected: Part[] = [];
    let at = 0;
    for (const part of plain) {
      if (part.type === 'text-delta' && at < 40 && at + part.delta.length >= 40) {
        expect(at + part.delta.length).toBeLessThan(text.length); // released before the end
        expected.push(delta(part.delta.slice(0, 40 - at), COUNTS));
        if (at + part.delta.length > 40) expected.push(delta(part.delta.slice(40 - at)));
      } else {
        expected.push(part);
      }
      if (part.type === 'text-delta') at += part.delta.length;
    }
    expect(plain.length).toBeGreaterThan(4);
    expect(marked).toEqual(expected);
  });
});
