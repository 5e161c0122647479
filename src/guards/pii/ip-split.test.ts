import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/**
 * Round 17: an IPv4 address with a blank after one of its dots
 * (`192.168. 1.20`) passed, and an IPv6 address with an IPv4 tail of more
 * than four numbers (`2001:db8::1.192.168.1.20`) was redacted as two
 * addresses with `.20` left between them and the text.
 */

const ips = (text: string) =>
  findPii(text, { entities: ['IP_ADDRESS'] }).map(span => text.slice(span.start, span.end));

describe('IP addresses split by a blank or with a longer dotted tail', () => {
  it('finds an IPv4 address with one blank after a dot, after an IP word', () => {
    expect(ips('IP 192.168. 1.20 is down')).toEqual(['192.168. 1.20']);
    expect(ips('the server is at 10.0. 0.1.')).toEqual(['10.0. 0.1']);
    expect(ips('gateway: 172.16.0. 254')).toEqual(['172.16.0. 254']);
  });

  it('leaves two decimals across a sentence end, blanks after two dots, and no IP word alone', () => {
    for (const text of [
      'Sales grew 2.5. 1.8 is the forecast.',
      'IP 192. 168. 1.20',
      'see 192.168. 1.20 below',
      'host 192.168. 1.20.5',
      'IP 192.168.\n1.20',
    ]) {
      expect(ips(text), text).toEqual([]);
    }
  });

  it('takes the whole dotted tail of an IPv6 address; a dotted run alone keeps its first four', () => {
    expect(ips('at 2001:db8::1.192.168.1.20 now')).toEqual(['2001:db8::1.192.168.1.20']);
    expect(ips('at ::ffff:192.168.1.20.5 now')).toEqual(['::ffff:192.168.1.20.5']);
    expect(ips('192.168.1.1.1')).toEqual(['192.168.1.1']);
  });

  it('generateText: the model receives the addresses redacted whole, with the record', async () => {
    const { sent, records } = await promptSentWithRecords(
      pii(),
      'IP 192.168. 1.20 and 2001:db8::1.192.168.1.20.',
    );
    expect(sent).toBe('IP [IP_ADDRESS] and [IP_ADDRESS].');
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['IP_ADDRESS'],
          spans: [
            { type: 'IP_ADDRESS', start: 3, end: 16 },
            { type: 'IP_ADDRESS', start: 21, end: 45 },
          ],
        },
      },
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer =
      'The host is 192.168. 1.20, the other 2001:db8::1.192.168.1.20; sales grew 2.5. 1.8.';
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(pii(), answer, chunkings);
    expect(generated).toBe(
      'The host is [IP_ADDRESS], the other [IP_ADDRESS]; sales grew 2.5. 1.8.',
    );
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
