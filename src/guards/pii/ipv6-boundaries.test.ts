import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { expectInputRedacted, expectWindowAsGenerate } from '../../../test/helpers/redacted-input';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/**
 * Round 23. IPv6 boundaries: an address right after a label's colon
 * (`ip:2001:db8::1`, `IPv6:fe80::1%eth0`) or before a `:` that ends a
 * sentence (`… 2001:db8::5: then`) passed whole; Python's slices
 * (`s[::-1]`, `x[1::2]`) and paths of hex letters (`B::D`, `a::b`) were
 * redacted as addresses (`dead::beef`, four letters a group, still is). An address glued to letters after
 * it (`2001:db8::1xyz`) is none; one glued to a label before it
 * (`zz2001:db8::1`) is found since round 26 (below).
 */

const found = (text: string) =>
  findPii(text).map(span => [span.type, text.slice(span.start, span.end)]);
const ips = (text: string) =>
  findPii(text, { entities: ['IP_ADDRESS'] }).map(span => text.slice(span.start, span.end));

describe('IPv6 address boundaries', () => {
  it('generateText: the model receives labelled addresses redacted and code as written', async () => {
    const prompt =
      'ip:2001:db8::1 and IPv6:fe80::1%eth0 (last 2001:db8::5: then) in print(s[::-1]) and std::vector<int> a::b';
    const { sent, records } = await promptSentWithRecords(pii(), prompt);
    expect(sent).toBe(
      'ip:[IP_ADDRESS] and IPv6:[IP_ADDRESS] (last [IP_ADDRESS]: then) in print(s[::-1]) and std::vector<int> a::b',
    );
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['IP_ADDRESS'],
          spans: [
            { type: 'IP_ADDRESS', start: 3, end: 14 },
            { type: 'IP_ADDRESS', start: 24, end: 36 },
            { type: 'IP_ADDRESS', start: 43, end: 54 },
          ],
        },
      },
    ]);
    // The redacted text reads the same again.
    const again = await promptSentWithRecords(pii(), sent);
    expect(again.sent).toBe(sent);
  });

  it('finds addresses after a label, in prose, with a zone, mapped, bracketed, before a closing colon', () => {
    const cases: Array<[string, string[]]> = [
      ['host:fe80::1 up', ['fe80::1']],
      ['ID:2001:db8::1', ['2001:db8::1']],
      ['inet6:fe80::1%eth0', ['fe80::1%eth0']],
      ['host fe80::1%eth0 is up', ['fe80::1%eth0']],
      ['via fe80::1%en0.', ['fe80::1%en0']],
      ['mapped ::ffff:1.2.3.4 ok', ['::ffff:1.2.3.4']],
      ['listen [::]:8080 and http://[::1]:8080/', ['::', '::1']],
      ['at [2001:db8::1]:443', ['2001:db8::1']],
      ['addresses: 2001:db8::1: and fe80::2:', ['2001:db8::1', 'fe80::2']],
      ['2001:db8::1,2001:db8::2', ['2001:db8::1', '2001:db8::2']],
      // Hex letters only: four to a group, one case.
      ['host dead::beef ok', ['dead::beef']],
    ];
    for (const [text, expected] of cases) expect(ips(text), text).toEqual(expected);
  });

  it('leaves code, paths, times, MAC addresses and letter soup', () => {
    for (const text of [
      'std::vector<int> a::b',
      'use crate::de::Deserialize; Foo::Bar::baz()',
      'Face::add(bad::bed), abc::def, Dead::Beef',
      'Vec::<u8>::new()',
      'revsets (e.g. `B::D`, `A..D`)',
      'print(s[::-1]); x[1::2]; a[::2]; arr)[2::3]; s[::]',
      'at 12:30:45 ok',
      'abc2001:db8::1xyz 2001:db8::1and fe80::1text Foo1::2',
    ]) {
      expect(ips(text), text).toEqual([]);
    }
    expect(found('mac 00:1a:2b:3c:4d:5e ok')).toEqual([['MAC_ADDRESS', '00:1a:2b:3c:4d:5e']]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer =
      'Use ip:2001:db8::1 or IPv6:fe80::1%eth0, not s[::-1] or a::b; last fe80::2: ok.';
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(pii(), answer, chunkings);
    expect(generated).toBe(
      'Use ip:[IP_ADDRESS] or IPv6:[IP_ADDRESS], not s[::-1] or a::b; last [IP_ADDRESS]: ok.',
    );
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});

describe('IPv6 groups read by one walk (round 24)', () => {
  it('keeps what the splits at :: and : accepted, and drops what they rejected', async () => {
    const prompt =
      'a 1:2:3:4:5:6:7:8 b 2001:db8::1 c ::ffff:10.0.0.1 d 1:2:3:4:5:6:7::  e 1::2::3 f a:::b g 1:2:3:4:5:6:7:8:9 h 12345::1 i 1:2:3:4:5:6:7 j';
    const { sent } = await promptSentWithRecords(pii(), prompt);
    expect(sent).toBe(
      'a [IP_ADDRESS] b [IP_ADDRESS] c [IP_ADDRESS] d [IP_ADDRESS]  e 1::2::3 f a:::b g 1:2:3:4:5:6:7:8:9 h 12345::1 i 1:2:3:4:5:6:7 j',
    );
  });
});

/**
 * Round 26. An IPv6 address glued to a label before it (`zz2001:db8::1`,
 * `eth2001:db8::1`, `deadbeef2001:db8::1`) was read as letter soup since
 * round 23 and passed whole. Failing toward the address, it is found from
 * the last four hex digits before its first colon, when the word glued
 * before it holds a letter; the label stays.
 */

describe('an IPv6 address glued to a label', () => {
  it('generateText: the address is redacted, the label sent', async () => {
    await expectInputRedacted(
      pii,
      'peer zz2001:db8::1 via eth2001:db8::5:1 and gwfe80::1%eth0 up',
      'peer zz[IP_ADDRESS] via eth[IP_ADDRESS] and gw[IP_ADDRESS] up',
      [
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
      ],
    );
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
    await expectWindowAsGenerate(
      pii,
      'Peer zz2001:db8::1 is up; eth2001:db8::5:1 too.',
      'Peer zz[IP_ADDRESS] is up; eth[IP_ADDRESS] too.',
    );
  });
});

describe('a bare :: is the unspecified address only as one (round 39)', () => {
  it('leaves wiki indents, quoted code, type signatures and paths; finds :: as a value or after an IP word', () => {
    for (const text of [
      ':: Indented reply\n::: and a deeper one\nReply\n:: again',
      'or symbols (`[ ]`, `::`) for subjects',
      'x :: Int and host :: String',
      'std::vec::Vec, Foo::bar(), a::b, use std::io;',
      'Example::\n\n    code',
    ]) {
      expect(ips(text), text).toEqual([]);
    }
    const cases: Array<[string, string[]]> = [
      ['Use local ipv6 ::', ['::']],
      ['src=:: dst=::1', ['::', '::1']],
      ['Unspecified address ::', ['::']],
      ['default route ::/0 via fe80::1', ['::/0', 'fe80::1']],
      ['listen [::]:8080', ['::']],
      [
        'ping ::1 and ::ffff:192.0.2.1 and 2001:db8::8a2e:370:7334',
        ['::1', '::ffff:192.0.2.1', '2001:db8::8a2e:370:7334'],
      ],
      // An IP word on the line before reads nothing on the next.
      ['the host\n:: indented', []],
    ];
    for (const [text, expected] of cases) expect(ips(text), text).toEqual(expected);
  });

  it('generateText and window streaming agree at every cut', async () => {
    const answer = 'Reply\n:: indented, `::` quoted, listen on ::, and ::1 here.';
    const chunkings = [[1], [2], [3], [5], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(pii(), answer, chunkings);
    expect(generated).toBe(
      'Reply\n:: indented, `::` quoted, listen on [IP_ADDRESS], and [IP_ADDRESS] here.',
    );
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
