import { describe, expect, it } from 'vitest';
import { normalizationPoints, normalizePiece, normalizeText } from './normalize-text';

/**
 * Round 48 (hO): a lone replaced character between two copied runs longer
 * than 16 units (most of real text's changes: `–`, U+00A0, `—`), in a whole
 * text and in a piece read with the text's points, and gathered short
 * pieces beside it. The outputs and offset maps are exact (a cut of how
 * these units are written was measured and not kept: docs/data-protection.md).
 */
describe('normalizeText: single replaced units between long runs', () => {
  const left = 'the meeting ran from nine';
  const right = 'eleven and then lunch was served';
  const text = `${left}\u2013${right}\u00A0${left}\u2014end`;
  const expected = `${left}-${right} ${left}-end`;

  it('whole text: exact output and map', () => {
    const normalized = normalizeText(text);
    expect(normalized.text).toBe(expected);
    expect(normalized.changed).toBe(true);
    expect(normalized.toOriginalSpan(left.length, left.length + 1)).toEqual({
      start: 25,
      end: 26,
    });
    expect(normalized.toOriginal(expected.length)).toBe(text.length);
    expect(normalized.removedInvisible).toBeUndefined();
  });

  it('a piece read with the points of its text: the same output and map', () => {
    const whole = `${'x'.repeat(40)}\n${text}\n${'y'.repeat(40)}`;
    const positions = normalizationPoints(whole)!;
    expect(Array.from(positions)).toEqual([66, 99, 125]);
    const piece = whole.slice(41, 41 + text.length);
    const normalized = normalizePiece(piece, { positions, offset: 41 });
    expect(normalized.text).toBe(expected);
    expect(normalized.toOriginalSpan(58, 59)).toEqual({ start: 58, end: 59 });
    expect(normalized.toOriginalEnd(expected.length)).toBe(text.length);
  });

  it('one unit alone, a removed invisible beside it, and two units gathered', () => {
    expect(normalizeText(`${left}\u00A0\u200B${right}`).text).toBe(`${left} ${right}`);
    expect(normalizeText(`${left}\u2013\u00A0${right}`).text).toBe(`${left}- ${right}`);
    expect(normalizeText('\u2013').text).toBe('-');
    const flood = 'a\u00A0'.repeat(3000);
    expect(normalizeText(flood).text).toBe('a '.repeat(3000));
  });
});
