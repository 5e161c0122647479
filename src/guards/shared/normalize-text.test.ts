import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPii } from '../pii/find-pii-bundled';
import { findSecrets } from '../secrets/find-secrets';
import {
  digitZeros,
  isInvisibleCodePoint,
  type NormalizeTextOptions,
  normalizeText,
} from './normalize-text';

/**
 * A slow, plain statement of what `normalizeText` computes, one segment (a
 * character with its combining marks) at a time: each output unit with the
 * original range it comes from. The real one skips ASCII runs, caches
 * per-character facts and keeps a run-length offset map; both must agree.
 */
function referenceNormalize(
  text: string,
  { nfkc = true, removeInvisible = true, foldLookalikes = true }: NormalizeTextOptions = {},
) {
  const isDigit = (codePoint: number) => /\p{Nd}/u.test(String.fromCodePoint(codePoint));
  // Dashes to '-'; a decimal digit of another script that NFKC leaves alone
  // to its value (its offset from the start of its block of ten).
  const fold = (codePoint: number): string | undefined => {
    if (
      (codePoint >= 0x2010 && codePoint <= 0x2015) ||
      codePoint === 0x2212 ||
      codePoint === 0xfe63
    )
      return '-';
    if (codePoint === 0x1680 || codePoint === 0x2800) return ' ';
    if ([0x0b, 0x0c, 0x85, 0x2028, 0x2029].includes(codePoint)) return '\n';
    const char = String.fromCodePoint(codePoint);
    if (codePoint < 0x80 || !isDigit(codePoint) || char.normalize('NFKC') !== char) {
      return undefined;
    }
    let zero = codePoint;
    while (isDigit(zero - 1)) zero--;
    return String((codePoint - zero) % 10);
  };
  const isMark = (codePoint: number) => /\p{M}/u.test(String.fromCodePoint(codePoint));
  let out = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let index = 0;
  while (index < text.length) {
    const first = text.codePointAt(index)!;
    const size = first > 0xffff ? 2 : 1;
    if (removeInvisible && isInvisibleCodePoint(first)) {
      index += size;
      continue;
    }
    // The marks after a character, invisible characters among them dropped
    // (round 18: a keycap `5\uFE0F\u20E3` keeps its mark with the 5).
    let end = index + size;
    let form = text.slice(index, end);
    for (let at = end; nfkc && at < text.length; ) {
      const mark = text.codePointAt(at)!;
      const markSize = mark > 0xffff ? 2 : 1;
      if (removeInvisible && isInvisibleCodePoint(mark)) {
        at += markSize;
        continue;
      }
      if (mark < 0x300 || !isMark(mark)) break;
      form += text.slice(at, at + markSize);
      at += markSize;
      end = at;
    }
    const lone = end - index === size;
    if (foldLookalikes && lone) form = fold(first) ?? form;
    if (nfkc) form = form.normalize('NFKC');
    if (foldLookalikes && form.length === 1) form = fold(form.charCodeAt(0)) ?? form;
    // Marks NFKC left on a printable ASCII character decorate it (round 18).
    else if (foldLookalikes && !lone && /^[\x20-\x7e]\p{Mn}+$/u.test(form)) form = form[0]!;
    const oneToOne = form.length === 1 && end - index === 1;
    for (let unit = 0; unit < form.length; unit++) {
      starts.push(index);
      ends.push(oneToOne ? index + 1 : end);
    }
    out += form;
    index = end;
  }
  return { text: out, starts, ends };
}

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

  it('drops marks NFKC leaves on an ASCII character, and U+1D159, mapping the span to the source (round 18)', () => {
    const original = '4\u0332 1\uFE0F\u0336\u{1D159}2 \u0915\u094D 5\uFE0F\u20E3';
    const normalized = normalizeText(original);
    expect(normalized.text).toBe('4 12 \u0915\u094D 5\u20E3');
    expect(normalized.toOriginalSpan(0, 4)).toEqual({ start: 0, end: 9 });
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

describe('normalizeText against a plain reference', () => {
  // Printable ASCII runs (long ones take the regex skip), other scripts, marks,
  // invisible characters, look-alikes, compatibility forms, lone surrogates.
  const pieces = [
    'a',
    ' ',
    '7',
    '-',
    '\n',
    '\t',
    '\u0000',
    '\u007f',
    'abcdefghijklmnopqrstuvwxyz',
    'A'.repeat(40),
    '\u00a0',
    '\u00e9',
    '\u0301',
    '\u0300\u0323',
    '\u0344',
    '\u200b',
    '\ufeff',
    '\u2013',
    '\u2212',
    '\uff14',
    '\u0664',
    '\ufb01',
    '\u00aa',
    '\u00b2',
    '\u96e8',
    '\u2022',
    '\u0130',
    '\u212b',
    '\u3164',
    '\ud83d\ude00',
    '\ud800',
    '\udc00',
    '\u{e0041}',
    '\u{1d173}',
    '\u{1d159}',
    '\u0332',
    '\ufe0f',
    '\u20e3',
    // Emoji copied whole in runs and strided groups (round 33): flags, a
    // skin tone, ZWJ sequences, a subdivision flag, a BMP pair between joiners.
    '\u{1f1fa}\u{1f1f8}',
    '\u{1f44d}\u{1f3fd}',
    '\u200d',
    '\u{1f469}\u200d\u{1f4bb}',
    '\u{1f3f4}\u{e0067}\u{e0062}\u{e007f}',
    'ab',
    // Decimal digits past the Basic Multilingual Plane (round 42): Osmanya,
    // Adlam, the second of two adjacent runs (U+116DA), a mathematical digit (NFKC).
    '\u{104a4}',
    '\u{1e959}',
    '\u{116db}',
    '\u{1d7d9}',
  ];
  const texts = fc
    .array(fc.constantFrom(...pieces), { maxLength: 30 })
    .map(parts => parts.join(''));
  const optionSets: NormalizeTextOptions[] = [
    {},
    { nfkc: false },
    { removeInvisible: false },
    { foldLookalikes: false },
    { nfkc: false, removeInvisible: false, foldLookalikes: false },
  ];

  it('gives the same text, flag and offsets for every option set', () => {
    fc.assert(
      fc.property(texts, fc.constantFrom(...optionSets), (original, options) => {
        const normalized = normalizeText(original, options);
        const reference = referenceNormalize(original, options);
        expect(normalized.text).toBe(reference.text);
        expect(normalized.changed).toBe(reference.text !== original);
        if (!normalized.changed) {
          expect(normalized.toOriginalSpan(0, original.length)).toEqual({
            start: 0,
            end: original.length,
          });
          return;
        }
        for (let unit = 0; unit < reference.text.length; unit++) {
          expect(normalized.toOriginal(unit)).toBe(reference.starts[unit]);
          expect(normalized.toOriginalEnd(unit + 1)).toBe(reference.ends[unit]);
        }
        expect(normalized.toOriginal(reference.text.length)).toBe(original.length);
      }),
      { numRuns: 3000 },
    );
  });

  it('returns the very string it was given when nothing needs to change', () => {
    const original = `${'plain ascii text '.repeat(10)}caf\u00e9 \u96e8 \u2022 \u2019`;
    const normalized = normalizeText(original);
    expect(normalized.changed).toBe(false);
    expect(normalized.text).toBe(original);
  });
});

/** `toOriginal` and `toOriginalEnd` of every offset of the normal form, 0..length. */
function offsetMap(original: string) {
  const normalized = normalizeText(original);
  const offsets = Array.from({ length: normalized.text.length + 1 }, (_, index) => index);
  return {
    text: normalized.text,
    starts: offsets.map(normalized.toOriginal),
    ends: offsets.map(normalized.toOriginalEnd),
  };
}

describe('normalizeText with emoji copied in runs (round 33)', () => {
  it('maps a value right after a ZWJ sequence and right before an emoji to its exact original extent', () => {
    const original = '\u{1F469}\u200D\u{1F4BB}jane@corp.io\u{1F44D}\u{1F3FD}';
    // Each half of an emoji maps onto the whole emoji; the joiner goes with neither.
    expect(offsetMap(original)).toEqual({
      text: '\u{1F469}\u{1F4BB}jane@corp.io\u{1F44D}\u{1F3FD}',
      starts: [0, 0, 3, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 17, 19, 19, 21],
      ends: [0, 2, 2, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 19, 21, 21],
    });
    // The e-mail is [4, 16) of the normal form, [5, 17) of the original.
    expect(normalizeText(original).toOriginalSpan(4, 16)).toEqual({ start: 5, end: 17 });
    expect(findPii(original)).toEqual([{ type: 'EMAIL_ADDRESS', start: 5, end: 17 }]);
    expect(original.slice(5, 17)).toBe('jane@corp.io');
  });

  it('maps values between ZWJ sequences and flags, and a secret after a subdivision flag', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    const text = `\u{1F469}\u200D\u{1F4BB}jane@corp.io${family} \u{1F1FA}\u{1F1F8}\u200B+1 415 555 0132\u{1F1FA}\u{1F1F8}`;
    expect(findPii(text)).toEqual([
      { type: 'EMAIL_ADDRESS', start: 5, end: 17 },
      { type: 'PHONE_NUMBER', start: 31, end: 46 },
    ]);
    expect(text.slice(31, 46)).toBe('+1 415 555 0132');
    const key = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const scotland = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
    const found = findSecrets(`${scotland}token=${key}\u{1F469}\u200D\u{1F4BB}`);
    expect(found.map(({ start, end }) => ({ start, end }))).toEqual([{ start: 20, end: 65 }]);
  });

  it('maps flags with a zero-width space between them, pair by pair', () => {
    const map = offsetMap('\u{1F1FA}\u{1F1F8}\u200B\u{1F1E9}\u{1F1EA}');
    expect(map.text).toBe('\u{1F1FA}\u{1F1F8}\u{1F1E9}\u{1F1EA}');
    expect(map.starts).toEqual([0, 0, 2, 2, 5, 5, 7, 7, 9]);
    expect(map.ends).toEqual([0, 2, 2, 4, 4, 7, 7, 9, 9]);
  });

  it('removes lone surrogates and maps the characters around them', () => {
    expect(offsetMap('a\uD83Db\uDE00')).toEqual({ text: 'ab', starts: [0, 2, 4], ends: [0, 1, 3] });
    expect(offsetMap('\uDE00\u{1F44D}\uD83D')).toEqual({
      text: '\u{1F44D}',
      starts: [1, 1, 4],
      ends: [1, 3, 3],
    });
  });

  it('drops a ZWJ at the end of the text, outside the emoji before it', () => {
    const map = offsetMap('x\u{1F469}\u200D');
    expect(map).toEqual({ text: 'x\u{1F469}', starts: [0, 1, 1, 4], ends: [0, 1, 3, 3] });
    expect(normalizeText('x\u{1F469}\u200D').toOriginalSpan(1, 3)).toEqual({ start: 1, end: 3 });
  });

  it('gives a character with marks its form for each option set (forms looked up by text)', () => {
    const keycaps = '4\uFE0F\u20E3 4\uFE0F\u0332 4\uFE0F\u20E3';
    expect(normalizeText(keycaps).text).toBe('4\u20E3 4 4\u20E3');
    expect(normalizeText(keycaps, { foldLookalikes: false }).text).toBe('4\u20E3 4\u0332 4\u20E3');
    expect(normalizeText(keycaps, { removeInvisible: false }).text).toBe(
      '4\uFE0F\u20E3 4 4\uFE0F\u20E3',
    );
    expect(normalizeText(keycaps).text).toBe('4\u20E3 4 4\u20E3');
    expect(normalizeText(keycaps).toOriginalSpan(6, 7)).toEqual({ start: 8, end: 11 });
  });

  it('keeps an emoji followed by a combining mark with its mark (a segment, not a copy)', () => {
    const map = offsetMap('\u{1F44D}\u20E3a\u200B');
    expect(map).toEqual({
      text: '\u{1F44D}\u20E3a',
      starts: [0, 0, 0, 3, 5],
      ends: [0, 3, 3, 3, 4],
    });
  });
});

describe('the digits folded (round 42)', () => {
  // The runs of ten decimal digits that NFKC leaves alone, read from the
  // runtime's Unicode data: every code point tested, a run taken ten at a time.
  const isDigit = (codePoint: number) => /\p{Nd}/u.test(String.fromCodePoint(codePoint));
  const runtimeZeros: number[] = [];
  for (let codePoint = 0x80; codePoint <= 0x10ffff; codePoint++) {
    if (!isDigit(codePoint)) continue;
    const char = String.fromCodePoint(codePoint);
    if (char.normalize('NFKC') === char) runtimeZeros.push(codePoint);
    codePoint += 9;
  }

  it('holds every run of the runtime\u2019s \\p{Nd} that NFKC leaves alone', () => {
    expect(runtimeZeros.filter(zero => !digitZeros.includes(zero))).toEqual([]);
    expect(runtimeZeros.length).toBeGreaterThanOrEqual(68); // Unicode 16 and later: 35 + 33
  });

  it('holds runs of ten digits only (or code points this runtime does not know yet), in order', () => {
    expect([...digitZeros].sort((a, b) => a - b)).toEqual(digitZeros);
    for (const zero of digitZeros) {
      for (let digit = 0; digit < 10; digit++) {
        const char = String.fromCodePoint(zero + digit);
        const known = isDigit(zero + digit);
        expect(known || /\p{Cn}/u.test(char)).toBe(true);
        if (known) expect(char.normalize('NFKC')).toBe(char);
      }
    }
  });

  it('reads each digit of each run as its ASCII digit, mapped onto both units of a pair', () => {
    for (const zero of digitZeros) {
      const digits = Array.from({ length: 10 }, (_, digit) => String.fromCodePoint(zero + digit));
      const original = `n ${digits.join('')}.`;
      const normalized = normalizeText(original);
      expect(normalized.text).toBe('n 0123456789.');
      const width = zero > 0xffff ? 2 : 1;
      for (let digit = 0; digit < 10; digit++) {
        expect(normalized.toOriginalSpan(2 + digit, 3 + digit)).toEqual({
          start: 2 + width * digit,
          end: 2 + width * (digit + 1),
        });
      }
      expect(normalized.toOriginalSpan(2, 12)).toEqual({ start: 2, end: 2 + 10 * width });
    }
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
