import { describe, expect, it } from 'vitest';
import { syntheticRows } from '../../scripts/train/augment';
import { buildLanguageModel } from '../../scripts/train/logistic';
import {
  fitModel,
  languageModelFile,
  modelFile,
  prepare,
} from '../../scripts/train/train-injection';
import { InjectionScorer } from '../../src/guards/prompt-injection/injection-model';

// Hand-written prose for the language model: no corpus text.
const prose = [
  'The river ran quietly past the old mill, and the children watched the ducks until supper.',
  'She opened the letter slowly, read it twice, and then laughed at her own worry.',
  'In the morning the market filled with carts of apples, bread and fresh cheese.',
];
const options = { bits: 12, epochs: 3, learningRate: 0.2, l2: 1e-6, seed: 1 };

function train(seed: number) {
  const languageModel = buildLanguageModel(prose);
  const rows = syntheticRows();
  const fitted = fitModel(
    prepare(rows, options.bits, languageModel),
    { ...options, seed },
    languageModel,
    0.02,
  );
  return {
    fitted,
    files: [
      languageModelFile(languageModel, prose.length),
      modelFile('direct', fitted, rows.length, 'T'),
    ],
  };
}

describe('the prompt-injection training script', () => {
  it('writes byte-identical model files on every run (fixed seed, sorted rows)', () => {
    const first = train(1);
    const second = train(1);
    expect(second.files).toEqual(first.files);
    // The seed does reach the result: another seed gives other weights.
    expect(train(2).files[1]).not.toBe(first.files[1]);
  });

  it('learns the hand-written rows: separates them on its calibration slice', () => {
    const { fitted } = train(1);
    expect(fitted.calibration.benign).toBeGreaterThan(10);
    expect(fitted.calibration.caught / fitted.calibration.attacks).toBeGreaterThan(0.8);
    expect(fitted.scorer).toBeInstanceOf(InjectionScorer);
  });
});
