import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { guardContext as context, textModel } from '../../../test/helpers';
import { GuardrailConfigError } from '../../core/errors';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { findUrls } from './find-urls';
import { decodePunycodeLabel, homographLabel, isPrivateHost } from './host-checks';
import { urlFilter } from './url-filter';

describe('findUrls', () => {
  it('finds scheme URLs, bare domains and IPs, without sentence punctuation', () => {
    const text =
      'See https://example.com/a?b=1, docs.example.org/guide and 10.0.0.5:8080. Not file.txt or v1.2.';
    expect(findUrls(text).map(({ text: url, start, end }) => ({ url, start, end }))).toEqual([
      { url: 'https://example.com/a?b=1', start: 4, end: 29 },
      { url: 'docs.example.org/guide', start: 31, end: 53 },
      { url: '10.0.0.5:8080', start: 58, end: 71 },
    ]);
  });

  it('does not take the domain of an e-mail address for a link', () => {
    expect(findUrls('write to bob@example.com')).toEqual([]);
  });
});

describe('host checks', () => {
  it.each([
    'localhost',
    'api.localhost',
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.20',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '[::1]',
    '[fd00::1]',
    '[fe80::1]',
    '[::ffff:7f00:1]',
    'metadata.google.internal',
  ])('treats %s as private', host => {
    expect(isPrivateHost(host)).toBe(true);
  });

  it.each(['8.8.8.8', '172.32.0.1', 'example.com', '[2001:db8::1]', '[::ffff:808:808]'])(
    'treats %s as public',
    host => {
      expect(isPrivateHost(host)).toBe(false);
    },
  );

  it('decodes punycode and recognises homographs', () => {
    expect(decodePunycodeLabel('80ak6aa92e')).toBe('аррӏе');
    expect(decodePunycodeLabel('bcher-kva')).toBe('bücher');
    expect(homographLabel('xn--80ak6aa92e.com')).toBe('аррӏе');
    expect(homographLabel(new URL('http://gооgle.com').hostname)).toBe('gооgle');
    expect(homographLabel('xn--bcher-kva.de')).toBeUndefined();
    expect(homographLabel(new URL('http://пример.рф').hostname)).toBeUndefined();
  });
});

