import { describe, expect, it } from 'vitest';
import { normalizeText } from './normalize-text';

/*
 * Round 42, an attacker's read of round 41's `normalizeText` argument
 * checks (`readPoints`): the third argument, `points`, is read once and must
 * be an Int32Array and a number, else a TypeError. But the positions are
 * trusted: they say where the characters to change stand, and `normalizeText`
 * reads nothing else. Points that say less than the text holds (none, or
 * an offset that moves them off the text) give the text back unchanged: a
 * full-width card number and an invisible character stay, with no error.
 * Found at 285f814f. Not fixed here: normalize-text.ts is src/guards/shared
 * (hE's lane this round); a cheap check (the offset a safe integer from 0,
 * the positions inside the text) would catch the off-text offsets, not an
 * empty list, which only a scan for what needs work could tell.
 */

const text = 'card ４１１１ x\u200by';
const normal = 'card 4111 xy';

/** What `normalizeText` gives with `points`: its text, or the error's class when it throws. */
function given(positions: number[], offset: number): string {
  try {
    return normalizeText(text, undefined, { positions: new Int32Array(positions), offset }).text;
  } catch (error) {
    return (error as Error).constructor.name;
  }
}

describe('normalizeText: points that do not describe the text', () => {
  it('without points, and with the text own points, the text is normalised', () => {
    expect(normalizeText(text).text).toBe(normal);
    const positions = [...text].flatMap((char, at) => (char.charCodeAt(0) > 0x7e ? [at] : []));
    expect(given(positions, 0)).toBe(normal);
  });

  it('a positions argument of the wrong type is a TypeError', () => {
    expect(() => normalizeText(text, undefined, { positions: [5] as never, offset: 0 })).toThrow(
      TypeError,
    );
  });

  // Was a defect (found at 285f814f): a silent pass, the full-width digits and
  // U+200B returned unchanged. Fixed in round 42: a caller's points are checked
  // (a TypeError) and not trusted (the text is read for what needs work).
  it.each([
    ['no positions', [], 0],
    ['positions past the text', [500], 0],
    ['positions before the text', [0, 1], 5],
  ])('%s: the text normalised', (_, positions, offset) => {
    expect(given(positions, offset)).toBe(normal);
  });

  it.each([
    ['a NaN offset', [5], Number.NaN],
    ['a negative offset', [5, 6, 7, 8, 11], -100],
    ['an infinite offset', [5, 6, 7, 8, 11], Number.POSITIVE_INFINITY],
    ['a fractional offset', [5, 6, 7, 8, 11], 0.5],
    ['positions out of order', [11, 5], 0],
    ['a negative position', [-1, 5], 0],
  ])('%s: a TypeError that says what points must be', (_, positions, offset) => {
    expect(given(positions, offset)).toBe('TypeError');
    expect(() =>
      normalizeText(text, undefined, { positions: new Int32Array(positions), offset }),
    ).toThrow(
      new TypeError(
        'normalizeText: points must be an Int32Array of positions (ascending, from 0) and an offset (an integer from 0), received an object',
      ),
    );
  });
});
