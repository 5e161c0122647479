import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, type ModelMessage, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel, withoutTiming } from '../../test/helpers';
import { moCatalog, PDF_HEAD, pdfHolding, pngHolding } from '../../test/helpers/binary-heads';
import type { Guardrail } from '../core/types';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

// Round 22: a user's file of a type that is not a text type was never read
// by input guardrails, whatever its bytes: a client relabelled a text file
// `application/x-pem-file` or `image/png` (providers forward such files:
// OpenAI's Responses API with `passThroughUnsupportedFiles`), or wrote a
// PNG or PDF signature before its text, and its address, key or injection
// reached the model unread. Bytes are now read as text whatever the type
// says, as a model's generated files are (round 21); only bytes that open a
// format a provider parses (its signature and the structure behind it)
// stay binary, for `unreadableFiles` to decide.

const EMAIL = 'jane.doe@corp.io';
const TEXT = `Contact ${EMAIL} today.`;
const REDACTED = 'Contact [EMAIL_ADDRESS] today.';
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const utf8 = (text: string) => new TextEncoder().encode(text);
const base64Of = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const emailRecord = (start: number) => ({
  guardrail: 'pii',
  kind: 'input',
  status: 'modified',
  info: {
    types: ['EMAIL_ADDRESS'],
    spans: [{ type: 'EMAIL_ADDRESS', start, end: start + EMAIL.length }],
  },
  part: 'file',
});

/** A redaction in a file that is not text blocks the call (round 23): its bytes are never rewritten. */
const BLOCKED_BINARY = {
  guardrail: 'pii',
  kind: 'input',
  status: 'blocked',
  reason:
    'modified the text read from a file of message 0 that is not text, whose bytes are never rewritten: blocked instead',
  part: 'file',
};

type FileData = Uint8Array | string;
const userFiles = (files: Array<[string, FileData]>): ModelMessage[] => [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Read these.' },
      ...files.map(([mediaType, data]) => ({ type: 'file' as const, mediaType, data })),
    ],
  },
];

/** The files of the user message the model was given: media type and data. */
function filesSent(prompt: LanguageModelV4Prompt) {
  const user = prompt.find(message => message.role === 'user')!;
  return (user.content as Array<{ type: string; mediaType?: string; data?: unknown }>)
    .filter(part => part.type === 'file')
    .map(part => [part.mediaType, (part.data as { data: FileData }).data]);
}

/** generateText and streamText (each its own middleware) over the same files: what the model got, and the records. */
async function sent(
  files: Array<[string, FileData]>,
  input: Guardrail[] = [pii({ action: 'redact' })],
  unreadableFiles?: 'pass' | 'block',
) {
  const guarded = () => {
    const mock = textModel('ok');
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input, unreadableFiles }),
    });
    return { mock, model };
  };
  const generating = guarded();
  const generated = await generateText({ model: generating.model, messages: userFiles(files) });
  const streaming = guarded();
  const streamed = streamText({ model: streaming.model, messages: userFiles(files) });
  await streamed.consumeStream();
  const records = withoutTiming((await getGuardrailOutcome(generated))?.records);
  expect(withoutTiming((await getGuardrailOutcome(streamed))?.records)).toEqual(records);
  return {
    generate: generating.mock.doGenerateCalls.map(call => filesSent(call.prompt)),
    stream: streaming.mock.doStreamCalls.map(call => filesSent(call.prompt)),
    records,
  };
}