describe('urlFilter', () => {
  it('blocks a link outside the allow list and names the rule', async () => {
    const guard = urlFilter({ allow: ['example.com'] });
    expect(await guard.check('Go to https://evil.io/login now', context('output'))).toEqual({
      action: 'block',
      message: 'This content contains a link that is not allowed.',
      reason: 'https://evil.io: host "evil.io" is not on the allow list',
      severity: 'warning',
      info: {
        urls: [{ url: 'https://evil.io', rule: 'host "evil.io" is not on the allow list' }],
        count: 1,
      },
    });
    expect(await guard.check('See https://docs.example.com/x', context('output'))).toEqual({
      action: 'allow',
    });
  });

  it('admits only the exact host without allowSubdomains', async () => {
    const guard = urlFilter({ allow: ['example.com'], allowSubdomains: false });
    expect((await guard.check('https://example.com', context('output'))).action).toBe('allow');
    expect((await guard.check('https://a.example.com', context('output'))).action).toBe('block');
    expect((await guard.check('https://notexample.com', context('output'))).action).toBe('block');
  });

  it('denies a domain with its subdomains', async () => {
    const guard = urlFilter({ deny: ['pastebin.com'] });
    expect(await guard.check('upload to raw.pastebin.com/abc', context('output'))).toMatchObject({
      action: 'block',
      reason: 'http://*.pastebin.com: host "*.pastebin.com" is denied by "pastebin.com"',
    });
  });

  it('blocks private and local hosts on tool input by default, not on output', async () => {
    const guard = urlFilter();
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://localhost:8080/admin',
      'http://0x7f.1/',
      'http://2130706433/',
      'http://[::ffff:127.0.0.1]/',
      '192.168.0.10/router',
    ]) {
      const verdict = await guard.check(JSON.stringify({ url }), context('tool_input'));
      expect(verdict.action, url).toBe('block');
    }
    expect(
      await guard.check('{"url":"http://localhost:8080/admin"}', context('tool_input')),
    ).toMatchObject({
      reason: 'http://localhost:8080: host "localhost" is private or local',
    });
    expect((await guard.check('Run it on http://localhost:3000', context('output'))).action).toBe(
      'allow',
    );
    expect(
      (await urlFilter({ blockPrivate: true }).check('http://10.0.0.1', context('output'))).action,
    ).toBe('block');
  });

  it('flags IDN homographs', async () => {
    expect(await urlFilter().check('Log in at https://аррӏе.com', context('output'))).toMatchObject(
      {
        action: 'block',
        reason:
          'https://xn--80ak6aa92e.com: host "xn--80ak6aa92e.com" ("аррӏе") looks like a homograph',
      },
    );
    expect((await urlFilter().check('https://bücher.de', context('output'))).action).toBe('allow');
  });

  it('flags user info and schemes that are not allowed', async () => {
    expect(
      await urlFilter().check('https://paypal.com@evil.io/x', context('output')),
    ).toMatchObject({
      reason: 'https://evil.io: user info in the URL is not allowed',
    });
    expect(await urlFilter().check('click javascript:alert(1)', context('output'))).toMatchObject({
      reason: 'javascript:: scheme "javascript" is not allowed',
    });
    expect(await urlFilter().check('ftp://files.example.com/a', context('output'))).toMatchObject({
      reason: 'ftp://*.example.com: scheme "ftp" is not allowed',
    });
  });

  it('redacts only the offending links', async () => {
    const guard = urlFilter({ allow: ['example.com'], action: 'redact' });
    expect(
      await guard.check(
        'Docs: https://example.com/a. Scam: http://evil.io, bye',
        context('output'),
      ),
    ).toEqual({
      action: 'modify',
      content: 'Docs: https://example.com/a. Scam: [link removed], bye',
      info: {
        urls: [{ url: 'http://evil.io', rule: 'host "evil.io" is not on the allow list' }],
        count: 1,
      },
    });
  });

  it('keeps passwords, paths, queries and e-mails out of reasons and info, in both actions', async () => {
    const text =
      'a https://alice:hunter2@evil.io/x b https://evil.io/users/bob@corp.example/inbox?token=ghp_abc123SECRET#frag c';
    const canaries = ['alice', 'hunter2', 'bob@corp.example', 'ghp_abc123SECRET', 'inbox', 'frag'];
    const blocked = await urlFilter({ deny: ['evil.io'] }).check(text, context('output'));
    expect(blocked).toEqual({
      action: 'block',
      message: 'This content contains a link that is not allowed.',
      reason: 'https://evil.io: user info in the URL is not allowed',
      severity: 'warning',
      info: {
        urls: [
          { url: 'https://evil.io', rule: 'user info in the URL is not allowed' },
          { url: 'https://evil.io', rule: 'host "evil.io" is denied by "evil.io"' },
        ],
        count: 2,
      },
    });
    const redacted = await urlFilter({ deny: ['evil.io'], action: 'redact' }).check(
      text,
      context('output'),
    );
    expect(redacted).toEqual({
      action: 'modify',
      content: 'a [link removed] b [link removed] c',
      info: blocked.info,
    });
    for (const canary of canaries) {
      expect(JSON.stringify([blocked, redacted])).not.toContain(canary);
    }
    expect(
      await urlFilter().check('open data:text/html;base64,PHNjcmlwdD4=', context('output')),
    ).toMatchObject({ reason: 'data:: scheme "data" is not allowed' });
  });

  it('lists the first 20 flagged URLs and counts them all', async () => {
    // Distinct ports: a record shows a host's registrable domain alone (round 18).
    const text = Array.from({ length: 25 }, (_, index) => `https://evil.io:${8000 + index}/p`).join(
      ' ',
    );
    const verdict = await urlFilter({ deny: ['evil.io'] }).check(text, context('output'));
    expect(verdict.info).toEqual({
      urls: Array.from({ length: 20 }, (_, index) => ({
        url: `https://evil.io:${8000 + index}`,
        rule: 'host "evil.io" is denied by "evil.io"',
      })),
      count: 25,
    });
  });

  it('redacts every link of a text with more links than one span chunk holds, merged across passes in order', async () => {
    // 4,096 spans per chunk: 5,000 scheme links and 5,000 bare domains
    // between them make both passes' lists cross chunk edges before merging.
    const pieces = Array.from(
      { length: 5_000 },
      (_, index) => `https://a${index}.evil.io/p b${index}.example.com/q`,
    );
    const guard = urlFilter({ allow: ['example.com'], action: 'redact' });
    const verdict = await guard.check(pieces.join(' '), context('output'));
    expect(verdict).toMatchObject({
      action: 'modify',
      content: Array.from(
        { length: 5_000 },
        (_, index) => `[link removed] b${index}.example.com/q`,
      ).join(' '),
      info: { count: 5_000 },
    });
    expect(findUrls(pieces.join(' ')).map(({ text }) => text)).toEqual(
      pieces.flatMap(piece => piece.split(' ')),
    );
  });
  it('trims sentence punctuation after a URL, however much of it there is', () => {
    const dots = '.'.repeat(5_000);
    expect(
      findUrls(`see https://example.com/a${dots} and (https://en.wikipedia.org/wiki/X_(y)).`),
    ).toMatchObject([
      { text: 'https://example.com/a', start: 4 },
      { text: 'https://en.wikipedia.org/wiki/X_(y)' },
    ]);
  });

  it('allows text without links and is stream-safe', async () => {
    const guard = urlFilter({ allow: ['example.com'] });
    expect(await guard.check('Version 1.2 of readme.txt is out.', context('output'))).toEqual({
      action: 'allow',
    });
    expect(guard.streamSafe).toBe(true);
    expect(guard.maxMatchLength).toBe(2048);
  });

  it.each([
    [
      'a markdown image with a scheme-relative link',
      '![x](//evil.io/pixel.png?d=secret)',
      'http://evil.io',
    ],
    ['a scheme-relative link in prose', 'see //evil.io/a for more', 'http://evil.io'],
    ['backslashes a browser reads as slashes', '<a href="\\/evil.io/a">x</a>', 'http://evil.io'],
    ['https: without slashes', '[x](https:evil.io/a)', 'https://evil.io'],
    ['https: with one slash', '[x](https:/evil.io/a)', 'https://evil.io'],
  ])('finds %s (a browser opens the host)', async (_, text, url) => {
    const guard = urlFilter({ allow: ['example.com'] });
    expect(await guard.check(text, context('output'))).toEqual({
      action: 'block',
      message: 'This content contains a link that is not allowed.',
      reason: `${url}: host "evil.io" is not on the allow list`,
      severity: 'warning',
      info: { urls: [{ url, rule: 'host "evil.io" is not on the allow list' }], count: 1 },
    });
  });

  it('does not take code comments or paths for scheme-relative links', async () => {
    const guard = urlFilter({ allow: ['example.com'] });
    for (const text of [
      'i++; //increment',
      'x = 1 // note',
      'https://example.com//evil.io/x',
      'C:\\\\share\\file',
      '//TODO: fix',
    ]) {
      expect(await guard.check(text, context('output'))).toEqual({ action: 'allow' });
    }
  });

  it('redacts a scheme-relative image link in an answer through generateText', async () => {
    const model = wrapLanguageModel({
      model: textModel('Here: ![chart](//evil.io/c.png?q=hunter2) and https://example.com/ok'),
      middleware: guardrails({ output: [urlFilter({ allow: ['example.com'], action: 'redact' })] }),
    });
    const result = await generateText({ model, prompt: 'chart please' });
    expect(result.text).toBe('Here: ![chart]([link removed]) and https://example.com/ok');
  });

  it('applies a RegExp with the g flag to every URL alike (no lastIndex carried over)', async () => {
    // A sticky (y) pattern is an options error since round 35 (test/wrong-options.test.ts).
    for (const pattern of [/evil/g, /evil/gi]) {
      const deny = urlFilter({ deny: [pattern] });
      const allowOnly = urlFilter({ allow: [/^good\.io$/g] });
      for (let i = 0; i < 3; i++) {
        expect((await deny.check('https://evil.io/a', context('output'))).action).toBe('block');
        expect((await allowOnly.check('https://good.io/a', context('output'))).action).toBe(
          'allow',
        );
      }
    }
  });

  it('matches a host written with the trailing dot of a fully qualified name (evil.io.)', async () => {
    const deny = urlFilter({ deny: ['evil.io'] });
    expect(await deny.check('go to https://evil.io./x', context('output'))).toEqual({
      action: 'block',
      message: 'This content contains a link that is not allowed.',
      reason: 'https://evil.io.: host "evil.io." is denied by "evil.io"',
      severity: 'warning',
      info: {
        urls: [{ url: 'https://evil.io.', rule: 'host "evil.io." is denied by "evil.io"' }],
        count: 1,
      },
    });
    expect((await deny.check('https://api.evil.io./x', context('output'))).action).toBe('block');
    expect(
      (await urlFilter({ deny: ['evil.io.'] }).check('https://evil.io/x', context('output')))
        .action,
    ).toBe('block');
    const allowOnly = urlFilter({ allow: ['example.com'] });
    expect(await allowOnly.check('https://example.com./docs', context('output'))).toEqual({
      action: 'allow',
    });
  });

  it('rejects a host rule written as a URL or with user info (it matched no host at all)', () => {
    for (const entry of ['https://evil.io', 'evil.io/path?q=1', 'user@evil.io', '*', '*.*.io']) {
      expect(() => urlFilter({ deny: [entry] })).toThrow(
        new GuardrailConfigError({
          path: 'url-filter.deny[0]',
          value: entry,
          expected:
            'a host name, "*.domain", an IP or a RegExp (a host, not a URL: no scheme, path or user info)',
        }),
      );
    }
    expect(() => urlFilter({ allow: ['evil.io/', 'evil.io:8443', '[::1]'] })).not.toThrow();
  });

  it('rejects a host rule with an empty label (".evil.io", "evil..io", "."): it matched no host at all', async () => {
    // `.evil.io` is how NO_PROXY lists and cookies write "evil.io and its
    // subdomains"; as a deny rule it denied nothing, evil.io included.
    for (const entry of ['.evil.io', 'evil..io', 'evil.io..', '.', '..']) {
      expect(() => urlFilter({ deny: [entry] })).toThrow(
        new GuardrailConfigError({
          path: 'url-filter.deny[0]',
          value: entry,
          expected:
            'a host name without empty labels ("evil.io" covers its subdomains, "*.evil.io" only them)',
        }),
      );
    }
    expect(() => urlFilter({ allow: ['example.com', '.example.com'] })).toThrow(
      'url-filter.allow[1]',
    );
    expect(
      (await urlFilter({ deny: ['evil.io.'] }).check('https://evil.io/x', context('output')))
        .action,
    ).toBe('block');
  });

  it('rejects bad options with their paths', () => {
    expect(() => urlFilter({ allow: [''], schemes: ['https:'] })).toThrow(GuardrailConfigError);
    try {
      urlFilter({ allow: [''], schemes: ['https:'] });
    } catch (error) {
      expect((error as GuardrailConfigError).issues.map(issue => issue.path)).toEqual([
        'url-filter.allow[0]',
        'url-filter.schemes[0]',
      ]);
    }
  });
});

