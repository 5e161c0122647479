import { describe, expect, it } from 'vitest';
import {
  median,
  type SliceFlag,
  sourceMedianRates,
  thresholdRule,
} from '../../scripts/train/harmful/threshold-rule';

/** `flagged` of `rows` rows of one source and kind are over the threshold. */
const source = (
  name: string,
  kind: SliceFlag['kind'],
  rows: number,
  flagged: number,
): SliceFlag[] =>
  Array.from({ length: rows }, (_, at) => ({ source: name, kind, flagged: at < flagged }));

describe('threshold rules (round 47, scripts/train/harmful/threshold-rule.ts)', () => {
  it('takes the median of the per-source rates, so a large easy source counts once', () => {
    const flags = [
      ...source('maths', 'general', 600, 0),
      ...source('chat', 'general', 40, 2),
      ...source('cli', 'general', 50, 1),
      ...source('twins', 'lookalike', 9, 5),
      ...source('questions', 'lookalike', 40, 2),
      ...source('fiction', 'lookalike', 20, 0),
      ...source('tiny', 'lookalike', 4, 4),
    ];
    // ordinary: rates 0, 0.05, 0.02 → 0.02 (pooled: 3 / 690); look-alikes: 5/9, 2/40, 0/20
    // (the 4-row source is under the minimum) → 0.05 (pooled: 11 / 73).
    expect(sourceMedianRates(flags, 5)).toEqual({ general: 0.02, lookalike: 0.05 });
    // With an even number of sources the median is the mean of the middle two.
    expect(sourceMedianRates(flags, 4)).toEqual({
      general: 0.02,
      lookalike: (0.05 + 5 / 9) / 2,
    });
  });

  it('has no rate (NaN, which no target allows) for a kind without a source of the minimum size', () => {
    const rates = sourceMedianRates(source('chat', 'general', 4, 0), 5);
    expect(rates.general).toBeNaN();
    expect(rates.lookalike).toBeNaN();
    expect(rates.general <= 0.01).toBe(false);
  });

  it('names the rule from the environment and refuses an unknown one', () => {
    expect(thresholdRule(undefined)).toBe('pooled');
    expect(thresholdRule('source-median')).toBe('source-median');
    expect(() => thresholdRule('median')).toThrow(
      'train-harmful: THRESHOLD_RULE must be one of pooled, source-median, not "median"',
    );
  });

  it('keeps the trainer median (odd, even, empty)', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
