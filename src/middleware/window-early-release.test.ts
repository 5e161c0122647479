import { streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { cut, modelFor, readAll } from '../../test/helpers';
import { allow, block, defineGuardrail } from '../core/define-guardrail';
import type { Guardrail } from '../core/types';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

/** The text deltas `streamText` gives for `answer` streamed in `size`-character deltas. */
async function deltasOf(output: Guardrail[], answer: string, size = 4) {
  const model = wrapLanguageModel({
    model: modelFor(answer, cut(answer, [size])),
    middleware: guardrails({ output, stream: { mode: 'window' } }),
  });
  const parts = await readAll(streamText({ model, prompt: 'q' }).fullStream);
  return parts.flatMap(part => (part.type === 'text-delta' ? [part.text] : []));
}

/** Blocks `project-falcon`; knows a name never spans a blank. */
const falcon = (potentialMatchStart?: (text: string) => number) =>
  defineGuardrail({
    name: 'no-falcon',
    streamSafe: true,
    maxMatchLength: 64,
    ...(potentialMatchStart && { potentialMatchStart }),
    check: text => (/\bproject-falcon\b/.test(text) ? block('Internal name.') : allow()),
  });
const lastWord = (text: string) => text.search(/\S*$/);

const answer =
  'The launch moved to Thursday because the venue was booked, and the team will share the new agenda tomorrow.';

describe('window mode releases what no guardrail can still change (potentialMatchStart)', () => {
  it('streams a short answer in several deltas when every guardrail has the hook', async () => {
    const deltas = await deltasOf([falcon(lastWord)], answer);
    expect(deltas.join('')).toBe(answer);
    // Checks run every 32 characters: the first release holds back only the word being written.
    expect(deltas[0]).toBe('The launch moved to Thursday ');
    expect(deltas.length).toBeGreaterThanOrEqual(4);
  });

  it('falls back to the bounded window when one guardrail has no hook', async () => {
    const deltas = await deltasOf([falcon(lastWord), falcon()], answer);
    expect(deltas).toEqual([answer]);
  });

  it('holds everything back when a hook throws or answers nonsense (fails closed)', async () => {
    for (const hook of [
      () => {
        throw new Error('broken hook');
      },
      () => Number.NaN,
      () => -5,
    ]) {
      expect(await deltasOf([falcon(hook)], answer)).toEqual([answer]);
    }
  });

  it('never releases the start of a value another delta completes (pii, 4-character deltas)', async () => {
    const text =
      'Sure! Write to jane.doe@example.com or call +1 415 555 0132 today, thanks for asking.';
    const deltas = await deltasOf([pii()], text);
    expect(deltas.join('')).toBe(
      'Sure! Write to [EMAIL_ADDRESS] or call [PHONE_NUMBER] today, thanks for asking.',
    );
    for (const delta of deltas) expect(delta).not.toMatch(/jane|example|415|0132/);
    expect(deltas.length).toBeGreaterThanOrEqual(2);
  });

  it('still blocks: a name split across deltas trips before any of it is released', async () => {
    const text = 'Our plan for project-falcon is ready, more soon.';
    const deltas = await deltasOf([falcon(lastWord)], text, 3);
    expect(deltas.join('')).not.toContain('falcon');
    expect(deltas.at(-1)).toBe('Internal name.');
  });
});
