import { describe, expect, it } from 'vitest';
import {
  contentFilterGenerate,
  contentFilterWindow,
  SELF_HARM_BLOCKED,
} from '../../../test/helpers/content-filter-cases';

/*
 * Round 22: `contentFilter` reads text lower-cased, and JavaScript lowers
 * the Turkish capital `İ` (U+0130) to `i` plus a combining dot above
 * (U+0307), which no entry holds: `KİLL YOURSELF` (read by a model as
 * "KILL YOURSELF") passed the default lists, and so did the dotless `ı`
 * (`kıll yourself`), a look-alike of `i` the homoglyph table did not have.
 */

describe('contentFilter and the Turkish dotted and dotless i', () => {
  for (const answer of ['Just KİLL YOURSELF.', 'Just kİll yourself.', 'Just kıll yourself.']) {
    it(`blocks ${JSON.stringify(answer)} (generateText)`, async () => {
      expect(await contentFilterGenerate(answer)).toEqual({
        text: 'This content is not allowed.',
        records: [SELF_HARM_BLOCKED],
      });
    });
  }

  it('holds back the entry in a window stream, one character a delta, and blocks it', async () => {
    const answer = `${'Fine words, kind words. '.repeat(6)}Then KİLL YOURSELF and be done.`;
    const { released, last } = await contentFilterWindow(answer);
    expect(last).toBe('BLOCKED');
    expect(answer.startsWith(released)).toBe(true);
    expect(released.length).toBeLessThanOrEqual(answer.indexOf('KİLL'));
  });

  it('still allows Turkish prose that holds no entry', async () => {
    const answer = 'İstanbul’da kırmızı bir kapı var; İzmir ılık.';
    expect((await contentFilterGenerate(answer)).text).toBe(answer);
  });
});
