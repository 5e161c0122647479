import { describe, expect, it } from 'vitest';
import { guardContext as context } from '../../../test/helpers';
import { deniedVerdict, expectEachVerdict } from '../../../test/helpers/url-filter-cases';
import { urlFilter } from './url-filter';

/**
 * Round 36 (hH): a browser decodes character references in an unquoted
 * attribute value too, so `<a href=https://evil&#46;io>` goes to evil.io.
 * Only quoted values were read decoded (round 25); unquoted, the finders
 * saw the host `evil&` and a deny list let the link through.
 */
describe('urlFilter: an unquoted attribute value is read as the browser reads it', () => {
  it('blocks each with the exact verdict', async () => {
    await expectEachVerdict(
      urlFilter({ deny: ['evil.io'] }),
      [
        '<a href=https://evil&#46;io>x</a>',
        '<img src = https://ev&#105;l.io/a.png alt=x>',
        '<a href=https://evil&period;io/a>x</a>',
      ],
      deniedVerdict(),
    );
  });

  it('passes a value whose references change no host, and redacts just the value', async () => {
    const filter = urlFilter({ deny: ['evil.io'], action: 'redact' });
    expect(
      await filter.check('<a href=https://good.com/?a=1&amp;b=2>x</a>', context('output')),
    ).toEqual({ action: 'allow' });
    expect(await filter.check('<a href=https://evil&#46;io>x</a>', context('output'))).toEqual({
      action: 'modify',
      content: '<a href=[link removed]>x</a>',
      info: deniedVerdict().info,
    });
  });
});