describe('user files of a type that is not a text type', () => {
  it('text bytes are judged whatever the type: the model gets them redacted, in their form and type', async () => {
    const types = ['application/x-pem-file', 'image/png', 'application/pdf', 'audio/mpeg'];
    const { generate, stream, records } = await sent([
      ...types.map((type): [string, FileData] => [type, utf8(TEXT)]),
      ['application/x-pem-file', base64Of(utf8(TEXT))],
    ]);
    const expected = [
      ...types.map(type => [type, utf8(REDACTED)]),
      ['application/x-pem-file', base64Of(utf8(REDACTED))],
    ];
    expect(generate).toEqual([expected]);
    expect(stream).toEqual([expected]);
    // One text in five files is judged once (as a text twice in one prompt is).
    expect(records).toEqual([
      { guardrail: 'pii', kind: 'input', status: 'passed' },
      emailRecord(8),
    ]);
  });

  it('a key in a file labelled image/png blocks the call: the model is never called', async () => {
    const mock = textModel('ok');
    const result = await generateText({
      model: wrapLanguageModel({ model: mock, middleware: guardrails({ input: [secrets()] }) }),
      messages: userFiles([['image/png', utf8(`aws_access_key_id = ${AWS_KEY}`)]]),
    });
    expect(mock.doGenerateCalls).toEqual([]);
    expect(result.finishReason).toBe('content-filter');
    const outcome = await getGuardrailOutcome(result);
    expect(
      withoutTiming(outcome?.records).map(r => [r.guardrail, r.status, r.part, r.kind]),
    ).toEqual([
      ['secrets', 'passed', undefined, 'input'],
      ['secrets', 'blocked', 'file', 'input'],
    ]);
    expect(JSON.stringify(outcome)).not.toContain(AWS_KEY);
  });

  it('URL-safe base64 of any type is read as the AI SDK decodes it', async () => {
    const text = `${TEXT} ??>>`;
    const urlSafe = base64Of(utf8(text)).replace(/\+/g, '-').replace(/\//g, '_');
    expect(urlSafe).toMatch(/[-_]/);
    const { generate } = await sent([['application/x-pem-file', urlSafe]]);
    expect(generate).toEqual([[['application/x-pem-file', base64Of(utf8(`${REDACTED} ??>>`))]]]);
  });

  it('UTF-16 with a byte order mark, and without one (a null byte every other place), goes on as UTF-8 of the judged text', async () => {
    const utf16le = (text: string, mark: boolean) =>
      Uint8Array.from([
        ...(mark ? [0xff, 0xfe] : []),
        ...[...text].flatMap(c => [c.charCodeAt(0), 0]),
      ]);
    const utf16be = (text: string) =>
      Uint8Array.from([...[...text].flatMap(c => [0, c.charCodeAt(0)])]);
    const { generate, records } = await sent([
      ['application/x-notes', utf16le(TEXT, true)],
      ['image/png', utf16le(TEXT, false)],
      ['application/octet-stream', utf16be(TEXT)],
    ]);
    expect(generate).toEqual([
      [
        ['application/x-notes; charset=utf-8', utf8(REDACTED)],
        ['image/png; charset=utf-8', utf8(REDACTED)],
        // UTF-16 BE of ASCII is UTF-8 too (a NUL before each letter), but a file of no
        // type with a NUL every other place is read as UTF-16 (round 23; before, as
        // UTF-8 with its NULs, rewritten half UTF-16).
        ['application/octet-stream; charset=utf-8', utf8(REDACTED)],
      ],
    ]);
    expect(records.slice(1)).toEqual([emailRecord(8)]);
  });

  it('a signature with plain text behind it is no image or PDF: the text is judged', async () => {
    const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    // Its control character (`\x1a`) is no text's: judged, never rewritten (round 23).
    const signed = await sent([['image/png', Uint8Array.from([...pngSignature, ...utf8(TEXT)])]]);
    expect(signed.generate).toEqual([]);
    expect(signed.records.slice(1)).toEqual([emailRecord(16), BLOCKED_BINARY]);
    const { generate, records } = await sent([
      ['application/pdf', utf8(`%PDF-1.7\n${TEXT}`)],
      ['application/octet-stream', Uint8Array.from([0xff, 0xfb, 0x90, ...utf8(` ${TEXT}`)])],
    ]);
    expect(generate).toEqual([
      [
        ['application/pdf', utf8(`%PDF-1.7\n${REDACTED}`)],
        // A byte that is not UTF-8 was read as U+FFFD, and goes on so.
        ['application/octet-stream', utf8(`\uFFFD\uFFFD\uFFFD ${REDACTED}`)],
      ],
    ]);
    expect(records.slice(1)).toEqual([emailRecord(17), emailRecord(12)]);
  });

  it('a file that opens a format a provider parses stays unread: a PNG, a PDF, random bytes', async () => {
    const random = Uint8Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24);
    const files: Array<[string, FileData]> = [
      ['image/png', pngHolding(utf8(TEXT))],
      ['application/pdf', pdfHolding(utf8(`(${TEXT})`))],
      ['application/pdf', base64Of(pdfHolding(utf8(`(${TEXT})`)))],
      ['application/octet-stream', random],
    ];
    const passed = await sent(files);
    expect(passed.generate).toEqual([files]);
    expect(passed.stream).toEqual([files]);
    // The PDFs' text outside their filtered streams is judged (round 23) and passes.
    expect(passed.records).toEqual([
      { guardrail: 'pii', kind: 'input', status: 'passed' },
      { guardrail: 'pii', kind: 'input', status: 'passed', part: 'file' },
    ]);
    // With unreadableFiles: 'block' such a file is refused before any guardrail runs.
    const refused = await sent([files[0]!], undefined, 'block');
    expect(refused.generate).toEqual([]);
    expect(refused.records).toEqual([
      {
        guardrail: 'unreadable-file',
        kind: 'input',
        status: 'blocked',
        reason:
          "message 0 (user) was not judged: a file of type image/png, which no guardrail reads (unreadableFiles: 'block')",
        part: 'file',
      },
    ]);
  });

  it('text with a junk byte every second or third byte is judged without its junk', async () => {
    const prose =
      'Please charge card 4111 1111 1111 1111 for the order and mail the receipt to me today.';
    const clean =
      'Please charge card [CREDIT_CARD] for the order and mail the receipt to me today.';
    const everySecond = Uint8Array.from([...utf8(prose)].flatMap(byte => [byte, 0xff]));
    const everyThird = Uint8Array.from(
      [...utf8(prose)].flatMap((byte, index) => (index % 2 ? [byte, 0x00] : [byte])),
    );
    const { generate, stream, records } = await sent([
      ['application/octet-stream', everySecond],
      ['image/png', everyThird],
    ]);
    // Modified, a file goes on as UTF-8 of the judged text: without its junk.
    const expected = [
      ['application/octet-stream', utf8(clean)],
      ['image/png', utf8(clean)],
    ];
    expect(generate).toEqual([expected]);
    expect(stream).toEqual([expected]);
    // Both read as the same text: judged once.
    expect(records).toEqual([
      { guardrail: 'pii', kind: 'input', status: 'passed' },
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: { types: ['CREDIT_CARD'], spans: [{ type: 'CREDIT_CARD', start: 19, end: 38 }] },
        part: 'file',
      },
    ]);
    // Unmodified, it goes on as it came.
    const passed = await sent(
      [['application/octet-stream', everySecond]],
      [pii({ action: 'redact', entities: ['EMAIL_ADDRESS'] })],
    );
    expect(passed.generate).toEqual([[['application/octet-stream', everySecond]]]);
  });

  it('UTF-16 of a file with no media type (a direct doGenerate) goes on as UTF-8 with none', async () => {
    const mock = textModel('ok');
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [pii({ action: 'redact' })] }),
    });
    const utf16 = Uint8Array.from([0xff, 0xfe, ...[...TEXT].flatMap(c => [c.charCodeAt(0), 0])]);
    await model.doGenerate({
      prompt: [
        { role: 'user', content: [{ type: 'file', data: { type: 'data', data: utf16 } }] },
      ] as unknown as LanguageModelV4Prompt,
    });
    expect(mock.doGenerateCalls[0]!.prompt).toEqual([
      { role: 'user', content: [{ type: 'file', data: { type: 'data', data: utf8(REDACTED) } }] },
    ]);
  });
});

