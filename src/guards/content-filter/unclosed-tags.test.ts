import { describe, expect, it } from 'vitest';
import {
  contentFilterWindowMiddleware,
  expectAllowed,
  expectSelfHarmEverywhere,
  expectStreamedWhole,
  expectWindowHoldsPhrase,
} from '../../../test/helpers/content-filter-cases';
import { withoutEmphasis } from './markdown-emphasis';

/**
 * Round 36 (hH): round 35 read a `<` and a tag name as a tag open to the
 * text's end when no `>` closed it, and as a tag up to any `>` whatever
 * came between. A Markdown renderer shows both as text (raw HTML must be a
 * whole tag, its attributes well formed), and the emphasis after them too:
 * `if a<b then kill **yourself**` and `a<b then kill **yourself** c>d`
 * passed. `<!-->` is a whole (empty) comment, not one up to the next `-->`.
 */
describe('contentFilter: a `<` that opens no whole tag is shown as text', () => {
  it('blocks each, with the exact verdict; generateText gives the blocked message and record', () =>
    expectSelfHarmEverywhere('Note: if a<b then kill **yourself**.', [
      'if a<b then kill **yourself**',
      'if a<b then kill **yourself** and c>d',
      'a</b kill **yourself**',
      'x<y z="1" kill **yourself**',
      'if a<b then kill <em>yourself</em>',
      '<!--> kill **yourself** -->',
      '<!---> kill **yourself** -->',
    ]));

  it('reads a whole tag as CommonMark does, anything else as text', () => {
    expect(withoutEmphasis('if a<b then **x**')?.text).toBe('if a<b then x');
    expect(withoutEmphasis('a<b c=d e=\'f\' g="h" i/>j')?.text).toBe('aj');
    expect(withoutEmphasis('a<my-tag data-x:y.z = "1">b</my-tag >c')?.text).toBe('abc');
    expect(withoutEmphasis('a<!-->b<!--->c')?.text).toBe('abc');
    for (const text of ['a<b c=>d', 'a<b "c">d', 'a<bc=d>e', 'a</b c>d', 'a<b/ >c']) {
      expect(withoutEmphasis(text), text).toBeUndefined();
    }
  });

  it('passes prose with comparisons and without an entry', async () => {
    await expectAllowed([
      'if a<b then kill the job, else x>y and we skill up',
      'use i<n; i++ to kill the loop <!-- not closed',
    ]);
  });

  it('window mode releases no letter of the entry, for any chunking', async () => {
    const middleware = contentFilterWindowMiddleware();
    for (const phrase of ['kill **yourself** if a<b', 'kill <span title="x>y">yourself</span>']) {
      await expectWindowHoldsPhrase(middleware, phrase, 0);
    }
    await expectWindowHoldsPhrase(middleware, 'a<b then kill **yourself**', 'a<b then '.length);
  });

  it('window mode streams prose with comparisons whole', async () => {
    await expectStreamedWhole(
      contentFilterWindowMiddleware(),
      'If a<b then swap them; a<b c="d" holds, x <y and <em>skill</em> too. <!--> done',
    );
  });
});
