import { describe, expect, it } from 'vitest';
import {
  moCatalog,
  PDF_HEAD,
  PNG_HEAD,
  pdfHolding,
  pngHolding,
  pseudoRandomBytes,
  pyc,
} from '../../test/helpers/binary-heads';
import { toolFileSent, toolOutputSent } from '../../test/helpers/tool-file';

// Round 22: a file in a tool's model output (`toModelOutput`, judged by
// `guardTools`; `toolOutputs` reads the prompt's tool results the same
// way) of a type that is not a text type was not read whatever its bytes,
// as a user's was not: `Contact jane.doe@corp.io` as `image/png` or
// `application/x-pem-file` bytes reached the model. It is read by the rule
// the prompt's and the model's files are read by: text whatever the type,
// unless the bytes open a binary format (signature and structure).

const TEXT = 'Contact jane.doe@corp.io today.';
const REDACTED = 'Contact [EMAIL_ADDRESS] today.';
const utf8 = (text: string) => new TextEncoder().encode(text);
const base64Of = (bytes: Uint8Array) => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};
const joined = (...parts: ArrayLike<number>[]) =>
  Uint8Array.from(parts.flatMap(p => Array.from(p)));
/** What the model reads of a tool output withheld by a guardrail. */
const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};

describe("a tool's file of a type that is not a text type", () => {
  it('text bytes are judged whatever the type, and go on redacted in their form', async () => {
    expect(await toolFileSent(utf8(TEXT), 'image/png')).toEqual({
      mediaType: 'image/png',
      data: utf8(REDACTED),
    });
    expect(await toolFileSent(base64Of(utf8(TEXT)), 'application/x-pem-file')).toEqual({
      mediaType: 'application/x-pem-file',
      data: base64Of(utf8(REDACTED)),
    });
    // A PNG signature alone, then text: no PNG, but its control character
    // (`\x1a`) is no text's, so the file is withheld, not rewritten (round 23).
    const signed = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...utf8(TEXT)]);
    expect(await toolOutputSent(signed, 'image/png')).toEqual(WITHHELD);
  });

  it('UTF-16 after its byte order mark goes on as UTF-8 of the judged text, its charset saying so', async () => {
    const utf16 = Uint8Array.from([0xff, 0xfe, ...[...TEXT].flatMap(c => [c.charCodeAt(0), 0])]);
    expect(await toolFileSent(utf16, 'application/x-notes')).toEqual({
      mediaType: 'application/x-notes; charset=utf-8',
      data: utf8(REDACTED),
    });
  });

  it("a PNG's chunks and a PDF's filtered streams go on unread", async () => {
    const png = pngHolding(utf8(TEXT));
    const pdf = pdfHolding(utf8(TEXT));
    expect(await toolFileSent(png, 'image/png')).toEqual({ mediaType: 'image/png', data: png });
    expect(await toolFileSent(pdf, 'application/pdf')).toEqual({
      mediaType: 'application/pdf',
      data: pdf,
    });
  });
});

// Round 23: a tool's file part was judged for its media type by a looser
// rule than a generated file's (any token parameters, capitals, digits in
// the subtype passed as plain), so a card number in the media type reached
// the model. One rule now (`isPlainMediaType`); a changed type goes on
// as its bare type, or `application/octet-stream`.
describe("a tool's file whose media type carries a value", () => {
  it("the media type is judged as a generated file's is, its bytes as text whatever the type", async () => {
    const sent = async (mediaType: string) => await toolFileSent(utf8(TEXT), mediaType);
    expect(await sent('text/plain; name=4111111111111111')).toEqual({
      mediaType: 'text/plain',
      data: utf8(REDACTED),
    });
    expect(await sent('TEXT/PLAIN ; x=4111111111111111')).toEqual({
      mediaType: 'text/plain',
      data: utf8(REDACTED),
    });
    expect(await sent('image/png; name=4111111111111111')).toEqual({
      mediaType: 'image/png',
      data: utf8(REDACTED),
    });
    expect(await sent('text/4111111111111111')).toEqual({
      mediaType: 'application/octet-stream',
      data: utf8(REDACTED),
    });
    expect(await sent('image/x.4111-1111-1111-1111')).toEqual({
      mediaType: 'application/octet-stream',
      data: utf8(REDACTED),
    });
    // Judged and passed: the type goes on as it came.
    for (const mediaType of ['TEXT/PLAIN ; x=y', 'application/json;charset=utf-8', 'text/plain']) {
      expect(await sent(mediaType)).toEqual({ mediaType, data: utf8(REDACTED) });
    }
  });
});

