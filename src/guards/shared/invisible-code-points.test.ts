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

/**
 * Format characters (general category Cf) that are drawn: Arabic number
 * signs, end of ayah and the marks above, the Syriac abbreviation mark,
 * the Kaithi number signs. Each spans or marks the digits after it with a
 * visible sign, so a reader sees it; read past by no detector and not
 * reported (a number written with one is the number with its sign).
 */
const DRAWN_FORMAT_CHARACTERS = [
  [0x0600, 0x0605],
  [0x06dd, 0x06dd],
  [0x070f, 0x070f],
  [0x0890, 0x0891],
  [0x08e2, 0x08e2],
  [0x110bd, 0x110bd],
  [0x110cd, 0x110cd],
] as const;

describe('the invisible list against Unicode (round 38 sweep)', () => {
  const listed = (codePoint: number) =>
    [...INVISIBLE_CONTROL_RANGES, ...INVISIBLE_FORMAT_RANGES].some(
      ([first, last]) => codePoint >= first && codePoint <= last,
    );
  const drawn = (codePoint: number) =>
    DRAWN_FORMAT_CHARACTERS.some(([first, last]) => codePoint >= first && codePoint <= last);
  const matching = (pattern: RegExp) => {
    const found: number[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      if (pattern.test(String.fromCodePoint(codePoint))) found.push(codePoint);
    }
    return found;
  };

  it('holds every default-ignorable code point and variation selector this Node knows', () => {
    expect(matching(/\p{Default_Ignorable_Code_Point}/u).filter(code => !listed(code))).toEqual([]);
    expect(matching(/\p{Variation_Selector}/u).filter(code => !listed(code))).toEqual([]);
    expect(matching(/\p{Cc}/u).filter(code => !listed(code))).toEqual([
      0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x85,
    ]);
  });

  it('holds every format character but the drawn ones, Egyptian hieroglyph format controls too', () => {
    expect(matching(/\p{Cf}/u).filter(code => !listed(code) && !drawn(code))).toEqual([]);
    for (let code = 0x13430; code <= 0x1343f; code++) expect(listed(code)).toBe(true);
    // A mark drawn as nothing: the Khitan small script filler.
    expect(listed(0x16fe4)).toBe(true);
    expect(DRAWN_FORMAT_CHARACTERS.some(([first]) => listed(first))).toBe(false);
  });
});
