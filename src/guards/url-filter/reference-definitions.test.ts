import { describe, expect, it } from 'vitest';
import { guardContext as context } from '../../../test/helpers';
import { deniedVerdict, expectEachVerdict } from '../../../test/helpers/url-filter-cases';
import { urlFilter } from './url-filter';

/**
 * Round 36 (hH): round 26 read a reference definition's destination with
 * its character references decoded (CommonMark decodes them) only at a
 * line's start. A definition inside a block quote or a list item
 * (`> [1]: https://evil&#46;io`) or with its destination on the next line
 * is one too, and the finders, reading it as written, saw the host `evil&`.
 */
describe('urlFilter: a reference definition in a container or over two lines', () => {
  it('blocks each with the exact verdict', async () => {
    await expectEachVerdict(
      urlFilter({ deny: ['evil.io'] }),
      [
        '> See [x][1].\n>\n> [1]: https://evil&#46;io',
        '- See [x][1].\n\n- [1]: https://evil&#46;io',
        '1. > [1]: <https://evil&#46;io/a>',
        'See [x][1].\n\n[1]:\n  https://evil&#46;io "t"',
        '> [1]:\n> https://evil&#46;io',
      ],
      deniedVerdict(),
    );
  });

  it('redacts just the destination', async () => {
    const filter = urlFilter({ deny: ['evil.io'], action: 'redact' });
    expect(await filter.check('> [1]: https://evil&#46;io\n\nok', context('output'))).toEqual({
      action: 'modify',
      content: '> [1]: [link removed]\n\nok',
      info: deniedVerdict().info,
    });
  });
});