// Round 23: a real PNG head or a PDF's header and first object kept the text
// behind them unread; a `.mo` catalog's text was redacted into its bytes.
// The text outside a PNG's chunks or a PDF's filtered streams is judged, and
// the bytes of a file that is not text are never rewritten: a change blocks.
describe("a user's file whose bytes are not text's", () => {
  const png = pngHolding(Uint8Array.from({ length: 2048 }, (_, i) => (i * 2654435761) >>> 24));
  const catalog = (translator: string) =>
    moCatalog([
      ['', `Last-Translator: ${translator}\nContent-Type: text/plain; charset=UTF-8\n`],
      ['Save', 'Enregistrer'],
    ]);

  it("a value after a PNG, outside a PDF's streams or in a .mo catalog blocks the call", async () => {
    const pdf = Uint8Array.from([...PDF_HEAD, ...utf8(`<< /Type /Catalog >>\nendobj\n${TEXT}`)]);
    for (const [file, start] of [
      [['image/png', Uint8Array.from([...png, ...utf8(TEXT)])], 8],
      [['application/pdf', pdf], 51],
      [['application/x-gettext-translation', catalog(EMAIL)], 78],
    ] as const) {
      const { generate, stream, records } = await sent([[file[0], file[1]]]);
      expect([generate, stream]).toEqual([[], []]);
      expect(records.slice(1)).toEqual([emailRecord(start), BLOCKED_BINARY]);
    }
  });

  it('nothing found: the files go on as they came', async () => {
    const files: Array<[string, FileData]> = [
      ['image/png', Uint8Array.from([...png, ...utf8('Nothing to see here.')])],
      ['application/x-gettext-translation', catalog('Jane')],
    ];
    const { generate, stream } = await sent(files);
    expect([generate, stream]).toEqual([[files], [files]]);
  });
});
