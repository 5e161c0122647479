import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { cut, guardContext, textModel } from '../../../test/helpers';
import { fetchPageRecords } from '../../../test/helpers/fetch-tool';
import { generated, streamed } from '../../../test/helpers/window';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { urlFilter } from './url-filter';

/**
 * Round 23: the URL parser (`fetch`, `new URL`) drops every tab and line
 * break in its input, and the finders stop a URL at white space. A model
 * (or an injection it read) called a fetch tool with
 * `"https://good.com\t.evil.io/x"`: the allow list saw `https://good.com`,
 * and the tool fetched good.com.evil.io. So too a denied host cut by a tab
 * and a private host behind a line break.
 */
async function fetched(url: string, filter: ReturnType<typeof urlFilter>, key = 'url') {
  const seen: string[] = [];
  const records = await fetchPageRecords({ [key]: url }, filter, input => {
    const given = String(Object.values(input)[0]);
    // A host alone is fetched as http://host, as such tools do.
    seen.push(new URL(given.includes(':') ? given : `http://${given}`).hostname);
  });
  return { seen, records };
}

describe('urlFilter: a URL value with tabs or line breaks, as a tool fetches it', () => {
  it('an allow list: good.com\\t.evil.io is evil.io, not good.com', async () => {
    expect(
      await fetched('https://good.com\t.evil.io/x', urlFilter({ allow: ['good.com'] })),
    ).toEqual({
      seen: [],
      records: [
        {
          status: 'blocked',
          reason: 'https://*.evil.io: host "*.evil.io" is not on the allow list',
          info: {
            urls: [{ url: 'https://*.evil.io', rule: 'host "*.evil.io" is not on the allow list' }],
            count: 1,
          },
        },
      ],
    });
  });

  it('a deny list and private hosts: paste\\nbin.com, metadata.google\\t.internal', async () => {
    const denied = await fetched(
      'https://paste\nbin.com/raw/x',
      urlFilter({ deny: ['pastebin.com'] }),
    );
    expect(denied.seen).toEqual([]);
    expect(denied.records.map(record => record.reason)).toEqual([
      'https://pastebin.com: host "pastebin.com" is denied by "pastebin.com"',
    ]);
    const internal = await fetched('http://metadata.google\t.internal/v1/', urlFilter());
    expect(internal.seen).toEqual([]);
    expect(internal.records.map(record => record.reason)).toEqual([
      'http://*.google.internal: host "*.google.internal" is private or local',
    ]);
  });

  it('a sentence with a link at a line end, and an allowed URL with a line break, pass', async () => {
    const filter = urlFilter({ allow: ['good.com'] });
    for (const url of [
      'https://good.com/docs\nThanks for reading',
      'Summary: see https://good.com\nand more',
      '//TODO\nfix',
      'https://good.com/a\tb',
    ]) {
      const { records } = await fetched(url, filter);
      expect(records.map(record => record.status)).toEqual(['passed']);
    }
  });

  it('redacts the whole value, leaving JSON', () => {
    const json = JSON.stringify({
      url: 'https://good.com\t.evil.io/x',
      note: 'see https://good.com',
    });
    const verdict = urlFilter({ allow: ['good.com'], action: 'redact' }).check(
      json,
      guardContext('tool_input'),
    ) as { action: string; content: string };
    expect(verdict.content).toBe('{"url":"[link removed]","note":"see https://good.com"}');
  });
});

/**
 * Round 23: an IPv4 address written in hex, in octal with its leading zero,
 * in full-width digits or with another full stop is 127.0.0.1 to the URL
 * parser, but the finders read only dotted decimal: a tool that fetches
 * `http://` + its host argument reached the machine past `blockPrivate`.
 */
