import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { findPii } from './find-pii';
import { pii } from './pii';

/**
 * Round 26. An IPv6 address glued to a label before it (`zz2001:db8::1`,
 * `eth2001:db8::1`, `deadbeef2001:db8::1`) was read as letter soup since
 * round 23 and passed whole. Failing toward the address, it is found from
 * the last four hex digits before its first colon, when the word glued
 * before it holds a letter; the label stays.
 */

const ips = (text: string) =>
  findPii(text, { entities: ['IP_ADDRESS'] }).map(span => text.slice(span.start, span.end));

describe('an IPv6 address glued to a label', () => {
  it('generateText: the address is redacted, the label sent', async () => {
    const prompt = 'peer zz2001:db8::1 via eth2001:db8::5:1 and gwfe80::1%eth0 up';
    const { sent, records } = await promptSentWithRecords(pii(), prompt);
    expect(sent).toBe('peer zz[IP_ADDRESS] via eth[IP_ADDRESS] and gw[IP_ADDRESS] up');
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['IP_ADDRESS'],
          spans: [
            { type: 'IP_ADDRESS', start: 7, end: 18 },
            { type: 'IP_ADDRESS', start: 26, end: 39 },
            { type: 'IP_ADDRESS', start: 46, end: 58 },
          ],
        },
      },
    ]);
    // The redacted text reads the same again.
    expect((await promptSentWithRecords(pii(), sent)).sent).toBe(sent);
  });

  it('labels of letters, hex letters, digits and underscores before the address', () => {
    const cases: Array<[string, string[]]> = [
      ['zz2001:db8::1', ['2001:db8::1']],
      ['x2001:fe80::1', ['2001:fe80::1']],
      ['ab2001:db8::1', ['2001:db8::1']],
      ['deadbeef2001:db8::1', ['2001:db8::1']],
      ['zzfe80::1', ['fe80::1']],
      ['id_2001:db8::1', ['2001:db8::1']],
      ['gg2001:0db8:85a3:0000:0000:8a2e:0370:7334', ['2001:0db8:85a3:0000:0000:8a2e:0370:7334']],
      ['abc12001:db8::1', ['2001:db8::1']],
      // A label glued to `::` is none: the IPv4 tail alone.
      ['text::ffff:192.0.2.1', ['192.0.2.1']],
    ];
    for (const [text, expected] of cases) expect(ips(text), text).toEqual(expected);
  });

  it('leaves numbers, paths and addresses glued to letters after them', () => {
    for (const text of [
      'h 12345::1',
      'Foo1::2 and Vec2::new() and vec3::dot(a)',
      'std::f64::consts, u8::MAX, i32::max',
      'zz2001:db8::1x abc2001:db8::1xyz',
      'gggg:hhhh::1234',
    ]) {
      expect(ips(text), text).toEqual([]);
    }
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = 'Peer zz2001:db8::1 is up; eth2001:db8::5:1 too.';
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(pii(), answer, chunkings);
    expect(generated).toBe('Peer zz[IP_ADDRESS] is up; eth[IP_ADDRESS] too.');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
