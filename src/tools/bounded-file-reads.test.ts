import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileSent } from '../../test/helpers';
import { realPdf, realZip } from '../../test/helpers/binary-files';
import { pseudoRandomBytes } from '../../test/helpers/binary-heads';
import { toolFileSent, toolOutputSent } from '../../test/helpers/tool-file';
import type { GuardrailEvent } from '../core/types';
import { pii } from '../guards/pii/pii';

/*
 * Round 27: a zip's and a PDF's walks read the file whole first
 * (`file.read(0, file.length)`), so 10 MB of base64 was decoded into memory
 * before any limit applied, on every call that read it. They read a range
 * at a time now, and stop where the text they found is past the caller's
 * limit. Measured here by what `atob` decodes: in all, and in one call.
 */

const CARD = 'card 4111 1111 1111 1111';
const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
/** `count` bytes of plain text with no value a guardrail hides. */
const plainText = (count: number) =>
  new TextEncoder().encode(
    'Quarterly figures, as agreed. '.repeat(Math.ceil(count / 30)).slice(0, count),
  );

/** What `atob` decodes while `run` runs: characters in all, and the most in one call. */
async function decoded<T>(run: () => Promise<T>) {
  const atob = globalThis.atob;
  const seen = { total: 0, most: 0 };
  vi.spyOn(globalThis, 'atob').mockImplementation(data => {
    const out = atob(data);
    seen.total += out.length;
    seen.most = Math.max(seen.most, out.length);
    return out;
  });
  const result = await run();
  return { result, ...seen };
}
afterEach(() => vi.restoreAllMocks());
/** A 64 KB chunk, and the rest of its first and last base64 groups. */
const MOST = 65_536 + 4;

describe('a zip or a PDF as base64 is read a range at a time', () => {
  it('a zip of 7.5 MB of text (10 MB of base64) is refused having decoded about the limit (guardTools)', async () => {
    const zip = base64(realZip([{ name: 'notes.txt', data: plainText(7_500_000), stored: true }]));
    const events: GuardrailEvent[] = [];
    const { result, total } = await decoded(() => toolOutputSent(zip, 'application/zip', events));
    expect(result).toEqual(WITHHELD);
    expect(events.map(event => [event.type, event.record?.status, event.record?.reason])).toEqual([
      ['guardrail.passed', 'passed', undefined],
      [
        'guardrail.error',
        'error',
        'the result of tool "report" was not judged: a file of type application/zip, of a binary format, has text in its format\'s pieces longer than 1000000 characters',
      ],
    ]);
    // Before: the whole file, 7.5 MB, then more.
    expect(total).toBeLessThan(1_200_000);
  });

  it('a PDF of a 7 MB image: a card on its page withholds it, each decode 64 KB at most (guardTools)', async () => {
    const image = pseudoRandomBytes(7_000_000, 0x5eed);
    const carded = base64(realPdf(`BT (${CARD}) Tj ET`, image, 'JPXDecode'));
    const { result, most } = await decoded(() => toolOutputSent(carded, 'application/pdf'));
    expect(result).toEqual(WITHHELD);
    // Before: one call decoded the whole file (7 MB).
    expect(most).toBeLessThanOrEqual(MOST);
    const plain = base64(realPdf('BT (Quarterly figures) Tj ET', image, 'JPXDecode'));
    const sent = await decoded(() => toolFileSent(plain, 'application/pdf'));
    expect(sent.result).toEqual({ mediaType: 'application/pdf', data: plain });
    expect(sent.most).toBeLessThanOrEqual(MOST);
  });

  it("a user's PDF of 7.5 MB of text outside its streams is refused having decoded about the limit (generateText)", async () => {
    // The text after its end: bytes outside any filtered stream, read as they are.
    const text = base64(
      Buffer.concat([realPdf('BT (Quarterly figures) Tj ET'), plainText(7_500_000)]),
    );
    const { result, total } = await decoded(() =>
      fileSent(pii({ action: 'redact' }), 'application/pdf', text),
    );
    expect(result).toEqual({
      blocked: 'content-filter',
      reason: {
        guardrails: {
          records: [
            {
              durationMs: 0,
              guardrail: 'input-unreadable',
              kind: 'input',
              part: 'file',
              reason:
                "message 0 (user) was not judged: a file of type application/pdf, of a binary format, has text in its format's pieces longer than 1000000 characters",
              status: 'error',
            },
          ],
          status: 'blocked',
        },
      },
    });
    expect(total).toBeLessThan(3_500_000);
  });

  it('a zip as base64 wrapped in lines (76 characters a line) is read a range at a time too (guardTools)', async () => {
    // Round 28: base64 with white space was decoded whole before the walk.
    const zip = base64(realZip([{ name: 'notes.txt', data: plainText(7_500_000), stored: true }]))
      .match(/.{1,76}/g)!
      .join('\r\n');
    const { result, total } = await decoded(() => toolOutputSent(zip, 'application/zip'));
    expect(result).toEqual(WITHHELD);
    expect(total).toBeLessThan(1_200_000);
  });

  it('an untyped file whose head is UTF-8 (a PDF with no binary marker) is checked for UTF-8 a megabyte at a time (guardTools)', async () => {
    // Round 28: the whole file was decoded to tell whether it is UTF-8 throughout.
    const head = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n');
    const file = base64(Buffer.concat([head, plainText(7_500_000), Uint8Array.of(0xff)]));
    const { result, most } = await decoded(() => toolOutputSent(file, 'application/octet-stream'));
    expect(result).toEqual(WITHHELD);
    // A 1 MB piece and its 4 KB overlap at most (before: the whole file, 7.5 MB, in one call).
    expect(most).toBeLessThanOrEqual(1_048_576 + 4096 + 4);
  });
});
