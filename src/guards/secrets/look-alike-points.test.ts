import { describe, expect, it } from 'vitest';
import { invisibleBreaks } from '../shared/invisible-breaks';
import { type NormalizationPoints, normalizationPoints } from '../shared/normalize-text';
import { findSecrets } from './find-secrets';
import { lookAlikeSites } from './look-alike-reading';

/**
 * Round 33: a piece of a long text looks for look-alike letters only at
 * the normaliser's points (its characters outside printable ASCII), not by
 * a search of the whole piece; the sites must be those the search finds.
 */
const GITHUB_BODY = 'q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';

/** A deterministic mix of `parts` of `bits`. */
function mixedText(bits: readonly string[], seed: number, parts: number): string {
  let state = seed;
  let text = '';
  for (let part = 0; part < parts; part++) {
    state = (state * 1103515245 + 12345) >>> 0;
    text += bits[state % bits.length];
  }
  return text;
}

/** Prose, keys with look-alikes, other scripts and bullets. */
const lookAlikeBits = [
  'the ',
  'report ',
  '\u2022 item ',
  '\u201cquoted\u201d ',
  'caf\u00e9 ',
  '\u041f\u0440\u0438\u0432\u0435\u0442 ',
  'kullan\u0131l\u0131r ',
  `ghp_${GITHUB_BODY.replace('p1', '\u04401')} `,
  'AKIAZ7VRSQ5TJN2\u0425MY3K ',
  'x\u0440y ',
  'ab\u04401234cd ',
  '\u0440\u0440\u0440\u0440\u0440\u0440\u0440\u04401 ',
  '12\u0430 ',
  '\n',
  '\u00a0',
  'Zz9 ',
];

/**
 * Calls `check` with pieces of 40 generated texts (whole, short, middle,
 * end) and the normaliser's points of the whole text for each.
 */
function forEachPiece(
  bits: readonly string[],
  parts: number,
  check: (piece: string, points: NormalizationPoints) => void,
): void {
  for (let seed = 1; seed <= 40; seed++) {
    const text = mixedText(bits, seed, parts);
    const positions = normalizationPoints(text);
    expect(positions).toBeDefined();
    for (const [from, to] of [
      [0, text.length],
      [0, 17],
      [5, 900],
      [333, 2048],
      [text.length - 700, text.length],
    ] as const) {
      check(text.slice(from, to), { positions: positions!, offset: from });
    }
  }
}

describe('look-alike sites at the normaliser points', () => {
  it('finds the same sites as the search, in every piece of a long text', () => {
    forEachPiece(lookAlikeBits, 400, (piece, points) =>
      expect(lookAlikeSites(piece, points)).toEqual(lookAlikeSites(piece)),
    );
  });

  it('reads a key with a look-alike as ASCII at a point, and no word of another script', () => {
    const text = 'see \u2022 ab\u04401234cd and \u041f\u0440\u0438\u0432\u0435\u0442 x\u0440y';
    const sites = lookAlikeSites(text, { positions: normalizationPoints(text)!, offset: 0 });
    // Only the Cyrillic `р` of the key-like word (8 units, a digit) is read, as `p`.
    expect(sites).toEqual({ bounds: [8, 9], values: ['p'] });
  });

  it('a long text read in pieces still types a key with a look-alike by its provider', () => {
    const key = `ghp_${GITHUB_BODY.replace('p1', '\u04401')}`;
    const filler = 'Plain words \u2022 and caf\u00e9 notes.\n'.repeat(6_000);
    const text = `${filler}Copy ${key} now.\n${filler}`;
    expect(text.length).toBeGreaterThan(131_072);
    const start = filler.length + 'Copy '.length;
    expect(findSecrets(text)).toEqual([{ type: 'GITHUB_TOKEN', start, end: start + key.length }]);
  });
});

describe('invisible breaks at the normaliser points', () => {
  it('finds the same breaks as the search, in every piece of a long text', () => {
    const bits = [
      'word ',
      'cc\u200b4111 1111 1111 1111 ',
      'key\u0000AKIAIOSFODNN7EXAMPLE\u0000end ',
      '12\u200b34 ',
      '\ufeff',
      'a\u200db ',
      '\u00e9t\u00e9 ',
      '\ue000x ',
      'plain text without anything special in it at all ',
      'more plain words, numbers 2024 and a URL https://example.org/a/b ',
      'and a third plain sentence for the points to stay sparse. ',
      '\u2022 ',
      '\n',
    ];
    let breaksFound = 0;
    forEachPiece(bits, 300, (piece, points) => {
      const searched = invisibleBreaks(piece);
      breaksFound += searched?.count ?? 0;
      expect(invisibleBreaks(piece, points)).toEqual(searched);
    });
    expect(breaksFound).toBeGreaterThan(1_000);
  });
});
