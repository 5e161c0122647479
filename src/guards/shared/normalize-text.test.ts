import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInvisibleCodePoint, normalizeText } from './normalize-text';

describe('normalizeText', () => {
  it('returns plain ASCII unchanged with identity offsets', () => {
    const normalized = normalizeText('call 415-555-0132\nnow');
    expect(normalized.changed).toBe(false);
    expect(normalized.text).toBe('call 415-555-0132\nnow');
    expect(normalized.toOriginalSpan(5, 17)).toEqual({ start: 5, end: 17 });
  });

  it('removes zero-width characters and maps spans over them', () => {
    const original = 'card 4111\u200B1111 ok';
    const normalized = normalizeText(original);
    expect(normalized.text).toBe('card 41111111 ok');
    expect(normalized.toOriginalSpan(5, 13)).toEqual({ start: 5, end: 14 });
    expect(original.slice(5, 14)).toBe('4111\u200B1111');
  });

  it('folds full-width digits and at signs with NFKC', () => {
    const original = '４１１１ a＠b.co';
    const normalized = normalizeText(original);
    expect(normalized.text).toBe('4111 a@b.co');
    expect(normalized.toOriginalSpan(0, 4)).toEqual({ start: 0, end: 4 });
    expect(normalized.toOriginalSpan(5, 11)).toEqual({ start: 5, end: 11 });
  });

  it('folds Arabic-Indic digits and Unicode dashes', () => {
    expect(normalizeText('٤١٥\u2013٥٥٥').text).toBe('415-555');
  });

  it('maps characters that NFKC expands to the whole original character', () => {
    const normalized = normalizeText('\uFB01le x'); // ﬁ ligature
    expect(normalized.text).toBe('file x');
    expect(normalized.toOriginalSpan(0, 4)).toEqual({ start: 0, end: 3 });
    expect(normalized.toOriginalSpan(1, 2)).toEqual({ start: 0, end: 1 });
  });

  it('composes combining marks and keeps them inside the span', () => {
    const normalized = normalizeText('Jose\u0301 x');
    expect(normalized.text).toBe('José x');
    expect(normalized.toOriginalSpan(0, 4)).toEqual({ start: 0, end: 5 });
  });

  it('removes Unicode tag characters and bidi controls', () => {
    const original = 'a\u{E0041}\u{E0042}b\u202Ec';
    expect(normalizeText(original).text).toBe('abc');
    expect(normalizeText(original).toOriginal(2)).toBe(original.length - 1);
  });

  it('keeps text unchanged when every step is disabled', () => {
    const original = '４\u200B1';
    expect(
      normalizeText(original, { nfkc: false, removeInvisible: false, foldLookalikes: false }).text,
    ).toBe(original);
  });

  it('maps every normalised character back to an original character that produced it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), original => {
        const normalized = normalizeText(original);
        for (let index = 0; index < normalized.text.length; index++) {
          const { start, end } = normalized.toOriginalSpan(index, index + 1);
          expect(start).toBeGreaterThanOrEqual(0);
          expect(end).toBeGreaterThan(start);
          expect(end).toBeLessThanOrEqual(original.length);
        }
        expect(normalized.toOriginal(normalized.text.length)).toBe(original.length);
      }),
    );
  });
});

describe('isInvisibleCodePoint', () => {
  it('recognises zero-width, bidi and tag characters but not visible ones', () => {
    expect([0x200b, 0x200d, 0x2066, 0x202e, 0xfeff, 0xe0041].every(isInvisibleCodePoint)).toBe(
      true,
    );
    expect([0x41, 0x20, 0xa0, 0x1f600].some(isInvisibleCodePoint)).toBe(false);
  });
});
