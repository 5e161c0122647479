import { describe, expect, it } from 'vitest';
import { GuardrailConfigError } from '../../core/errors';
import { piiMaxMatchLength } from './find-pii';
import { findPii } from './find-pii-bundled';

const all = { entities: 'all' } as const;
const found = (text: string) =>
  findPii(text, all).map(span => [span.type, text.slice(span.start, span.end)]);

describe('findPii', () => {
  it('returns typed spans with offsets into the original text', () => {
    expect(findPii('Mail jane@example.com or call +1 415 555 0132')).toEqual([
      { type: 'EMAIL_ADDRESS', start: 5, end: 21 },
      { type: 'PHONE_NUMBER', start: 30, end: 45 },
    ]);
  });

  it('finds emails and rejects look-alikes without a real top-level domain', () => {
    expect(found('a@xn--d1acufc.xn--p1ai and info@presidio.site')).toEqual([
      ['EMAIL_ADDRESS', 'a@xn--d1acufc.xn--p1ai'],
      ['EMAIL_ADDRESS', 'info@presidio.site'],
    ]);
    expect(found('my email is info@presidio. and x@y.notatld, @handle')).toEqual([]);
  });

  it('finds an email followed by a dot and a word, without the word', () => {
    // E-mails only: the opt-in NER types may read the word after the address as a name.
    const found = (text: string) =>
      findPii(text, { entities: ['EMAIL_ADDRESS'] }).map(span => [
        span.type,
        text.slice(span.start, span.end),
      ]);
    expect(found('write to x@example.com.Thanks')).toEqual([['EMAIL_ADDRESS', 'x@example.com']]);
    expect(found('x@corp.io.-Regards')).toEqual([['EMAIL_ADDRESS', 'x@corp.io']]);
    // `.best` is a TLD, but a capitalised word after a domain is the next sentence.
    expect(found('jane@example.com.Best regards')).toEqual([['EMAIL_ADDRESS', 'jane@example.com']]);
    expect(found('Jane@Example.Com and z@shop.best.')).toEqual([
      ['EMAIL_ADDRESS', 'Jane@Example.Com'],
      ['EMAIL_ADDRESS', 'z@shop.best'],
    ]);
  });

  it('judges a domain repeated in one text the same way every time, with 300 others between', () => {
    // A repeated domain is checked against the suffix list once per call,
    // from 64 slots of recent verdicts that the 300 other domains overwrite.
    const emails = (text: string) =>
      findPii(text, { entities: ['EMAIL_ADDRESS'] }).map(span => text.slice(span.start, span.end));
    const distinct = Array.from({ length: 300 }, (_, index) => `u${index}@d${index}.com`);
    const repeated = [
      'x@example.com.Thanks',
      'y@example.com',
      'z@nope.notatld',
      'w@example.com.Thanks',
    ];
    const text = [...repeated, ...distinct, ...repeated, distinct[0], distinct[299]].join(' ');
    const once = ['x@example.com', 'y@example.com', 'w@example.com'];
    expect(emails(text)).toEqual([...once, ...distinct, ...once, distinct[0], distinct[299]]);
  });

  it('leaves no piece of an e-mail glued to another visible (its local part beside the placeholder)', () => {
    // The longer reading (`x.io=bob@y.io`) won the overlap with `jane@x.io`, or a
    // domain ran into the next local part (`x.io-jane@x.io`): `jane@` stayed
    // visible and no rescan reads an address beside a placeholder.
    for (const [text, value] of [
      ['jane@x.io=bob@y.io', 'jane@x.io=bob@y.io'],
      ['a@b.io*a@b.io', 'a@b.io*a@b.io'],
      ['Mail jane@x.io-jane@x.io now', 'jane@x.io-jane@x.io'],
      ['bob.smith@corp.example.com-jane@x.io', 'bob.smith@corp.example.com-jane@x.io'],
      ['(jane@x.iojane@x.io)', 'jane@x.iojane@x.io'],
      ['jane@x.io-bob@y.io-ann@z.io', 'jane@x.io-bob@y.io-ann@z.io'],
    ] as const) {
      expect(found(text)).toEqual([['EMAIL_ADDRESS', value]]);
    }
    // Two addresses apart stay two.
    expect(found('a@b.io/c@d.io')).toEqual([
      ['EMAIL_ADDRESS', 'a@b.io'],
      ['EMAIL_ADDRESS', 'c@d.io'],
    ]);
  });

  it('finds obfuscated emails written with [at] and [dot]', () => {
    expect(found('write to john [at] example [dot] com today')).toEqual([
      ['EMAIL_ADDRESS', 'john [at] example [dot] com'],
    ]);
  });

  it('accepts Luhn-valid cards with issuer prefixes and rejects look-alikes', () => {
    expect(found('4012888888881881 4012-8888-8888-1881 4012 8888 8888 1881')).toEqual([
      ['CREDIT_CARD', '4012888888881881'],
      ['CREDIT_CARD', '4012-8888-8888-1881'],
      ['CREDIT_CARD', '4012 8888 8888 1881'],
    ]);
    // Luhn fails; unknown issuer prefix (Luhn-valid 16-digit order number); mixed
    // separators outside a card's layout (round 19: in one, `4012 8888-8888 1881` is a card).
    expect(found('4012-8888-8888-1882 order 9999999999999995 4012 88888-888 1881')).toEqual([]);
    expect(found('4012 8888-8888 1881')).toEqual([['CREDIT_CARD', '4012 8888-8888 1881']]);
  });

  it('finds cards hidden with zero-width characters and full-width digits', () => {
    const text = 'card ４０１２ 88\u200B88 8888 1881!';
    expect(findPii(text, all)).toEqual([{ type: 'CREDIT_CARD', start: 5, end: 25 }]);
  });

  it('checks IBAN length, structure and mod-97', () => {
    expect(found('pay GB82 WEST 1234 5698 7654 32 now')).toEqual([
      ['IBAN_CODE', 'GB82 WEST 1234 5698 7654 32'],
    ]);
    expect(found('GB82 WEST 1234 5698 7654 33 / AT61 1904 A002 3457 3201')).toEqual([]);
  });

  it('applies SSN area, group and serial rules and rejects sample numbers', () => {
    expect(found('SSN 078-05-1123 and 460 89 9847')).toEqual([
      ['US_SSN', '078-05-1123'],
      ['US_SSN', '460 89 9847'],
    ]);
    expect(
      found('000-12-3456 666-12-3456 123-00-4567 123-45-0000 078-05-1120 693-09.4444'),
    ).toEqual([]);
  });

  it('tells ITINs from SSNs by the 9xx area and the group range', () => {
    expect(found('ITIN 911-70-1234')).toEqual([['US_ITIN', '911-70-1234']]);
    expect(found('ITIN 911-89-1234')).toEqual([]);
  });

  it('finds IPv4 and IPv6 addresses with valid octets and groups', () => {
    expect(found('from 192.168.1.1, 2001:db8::1 and fe80::1%eth0/64')).toEqual([
      ['IP_ADDRESS', '192.168.1.1'],
      ['IP_ADDRESS', '2001:db8::1'],
      ['IP_ADDRESS', 'fe80::1%eth0/64'],
    ]);
    expect(found('999.1.1.1 192.168.1.256 12:34:56 std::cout 2001::db8::1 x :: Int')).toEqual([]);
  });

  it('finds MAC addresses in the three usual notations', () => {
    expect(found('00:1A:2B:3C:4D:5E 01-b3-4a-67-d9-cf 0012.3456.789A')).toEqual([
      ['MAC_ADDRESS', '00:1A:2B:3C:4D:5E'],
      ['MAC_ADDRESS', '01-b3-4a-67-d9-cf'],
      ['MAC_ADDRESS', '0012.3456.789A'],
    ]);
    expect(found('00:1A:2B:3C:4D 10:2F:33-AC-29-C3 00:00:00:00:00:00')).toEqual([]);
  });

  it('validates Bitcoin checksums and Ethereum address shapes', () => {
    expect(
      found(
        '16Yeky6GMjeNkAiNcBY7ZhrLoMSgg1BoyZ bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq 0x52908400098527886E0F7030069857D2E4169EE7',
      ).map(([type]) => type),
    ).toEqual(['CRYPTO', 'CRYPTO', 'CRYPTO']);
    expect(
      found('16Yeky6GMjeNkAiNcBY7ZhrLoMSgg1BoyY bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr'),
    ).toEqual([]);
  });

  it('checks UK NINO prefixes and NHS mod-11 numbers', () => {
    expect(found('NINO AB 12 34 56 C, NHS number 401 023 2137')).toEqual([
      ['UK_NINO', 'AB 12 34 56 C'],
      ['UK_NHS', '401 023 2137'],
    ]);
    expect(found('BG 12 34 56 A, QQ 12 34 56 C, NHS number 401 023 2138')).toEqual([]);
  });

  it('validates phone numbers with libphonenumber and rejects dates and IPs', () => {
    expect(found('call (415) 555-0132 or +44 20 7123 4567')).toEqual([
      ['PHONE_NUMBER', '(415) 555-0132'],
      ['PHONE_NUMBER', '+44 20 7123 4567'],
    ]);
    expect(found('on 2018-01-14 03:07:43 from 300.168.1.1, code 1234-0000-0')).toEqual([]);
  });

  it('reads a number followed by a label ("-Office") but not an id with a check letter ("-K")', () => {
    expect(found('Office 905-674-3793-Office, fax 07700 063 966-Fax')).toEqual([
      ['PHONE_NUMBER', '905-674-3793'],
      ['PHONE_NUMBER', '07700 063 966'],
    ]);
    expect(found('RUT 4155552671-K')).toEqual([]);
  });

  it('finds two IBANs written one after the other', () => {
    expect(found('GB82 WEST 1234 5698 7654 32 GB82 WEST 1234 5698 7654 32')).toEqual([
      ['IBAN_CODE', 'GB82 WEST 1234 5698 7654 32'],
      ['IBAN_CODE', 'GB82 WEST 1234 5698 7654 32'],
    ]);
  });

  it('uses the default region for national numbers', () => {
    const text = 'ring 020 7123 4567';
    expect(findPii(text, { defaultRegion: 'GB', phoneRegions: [] })).toEqual([
      { type: 'PHONE_NUMBER', start: 5, end: 18 },
    ]);
  });

  it('finds URLs with a scheme and bare domains with a real suffix, but not file names', () => {
    expect(found('see https://example.com/a?b=1). and google.co.il')).toEqual([
      ['URL', 'https://example.com/a?b=1'],
      ['URL', 'google.co.il'],
    ]);
    expect(found('run setup.py, open README.md or www.microsoft')).toEqual([]);
  });

  it('leaves URL and UK_NHS out of the default entities', () => {
    expect(findPii('https://example.com 401 023 2137')).toEqual([]);
  });

  it('runs custom patterns with their validator', () => {
    const custom = [
      {
        type: 'EMPLOYEE_ID',
        pattern: /EMP-\d{4}/,
        validate: (value: string) => value !== 'EMP-0000',
      },
    ];
    expect(findPii('EMP-1234 EMP-0000', { entities: [], custom })).toEqual([
      { type: 'EMPLOYEE_ID', start: 0, end: 8 },
    ]);
  });

  it('rejects unknown entity types with a config error', () => {
    expect(() => findPii('x', { entities: ['PASSPORT' as never] })).toThrow(GuardrailConfigError);
  });

  it('reports an honest window for streams', () => {
    expect(piiMaxMatchLength({ entities: ['US_SSN'] })).toBe(30); // `536 - 22 - 1234`, doubled
    expect(piiMaxMatchLength()).toBeGreaterThanOrEqual(800);
  });
  // Linear time on adversarial input (digit runs, `@` and `a@` floods,
  // separator runs) is measured in CPU time by test/hostile-input.test.ts.
});
