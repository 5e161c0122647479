import * as ai7 from 'ai';
import * as ai6 from 'ai-v6';
import * as ai6Test from 'ai-v6/test';
import { describe, expect, it } from 'vitest';
import { textModel } from '../../test/helpers';
import { PNG_HEAD } from '../../test/helpers/binary-heads';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

/*
 * Round 19: AI SDK 6 (spec v3) gives a file part's bytes, base64 or URL as
 * its `data` itself, not AI SDK 7's `{ type: 'data', data }`. With
 * `specificationVersion: 'v3'`, a clean text/plain file read as "a file part
 * the model reads as text could not be read": the call ended with
 * `finishReason: 'content-filter'` and the model was never called. It is now
 * judged as text, as in the v4 path, and goes on in the form it came in.
 */

const CLEAN = 'Meeting notes: ship on Friday.';
const TEXT = 'Contact jane.doe@corp.io please';
const REDACTED = 'Contact [EMAIL_ADDRESS] please';
const bytesOf = (text: string) => new TextEncoder().encode(text);
/**
 * A PNG's signature and IHDR chunk: not UTF-8. (A signature with other bytes
 * behind it is no PNG: its readable runs, `PNG\r\n`, are judged, round 24.)
 */
const PNG = Uint8Array.from(PNG_HEAD);

type Options = Parameters<typeof guardrails>[0];
type Part = { type: string; mediaType?: string; data: unknown; filename?: string };

function v3Model() {
  return new ai6Test.MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
    doStream: async () => ({
      stream: ai6Test.convertArrayToReadableStream([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'ok' },
        { type: 'text-end', id: 't1' },
        {
          type: 'finish',
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 1, text: 1, reasoning: undefined },
          },
        },
      ]),
    }),
  });
}

/** The records without their timing. */
function recordsOf(providerMetadata: unknown) {
  const records = (providerMetadata as { guardrails?: { records?: Record<string, unknown>[] } })
    ?.guardrails?.records;
  return records?.map(({ durationMs: _, ...record }) => record);
}

/** `ai@6`'s generateText over one user file: the finish, the records and the parts the model got. */
async function viaAi6(file: Part, options: Omit<Options, 'specificationVersion'>) {
  const model = v3Model();
  const result = await ai6.generateText({
    model: ai6.wrapLanguageModel({
      model,
      middleware: guardrails({ ...options, specificationVersion: 'v3' }),
    }),
    messages: [{ role: 'user', content: [file as ai6.FilePart] }],
  });
  return {
    finishReason: result.finishReason,
    records: recordsOf(result.providerMetadata),
    sent: model.doGenerateCalls.map(call => call.prompt[0]!.content),
  };
}

/** `ai@7`'s generateText over the same file: what the v4 path does. */
async function viaAi7(file: Part, options: Options) {
  const model = textModel('ok');
  const result = await ai7.generateText({
    model: ai7.wrapLanguageModel({ model, middleware: guardrails(options) }),
    messages: [{ role: 'user', content: [file as ai7.FilePart] }],
  });
  return {
    finishReason: result.finishReason,
    records: recordsOf(result.providerMetadata),
    calls: model.doGenerateCalls.length,
  };
}

/** A direct v3 `doGenerate` of one user file part. */
async function directV3(part: Part, options: Omit<Options, 'specificationVersion'> = {}) {
  const model = v3Model();
  const wrapped = ai6.wrapLanguageModel({
    model,
    middleware: guardrails({
      input: [pii({ action: 'redact' })],
      ...options,
      specificationVersion: 'v3',
    }),
  });
  const result = await wrapped.doGenerate({
    prompt: [{ role: 'user', content: [part] }] as never,
  });
  return {
    records: recordsOf(result.providerMetadata),
    sent: model.doGenerateCalls.map(call => call.prompt[0]!.content),
  };
}

