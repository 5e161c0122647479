import { describe, expect, it } from 'vitest';
import { cut } from '../../../test/helpers';
import { generatedText, streamedTextDeltas } from '../../../test/helpers/window';
import { guardrails } from '../../middleware/guardrails-middleware';
import { pii } from './pii';

// An IPv4 address with a blank after a dot (`10.0. 0.1`) is read only with
// an IP word within 32 characters before it. A value between them longer
// than its placeholder kept the word out of reach for the first scan and
// brought it within reach once redacted; the text beside the value was not
// read again when a letter (or a quoting mark) followed it, so the address
// went out as it was and a second redaction (window mode's re-check of
// released text) hid it.
const cases: Array<[string, string]> = [
  [
    'ip: jane.doe.longername@example-company.com and 10.0. 0.1 ok',
    'ip: [EMAIL_ADDRESS] and [IP_ADDRESS] ok',
  ],
  [
    'ip: jane.doe.longername@example-company.com :10.0. 0.1 ok',
    'ip: [EMAIL_ADDRESS] :[IP_ADDRESS] ok',
  ],
  [
    'host jane.doe.longername@example-company.com, 192.168. 1.20 down',
    'host [EMAIL_ADDRESS], [IP_ADDRESS] down',
  ],
];

describe('an IP word before a value reaches an address with a blank once the value is redacted', () => {
  it('through generateText and window streams, in one redaction', async () => {
    const middleware = guardrails({
      output: [pii({ action: 'redact' })],
      stream: { mode: 'window' },
    });
    for (const [text, expected] of cases) {
      expect(await generatedText(middleware, text)).toBe(expected);
      expect(await generatedText(middleware, expected)).toBe(expected);
      for (const sizes of [[1], [5], [3, 11]]) {
        expect((await streamedTextDeltas(middleware, text, cut(text, sizes))).join('')).toBe(
          expected,
        );
      }
    }
  });

  it('not when the address is on the next line (the IP word reads its own line)', async () => {
    const middleware = guardrails({ output: [pii({ action: 'redact' })] });
    expect(
      await generatedText(middleware, 'ip: jane.doe.longername@example-company.com\n10.0. 0.1 ok'),
    ).toBe('ip: [EMAIL_ADDRESS]\n10.0. 0.1 ok');
  });
});
