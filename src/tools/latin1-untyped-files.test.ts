import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel } from '../../test/helpers';
import { octetStreamToolFileSent } from '../../test/helpers/tool-file';
import { pii } from '../guards/pii/pii';
import { guardrails } from '../middleware/guardrails-middleware';

/*
 * Round 20: a file of no media type or `application/octet-stream` whose
 * bytes are text but for one byte that is not UTF-8 (a latin-1 `é`, 0xE9)
 * was binary to every guardrail: `card 4111 1111 1111 1111 caf\xE9` passed
 * unread, as a user file (generateText) and in a tool's toModelOutput
 * (guardTools). Bytes that read as text with few characters that are not
 * (at most one in 16: bytes that are no UTF-8, NUL, control characters but
 * tab, line breaks, form feed and escape) are now judged as text, each bad
 * byte read as U+FFFD: passed, the bytes go on as they came; modified, the
 * judged text goes on as UTF-8. Binary (a PNG) stays a file no guardrail reads.
 */

const CARD_TEXT = 'card 4111 1111 1111 1111 caf';
const LATIN1 = Uint8Array.from([...new TextEncoder().encode(CARD_TEXT), 0xe9]);
const CLEAN = Uint8Array.from([...new TextEncoder().encode('Menu du caf'), 0xe9, 0x2e]);
const REDACTED_BYTES = new TextEncoder().encode('card [CREDIT_CARD] caf\uFFFD');
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0xff]);

async function userFileSent(data: Uint8Array, mediaType: string) {
  const mock = textModel('ok');
  await generateText({
    model: wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [pii({ action: 'redact' })] }),
    }),
    messages: [{ role: 'user', content: [{ type: 'file', mediaType, data }] }],
  });
  const part = (
    mock.doGenerateCalls[0]!.prompt[0]!.content as unknown as Array<Record<string, unknown>>
  )[0]!;
  return (part.data as { data: Uint8Array }).data;
}

describe('an untyped file of text with a byte that is not UTF-8', () => {
  it('generateText: a user file (octet-stream) is judged and its card redacted', async () => {
    expect(await userFileSent(LATIN1, 'application/octet-stream')).toEqual(REDACTED_BYTES);
    // Clean: the same bytes go on, the latin-1 byte untouched.
    expect(await userFileSent(CLEAN, 'application/octet-stream')).toEqual(CLEAN);
    expect(await userFileSent(PNG, 'application/octet-stream')).toEqual(PNG);
  });

  it('guardTools: a file in toModelOutput is judged and its card redacted', async () => {
    expect(await octetStreamToolFileSent(LATIN1)).toEqual(REDACTED_BYTES);
    expect(await octetStreamToolFileSent(CLEAN)).toEqual(CLEAN);
    expect(await octetStreamToolFileSent(PNG)).toEqual(PNG);
  });

  it('text with one bad character in 8 is read too (round 21): nothing found, the bytes go on', async () => {
    // 1 bad byte in 8: binary before round 21; now text (readable runs), unchanged.
    const noisy = Uint8Array.from(
      Array.from({ length: 64 }, (_, index) => (index % 8 === 7 ? 0xe9 : 0x34)),
    );
    expect(await userFileSent(noisy, 'application/octet-stream')).toEqual(noisy);
  });
});
