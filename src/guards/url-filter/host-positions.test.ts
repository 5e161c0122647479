import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel, windowAndGenerateTexts } from '../../../test/helpers';
import { fetchPageRecords } from '../../../test/helpers/fetch-tool';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { urlFilter } from './url-filter';

/**
 * Round 25. A tool input's string value that is a private IPv4 address in
 * the URL parser's short decimal forms (`"10.1"` is 10.0.0.1, `"192.168.1"`
 * 192.168.0.1, `"2130706433"` 127.0.0.1) was judged by its number alone:
 * loopback ones were blocked under any member (`{"id":"2147483000"}`, an id
 * or a phone-like number), the others under none (`{"host":"10.1"}`
 * passed). Such a value is now an address in a host position only: under a
 * member whose name names a host (`host`, `serverIp`, `baseUrl`, `hosts`),
 * or in an array under one. And an answer's host in enclosed letters with
 * an ideographic full stop (`ⓔⓥⓘⓛ。com`) and an attribute's URL written
 * with character references (`href="http://ev&#10;il.com"`) were no
 * evil.com.
 */

/** A tool called with `input`, guarded on input by `urlFilter()`: whether it ran, and the records. */
async function called(input: Record<string, unknown>) {
  let ran = false;
  const records = await fetchPageRecords(input, urlFilter(), () => {
    ran = true;
  });
  return { ran, records };
}

const privateHost = (hosts: string[]) => ({
  ran: false,
  records: [
    {
      status: 'blocked',
      reason: `http://${hosts[0]}: host "${hosts[0]}" is private or local`,
      info: {
        urls: hosts.map(host => ({
          url: `http://${host}`,
          rule: `host "${host}" is private or local`,
        })),
        count: hosts.length,
      },
    },
  ],
});

describe('urlFilter: short decimal IPv4 values by their position (tool input)', () => {
  it('guardTools: blocks them under a member that names a host, or in an array under one', async () => {
    for (const [input, hosts] of <[Record<string, unknown>, string[]][]>[
      [{ host: '10.1' }, ['10.0.0.1']],
      [{ serverIp: '192.168.1' }, ['192.168.0.1']],
      [{ base_url: '2130706433' }, ['127.0.0.1']],
      [{ target: { hostname: '172.16.1' } }, ['172.16.0.1']],
      [{ hosts: ['example.org', '192.168.1', '10.1'] }, ['192.168.0.1', '10.0.0.1']],
      [{ url: '127.1', note: '127.1' }, ['127.0.0.1']],
    ]) {
      expect(await called(input), JSON.stringify(input)).toEqual(privateHost(hosts));
    }
  });

  it('guardTools: lets ids, prices, versions and phone-like numbers through', async () => {
    for (const input of [
      { id: '2130706433' },
      { phone: '2147483647' },
      { price: '10.1' },
      { version: '192.168.1' },
      { versions: ['10.1', '10.2.1'] },
      { zip: '10.1' },
      { items: [{ qty: '127.1' }] },
    ]) {
      expect(await called(input), JSON.stringify(input)).toEqual({
        ran: true,
        records: [{ status: 'passed', reason: undefined, info: undefined }],
      });
    }
  });
});

async function answered(answer: string) {
  const result = await generateText({
    model: wrapLanguageModel({
      model: textModel(answer),
      middleware: guardrails({ output: [urlFilter({ deny: ['evil.com'], action: 'redact' })] }),
    }),
    prompt: 'hi',
  });
  const [record] = (await getGuardrailOutcome(result))!.records;
  return { text: result.text, info: record!.info };
}

describe('urlFilter: hosts the browser reads past the finders (answers)', () => {
  it('generateText: ⓔⓥⓘⓛ。com and 🄴🅅🄸🄻｡com are evil.com', async () => {
    expect(await answered('Go to ⓔⓥⓘⓛ。com or 🄴🅅🄸🄻｡com now.')).toEqual({
      text: 'Go to [link removed] or [link removed] now.',
      info: {
        urls: [
          { url: 'http://evil.com', rule: 'host "evil.com" is denied by "evil.com"' },
          { url: 'http://evil.com', rule: 'host "evil.com" is denied by "evil.com"' },
        ],
        count: 2,
      },
    });
  });

  it('generateText: an attribute written with character references is read decoded', async () => {
    const answer =
      '<a href="http://ev&#10;il.com/x">a</a> <img src=\'http://evil&period;com/p.png\'> <a href="https://ok.org/?a=1&amp;b=2">b</a>';
    expect(await answered(answer)).toEqual({
      text: '<a href="[link removed]">a</a> <img src=\'[link removed]\'> <a href="https://ok.org/?a=1&amp;b=2">b</a>',
      info: {
        urls: [
          { url: 'http://evil.com', rule: 'host "evil.com" is denied by "evil.com"' },
          { url: 'http://evil.com', rule: 'host "evil.com" is denied by "evil.com"' },
        ],
        count: 2,
      },
    });
  });

  it('leaves enclosed list letters before a full stop alone', async () => {
    const answer = 'ⓐ。 one ⓑ。 two ⓔⓥⓘⓛ。ｔｘｔ';
    expect(await answered(answer)).toEqual({ text: answer, info: undefined });
  });
});

