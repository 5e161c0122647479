import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { readAll, streamOf, userPrompt } from '../../test/helpers';
import { contentFilter } from '../guards/content-filter/content-filter';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { guardrails } from './guardrails-middleware';

type Part = LanguageModelV4StreamPart;
/** A released delta as the test reads it. */
type Delta = { type: string; id: string; delta: string };

/**
 * The parts window mode builds for a release (round 42 builds the common
 * one, a delta with no metadata pending, as a literal of its own): exactly
 * the keys of a model's delta, the block's start before its first text,
 * each character once, in order.
 */
const PROSE =
  'The meeting moved to Thursday afternoon, so the team will review the draft then. ' +
  'Bring the notes from the last session and the list of open questions.\n\n' +
  'After that we plan the release: tests first, then the docs, then the announcement. ';

async function released(parts: Part[]) {
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doStream: async () => streamOf(parts) }),
    middleware: guardrails({
      output: [pii(), secrets(), contentFilter()],
      stream: { mode: 'window' },
      checkReasoning: true,
    }),
  });
  const { stream } = await model.doStream({ prompt: userPrompt('q') });
  const out: Part[] = await readAll(stream);
  return out.filter(part => part.type !== 'stream-start' && part.type !== 'finish');
}

function deltasOf(text: string, size: number): string[] {
  const deltas: string[] = [];
  for (let at = 0; at < text.length; at += size) deltas.push(text.slice(at, at + size));
  return deltas;
}

describe('the parts window mode releases', () => {
  it.each(['text', 'reasoning'] as const)(
    'a %s block in 4-character deltas: its start, deltas of its three keys, its end',
    async type => {
      const start = { type: `${type}-start`, id: 'b' } as Part;
      const end = { type: `${type}-end`, id: 'b' } as Part;
      const deltas = deltasOf(PROSE, 4).map(delta => ({ type: `${type}-delta`, id: 'b', delta }));
      const out = await released([start, ...(deltas as Part[]), end]);
      expect(out[0]).toBe(start);
      expect(out.at(-1)).toBe(end);
      const middle = out.slice(1, -1) as unknown as Delta[];
      // Released in several steps (early release), none empty, none with a key the model did not send.
      expect(middle.length).toBeGreaterThan(2);
      for (const part of middle) {
        expect(Object.keys(part)).toEqual(['type', 'id', 'delta']);
        expect(part.type).toBe(`${type}-delta`);
        expect(part.id).toBe('b');
        expect(part.delta.length).toBeGreaterThan(0);
      }
      expect(middle.map(part => part.delta).join('')).toBe(PROSE);
    },
  );

  it('a delta with metadata that quotes nothing: the release of its last character carries it', async () => {
    const metadata = { provider: { tokens: 3 } };
    const deltas = deltasOf(PROSE, 4).map(
      (delta, index): Part =>
        index === 30
          ? { type: 'text-delta', id: 'b', delta, providerMetadata: metadata }
          : { type: 'text-delta', id: 'b', delta },
    );
    const out = await released([
      { type: 'text-start', id: 'b' },
      ...deltas,
      { type: 'text-end', id: 'b' },
    ]);
    const middle = out.slice(1, -1) as unknown as Delta[];
    const carrying = middle.filter(part => 'providerMetadata' in part);
    expect(carrying).toEqual([
      { type: 'text-delta', id: 'b', delta: expect.any(String), providerMetadata: metadata },
    ]);
    // It ends where the model's delta ended (its 31st), every other part of three keys.
    const upTo = middle.indexOf(carrying[0]!);
    expect(
      middle
        .slice(0, upTo + 1)
        .map(part => part.delta)
        .join(''),
    ).toBe(PROSE.slice(0, 31 * 4));
    for (const part of middle) {
      if (part !== carrying[0]) expect(Object.keys(part)).toEqual(['type', 'id', 'delta']);
    }
    expect(middle.map(part => part.delta).join('')).toBe(PROSE);
  });
});
