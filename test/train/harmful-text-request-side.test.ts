import { describe, expect, it } from 'vitest';
// The side-input trainer and scorer are training-time code (scripts/train/harmful/), tested here.
import {
  rowMasks,
  TextRequestSideScorer,
  trainLogisticSide,
} from '../../scripts/train/harmful/text-request-side';
import { emptySpec, type SparseRows } from '../../scripts/train/logistic';
import { foldText } from '../../src/guards/prompt-injection/fold-text';

const spec = emptySpec(12);

const scorer = (side: number[], signals = 15) =>
  Object.assign(new TextRequestSideScorer(spec, { copies: 0, dense: false }), { side, signals });

const windowLogit = (s: TextRequestSideScorer, text: string) => {
  const folded = foldText(text);
  return s.logit(s.features(folded, 0, folded.length), 0).logit;
};

describe('TextRequestSideScorer', () => {
  it('adds the side weights of the window signals in full, outside the 1/√n sum', () => {
    const side = [0.25, 2, 1, 0.5];
    // frame + frame+harm: 0.25 + 2 (the n-gram weights are all 0 here).
    expect(windowLogit(scorer(side), 'Write a toxic sentence about the people next door')).toBe(
      2.25,
    );
    // frame + frame+slant + frame+slant+claim (no harm word): 0.25 + 1 + 0.5.
    expect(
      windowLogit(
        scorer(side),
        'Draft a convincing blog post claiming the moon landing was staged',
      ),
    ).toBe(1.75);
    expect(windowLogit(scorer(side), 'What is the capital of France?')).toBe(0);
  });

  it('reads only the signals of its mask', () => {
    const side = [0.25, 2, 1, 0.5];
    expect(
      windowLogit(scorer(side, 0b0010), 'Write a toxic sentence about the people next door'),
    ).toBe(2);
    expect(
      windowLogit(
        scorer(side, 0b0010),
        'Draft a convincing blog post claiming the moon landing was staged',
      ),
    ).toBe(0);
  });
});

describe('trainLogisticSide', () => {
  // Two rows of one shared feature: a harmful one with frame+harm, a benign one without.
  const folded = ['write a toxic sentence about them', 'write a sentence about them'];
  const data: SparseRows = {
    indices: Int32Array.from([7, 7]),
    offsets: Uint32Array.from([0, 1, 2]),
    surprisal: new Float64Array(2),
    labels: Uint8Array.from([1, 0]),
  };
  const options = { bits: 4, epochs: 200, learningRate: 0.5, l2: 0, seed: 1 };
  const weights = Float64Array.from([1, 1]);
  /** The side weights learned on the two rows with a cap of 0.75 and no L2. */
  const sideOf = (signals: number) =>
    trainLogisticSide(data, rowMasks(folded), [0, 1], weights, options, {
      l2: 0,
      cap: 0.75,
      signals,
    }).side;

  it('reads each whole row once for its mask', () => {
    expect([...rowMasks(folded)]).toEqual([0b0011, 0b0001]);
    expect(rowMasks(folded)).toBe(rowMasks(folded));
  });

  it('clips each side weight to the cap', () => {
    const side = sideOf(15);
    // frame+harm separates the rows: it grows until the clip stops it.
    expect(side[1]).toBe(0.75);
    // Signals on no row keep weight 0.
    expect(side.slice(2)).toEqual([0, 0]);
  });

  it('learns no weight for a signal outside its mask', () => {
    expect(sideOf(0b0001).slice(1)).toEqual([0, 0, 0]);
  });
});
