import { describe, expect, it } from 'vitest';
import { guardContext as context } from '../../../test/helpers';
import { deniedVerdict, expectEachVerdict } from '../../../test/helpers/url-filter-cases';
import { urlFilter } from './url-filter';

/**
 * Round 36 (hH): CommonMark reads backslash escapes in a link's destination
 * and in a reference definition, so `[x](https://evil\.io)` links to
 * evil.io. Read as written, the parser saw the host `evil\` (a backslash
 * is a path separator to it) and a deny list let the link through.
 */
describe('urlFilter: backslash escapes in a Markdown destination', () => {
  it('blocks each with the exact verdict', async () => {
    await expectEachVerdict(
      urlFilter({ deny: ['evil.io'] }),
      [
        '[x](https://evil\\.io/a)',
        '[x](https\\://evil.io)',
        '![x](<https://evil\\.io/a.png>)',
        '[x][1]\n\n[1]: https://evil\\.io',
        '[x](https://ev&#105;l\\.io)',
      ],
      deniedVerdict(),
    );
  });

  it('reads a backslash before no punctuation, an autolink and an attribute as written', async () => {
    await expectEachVerdict(
      urlFilter({ deny: ['evil.io'] }),
      [
        '[x](https://ev\\il.io)',
        '<https://evil\\.io>',
        '<a href="https://evil\\.io">x</a>',
        '[x](https://good.com/evil\\.io)',
      ],
      { action: 'allow' },
    );
  });

  it('redacts the whole destination', async () => {
    const filter = urlFilter({ deny: ['evil.io'], action: 'redact' });
    expect(await filter.check('see [x](https://evil\\.io/a) now', context('output'))).toEqual({
      action: 'modify',
      content: 'see [x]([link removed]) now',
      info: deniedVerdict().info,
    });
  });
});
