import { describe, expect, it } from 'vitest';
import {
  INVISIBLE_CONTROL_RANGES,
  INVISIBLE_FORMAT_RANGES,
  isDefaultIgnorableOrControl,
} from './invisible-code-points';

describe('isDefaultIgnorableOrControl', () => {
  it('answers as the range lists for every code point (the BMP from a bit table since round 23)', () => {
    const ranges = [...INVISIBLE_CONTROL_RANGES, ...INVISIBLE_FORMAT_RANGES];
    const listed = (codePoint: number) =>
      ranges.some(([first, last]) => codePoint >= first && codePoint <= last);
    const wrong: number[] = [];
    for (let codePoint = -2; codePoint <= 0x10ffff + 2; codePoint++) {
      if (isDefaultIgnorableOrControl(codePoint) !== listed(codePoint)) wrong.push(codePoint);
    }
    expect(wrong).toEqual([]);
    expect(isDefaultIgnorableOrControl(0x200b)).toBe(true);
    expect(isDefaultIgnorableOrControl(0xe0041)).toBe(true);
    expect(isDefaultIgnorableOrControl(0x2019)).toBe(false);
  });
});
