import { describe, expect, it } from 'vitest';
import { guardContext as context } from '../../../test/helpers';
import { fetchPageRecords, privateHostRecords } from '../../../test/helpers/fetch-tool';
import { flaggedVerdict } from '../../../test/helpers/url-filter-cases';
import { findUrls } from './find-urls';
import { urlFilter } from './url-filter';

/**
 * Round 36 (hH): an IPv6 literal with a zone (`http://[fe80::1%25eth0]/`,
 * RFC 6874) does not parse as a WHATWG URL, so no rule judged it; curl and
 * Python's urllib reach the address, and a fetch tool given it went to a
 * link-local host. It is now judged as the address without its zone.
 */
describe('urlFilter: an IPv6 host with a zone is judged as its address', () => {
  it('finds it, with the span as written', () => {
    expect(
      findUrls('GET http://[fe80::1%25eth0]:8080/x now').map(({ text, url }) => [
        text,
        url.hostname,
        url.host,
      ]),
    ).toEqual([['http://[fe80::1%25eth0]:8080/x', '[fe80::1]', '[fe80::1]:8080']]);
  });

  it('blocks it as a tool argument; the tool never runs', async () => {
    for (const [url, shown] of [
      ['http://[fe80::1%25eth0]/', '[*]'],
      ['http://[fe80::a9fe:a9fe%en0]/latest', '[*]'],
      ['http://[::1%25lo]', '[::1]'],
    ] as const) {
      const seen: unknown[] = [];
      const records = await fetchPageRecords({ url }, urlFilter(), input => seen.push(input));
      expect({ seen, records }, url).toEqual({ seen: [], records: privateHostRecords(shown) });
    }
  });

  it('an allow list does not admit it', async () => {
    expect(
      await urlFilter({ allow: ['example.com'] }).check(
        'see http://[2001:db8::7%25eth0]/',
        context('output'),
      ),
    ).toEqual(flaggedVerdict('http://[*]', 'host "[*]" is not on the allow list'));
  });
});
