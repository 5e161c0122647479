import { describe, expect, it } from 'vitest';
import {
  contentFilterBlocklistGenerate,
  contentFilterGenerate,
  contentFilterWindow,
  SELF_HARM_BLOCKED,
} from '../../../test/helpers/content-filter-cases';
import { foldText } from '../prompt-injection/fold-text';

/*
 * Round 28: upside-down text that keeps a plain letter where a turned one
 * belongs. A region reached back from its first turned letter only over the
 * letters that look alike either way (`l o s x z`, `u n p d b q`), so a
 * plain `f` or `i` cut the phrase (`flǝsɹnoʎ llıʞ` read `kill yoursel`);
 * the `ן` and `ๅ` other generators write for `l` stayed as they were
 * (`kiןן`), and turned digits (`ㄣ` for 4) and a `6` that stands for `9`
 * were not read.
 */

const blocked = [
  'This content is not allowed.',
  [['content-filter', 'blocked', 'matched blocklist entry 0']],
];
const BLOCKED = { text: 'This content is not allowed.', records: [SELF_HARM_BLOCKED] };

describe('upside-down text with plain letters, other `l`s and turned digits (generateText)', () => {
  it('a plain `f` or `i` in a turned phrase is read with it', async () => {
    for (const answer of ['flǝsɹnoʎ llıʞ', 'ɟlǝsɹnoʎ lliʞ', 'flǝsɹnoʎ lliʞ']) {
      expect([answer, await contentFilterGenerate(answer)]).toEqual([answer, BLOCKED]);
    }
    // `you must kill`: the region began at `ʞ` and read `you must k`.
    expect(await contentFilterBlocklistGenerate(['must kill'], 'lliʞ ʇsnɯ noʎ')).toEqual(blocked);
  });

  it('the Hebrew `ן` and Thai `ๅ` flip generators write for `l` read as `l`', async () => {
    for (const answer of ['ɟןǝsɹnoʎ ןןᴉʞ', 'ɟๅǝsɹnoʎ ๅๅᴉʞ']) {
      expect([answer, await contentFilterGenerate(answer)]).toEqual([answer, BLOCKED]);
    }
  });

  it('turned digits read as their digits, and `6` and `9` as each other', async () => {
    // `4ttack` and `h4ck` turned, `4` as `ㄣ`: leetspeak once read.
    expect(await contentFilterBlocklistGenerate(['attack'], 'ʞɔɐʇʇㄣ ǝɯ')).toEqual(blocked);
    // `take route 66` turned: `99`.
    expect(await contentFilterBlocklistGenerate(['route 66'], '99 ǝʇnoɹ ǝʞɐʇ')).toEqual(blocked);
    // `meet me at 125` turned, with `ᄅ`, `Ɩ` and `ϛ`.
    expect(await contentFilterBlocklistGenerate(['at 125'], 'ϛᄅƖ ʇɐ ǝɯ ʇǝǝɯ')).toEqual(blocked);
  });

  it('a window stream holds the plain `f` before the turned letters and blocks as generate does', async () => {
    const answer = `${'Fine words, kind words. '.repeat(6)}flǝsɹnoʎ llıʞ, then more words.`;
    const { released, last } = await contentFilterWindow(answer);
    expect(last).toBe('BLOCKED');
    expect(released.length).toBeLessThanOrEqual(answer.indexOf('flǝ'));
  });
});

describe('upside-down words read where they stand (round 28)', () => {
  it('a turned word among plain ones, and words each turned in place, block', async () => {
    // The region `ɟlǝsɹnoʎ` read turned was `yourself` alone; read in place, with the
    // plain words around it, `you should kill yourself now.`
    for (const answer of ['You should kill ɟlǝsɹnoʎ now.', 'llıʞ ɟlǝsɹnoʎ']) {
      expect([answer, await contentFilterGenerate(answer)]).toEqual([answer, BLOCKED]);
    }
    expect(foldText('You should kill ɟlǝsɹnoʎ now.')).toBe(
      'you should kill flesrnoy now.\nyourself\n.\nyou should kill yourself now.',
    );
  });

  it('only whole plain words are taken with it, at most 16 units on each side', async () => {
    // `skill` is no `kill`; a word cut by the bound is left out.
    expect(foldText('a skill ɟlǝsɹnoʎ')).toBe('a skill flesrnoy\nyourself\n.\na skill yourself');
    expect(foldText('kill it, you said, ɟlǝsɹnoʎ')).toBe(
      'kill it, you said, flesrnoy\nyourself\n.\nit, you said, yourself',
    );
    expect(await contentFilterGenerate('a skill ɟlǝsɹnoʎ')).toEqual({
      text: 'a skill ɟlǝsɹnoʎ',
      records: [{ guardrail: 'content-filter', kind: 'output', status: 'passed' }],
    });
  });

  it('a window stream blocks it as generate does, the plain words before it held', async () => {
    const answer = `${'Fine words, kind words. '.repeat(6)}You should kill ɟlǝsɹnoʎ now, ok.`;
    const { released, last } = await contentFilterWindow(answer);
    expect(last).toBe('BLOCKED');
    expect(released.length).toBeLessThanOrEqual(answer.indexOf('kill'));
  });
});
