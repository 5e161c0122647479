import type { LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, streamOf, withoutTiming } from '../../test/helpers';
import { pdfHolding, pngHolding } from '../../test/helpers/binary-heads';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

// Round 21: a model names the type of the file it generates, and only text
// types were read: `Contact jane.doe@corp.io` as `application/x-pem-file`,
// `application/jsonl`, `message/rfc822` or `image/png`, and UTF-16 text of
// no type, passed every output guardrail unread into result.files, the file
// stream part and the UI stream. Bytes of any type that are text (strict
// UTF-8, or UTF-16 after its byte order mark) are judged now; an image, a
// PDF and other binary bytes still pass unjudged.

const EMAIL = 'jane.doe@corp.io';
const TEXT = `Contact ${EMAIL} today.`;
const REDACTED = 'Contact [EMAIL_ADDRESS] today.';
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const bytesOf = (text: string) => new TextEncoder().encode(text);
const base64Of = (text: string) => btoa(String.fromCharCode(...bytesOf(text)));
const textOf = (file: { uint8Array: Uint8Array }) => new TextDecoder().decode(file.uint8Array);
/** UTF-16 LE with its byte order mark. */
const utf16le = (text: string) =>
  Uint8Array.from([0xff, 0xfe, ...[...text].flatMap(c => [c.charCodeAt(0), 0])]);
const PNG = pngHolding(bytesOf(TEXT));

type FilePart = Extract<LanguageModelV4Content, { type: 'file' }>;
const file = (mediaType: string, data: Uint8Array | string): FilePart => ({
  type: 'file',
  mediaType,
  data: { type: 'data', data },
});

function generateModel(content: LanguageModelV4Content[], output = [pii({ action: 'redact' })]) {
  return wrapLanguageModel({
    model: new MockLanguageModelV4({
      doGenerate: async () => generateResult([{ type: 'text', text: 'Files.' }, ...content]),
    }),
    middleware: guardrails({ output }),
  });
}

describe('generated files of a type that is not a text type', () => {
  it('text bytes are judged whatever the type: redacted in result.files, steps and messages', async () => {
    const types = [
      'application/x-pem-file',
      'application/jsonl',
      'message/rfc822',
      'image/png',
      'text /plain',
    ];
    const result = await generateText({
      model: generateModel(types.map(type => file(type, base64Of(TEXT)))),
      prompt: 'write the files',
    });
    expect(result.files.map(f => [f.mediaType, textOf(f)])).toEqual(
      types.map(type => [type, REDACTED]),
    );
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('modified');
    expect(outcome?.records.map(r => [r.guardrail, r.status, r.part])).toEqual([
      ...types.map(() => ['pii', 'modified', 'file']),
      ['pii', 'passed', undefined],
    ]);
    const everything = JSON.stringify([result.steps, result.response.messages]);
    expect(everything).not.toContain(EMAIL);
    expect(everything).not.toContain(base64Of(TEXT));
  });

  it('UTF-16 after its byte order mark (untyped or any type) is read; it goes back as UTF-8', async () => {
    const result = await generateText({
      model: generateModel([
        file('application/octet-stream', utf16le(TEXT)),
        file('application/x-notes', utf16le(TEXT)),
      ]),
      prompt: 'write the files',
    });
    expect(result.files.map(f => [f.mediaType, textOf(f)])).toEqual([
      ['application/octet-stream; charset=utf-8', REDACTED],
      ['application/x-notes; charset=utf-8', REDACTED],
    ]);
  });

  it('URL-safe base64 (the AI SDK decodes it) of any type is read, not passed as binary', async () => {
    const text = `${TEXT} ??>>`;
    const urlSafe = base64Of(text).replace(/\+/g, '-').replace(/\//g, '_');
    expect(urlSafe).toContain('-');
    const result = await generateText({
      model: generateModel([file('application/x-pem-file', urlSafe)]),
      prompt: 'write the file',
    });
    expect(result.files.map(f => [f.mediaType, textOf(f)])).toEqual([
      ['application/x-pem-file', `${REDACTED} ??>>`],
    ]);
    expect(JSON.stringify(result.steps)).not.toContain(urlSafe);
  });

  it('a key in a file labelled image/png is withheld (generate and every stream mode)', async () => {
    const labelled = file('image/png', bytesOf(`key: ${AWS_KEY}`));
    const generated = await generateText({
      model: generateModel([labelled], [secrets()]),
      prompt: 'write the file',
    });
    expect(generated.files).toEqual([]);
    expect(JSON.stringify(generated.steps)).not.toContain(AWS_KEY);
    for (const mode of ['hold', 'window', 'passthrough'] as const) {
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Files.' },
        { type: 'text-end', id: 't1' },
        labelled,
      ];
      const result = streamText({
        model: wrapLanguageModel({
          model: new MockLanguageModelV4({ doStream: async () => streamOf(parts) }),
          middleware: guardrails({ output: [secrets()], stream: { mode } }),
        }),
        prompt: 'write the file',
      });
      const ui: string[] = [];
      for await (const chunk of result.toUIMessageStream()) ui.push(JSON.stringify(chunk));
      expect(await result.files).toEqual([]);
      expect(ui.join('\n')).not.toContain(btoa(`key: ${AWS_KEY}`));
      const outcome = await getGuardrailOutcome(result);
      expect(
        withoutTiming(outcome?.records)
          .filter(r => r.part === 'file')
          .map(r => [r.guardrail, r.status]),
      ).toEqual([['secrets', 'blocked']]);
    }
  });

  it('binary bytes still pass unjudged: a PNG, a PDF marked binary, random bytes', async () => {
    const pdf = pdfHolding(bytesOf(`\n${TEXT}`));
    const random = Uint8Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24);
    const parts = [
      file('image/png', PNG),
      file('application/pdf', pdf),
      file('audio/mpeg', random),
    ];
    const result = await generateText({ model: generateModel(parts), prompt: 'write the files' });
    expect(result.files.map(f => [f.mediaType, [...f.uint8Array]])).toEqual(
      parts.map(part => [part.mediaType, [...(part.data as { data: Uint8Array }).data]]),
    );
    const outcome = await getGuardrailOutcome(result);
    // The PDF's text outside its filtered stream is judged (round 23) and passes.
    expect(outcome?.records.map(r => [r.status, r.part])).toEqual([
      ['passed', 'file'],
      ['passed', undefined],
    ]);
  });

  it('text of any type past 1,000,000 characters is withheld unjudged (fail closed), never decoded whole', async () => {
    const long = bytesOf(`${EMAIL} `.repeat(200_000)); // 3,400,000 bytes
    const result = await generateText({
      model: generateModel([file('application/x-log', long)]),
      prompt: 'write the file',
    });
    expect(result.files).toEqual([]);
    const outcome = await getGuardrailOutcome(result);
    expect(withoutTiming(outcome?.records).filter(r => r.part === 'file')).toEqual([
      {
        guardrail: 'output-unreadable',
        kind: 'output',
        status: 'error',
        reason:
          'file 0 of the response was withheld unjudged: a text file is longer than 1000000 characters',
        part: 'file',
      },
    ]);
  });

  it('text with a junk byte every second character is withheld, as other text with bytes that are not UTF-8', async () => {
    const prose = `Please charge card 4111 1111 1111 1111 for the order and mail the receipt to me today.`;
    const junky = Uint8Array.from([...bytesOf(prose)].flatMap(byte => [byte, 0xff]));
    const result = await generateText({
      model: generateModel([file('application/x-notes', junky)]),
      prompt: 'write the file',
    });
    expect(result.files).toEqual([]);
    const outcome = await getGuardrailOutcome(result);
    expect(withoutTiming(outcome?.records).filter(r => r.part === 'file')).toEqual([
      {
        guardrail: 'output-unreadable',
        kind: 'output',
        status: 'error',
        reason: 'file 0 of the response was withheld unjudged: its bytes are not UTF-8 text',
        part: 'file',
      },
    ]);
  });
});