// Round 23: a real PNG head (signature and IHDR chunk) or a PDF's header and
// first object kept the text behind it from every guardrail: the file was
// binary from its first bytes. A PNG is binary only as far as its chunks
// go, a PDF but for its filtered streams' bodies; the rest is read as text,
// judged, and never rewritten (the bytes are a binary's): a value found
// withholds the output, nothing found lets the file go on as it came.
describe("the text outside a PNG's or a PDF's structure", () => {
  const NOTHING = utf8('Nothing to see here, just notes.');
  /** Compressed image data. */
  const PIXELS = pseudoRandomBytes(20_000);

  it('a value there withholds the output: after a PNG head, after IEND, outside PDF streams', async () => {
    const attacks: Array<[string, Uint8Array | string]> = [
      ['image/png', joined(PNG_HEAD, utf8(TEXT))],
      ['image/png', joined(pngHolding(PIXELS), utf8(TEXT))],
      ['image/png', base64Of(joined(pngHolding(PIXELS), utf8(TEXT)))],
      ['application/x-notes', joined(pngHolding(PIXELS), utf8(`\n${TEXT}`))],
      ['application/pdf', joined(PDF_HEAD, utf8(`${'Quarterly notes. '.repeat(200)}${TEXT}`))],
      ['application/pdf', joined(pdfHolding(PIXELS), utf8(`2 0 obj\n(${TEXT})\nendobj\n`))],
      ['application/pdf', base64Of(joined(pdfHolding(PIXELS), utf8(TEXT)))],
    ];
    for (const [mediaType, data] of attacks) {
      expect(await toolOutputSent(data, mediaType)).toEqual(WITHHELD);
    }
  });

  it('nothing found there: the file goes on as it came, unread inside its structure', async () => {
    const files: Array<[string, Uint8Array | string]> = [
      ['image/png', joined(pngHolding(PIXELS), NOTHING)],
      ['image/png', base64Of(joined(pngHolding(PIXELS), NOTHING))],
      ['image/png', pngHolding(joined(PIXELS, utf8(TEXT)))],
      ['application/pdf', joined(pdfHolding(joined(PIXELS, utf8(TEXT))), NOTHING)],
    ];
    for (const [mediaType, data] of files) {
      expect(await toolFileSent(data, mediaType)).toEqual({ mediaType, data });
    }
  });
});

// Round 23: a `.pyc` or gettext `.mo` file (bytes with NULs and control
// characters, whatever its type) was read as text and, when a guardrail
// redacted a value in it, rewritten as UTF-8 of the redacted text: a
// corrupted binary reached the model. Such bytes are never rewritten.
describe('a file with the control characters of a binary', () => {
  const catalog = (translator: string) =>
    moCatalog([
      [
        '',
        `Project-Id-Version: app 1.0\nLast-Translator: ${translator}\nContent-Type: text/plain; charset=UTF-8\n`,
      ],
      ['Save', 'Enregistrer'],
      ['Open the file', 'Ouvrir le fichier'],
    ]);

  it('a value found withholds it; nothing found lets it go on as it came', async () => {
    for (const mediaType of ['application/x-gettext-translation', 'application/octet-stream']) {
      expect(await toolOutputSent(catalog('Jane <jane.doe@corp.io>'), mediaType)).toEqual(WITHHELD);
      const clean = catalog('Jane');
      expect(await toolFileSent(clean, mediaType)).toEqual({ mediaType, data: clean });
    }
    expect(await toolOutputSent(pyc(TEXT), 'application/x-python-bytecode')).toEqual(WITHHELD);
    const clean = pyc('Nothing to see here, just notes.');
    expect(await toolFileSent(clean, 'application/x-python-bytecode')).toEqual({
      mediaType: 'application/x-python-bytecode',
      data: clean,
    });
  });
});
