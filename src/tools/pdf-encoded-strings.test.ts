import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { realPdf } from '../../test/helpers/binary-files';
import {
  streamedFileOutcome,
  toolFileSent,
  toolOutputSent,
  userFileOutcome,
} from '../../test/helpers/tool-file';

// Round 25: a PDF's text written so that a reader shows it decoded passed
// unread: a hexadecimal string in an uncompressed page (`<34313131…> Tj`)
// or in the document's information (`/Title <FEFF0034…>`), two-byte codes
// of a CID font (`<00340031…>` in a compressed page, read as NULs between
// digits), a literal string's escapes outside a compressed stream, and XMP
// metadata in a compressed stream (read for PDF strings, its XML's text was
// lost). Each is now read as the text it shows.

const CARD_TEXT = 'card 4111 1111 1111 1111';
const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (text: string, wide = false) =>
  Array.from(utf8(text), byte => `${wide ? '00' : ''}${byte.toString(16).padStart(2, '0')}`).join(
    '',
  );
/** A PDF of one uncompressed object `body` (a stream when `stream`). */
const plainPdf = (body: string, stream: boolean) =>
  utf8(
    stream
      ? `%PDF-1.7\n1 0 obj\n<< /Length ${body.length} >>\nstream\n${body}\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`
      : `%PDF-1.7\n1 0 obj\n${body}\nendobj\ntrailer\n<< /Info 1 0 R >>\n%%EOF\n`,
  );
const xmpPdf = (text: string) => {
  const xmp = deflateSync(
    utf8(
      `<?xpacket begin=""?><x:xmpmeta xmlns:x="adobe:ns:meta/"><dc:title>${text}</dc:title></x:xmpmeta><?xpacket end="w"?>`,
    ),
  );
  return Uint8Array.from([
    ...utf8(
      `%PDF-1.7\n1 0 obj\n<< /Type /Metadata /Subtype /XML /Length ${xmp.length} /Filter /FlateDecode >>\nstream\n`,
    ),
    ...xmp,
    ...utf8('\nendstream\nendobj\n%%EOF\n'),
  ]);
};
const holding = (text: string): Array<[string, Uint8Array]> => [
  ['hex string, uncompressed page', plainPdf(`BT /F1 12 Tf <${hex(text)}> Tj ET`, true)],
  ['UTF-16 hex title', plainPdf(`<< /Title <FEFF${hex(text, true)}> >>`, false)],
  [
    'octal escapes, uncompressed page',
    plainPdf(`BT (\\${[...text].map(c => c.charCodeAt(0).toString(8)).join('\\')}) Tj ET`, true),
  ],
  ['CID codes, compressed page', realPdf(`BT /F1 12 Tf <${hex(text, true)}> Tj ET`)],
  ['XMP metadata, compressed', xmpPdf(text)],
];
const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};

describe("a PDF's encoded strings are read decoded", () => {
  it("a card there withholds a tool's file (guardTools); the same file without it goes on", async () => {
    for (const [name, data] of holding(CARD_TEXT)) {
      expect([name, await toolOutputSent(data, 'application/pdf')]).toEqual([name, WITHHELD]);
    }
    for (const [, data] of holding('Quarterly figures, as agreed')) {
      expect(await toolFileSent(data, 'application/pdf')).toEqual({
        mediaType: 'application/pdf',
        data,
      });
    }
  });

  it("a card in a hex title blocks a user's call (generateText)", async () => {
    const { calls, records } = await userFileOutcome(holding(CARD_TEXT)[1]![1], 'application/pdf');
    expect(calls).toBe(0);
    expect(records.map(r => [r.guardrail, r.status])).toEqual([
      ['pii', 'modified'],
      ['pii', 'blocked'],
    ]);
  });

  it('a generated PDF with a card in its XMP metadata or CID codes is withheld (streamText)', async () => {
    for (const [, data] of holding(CARD_TEXT).slice(3)) {
      const { files, records } = await streamedFileOutcome(data, 'application/pdf');
      expect(files).toEqual([]);
      expect(records.map(r => [r.guardrail, r.status])).toEqual([
        ['pii', 'modified'],
        ['output-unreadable', 'error'],
      ]);
    }
  });
});
