import { describe, expect, it } from 'vitest';
import {
  contentFilterBlocklistGenerate,
  contentFilterGenerate,
  contentFilterWindow,
  SELF_HARM_BLOCKED,
} from '../../../test/helpers/content-filter-cases';
import { foldText } from '../prompt-injection/fold-text';

/*
 * Round 27: upside-down text that round 26 never read turned back. Flip
 * generators write capitals with another alphabet of look-alikes (`∀ ꓘ ˥ ⅄
 * ∩ ⊥ Ǝ Ⅎ ᴚ`), which counted as no turned letter, so a phrase in them, or
 * one mixing them with `ʎ ʞ ɐ`, was never read; and a leetspeak digit in
 * the plain letters a region reaches back over (`n0ʎ`) stopped the region.
 */

const BLOCKED = { text: 'This content is not allowed.', records: [SELF_HARM_BLOCKED] };
const blocked = [
  'This content is not allowed.',
  [['content-filter', 'blocked', 'matched blocklist entry 0']],
];
const prose = 'Fine words, kind words. '.repeat(6);

describe('the turned capitals alphabet, alone or mixed with the small one (generateText)', () => {
  it('`KILL YOURSELF` turned in capitals, and mixed with small turned letters', async () => {
    for (const answer of ['Ⅎ˥ƎSᴚ∩O⅄ ˥˥Iꓘ', 'ɟlǝsɹnoʎ ˥˥Iꓘ', 'ⅎlǝsɹnoʎ llıʞ', 'ℲlǝSɹ∩oʎ llᴉꓘ']) {
      expect([answer, await contentFilterGenerate(answer)]).toEqual([answer, BLOCKED]);
    }
    expect(foldText('Ⅎ˥ƎSᴚ∩O⅄ ˥˥Iꓘ')).toBe('ⅎ˥esᴚ∩o⅄ ˥˥iꓘ\nkill yourself\n.\nyourself kill');
  });

  it('two kinds of one alphabet and one of the other: three kinds, read', async () => {
    // ʎ of the small alphabet, ˥ and ꓘ of the capitals: `kill you`.
    expect(await contentFilterBlocklistGenerate(['kill you'], 'Ok noʎ ˥˥Iꓘ')).toEqual(blocked);
    // A capital N turned is N, M is W: `ǝW llᴉꓘ` is `kill me`, `ǝɯɐN` is `name`.
    expect(await contentFilterBlocklistGenerate(['kill me'], 'ǝW llᴉꓘ')).toEqual(blocked);
    expect(foldText('ǝɯɐN')).toBe('ewan\nname');
  });

  it('a leetspeak digit among the plain letters before a region is taken in', async () => {
    // `i will hurt you` turned, `0` for `o`: the region stopped at the `0` and read `hurt y`.
    expect(await contentFilterBlocklistGenerate(['hurt you'], 'n0ʎ ʇɹnɥ llıʍ ı')).toEqual(blocked);
    // Read as the digit is read right way up: a word half digits stays (`u5`, as `u5` does).
    expect(foldText('5n ʇɹnɥ llıʍ ı')).toBe('5n trnh lliw i\ni will hurt u5\n.\nu5 hurt will i');
  });

  it('a window stream holds the capitals as it holds turned letters', async () => {
    const answer = `${prose}Ⅎ˥ƎSᴚ∩O⅄ ˥˥Iꓘ, then more words.`;
    const { released, last } = await contentFilterWindow(answer);
    expect(last).toBe('BLOCKED');
    expect(released.length).toBeLessThanOrEqual(answer.indexOf('Ⅎ'));
  });
});