describe('findUrls properties', () => {
  it('reports offsets that slice back to the URL text, in order and without overlap', async () => {
    const fc = await import('fast-check');
    const piece = fc.constantFrom(
      'https://example.com/a?b=1',
      'docs.example.org',
      '10.0.0.5:8080',
      'localhost:3000',
      'see',
      'file.txt',
      '(',
      ').',
      ', ',
      ' ',
      '\n',
      'bob@example.com',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), pieces => {
        const text = pieces.join('');
        let previousEnd = 0;
        for (const { text: url, start, end } of findUrls(text)) {
          expect(text.slice(start, end)).toBe(url);
          expect(start).toBeGreaterThanOrEqual(previousEnd);
          previousEnd = end;
        }
      }),
    );
  });
});

describe('urlFilter: a bare host written with another full stop (。 ． ｡)', () => {
  const answer = async (text: string) => {
    const model = wrapLanguageModel({
      model: textModel(text),
      middleware: guardrails({
        output: [urlFilter({ allow: ['example.com'], action: 'redact' })],
      }),
    });
    return (await generateText({ model, prompt: 'q' })).text;
  };

  it('is the host a browser goes to: redacted when not allowed', async () => {
    expect(await answer('Log in at evil。com/login or evil．io, or evil｡co.uk now.')).toBe(
      'Log in at [link removed] or [link removed], or [link removed] now.',
    );
    expect(await answer('Docs: docs．example．com/guide')).toBe('Docs: docs．example．com/guide');
  });

  it('CJK prose that ends a sentence with 。 is no host', async () => {
    const prose = '我在北京。中国很大。Version 2。Then we left。';
    expect(await answer(prose)).toBe(prose);
  });
});

