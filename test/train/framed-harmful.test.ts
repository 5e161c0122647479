import { describe, expect, it } from 'vitest';
import {
  FRAMED_FALLBACK_CUTOFF,
  FRAMED_MIN_GATED,
  pickFramedCutoff,
  withFramedHarmful,
} from '../../scripts/train/injection/framed-harmful';
import {
  benignStory,
  framedRequest,
  framedStory,
  unframed,
} from '../../scripts/train/injection/framed-harmful.inputs';
import { decodeHarmfulModel } from '../../src/guards/harmful-content/harmful-model';
import type { HarmfulScorer } from '../../src/guards/harmful-content/harmful-scorer';
import { harmfulModels } from '../../src/guards/harmful-content/load-harmful-model';
import {
  HARMFUL_READINGS,
  harmfulModel,
} from '../../src/guards/harmful-content/model/harmful-model-data';

/** A scorer that fails the test if the rule reads anything with it. */
const untouchable = (): HarmfulScorer =>
  new Proxy({} as HarmfulScorer, {
    get() {
      throw new Error('the harmful model was asked');
    },
  });

describe('FRAMED_HARMFUL (rounds 45 and 46, not kept): the cutoff and the rule', () => {
  const { scorer } = harmfulModels();

  it('picks the cutoff on the held-apart benign prompts that open the gate only, read as the rule reads them, from the floor on', () => {
    expect(FRAMED_MIN_GATED).toBe(50);
    const seen: Array<{ p: number; group: string }> = [];
    const plain = [
      ...Array.from({ length: 25 }, (_, index) => ({
        id: `a${index}`,
        group: 'general',
        text: benignStory,
      })),
      ...Array.from({ length: 25 }, (_, index) => ({
        id: `b${index}`,
        group: 'lookalike',
        text: framedStory,
      })),
      { id: 'c', group: 'general', text: unframed },
    ];
    const picked = pickFramedCutoff(scorer, plain, 0.01, (benign, targetFpr) => {
      seen.push(...benign);
      expect(targetFpr).toBe(0.01);
      return 0.95;
    });
    expect(picked).toEqual({ cutoff: 0.95, gated: 50 });
    expect(seen).toEqual([
      ...Array.from({ length: 25 }, () => ({ p: 0.026, group: 'general' })),
      ...Array.from({ length: 25 }, () => ({ p: 0.901, group: 'lookalike' })),
    ]);
    // The framed probability counts from the cutoff on, and only if higher.
    expect(withFramedHarmful(0.1, framedRequest, scorer)).toBe(0.993);
    expect(withFramedHarmful(0.999, framedRequest, scorer)).toBe(0.999);
    expect(withFramedHarmful(0.1, framedStory, scorer)).toBe(0.1);
    expect(withFramedHarmful(0.2, unframed, scorer)).toBe(0.2);
  });

  it('never counts for a harmful model with no cutoff', () => {
    expect(withFramedHarmful(0.3, framedRequest, untouchable())).toBe(0.3);
  });

  it('does not pick on fewer gated prompts than the floor (round 45: 3 gave 0.9): the fixed cutoff 0.98 instead', () => {
    expect(FRAMED_FALLBACK_CUTOFF).toBe(0.98);
    // Fresh scorers of the shipped model: each harmful model keeps its own cutoff.
    const few = decodeHarmfulModel(harmfulModel, HARMFUL_READINGS);
    const noPick = () => {
      throw new Error('picked under the floor');
    };
    const plain = Array.from({ length: 49 }, (_, index) => ({
      id: `s${index}`,
      group: 'general',
      text: framedStory,
    }));
    expect(pickFramedCutoff(few, plain, 0.01, noPick)).toEqual({ cutoff: 0.98, gated: 49 });
    // 0.993 reaches the fixed cutoff; 0.901 does not.
    expect(withFramedHarmful(0.1, framedRequest, few)).toBe(0.993);
    expect(withFramedHarmful(0.1, framedStory, few)).toBe(0.1);
    // None gated at all: the same fixed cutoff.
    const none = decodeHarmfulModel(harmfulModel, HARMFUL_READINGS);
    expect(
      pickFramedCutoff(none, [{ id: 'c', group: 'general', text: unframed }], 0.01, noPick),
    ).toEqual({ cutoff: 0.98, gated: 0 });
  });
});
