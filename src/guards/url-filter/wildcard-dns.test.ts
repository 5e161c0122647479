import { describe, expect, it } from 'vitest';
import { guardContext as context } from '../../../test/helpers';
import { urlFilter } from './url-filter';
import { wildcardDnsJudgement } from './wildcard-dns';

/**
 * Round 39: `blockPrivate` judged the host as written, so a name whose
 * answer is a private address without asking DNS passed: a wildcard-DNS
 * service's `127.0.0.1.nip.io`, `10-0-0-1.sslip.io`, `localtest.me`. Each
 * is now judged as the address it names.
 */
const guard = urlFilter({ blockPrivate: true });

async function flagged(text: string) {
  const verdict = await guard.check(text, context('tool_input'));
  return verdict.action === 'block' ? verdict.info : verdict.action;
}

const named = (url: string, host: string, address: string) => ({
  urls: [{ url, rule: `host "${host}" is a wildcard-DNS name for ${address}: private or local` }],
  count: 1,
});

describe('urlFilter blockPrivate: wildcard-DNS names', () => {
  it.each([
    // nip.io / sslip.io: dotted, dashed, prefixed, hex, IPv6 with dashes.
    ['http://127.0.0.1.nip.io/admin?token=x', 'http://*.nip.io', '*.nip.io', '127.0.0.1'],
    ['http://10-0-0-1.sslip.io/', 'http://*.sslip.io', '*.sslip.io', '10.0.0.1'],
    ['http://0a000001.nip.io', 'http://*.nip.io', '*.nip.io', '10.0.0.1'],
    ['http://app-10-0-0-1.nip.io:8080/x', 'http://*.nip.io:8080', '*.nip.io', '10.0.0.1'],
    ['http://app.169.254.169.254.nip.io/', 'http://*.nip.io', '*.nip.io', '169.254.169.254'],
    ['http://magic-c0a801fc.nip.io/', 'http://*.nip.io', '*.nip.io', '192.168.1.252'],
    ['http://--1.sslip.io/', 'http://*.sslip.io', '*.sslip.io', '[::1]'],
    ['http://fd00--1.sslip.io/', 'http://*.sslip.io', '*.sslip.io', '[*]'],
    // A name holding two addresses: a private one flags it (services differ in which they take).
    ['http://1.2.3.4.10.0.0.1.nip.io/', 'http://*.nip.io', '*.nip.io', '10.0.0.1'],
    ['http://7f000001.08080808.rbndr.us/', 'http://*.rbndr.us', '*.rbndr.us', '127.0.0.1'],
    ['http://10.0.0.1.traefik.me/', 'http://*.traefik.me', '*.traefik.me', '10.0.0.1'],
    // Names answered with 127.0.0.1 whatever they say.
    ['http://localtest.me/', 'http://localtest.me', 'localtest.me', '127.0.0.1'],
    ['http://app.lvh.me:3000/', 'http://*.lvh.me:3000', '*.lvh.me', '127.0.0.1'],
    ['http://api.vcap.me/', 'http://*.vcap.me', '*.vcap.me', '127.0.0.1'],
    ['http://foo.traefik.me/', 'http://*.traefik.me', '*.traefik.me', '127.0.0.1'],
    // Any case, a trailing dot, full-width letters and digits (the URL parser folds them).
    ['http://APP.10.0.0.1.NIP.IO./', 'http://*.nip.io.', '*.nip.io.', '10.0.0.1'],
    ['http://１０.０.０.１.ｎｉｐ.ｉｏ/', 'http://*.nip.io', '*.nip.io', '10.0.0.1'],
    ['http://ｌｏｃａｌｔｅｓｔ.ｍｅ/', 'http://localtest.me', 'localtest.me', '127.0.0.1'],
    // Bare, as a tool is given it: the whole name, not the address at its start.
    ['{"url":"127.0.0.1.nip.io/x"}', 'http://*.nip.io', '*.nip.io', '127.0.0.1'],
    ['fetch 10-0-0-1.sslip.io now', 'http://*.sslip.io', '*.sslip.io', '10.0.0.1'],
  ])('%s is flagged as its address', async (text, url, host, address) => {
    expect(await flagged(text)).toEqual(named(url, host, address));
  });

  it.each([
    ['http://foo.xip.io/', 'http://*.xip.io', '*.xip.io', 'xip.io'],
    ['http://abc.1u.ms/', 'http://*.1u.ms', '*.1u.ms', '1u.ms'],
  ])(
    '%s, with no address decoded on a service whose answer is unknown, is flagged unjudged',
    async (text, url, host, service) => {
      expect(await flagged(text)).toEqual({
        urls: [
          {
            url,
            rule: `host "${host}" is on the wildcard-DNS service ${service} and its answer is unknown: not judged`,
          },
        ],
        count: 1,
      });
    },
  );

  it('a name longer than DNS allows is flagged unjudged', async () => {
    expect(await flagged(`http://${'a.'.repeat(130)}nip.io/`)).toEqual({
      urls: [
        {
          url: 'http://*.nip.io',
          rule: 'host "*.nip.io" is on the wildcard-DNS service nip.io and is longer than a DNS name: not judged',
        },
      ],
      count: 1,
    });
  });

  it.each([
    // Look-alikes: judged by their own names.
    'http://nip.io.example.com/',
    'see 10.0.0.1.nip.io.evil.com and http://10.0.0.1.nip.io.evil.com/x',
    'http://notnip.io/',
    'http://127.0.0.1.notnip.io/',
    'http://localtest.me.example.com/',
    // Public addresses, the services' own sites, names without an address on nip.io (no answer).
    'http://8.8.8.8.nip.io/',
    'http://2607-f8b0-400a-800--200e.sslip.io/',
    'http://nip.io/ and http://sslip.io/ and http://xip.io/',
    'http://foo.nip.io/',
  ])('%s passes', async text => {
    expect(await flagged(text)).toBe('allow');
  });

  it('localhost and *.localhost in any spelling the URL parser folds', async () => {
    const text = [
      'http://LocalHost./a',
      'http://api.localhost/a',
      'http://API.LOCALHOST./b',
      'http://ｌｏｃａｌｈｏｓｔ/c',
      'http://ⓐⓟⓘ.ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/d',
      'web.localhost:3000/e',
    ].join(' ');
    const local = (url: string, host: string) => ({
      url,
      rule: `host "${host}" is private or local`,
    });
    expect(await flagged(text)).toEqual({
      urls: [
        local('http://localhost.', 'localhost.'),
        local('http://api.localhost', 'api.localhost'),
        local('http://api.localhost.', 'api.localhost.'),
        local('http://localhost', 'localhost'),
        local('http://api.localhost', 'api.localhost'),
        local('http://web.localhost:3000', 'web.localhost'),
      ],
      count: 6,
    });
  });

  it('applies where blockPrivate does: on tool input by default, not on output', async () => {
    const byDefault = urlFilter();
    const text = 'http://127.0.0.1.nip.io/';
    expect((await byDefault.check(text, context('tool_input'))).action).toBe('block');
    expect((await byDefault.check(text, context('output'))).action).toBe('allow');
  });

  it('judgements: addresses at any start, public ones, no address', () => {
    expect(wildcardDnsJudgement('app-fe80--1.sslip.io')).toEqual({
      kind: 'private',
      address: '[fe80::1]',
      service: 'sslip.io',
    });
    expect(wildcardDnsJudgement('www.--ffff-a9fe-a9fe.sslip.io')).toEqual({
      kind: 'private',
      address: '[::ffff:a9fe:a9fe]',
      service: 'sslip.io',
    });
    expect(wildcardDnsJudgement(`${'a-'.repeat(120)}a.sslip.io`)).toEqual({ kind: 'public' });
    expect(wildcardDnsJudgement('www.nip.io')).toEqual({ kind: 'public' });
    expect(wildcardDnsJudgement('example.com')).toBeUndefined();
  });
});
