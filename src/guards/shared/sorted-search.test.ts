import { describe, expect, it } from 'vitest';
import { lowerBound, upperBound } from './sorted-search';

describe('lowerBound and upperBound', () => {
  // [case, sorted, value, lowerBound (first at or above), upperBound (first above)]
  it.each([
    ['an empty array', [], 5, 0, 0],
    ['every element below the value', [1, 2, 3], 4, 3, 3],
    ['the last element equal to the value', [1, 2, 3], 3, 2, 3],
    ['every element above the value', [5, 6, 7], 4, 0, 0],
    ['duplicates equal to the value', [1, 3, 3, 3, 4], 3, 1, 4],
    ['only duplicates equal to the value', [3, 3, 3], 3, 0, 3],
    ['a value between elements', [10, 20, 30, 40], 25, 2, 2],
  ] as const)('%s', (_, sorted, value, lower, upper) => {
    expect(lowerBound(sorted, value)).toBe(lower);
    expect(upperBound(sorted, value)).toBe(upper);
  });

  it('reads typed arrays', () => {
    expect(lowerBound(new Int32Array([0, 4, 4, 9]), 4)).toBe(1);
    expect(upperBound(new Int32Array([0, 4, 4, 9]), 4)).toBe(3);
  });
});
