import { describe, expect, it } from 'vitest';
import { lowerBound, upperBound } from './sorted-search';

describe('lowerBound', () => {
  it('is 0 in an empty array', () => {
    expect(lowerBound([], 5)).toBe(0);
  });
  it('is the length when every element is below the value', () => {
    expect(lowerBound([1, 2, 3], 4)).toBe(3);
  });
  it('is 0 when every element is above the value', () => {
    expect(lowerBound([5, 6, 7], 4)).toBe(0);
  });
  it('is the first of duplicates equal to the value', () => {
    expect(lowerBound([1, 3, 3, 3, 4], 3)).toBe(1);
    expect(lowerBound([3, 3, 3], 3)).toBe(0);
  });
  it('is the first element above a value between elements', () => {
    expect(lowerBound([10, 20, 30, 40], 25)).toBe(2);
  });
  it('reads typed arrays', () => {
    expect(lowerBound(new Int32Array([0, 4, 4, 9]), 5)).toBe(3);
  });
});

describe('upperBound', () => {
  it('is 0 in an empty array', () => {
    expect(upperBound([], 5)).toBe(0);
  });
  it('is the length when every element is at or below the value', () => {
    expect(upperBound([1, 2, 3], 3)).toBe(3);
  });
  it('is 0 when every element is above the value', () => {
    expect(upperBound([5, 6, 7], 4)).toBe(0);
  });
  it('is one past the last of duplicates equal to the value', () => {
    expect(upperBound([1, 3, 3, 3, 4], 3)).toBe(4);
  });
});
