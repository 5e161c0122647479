import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nino, ninoFinder } from './uk';

const resolved = {
  defaultRegion: 'US',
  phoneRegions: [],
  obfuscatedEmails: true,
  hasNhs: false,
} as const;

/** What the finder reports for `text`, as `start:end` pairs. */
function found(text: string): string[] {
  const spans: string[] = [];
  ninoFinder.find(text, (start, end) => spans.push(`${start}:${end}`), resolved);
  return spans;
}

/** What a full scan of the pattern finds. */
function expected(text: string): string[] {
  return Array.from(
    text.matchAll(nino),
    match => `${match.index}:${match.index + match[0].length}`,
  );
}

describe('NINO scan anchored on the digits', () => {
  it('finds NINOs with and without spaces, in either case, and not inside words', () => {
    const text =
      'QQ123456C, ab 12 34 56 d; xAB123456C; BG123456A; AB 123456 A; AB123456CD; 12 34 56 A';
    // Q is not a NINO letter, BG is a reserved prefix; `ab 12 34 56 d` and `AB 123456 A` are NINOs.
    expect(found(text)).toEqual(['11:24', '49:60']);
    expect(found(text)).toEqual(expected(text));
  });

  it('gives exactly the matches of a full scan on generated texts', () => {
    // NINO-shaped pieces (valid and not: reserved prefixes, a missing digit,
    // double spaces, other suffix letters) between short bits of noise.
    const ninoLike = fc
      .tuple(
        fc.constantFrom('AB', 'ce', 'BG', 'QQ', 'Z', 'xAB'),
        fc.constantFrom('', ' '),
        fc.constantFrom('12', '1', '123'),
        fc.constantFrom('', ' '),
        fc.constantFrom('34', ''),
        fc.constantFrom('', ' ', '  '),
        fc.constantFrom('56'),
        fc.constantFrom('', ' '),
        fc.constantFrom('A', 'd', 'E', '', 'AB'),
      )
      .map(parts => parts.join(''));
    const noise = fc.constantFrom('A', 'C', 'x', '1', '23', ' ', '-', '_', '.', '\n', '');
    fc.assert(
      fc.property(fc.array(fc.oneof(ninoLike, noise), { maxLength: 12 }), parts => {
        const text = parts.join('');
        expect(found(text)).toEqual(expected(text));
      }),
      { numRuns: 5000 },
    );
  });
});
