import { describe, expect, it } from 'vitest';
import { guardContext as context } from '../../../test/helpers';
import { fetchPageRecords, privateHostRecords } from '../../../test/helpers/fetch-tool';
import { findUrls } from './find-urls';
import { urlFilter } from './url-filter';

/**
 * Round 35: a URL that ends with its IPv6 host (`http://[::1]`, no path)
 * lost its closing bracket to the sentence-punctuation trim, `http://[::1`
 * did not parse, and no rule saw the URL: a fetch tool given
 * `{"url":"http://[fd00:ec2::254]"}` (the cloud metadata service over
 * IPv6) or `http://[::1]` ran, and an allow list let the host through.
 */
describe('urlFilter: a URL that ends with its bracketed IPv6 host', () => {
  it('finds the URL with its closing bracket, and still trims sentence punctuation', () => {
    expect(
      findUrls('go to http://[::1], then (http://[fd00::1]) or http://[::1].').map(
        ({ text, start, end, url }) => ({ text, start, end, host: url.hostname }),
      ),
    ).toEqual(
      [
        { text: 'http://[::1]', start: 6, end: 18 },
        { text: 'http://[fd00::1]', start: 26, end: 42 },
        { text: 'http://[::1]', start: 47, end: 59 },
      ].map(found => ({ ...found, host: found.text.slice(7) })),
    );
  });

  it('blocks http://[::1] and http://[fd00:ec2::254] as a tool argument; the tool never runs', async () => {
    for (const url of ['http://[::1]', 'http://[fd00:ec2::254]', 'http://[::ffff:a9fe:a9fe]']) {
      const seen: unknown[] = [];
      const records = await fetchPageRecords({ url }, urlFilter(), input => seen.push(input));
      const shown = url === 'http://[::1]' ? '[::1]' : '[*]';
      expect({ seen, records }, url).toEqual({ seen: [], records: privateHostRecords(shown) });
    }
  });

  it('an allow list does not admit an IPv6 host at the end of a text', async () => {
    expect(
      await urlFilter({ allow: ['example.com'] }).check(
        'Download it from http://[2001:db8::7]',
        context('output'),
      ),
    ).toEqual({
      action: 'block',
      message: 'This content contains a link that is not allowed.',
      reason: 'http://[*]: host "[*]" is not on the allow list',
      severity: 'warning',
      info: {
        urls: [{ url: 'http://[*]', rule: 'host "[*]" is not on the allow list' }],
        count: 1,
      },
    });
  });
});