describe("urlFilter: private addresses in the URL parser's other IPv4 forms (tool input)", () => {
  it('blocks 0x7f.1, 0177.0.0.1, 0xa9.0xfe.0xa9.0xfe, full-width digits, 127。0。0。1', async () => {
    for (const [host, shown] of <[string, string][]>[
      ['0x7f.1', '127.0.0.1'],
      ['0177.0.0.1', '127.0.0.1'],
      ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254'],
      ['１２７.０.０.１', '127.0.0.1'],
      ['127。0。0。1', '127.0.0.1'],
    ]) {
      expect(await fetched(host, urlFilter())).toEqual({
        seen: [],
        records: [
          {
            status: 'blocked',
            reason: `http://${shown}: host "${shown}" is private or local`,
            info: {
              urls: [{ url: `http://${shown}`, rule: `host "${shown}" is private or local` }],
              count: 1,
            },
          },
        ],
      });
    }
  });

  it('leaves versions, dates, times and hex literals alone', async () => {
    // (Under a member that names no host: since round 25 `{"url":"10.2.1"}` is the host 10.2.0.1.)
    for (const value of ['10.2.1', '01.02.2024', '00.01.30', '0xFF', '１．２．３', 'build-0x1f']) {
      const { records } = await fetched(value, urlFilter({ allow: ['good.com'] }), 'version');
      expect(records.map(record => record.status)).toEqual(['passed']);
    }
  });
});

/**
 * Round 24: the parser reads an IPv4 address in one to three parts too
 * (`127.1`, `127.0.1`, `2130706433`, `0x7f000001`, `017700000001` are all
 * 127.0.0.1), but the finders read such a host only after a scheme: a tool
 * given the bare host fetched the machine past `blockPrivate`.
 */
describe("urlFilter: private addresses in the URL parser's one- to three-part forms (tool input)", () => {
  it('blocks 2130706433, 0x7f000001, 017700000001, 127.1, 127.0.1, 0xa9fea9fe, 10.1:8080', async () => {
    for (const [host, shown] of <[string, string][]>[
      ['2130706433', '127.0.0.1'],
      ['0x7f000001', '127.0.0.1'],
      ['017700000001', '127.0.0.1'],
      ['127.1', '127.0.0.1'],
      ['127.0.1', '127.0.0.1'],
      ['0xa9fea9fe', '169.254.169.254'],
      ['10.1:8080', '10.0.0.1'],
      ['192.168.1/admin', '192.168.0.1'],
    ]) {
      const { seen, records } = await fetched(host, urlFilter());
      expect({ seen, records }, host).toEqual({
        seen: [],
        records: [
          {
            status: 'blocked',
            reason: `http://${shown}${host.includes(':') ? ':8080' : ''}: host "${shown}" is private or local`,
            info: {
              urls: [
                {
                  url: `http://${shown}${host.includes(':') ? ':8080' : ''}`,
                  rule: `host "${shown}" is private or local`,
                },
              ],
              count: 1,
            },
          },
        ],
      });
    }
  });

  it('leaves numbers, prices, versions, file modes and loopback numbers in prose alone', async () => {
    for (const value of [
      '10.50',
      '10.2.1',
      '3.10',
      '0755',
      '0',
      '0xff',
      '167772161',
      'call 2130706433 or 127.1 later',
      'v127.0.1',
    ]) {
      // Under a member that names no host (round 25: under `url` or `host`, `10.50` is 10.0.0.50).
      const { records } = await fetched(value, urlFilter(), 'note');
      expect(
        records.map(record => record.status),
        value,
      ).toEqual(['passed']);
    }
  });
});

/**
 * Round 24: an IPv6 address that carries a private IPv4 one reaches it
 * (through the stack, a NAT64 gateway, a 6to4 or Teredo relay), but only
 * `::ffff:a.b.c.d` was read so.
 */
