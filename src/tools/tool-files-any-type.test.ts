import { describe, expect, it } from 'vitest';
import { PDF_HEAD, PNG_HEAD } from '../../test/helpers/binary-heads';
import { toolFileSent } from '../../test/helpers/tool-file';

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
const base64Of = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

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
    // A PNG signature alone, then text: no PNG.
    const signed = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...utf8(TEXT)]);
    expect(await toolFileSent(signed, 'image/png')).toEqual({
      mediaType: 'image/png',
      data: utf8(`\uFFFDPNG\r\n\x1a\n${REDACTED}`),
    });
  });

  it('UTF-16 after its byte order mark goes on as UTF-8 of the judged text, its charset saying so', async () => {
    const utf16 = Uint8Array.from([0xff, 0xfe, ...[...TEXT].flatMap(c => [c.charCodeAt(0), 0])]);
    expect(await toolFileSent(utf16, 'application/x-notes')).toEqual({
      mediaType: 'application/x-notes; charset=utf-8',
      data: utf8(REDACTED),
    });
  });

  it('a PNG and a PDF (signature and structure) go on unread', async () => {
    const png = Uint8Array.from([...PNG_HEAD, ...utf8(TEXT)]);
    const pdf = Uint8Array.from([...PDF_HEAD, ...utf8(`(${TEXT})`)]);
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
