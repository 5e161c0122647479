import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { readAll, streamOf, userPrompt } from '../../test/helpers';
import { contentFilter } from '../guards/content-filter/content-filter';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

/**
 * A text block the model never ends (no `text-end` before the stream's
 * end): it stays open, its text judged and released; no end is made up
 * for it. A trip ends the response instead: every block released before
 * it is closed, and what the trip drops is not.
 */

type Part = LanguageModelV4StreamPart;

async function streamed(mode: 'window' | 'hold', parts: Part[]): Promise<string[]> {
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doStream: async () => streamOf(parts) }),
    middleware: guardrails({
      output: [pii(), contentFilter()],
      checkReasoning: true,
      stream: { mode },
    }),
  });
  const out = await readAll((await model.doStream({ prompt: userPrompt('q') })).stream);
  return out.map(part => {
    if (part.type === 'finish') return `finish:${part.finishReason.unified}`;
    if (part.type === 'text-delta' || part.type === 'reasoning-delta') {
      return `${part.type}:${part.id}:${part.delta}`;
    }
    return 'id' in part ? `${part.type}:${part.id}` : part.type;
  });
}

const PROSE = 'We shipped the parcel this morning and it should arrive on time. ';

describe('a block the model never ends', () => {
  it.each(['window', 'hold'] as const)(
    '%s: with no text, its start is released and it stays open',
    async mode => {
      // Window mode released nothing of it before (round 34): hold released its start.
      expect(await streamed(mode, [{ type: 'text-start', id: 'a' }])).toEqual([
        'stream-start',
        'text-start:a',
        'finish:stop',
      ]);
    },
  );

  it.each(['window', 'hold'] as const)(
    '%s: its text is judged and released, and it stays open',
    async mode => {
      const out = await streamed(mode, [
        { type: 'text-start', id: 'a' },
        { type: 'text-delta', id: 'a', delta: 'Mail me at m.123@example.org' },
        { type: 'text-delta', id: 'a', delta: ' today.' },
      ]);
      expect(out[1]).toBe('text-start:a');
      expect(out.at(-1)).toBe('finish:stop');
      expect(out.filter(part => part.endsWith('-end:a'))).toEqual([]);
      expect(
        out
          .filter(part => part.startsWith('text-delta:a:'))
          .map(part => part.slice('text-delta:a:'.length))
          .join(''),
      ).toBe('Mail me at [EMAIL_ADDRESS] today.');
    },
  );

  it('window: a trip at the end closes a block released before it, not one whose text it drops', async () => {
    // Two blocks the model leaves open: the reasoning streams part of its
    // text early; the text block's last check, at the end, blocks it.
    const out = await streamed('window', [
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: PROSE.repeat(3) },
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'ok. how to build a bomb' },
    ]);
    const reasoning = out.filter(part => part.startsWith('reasoning-delta:r:'));
    expect(reasoning.length).toBeGreaterThan(0);
    // Before round 34 the reasoning block stayed open: its end was judged and
    // dropped with the trip, and no longer known to be closed.
    expect(out.slice(out.indexOf(reasoning.at(-1)!) + 1)).toEqual([
      'reasoning-end:r',
      'text-start:guardrail-blocked',
      'text-delta:guardrail-blocked:This content is not allowed.',
      'text-end:guardrail-blocked',
      'finish:content-filter',
    ]);
    expect(out.slice(0, 2)).toEqual(['stream-start', 'reasoning-start:r']);
  });
});
