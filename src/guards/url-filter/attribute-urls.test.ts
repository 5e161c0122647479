import { describe, expect, it } from 'vitest';
import { guardContext as context } from '../../../test/helpers';
import { deniedVerdict, expectEachVerdict } from '../../../test/helpers/url-filter-cases';
import { urlFilter } from './url-filter';

/**
 * Round 36 (hH): a `srcset`'s candidates, a refresh's `content` and a
 * style's `url(…)` hold URLs among other text, and the browser decodes
 * their character references: `<img srcset="https://evil&#46;io/a.png 1x">`
 * loads evil.io. The finders read them as written (the host `evil&`).
 */
describe('urlFilter: URLs inside srcset, content and style values', () => {
  it('blocks each with the exact verdict', async () => {
    await expectEachVerdict(
      urlFilter({ deny: ['evil.io'] }),
      [
        '<img srcset="https://evil&#46;io/a.png 1x">',
        '<img srcset="https://good.com/a.png 1x, https://evil&#46;io/b.png 2x">',
        '<meta http-equiv="refresh" content="0;url=https://evil&#46;io">',
        `<div style="background:url('https://ev&#105;l.io/p.png')">x</div>`,
      ],
      deniedVerdict(),
    );
  });

  it('passes values whose references hide no URL, and redacts the whole value', async () => {
    const filter = urlFilter({ deny: ['evil.io'], action: 'redact' });
    expect(
      await filter.check(
        '<meta name="x" content="Tom &amp; Jerry"><img srcset="https://good.com/a.png?a=1&amp;b=2 1x">',
        context('output'),
      ),
    ).toEqual({ action: 'allow' });
    expect(
      await filter.check('<img srcset="https://evil&#46;io/a.png 1x" alt="">', context('output')),
    ).toEqual({
      action: 'modify',
      content: '<img srcset="[link removed]" alt="">',
      info: deniedVerdict().info,
    });
  });
});
