import { describe, expect, it } from 'vitest';
import { pickFramedCutoff, withFramedHarmful } from '../../scripts/train/injection/framed-harmful';
import type { HarmfulScorer } from '../../src/guards/harmful-content/harmful-scorer';
import { harmfulModels } from '../../src/guards/harmful-content/load-harmful-model';
import {
  benignStory,
  framedRequest,
  framedStory,
  unframed,
} from '../../src/guards/prompt-injection/framed-harmful.inputs';

/** A scorer that fails the test if the rule reads anything with it. */
const untouchable = (): HarmfulScorer =>
  new Proxy({} as HarmfulScorer, {
    get() {
      throw new Error('the harmful model was asked');
    },
  });

describe('FRAMED_HARMFUL (round 45, not kept): the cutoff and the rule', () => {
  const { scorer } = harmfulModels();

  it('picks the cutoff on the held-apart benign prompts that open the gate only, read as the rule reads them', () => {
    const seen: Array<{ p: number; group: string }> = [];
    const picked = pickFramedCutoff(
      scorer,
      [
        { id: 'a', group: 'general', text: benignStory },
        { id: 'b', group: 'lookalike', text: framedStory },
        { id: 'c', group: 'general', text: unframed },
      ],
      0.01,
      (benign, targetFpr) => {
        seen.push(...benign);
        expect(targetFpr).toBe(0.01);
        return 0.95;
      },
    );
    expect(picked).toEqual({ cutoff: 0.95, gated: 2 });
    expect(seen).toEqual([
      { p: 0.026, group: 'general' },
      { p: 0.901, group: 'lookalike' },
    ]);
    // The framed probability counts from the cutoff on, and only if higher.
    expect(withFramedHarmful(0.1, framedRequest, scorer)).toBe(0.993);
    expect(withFramedHarmful(0.999, framedRequest, scorer)).toBe(0.999);
    expect(withFramedHarmful(0.1, framedStory, scorer)).toBe(0.1);
    expect(withFramedHarmful(0.2, unframed, scorer)).toBe(0.2);
  });

  it('never counts for a harmful model with no cutoff, or with no gated prompt to pick one on', () => {
    expect(withFramedHarmful(0.3, framedRequest, untouchable())).toBe(0.3);
    const none = untouchable();
    const picked = pickFramedCutoff(
      none,
      [{ id: 'c', group: 'general', text: unframed }],
      0.01,
      () => {
        throw new Error('nothing to pick on');
      },
    );
    expect(picked).toEqual({ cutoff: 2, gated: 0 });
    expect(withFramedHarmful(0.3, framedRequest, none)).toBe(0.3);
  });
});