describe("AI SDK 6 (specificationVersion: 'v3'): a file's bytes as its data", () => {
  it('a clean text/plain file passes: the model is called with the file as it was', async () => {
    const data = bytesOf(CLEAN);
    const file = { type: 'file', mediaType: 'text/plain', data };
    expect(await viaAi6(file, { input: [pii()] })).toEqual({
      finishReason: 'stop',
      records: [{ guardrail: 'pii', kind: 'input', status: 'passed', part: 'file' }],
      sent: [
        [
          {
            type: 'file',
            mediaType: 'text/plain',
            filename: undefined,
            data: bytesOf(CLEAN),
            providerOptions: undefined,
          },
        ],
      ],
    });
    // The same file through AI SDK 7 is judged the same.
    expect(await viaAi7(file, { input: [pii()] })).toEqual({
      finishReason: 'stop',
      records: [{ guardrail: 'pii', kind: 'input', status: 'passed', part: 'file' }],
      calls: 1,
    });
  });

  it("a file with an e-mail address is blocked by pii({ action: 'block' }), as in the v4 path", async () => {
    const file = { type: 'file', mediaType: 'text/plain', data: bytesOf(TEXT) };
    const v3 = await viaAi6(file, { input: [pii({ action: 'block' })] });
    expect(v3.finishReason).toBe('content-filter');
    expect(v3.sent).toEqual([]);
    expect(v3.records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'blocked',
        part: 'file',
        message: 'The text contains personal data (EMAIL_ADDRESS).',
        reason: 'pii: EMAIL_ADDRESS',
        severity: 'warning',
        info: { types: ['EMAIL_ADDRESS'], spans: [{ type: 'EMAIL_ADDRESS', start: 8, end: 24 }] },
      },
    ]);
    const v4 = await viaAi7(file, { input: [pii({ action: 'block' })] });
    expect(v4).toEqual({ finishReason: 'content-filter', records: v3.records, calls: 0 });
  });

  it("with pii({ action: 'redact' }) the model gets the file redacted, as bytes", async () => {
    const file = { type: 'file', mediaType: 'text/plain; charset=utf-8', data: bytesOf(TEXT) };
    const { finishReason, records, sent } = await viaAi6(file, {
      input: [pii({ action: 'redact' })],
    });
    expect(finishReason).toBe('stop');
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        part: 'file',
        info: { types: ['EMAIL_ADDRESS'], spans: [{ type: 'EMAIL_ADDRESS', start: 8, end: 24 }] },
      },
    ]);
    expect(sent).toEqual([
      [
        {
          type: 'file',
          mediaType: 'text/plain; charset=utf-8',
          filename: undefined,
          data: bytesOf(REDACTED),
          providerOptions: undefined,
        },
      ],
    ]);
  });

  it('base64 data (a data: URL through generateText, or a direct doGenerate) goes on as base64', async () => {
    const file = {
      type: 'file',
      mediaType: 'text/plain',
      data: `data:text/plain;base64,${btoa(TEXT)}`,
    };
    const viaText = await viaAi6(file, { input: [pii({ action: 'redact' })] });
    expect(viaText.sent).toEqual([
      [
        {
          type: 'file',
          mediaType: 'text/plain',
          filename: undefined,
          data: btoa(REDACTED),
          providerOptions: undefined,
        },
      ],
    ]);
    const direct = await directV3({ type: 'file', mediaType: 'text/markdown', data: btoa(TEXT) });
    expect(direct.sent).toEqual([
      [{ type: 'file', mediaType: 'text/markdown', data: btoa(REDACTED) }],
    ]);
    expect(direct.records).toEqual(viaText.records);
  });

  it('application/octet-stream UTF-8 bytes are judged as text; bytes that are not UTF-8 are a file no guardrail reads', async () => {
    const { finishReason, records, sent } = await viaAi6(
      { type: 'file', mediaType: 'application/octet-stream', data: bytesOf(TEXT) },
      { input: [pii({ action: 'redact' })] },
    );
    expect(finishReason).toBe('stop');
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        part: 'file',
        info: { types: ['EMAIL_ADDRESS'], spans: [{ type: 'EMAIL_ADDRESS', start: 8, end: 24 }] },
      },
    ]);
    expect(sent[0]![0]).toMatchObject({
      mediaType: 'application/octet-stream',
      data: bytesOf(REDACTED),
    });
    // No media type at all (a direct call; generateText requires one).
    const untyped = await directV3({ type: 'file', data: bytesOf(TEXT) } as Part);
    expect(untyped.sent).toEqual([[{ type: 'file', data: bytesOf(REDACTED) }]]);

    const png = { type: 'file', mediaType: 'application/octet-stream', data: PNG };
    const passed = await viaAi6(png, { input: [pii({ action: 'redact' })] });
    expect(passed.records).toEqual([]);
    expect(passed.sent[0]![0]).toMatchObject({ data: PNG });
    const blocked = await viaAi6(png, {
      input: [pii({ action: 'redact' })],
      unreadableFiles: 'block',
    });
    expect(blocked).toEqual({
      finishReason: 'content-filter',
      sent: [],
      records: [
        {
          guardrail: 'unreadable-file',
          kind: 'input',
          status: 'blocked',
          part: 'file',
          reason:
            "message 0 (user) was not judged: a file of type application/octet-stream, which no guardrail reads (unreadableFiles: 'block')",
        },
      ],
    });
  });

  it('a file given by URL: an https image is a file no guardrail reads, a text one or a data: URL object fails closed', async () => {
    const url = new URL('https://example.com/cat.png');
    const passed = await directV3({ type: 'file', mediaType: 'image/png', data: url });
    expect(passed).toEqual({
      records: [],
      sent: [[{ type: 'file', mediaType: 'image/png', data: url }]],
    });
    const refused = await directV3(
      { type: 'file', mediaType: 'image/png', data: url },
      { unreadableFiles: 'block' },
    );
    expect(refused.sent).toEqual([]);
    expect(refused.records?.map(r => r.guardrail)).toEqual(['unreadable-file']);
    // Round 21: a text file by URL, which the provider fetches after the guardrails ran.
    const text = await directV3({
      type: 'file',
      mediaType: 'text/plain',
      data: new URL('https://example.com/notes.txt'),
    });
    expect(text.sent).toEqual([]);
    expect(text.records?.map(r => [r.guardrail, r.reason])).toEqual([
      [
        'input-unreadable',
        'message 0 (user) was not judged: a text file given by URL is fetched after the guardrails ran (give its bytes)',
      ],
    ]);
    const dataUrl = await directV3({
      type: 'file',
      mediaType: 'text/plain',
      data: new URL(`data:text/plain;base64,${btoa(TEXT)}`),
    });
    expect(dataUrl).toEqual({
      sent: [],
      records: [
        {
          guardrail: 'input-unreadable',
          kind: 'input',
          status: 'error',
          part: 'file',
          reason:
            'message 0 (user) was not judged: a file given as a data: URL is not read (give its bytes)',
        },
      ],
    });
  });

  it('streamText: the model streams from the redacted file', async () => {
    const model = v3Model();
    const result = ai6.streamText({
      model: ai6.wrapLanguageModel({
        model,
        middleware: guardrails({ input: [pii({ action: 'redact' })], specificationVersion: 'v3' }),
      }),
      messages: [
        {
          role: 'user',
          content: [{ type: 'file', mediaType: 'text/plain', data: bytesOf(TEXT) }],
        },
      ],
    });
    expect(await result.text).toBe('ok');
    expect(await result.finishReason).toBe('stop');
    expect(model.doStreamCalls[0]!.prompt[0]!.content).toEqual([
      {
        type: 'file',
        mediaType: 'text/plain',
        filename: undefined,
        data: bytesOf(REDACTED),
        providerOptions: undefined,
      },
    ]);
  });

  it("an assistant's file with inputScope 'all' is judged too", async () => {
    const model = v3Model();
    await ai6.generateText({
      model: ai6.wrapLanguageModel({
        model,
        middleware: guardrails({
          input: [pii({ action: 'redact' })],
          inputScope: 'all',
          specificationVersion: 'v3',
        }),
      }),
      messages: [
        { role: 'user', content: 'Summarise it' },
        {
          role: 'assistant',
          content: [{ type: 'file', mediaType: 'text/plain', data: bytesOf(TEXT) }],
        },
        { role: 'user', content: 'Thanks' },
      ],
    });
    expect(model.doGenerateCalls[0]!.prompt[1]!.content).toEqual([
      {
        type: 'file',
        mediaType: 'text/plain',
        filename: undefined,
        data: bytesOf(REDACTED),
        providerOptions: undefined,
      },
    ]);
  });
});
