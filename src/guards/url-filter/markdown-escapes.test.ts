import { describe, expect, it } from 'vitest';
import { guardContext as context } from '../../../test/helpers';
import { urlFilter } from './url-filter';

/**
 * Round 36 (hH): CommonMark reads backslash escapes in a link's destination
 * and in a reference definition, so `[x](https://evil\.io)` links to
 * evil.io. Read as written, the parser saw the host `evil\` (a backslash
 * is a path separator to it) and a deny list let the link through.
 */
describe('urlFilter: backslash escapes in a Markdown destination', () => {
  const denied = (scheme = 'https') => ({
    action: 'block',
    message: 'This content contains a link that is not allowed.',
    reason: `${scheme}://evil.io: host "evil.io" is denied by "evil.io"`,
    severity: 'warning',
    info: {
      urls: [{ url: `${scheme}://evil.io`, rule: 'host "evil.io" is denied by "evil.io"' }],
      count: 1,
    },
  });

  it('blocks each with the exact verdict', async () => {
    const filter = urlFilter({ deny: ['evil.io'] });
    for (const text of [
      '[x](https://evil\\.io/a)',
      '[x](https\\://evil.io)',
      '![x](<https://evil\\.io/a.png>)',
      '[x][1]\n\n[1]: https://evil\\.io',
      '[x](https://ev&#105;l\\.io)',
    ]) {
      expect(await filter.check(text, context('output')), text).toEqual(denied());
    }
  });

  it('reads a backslash before no punctuation, an autolink and an attribute as written', async () => {
    const filter = urlFilter({ deny: ['evil.io'] });
    for (const text of [
      '[x](https://ev\\il.io)',
      '<https://evil\\.io>',
      '<a href="https://evil\\.io">x</a>',
      '[x](https://good.com/evil\\.io)',
    ]) {
      expect(await filter.check(text, context('output')), text).toEqual({ action: 'allow' });
    }
  });

  it('redacts the whole destination', async () => {
    const filter = urlFilter({ deny: ['evil.io'], action: 'redact' });
    expect(await filter.check('see [x](https://evil\\.io/a) now', context('output'))).toEqual({
      action: 'modify',
      content: 'see [x]([link removed]) now',
      info: denied().info,
    });
  });
});
