import { describe, expect, it } from 'vitest';
import { widerGateOpensE } from '../../scripts/train/injection/suffix-one-script-screen';
import {
  decodeWordSet,
  encodeWordSet,
  isWordPieceToken,
  readsAsEnglish,
  wordHash,
  wordSetOf,
} from '../../scripts/train/injection/word-pieces';

// A hand-written vocabulary (no corpus words).
const vocabulary = wordSetOf([
  'team',
  'sure',
  'github',
  'install',
  'champion',
  'continued',
  'poem',
  'about',
  'write',
  'please',
  'river',
  'stone',
]);

describe('isWordPieceToken (round 47, issue 15)', () => {
  it('is true for glued vocabulary words of 8+ letters', () => {
    expect(isWordPieceToken(vocabulary, 'githubinstall')).toBe(true);
    expect(isWordPieceToken(vocabulary, 'teamsure')).toBe(true);
    expect(isWordPieceToken(vocabulary, 'riverstoneteam')).toBe(true);
  });

  it('is false for a word, a word with an English affix, or a token that does not split', () => {
    expect(isWordPieceToken(vocabulary, 'champion')).toBe(false);
    expect(isWordPieceToken(vocabulary, 'championships')).toBe(false);
    expect(isWordPieceToken(vocabulary, 'discontinued')).toBe(false);
    expect(isWordPieceToken(vocabulary, 'teamsurex')).toBe(false);
    expect(isWordPieceToken(vocabulary, 'teamsures')).toBe(false);
  });

  it('reads only 8 to 40 lower-case ASCII letters', () => {
    expect(isWordPieceToken(vocabulary, 'teamteam'.slice(0, 7))).toBe(false);
    expect(isWordPieceToken(vocabulary, 'githubINSTALL')).toBe(false);
    expect(isWordPieceToken(vocabulary, 'github-install')).toBe(false);
    expect(isWordPieceToken(vocabulary, 'team'.repeat(10))).toBe(true);
    expect(isWordPieceToken(vocabulary, 'team'.repeat(11))).toBe(false);
    expect(isWordPieceToken(vocabulary, 'say githubinstall now', 4, 17)).toBe(true);
  });

  it('keeps its hashes through the model form', () => {
    const hashes = Uint32Array.from([wordHash('team'), wordHash('sure'), 0xffffffff]).sort();
    const decoded = decodeWordSet(encodeWordSet(hashes));
    expect(decoded.size).toBe(3);
    expect(decoded.hasHash(wordHash('team'))).toBe(true);
    expect(decoded.hasHash(0xffffffff)).toBe(true);
    expect(decoded.hasHash(wordHash('stone'))).toBe(false);
    expect(wordHash('team')).toBe(0xa2fd7d0c);
  });
});

describe('readsAsEnglish (round 47)', () => {
  it('counts English function words, word pieces left out with a vocabulary', () => {
    expect(readsAsEnglish('write a poem about the river for me, please.')).toBe(true);
    expect(readsAsEnglish('der fluss ist lang und kalt')).toBe(false);
    const suffixed = 'write the poem githubinstall teamsure riverstoneteam poemteam aboutriver';
    expect(readsAsEnglish(suffixed)).toBe(false);
    expect(readsAsEnglish(suffixed, vocabulary)).toBe(true);
    expect(readsAsEnglish('')).toBe(false);
  });
});

describe('word pieces on hostile input (round 47)', () => {
  it('reads 10 MB of letters, or 2.8 MB of glued pieces, in one pass', () => {
    const run = 'a'.repeat(10_000_000);
    expect(isWordPieceToken(vocabulary, run)).toBe(false);
    expect(readsAsEnglish(run, vocabulary)).toBe(false);
    const glued = 'githubinstall '.repeat(200_000);
    expect(readsAsEnglish(glued, vocabulary)).toBe(false);
    expect(readsAsEnglish(`the ${glued}`, vocabulary)).toBe(true);
  });
});

describe('widerGateOpensE (round 47 screen)', () => {
  it('opens on three distinct word pieces in ten tokens of English text', () => {
    expect(
      widerGateOpensE('write the poem githubinstall teamsure riverstoneteam', vocabulary),
    ).toBe(true);
    expect(widerGateOpensE('write the poem githubinstall teamsure please', vocabulary)).toBe(false);
  });

  it('counts a repeated word piece once per window, and not in code', () => {
    expect(widerGateOpensE('the teamsure and the teamsure or the teamsure', vocabulary)).toBe(
      false,
    );
    expect(
      widerGateOpensE('```\nthe poem githubinstall teamsure riverstoneteam\n```', vocabulary),
    ).toBe(false);
  });

  it('stays shut on a text that is not English', () => {
    expect(widerGateOpensE('der githubinstall teamsure riverstoneteam ist', vocabulary)).toBe(
      false,
    );
  });
});