// Round 23: the text after a PNG's chunks was never read, and UTF-8 with
// NULs (a `.mo` catalog's strings, a NUL-separated list) was redacted into
// its bytes. Both are judged now and never rewritten: a change withholds the
// file, nothing found releases it as it came. (A `.mo` catalog's header is
// no UTF-8, so a generated one is withheld unjudged, as since round 21.)
describe("generated files whose bytes are not text's", () => {
  it('a value after a PNG or in NUL-separated records withholds the file; a clean one goes on as it came', async () => {
    const records = (value: string) =>
      bytesOf(
        [
          'customer id\u0000full name\u0000contact address',
          `customer 7\u0000Jane Doe of Accounting\u0000mail: ${value}\n`,
          'customer 8\u0000Joe Bloggs of Sales\u0000none given',
        ].join('\u0000'),
      );
    const png = pngHolding(Uint8Array.from({ length: 2048 }, (_, i) => (i * 2654435761) >>> 24));
    const parts = [
      file('image/png', Uint8Array.from([...png, ...bytesOf(TEXT)])),
      file('application/x-records', records(EMAIL)),
      file('image/png', Uint8Array.from([...png, ...bytesOf('Nothing here.')])),
      file('application/x-records', records('none')),
    ];
    const result = await generateText({ model: generateModel(parts), prompt: 'write the files' });
    expect(result.files.map(f => [f.mediaType, [...f.uint8Array]])).toEqual(
      parts.slice(2).map(part => [part.mediaType, [...(part.data as { data: Uint8Array }).data]]),
    );
    const outcome = await getGuardrailOutcome(result);
    const withheld = (index: number) => [
      'output-unreadable',
      'error',
      `file ${index} of the response was withheld: a guardrail changed the text read from a file that is not text, whose bytes are never rewritten`,
    ];
    expect(withoutTiming(outcome?.records).map(r => [r.guardrail, r.status, r.reason])).toEqual([
      ['pii', 'modified', undefined],
      withheld(0),
      ['pii', 'modified', undefined],
      withheld(1),
      ['pii', 'passed', undefined],
      ['pii', 'passed', undefined],
      ['pii', 'passed', undefined],
    ]);
  });
});