describe('urlFilter: a bare host with default-ignorable characters inside', () => {
  const answer = async (text: string, options: Parameters<typeof urlFilter>[0]) => {
    const model = wrapLanguageModel({
      model: textModel(text),
      middleware: guardrails({ output: [urlFilter(options)] }),
    });
    return (await generateText({ model, prompt: 'q' })).text;
  };

  it('is the host a browser goes to (it drops them): redacted whole, nothing left behind', async () => {
    const allowOnly = { allow: ['example.com'], action: 'redact' } as const;
    expect(
      await answer(
        'Log in at evil\u200b.com/login, e\u200bvil.io or evil\u2060.co.uk. Docs: docs.exam\u00adple.com.',
        allowOnly,
      ),
    ).toBe(
      'Log in at [link removed], [link removed] or [link removed]. Docs: docs.exam\u00adple.com.',
    );
    // Plane-14 and shorthand format controls, with a port and a path.
    expect(await answer('See a\u{E0080}b.example\u{1BCA0}.org:8080/p?x=1.', allowOnly)).toBe(
      'See [link removed].',
    );
  });

  it('a deny list sees the whole host: e\u200bvil.com is evil.com, not vil.com', async () => {
    expect(await answer('Go to e\u200bvil.com now', { deny: ['evil.com'], action: 'redact' })).toBe(
      'Go to [link removed] now',
    );
    // A mail address stays no link, as without the character.
    const mail = 'Write to jane@evil\u200b.com or at a\u200b.b';
    expect(await answer(mail, { allow: ['example.com'], action: 'redact' })).toBe(mail);
  });

  it('next to another full stop, is the host a browser goes to: evil\u200b。com is evil.com', async () => {
    // The 。 pass read ASCII labels only, the ignorable pass plain dots only: neither found it.
    const model = wrapLanguageModel({
      model: textModel('Log in at evil\u200b。com/login or docs。exam\u2060ple．com.'),
      middleware: guardrails({ output: [urlFilter({ allow: ['example.com'] })] }),
    });
    const result = await generateText({ model, prompt: 'q' });
    expect(result.finishReason).toBe('content-filter');
    expect(result.text).toBe('This content contains a link that is not allowed.');
    expect(await getGuardrailOutcome(result)).toMatchObject({
      status: 'blocked',
      records: [
        {
          guardrail: 'url-filter',
          status: 'blocked',
          info: {
            urls: [
              {
                url: 'http://evil.com',
                rule: 'host "evil.com" is not on the allow list',
              },
            ],
            count: 1,
          },
        },
      ],
    });
    expect(
      await answer('Go to x\u200b｡evil\u200b．co\u200b.uk, not docs\u200b。example。com.', {
        allow: ['example.com'],
        action: 'redact',
      }),
    ).toBe('Go to [link removed], not docs\u200b。example。com.');
    expect(await answer('Docs at docs\u200b。example。com.', { allow: ['example.com'] })).toBe(
      'Docs at docs\u200b。example。com.',
    );
  });

  it('inside a scheme or a host the URL parser rejects, are read past: the URL without them is judged', async () => {
    // `http\uFE0Fs:` is no scheme and U+E0041 makes `new URL` throw: only the fragment
    // after the last one (`le.com`, or nothing) was found.
    expect(
      await answer(
        'Run j\u200ba\u200bvascript:alert(1), open http\uFE0Fs://evil\u{E0041}.com/x or https://docs.exa\u{E0041}mple.com now.',
        { allow: ['example.com'], action: 'redact' },
      ),
    ).toBe('Run [link removed], open [link removed] or https://docs.exa\u{E0041}mple.com now.');
  });
});