/**
 * Round 26. A Markdown link's destination, a reference definition and an
 * autolink written with character references (`[x](http://ev&#105;l.com)`,
 * `[x]: http://evil&period;com`, `<http://ev&#105;l.com>`) were read as
 * written: CommonMark decodes them in the first two, and a renderer that
 * copies an autolink into `href` lets the browser do it.
 */
describe('urlFilter: character references in Markdown links (answers)', () => {
  it('generateText: destinations, definitions and autolinks are read decoded', async () => {
    const answer =
      'See [a](http://ev&#105;l.com/x), [b](<http://evil&period;com>), <http://ev&#x69;l.com/p> and [c].\n\n[c]: http://ev&#105;l.com "t"\n\n[ok](https://ok.org/?a=1&amp;b=2) <https://ok.org/?q=1&amp;r=2>';
    const denied = { url: 'http://evil.com', rule: 'host "evil.com" is denied by "evil.com"' };
    expect(await answered(answer)).toEqual({
      text: 'See [a]([link removed]), [b](<[link removed]>), <[link removed]> and [c].\n\n[c]: [link removed] "t"\n\n[ok](https://ok.org/?a=1&amp;b=2) <https://ok.org/?q=1&amp;r=2>',
      info: { urls: [denied, denied, denied, denied], count: 4 },
    });
  });

  it('window streaming ends as generate does', async () => {
    const answer =
      'See [a](http://ev&#105;l.com/x) and <http://ev&#x69;l.com/p> now.\n\n[c]: http://evil&period;com\n';
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(
      urlFilter({ deny: ['evil.com'], action: 'redact' }),
      answer,
      chunkings,
    );
    expect(generated).toBe(
      'See [a]([link removed]) and <[link removed]> now.\n\n[c]: [link removed]\n',
    );
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});

/**
 * Round 26. A JSON number in a host position (`{"host":2130706433}` is
 * 127.0.0.1) was never read; an array's string after an element that is no
 * string (`{"hosts":[1,"10.1"]}`, `[null,"2130706433"]`, `[{…},"10.1"]`)
 * was no host position; nor were `host_name`, `serverName` or names in
 * other languages (`hôte`, `servidor`).
 */
describe('urlFilter: numbers, mixed arrays and more member names (tool input)', () => {
  it('guardTools: blocks them', async () => {
    for (const [input, hosts] of <[Record<string, unknown>, string[]][]>[
      [{ host: 2130706433 }, ['127.0.0.1']],
      [{ hosts: [1.5, 167772161] }, ['10.0.0.1']],
      [{ a: { server_ip: 3232235777 } }, ['192.168.1.1']],
      [{ hosts: [1, '10.1'] }, ['10.0.0.1']],
      [{ hosts: [null, '2130706433'] }, ['127.0.0.1']],
      [{ hosts: [{ a: 1 }, [2, 'x]'], '192.168.1'] }, ['192.168.0.1']],
      [{ host_name: '10.1' }, ['10.0.0.1']],
      [{ serverName: '10.1' }, ['10.0.0.1']],
      [{ hôte: '10.1' }, ['10.0.0.1']],
      [{ servidor: '10.1' }, ['10.0.0.1']],
    ]) {
      expect(await called(input), JSON.stringify(input)).toEqual(privateHost(hosts));
    }
  });

  it('guardTools: lets ids, counts and numbers in strings through', async () => {
    for (const input of [
      { id: 2130706433 },
      { ids: [2130706433, 167772161] },
      { port: 8080 },
      { names: ['10.1'] },
      { note: 'host: 2130706433,' },
      { hosts: [-2130706433] },
    ]) {
      expect(await called(input), JSON.stringify(input)).toEqual({
        ran: true,
        records: [{ status: 'passed', reason: undefined, info: undefined }],
      });
    }
  });
});
