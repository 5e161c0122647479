import { describe, expect, it } from 'vitest';
import { promptSentWithRecords } from '../../../test/helpers';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/**
 * Round 24. Round 23 left Python's slices (`s[::-1]`, `x[1::2]`) alone by
 * skipping any IPv6 match right after a word's `[`, which also skipped
 * every address a log writes in brackets after a host name: Postfix's
 * `connect from unknown[2001:db8::1]` and `mail.example.com[2a00:…::200e]`
 * reached the model whole. Only a slice's shape (a number at most on
 * either side of `::`) is left now.
 */
const ips = (text: string) =>
  findPii(text, { entities: ['IP_ADDRESS'] }).map(span => text.slice(span.start, span.end));

describe('an IPv6 address in brackets after a word', () => {
  it('generateText: a mail log line reaches the model with its addresses redacted', async () => {
    const prompt =
      'connect from unknown[2001:db8::1] and from mail.example.com[2a00:1450:4001:81c::200e]: print(s[::-1], x[1::2])';
    const { sent, records } = await promptSentWithRecords(pii(), prompt);
    expect(sent).toBe(
      'connect from unknown[[IP_ADDRESS]] and from mail.example.com[[IP_ADDRESS]]: print(s[::-1], x[1::2])',
    );
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['IP_ADDRESS'],
          spans: [
            { type: 'IP_ADDRESS', start: 21, end: 32 },
            { type: 'IP_ADDRESS', start: 60, end: 84 },
          ],
        },
      },
    ]);
    expect((await promptSentWithRecords(pii(), sent)).sent).toBe(sent);
  });

  it('finds zones and mapped addresses so; slices stay', () => {
    expect(ips('peer[fe80::1%eth0] host[::ffff:10.0.0.1] a[fe80::1]')).toEqual([
      'fe80::1%eth0',
      '::ffff:10.0.0.1',
      'fe80::1',
    ]);
    expect(ips('s[::-1] x[1::2] a[::2] arr)[2::3] s[::] b[10::] c[::10]')).toEqual([]);
  });
});
