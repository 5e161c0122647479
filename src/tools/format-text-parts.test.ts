import { deflateSync } from 'node:zlib';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel, withoutTiming } from '../../test/helpers';
import {
  exifDescription,
  gifComment,
  jpegSegment,
  pngChunk,
  realGif,
  realJpeg,
  realPdf,
  realPng,
  realZip,
} from '../../test/helpers/binary-files';
import { PDF_HEAD, pseudoRandomBytes } from '../../test/helpers/binary-heads';
import { generatedFileOutcome, toolFileSent, toolOutputSent } from '../../test/helpers/tool-file';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { guardrails } from '../middleware/guardrails-middleware';

// Round 24: text a file's format carries inside its structure passed every
// guardrail unread: a PNG's `tEXt`/`zTXt`/`iTXt` chunks, a JPEG's comment
// and Exif strings, a GIF's comment, a zip's entries and names, a PDF's
// compressed page. A reader of the format (or a provider passing the bytes
// on) shows that text to the model. Each text-bearing part is now read
// (compressed ones inflated, at most 8 MB together), judged, and never
// rewritten: a change withholds the file; a part that may hold text and
// cannot be read (a zip bomb, a filter this reader does not decode, an
// encrypted entry) fails closed.

const CARD_TEXT = 'card 4111 1111 1111 1111';
const utf8 = (text: string) => new TextEncoder().encode(text);
const latin1 = (text: string) => Array.from(text, c => c.charCodeAt(0));
/** What the model reads of a tool output withheld by a guardrail. */
const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};

const holding = (text: string): Array<[string, string, Uint8Array]> => [
  ['PNG tEXt', 'image/png', realPng(8, 8, [pngChunk('tEXt', latin1(`Comment\0${text}`))])],
  [
    'PNG zTXt',
    'image/png',
    realPng(8, 8, [pngChunk('zTXt', [...latin1('Comment\0\0'), ...deflateSync(utf8(text))])]),
  ],
  [
    'PNG iTXt, compressed',
    'image/png',
    realPng(8, 8, [
      pngChunk('iTXt', [...latin1('Description\0\x01\x00en\0\0'), ...deflateSync(utf8(text))]),
    ]),
  ],
  ['JPEG comment', 'image/jpeg', realJpeg([jpegSegment(0xfe, utf8(text))])],
  ['JPEG Exif', 'image/jpeg', realJpeg([exifDescription(text)])],
  ['GIF comment', 'image/gif', realGif([gifComment(text)])],
  ['zip, stored', 'application/zip', realZip([{ name: 'a.txt', data: utf8(text), stored: true }])],
  ['zip, deflated', 'application/zip', realZip([{ name: 'a.txt', data: utf8(text) }])],
  ['zip entry name', 'application/zip', realZip([{ name: `${text}.txt`, data: utf8('x') }])],
  ['PDF page', 'application/pdf', realPdf(`BT /F1 12 Tf 72 712 Td (${text}) Tj ET`)],
  [
    'PDF page, kerned, escaped',
    'application/pdf',
    realPdf(
      `BT [(${text.slice(0, 9)})-250(\\${text.charCodeAt(9).toString(8).padStart(3, '0')}${text.slice(10)})] TJ ET`,
    ),
  ],
  [
    'PNG in a zip',
    'application/zip',
    realZip([
      { name: 'a.png', data: realPng(8, 8, [pngChunk('tEXt', latin1(`Comment\0${text}`))]) },
    ]),
  ],
];

describe("text inside a format's structure", () => {
  it("a card there withholds a tool's file; the same file without it goes on as it came", async () => {
    for (const [, type, data] of holding(CARD_TEXT)) {
      expect(await toolOutputSent(data, type)).toEqual(WITHHELD);
    }
    for (const [, type, data] of holding('Quarterly figures, as agreed')) {
      expect(await toolFileSent(data, type)).toEqual({ mediaType: type, data });
    }
  });

  it("a card in a PNG's compressed text blocks a user's call", async () => {
    const mock = textModel('ok');
    const png = holding(CARD_TEXT)[1]![2];
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'file', mediaType: 'image/png', data: png }] },
    ];
    const result = await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [pii({ action: 'redact' })] }),
      }),
      messages,
    });
    expect(mock.doGenerateCalls).toEqual([]);
    const records = withoutTiming((await getGuardrailOutcome(result))?.records);
    expect(records.map(r => [r.guardrail, r.status])).toEqual([
      ['pii', 'modified'],
      ['pii', 'blocked'],
    ]);
  });

  it("a card in a generated PDF's page withholds the file", async () => {
    expect(await generatedFileOutcome(holding(CARD_TEXT)[9]![2], 'application/pdf')).toEqual({
      files: [],
      records: [
        ['pii', 'modified'],
        ['output-unreadable', 'error'],
        ['pii', 'passed'],
      ],
    });
  });

  it('what cannot be read fails closed: a zip bomb, an unknown PDF filter, an encrypted or unknown entry', async () => {
    const bomb = realZip([{ name: 'a.txt', data: new Uint8Array(20_000_000) }]);
    expect(bomb.length).toBeLessThan(30_000);
    const ascii85 = Uint8Array.from([
      ...PDF_HEAD,
      ...latin1(
        '<< /Length 9 /Filter /ASCII85Decode >>\nstream\n<~87cURD]i~>\nendstream\nendobj\n',
      ),
    ]);
    const corrupt = Uint8Array.from([
      ...PDF_HEAD,
      ...latin1(`<< /Filter /FlateDecode >>\nstream\n${CARD_TEXT}\nendstream\nendobj\n`),
    ]);
    const zip = realZip([{ name: 'a.txt', data: utf8('x'), stored: true }]);
    const encrypted = Uint8Array.from(zip);
    // The general-purpose flag's bit 0 (encrypted), in the local header and the directory.
    encrypted[6] = 1;
    encrypted[30 + 5 + 1 + 8] = 1;
    const method = Uint8Array.from(zip);
    method[8] = 12; // bzip2
    method[30 + 5 + 1 + 10] = 12;
    for (const [type, data] of [
      ['application/zip', bomb],
      ['application/pdf', ascii85],
      ['application/pdf', corrupt],
      ['application/zip', encrypted],
      ['application/zip', method],
    ] as const) {
      expect(await toolOutputSent(data, type)).toEqual(WITHHELD);
    }
  });

  it("a zip bomb as a user's file blocks the call unjudged", async () => {
    const mock = textModel('ok');
    const bomb = realZip([{ name: 'a.txt', data: new Uint8Array(20_000_000) }]);
    const result = await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [pii({ action: 'redact' })] }),
      }),
      messages: [
        { role: 'user', content: [{ type: 'file', mediaType: 'application/zip', data: bomb }] },
      ],
    });
    expect(mock.doGenerateCalls).toEqual([]);
    const records = withoutTiming((await getGuardrailOutcome(result))?.records);
    expect(records.map(r => [r.guardrail, r.status, r.reason])).toEqual([
      [
        'input-unreadable',
        'error',
        'message 0 (user) was not judged: a zip file whose text could not be read: compressed parts that inflate to more than 8000000 bytes',
      ],
    ]);
  });

  it('random data in the formats passes: nothing read from pixels, scans or images', async () => {
    const noisy = realZip([{ name: 'a.bin', data: pseudoRandomBytes(30_000, 3), stored: true }]);
    expect(await toolFileSent(noisy, 'application/zip')).toEqual({
      mediaType: 'application/zip',
      data: noisy,
    });
  });
});