describe('urlFilter: private IPv4 addresses inside IPv6 ones (tool input)', () => {
  it('blocks compatible, SIIT, NAT64, 6to4 and Teredo forms of 127.0.0.1, and site-local', async () => {
    for (const url of [
      'http://[::127.0.0.1]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[64:ff9b:1::a9fe:a9fe]/',
      'http://[2002:7f00:1::]/',
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
      'http://[fec0::1]/',
    ]) {
      expect(await fetched(url, urlFilter()), url).toEqual({
        seen: [],
        records: [
          {
            status: 'blocked',
            reason: 'http://[*]: host "[*]" is private or local',
            info: {
              urls: [{ url: 'http://[*]', rule: 'host "[*]" is private or local' }],
              count: 1,
            },
          },
        ],
      });
    }
  });

  it('passes the same forms of a public address', async () => {
    for (const url of [
      'http://[::8.8.8.8]/',
      'http://[64:ff9b::808:808]/',
      'http://[2002:808:808::1]/',
      'http://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/',
      'http://[2001:db8::1]/',
      'http://[2606:4700::1111]/',
    ]) {
      const { records } = await fetched(url, urlFilter());
      expect(
        records.map(record => record.status),
        url,
      ).toEqual(['passed']);
    }
  });
});

/**
 * Round 24: round 23 joined a URL's tabs and line breaks in a tool's JSON
 * values only; an answer's `<a href="http://ev\nil.com">` or
 * `[x](http://ev\nil.com)` is evil.com to a browser's URL parser, and the
 * finders read `http://ev` and `il.com`.
 */
describe('urlFilter: tabs and line breaks inside an HTML attribute or a Markdown link', () => {
  async function answered(answer: string) {
    const result = await generateText({
      model: wrapLanguageModel({
        model: textModel(answer),
        middleware: guardrails({ output: [urlFilter({ deny: ['evil.com'], action: 'redact' })] }),
      }),
      prompt: 'hi',
    });
    const outcome = await getGuardrailOutcome(result);
    return { text: result.text, info: outcome?.records[0]?.info };
  }

  it('generateText: href="http://ev\\nil.com", [x](http://ev\\til.com) and an image link are evil.com', async () => {
    expect(
      await answered(
        'See <a href="http://ev\nil.com/x">this</a>, [that](http://ev\til.com "t") and ![i](\nhttps://evil\r\n.com/p.png).',
      ),
    ).toEqual({
      text: 'See <a href="[link removed]">this</a>, [that]([link removed] "t") and ![i](\n[link removed]).',
      info: {
        urls: [
          { url: 'http://evil.com', rule: 'host "evil.com" is denied by "evil.com"' },
          { url: 'http://evil.com', rule: 'host "evil.com" is denied by "evil.com"' },
          { url: 'https://evil.com', rule: 'host "evil.com" is denied by "evil.com"' },
        ],
        count: 3,
      },
    });
  });

  it('a window stream redacts as generate does, at every chunk size', async () => {
    const middleware = guardrails({
      output: [urlFilter({ deny: ['evil.com'], action: 'redact' })],
      stream: { mode: 'window' },
    });
    const text =
      'See <a href="http://ev\nil.com/x">this</a> and [that](\nhttp://ev\r\n\til.com) ok\nbye [z](https://good.com)\n';
    const whole = await generated(middleware, text);
    expect(whole).toBe(
      'See <a href="[link removed]">this</a> and [that](\n[link removed]) ok\nbye [z](https://good.com)\n',
    );
    for (const size of [1, 2, 3, 5, 8, 13]) {
      expect((await streamed(middleware, text, cut(text, [size]))).join(''), String(size)).toBe(
        whole,
      );
    }
  });

  it('leaves links at line ends, attributes that are no URL and prose alone', async () => {
    const answer =
      'Read [docs](https://good.com)\nand <a href="https://good.com">x</a>\n<img alt="a\nb" title="see\nhttps://good.com" src="\n">\nx="http://good.com" then\n[y](https://good.com/a\nb)';
    expect(await answered(answer)).toEqual({ text: answer, info: undefined });
  });
});
