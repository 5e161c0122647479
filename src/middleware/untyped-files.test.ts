import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel } from '../../test/helpers';
import { PNG_HEAD } from '../../test/helpers/binary-heads';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

/*
 * Round 19: a user file of media type `application/octet-stream`, or with
 * none, passed every guardrail without a record, through `generateText` and
 * a direct `doGenerate` alike, though a provider may send its bytes on as
 * text. Its bytes are now judged as text when they are UTF-8, and it is a
 * file no guardrail reads otherwise (`unreadableFiles`).
 */

const TEXT = 'Contact jane.doe@corp.io please';
const REDACTED = 'Contact [EMAIL_ADDRESS] please';
const bytesOf = (text: string) => new TextEncoder().encode(text);
/**
 * A PNG's signature and IHDR chunk: not UTF-8. (A signature with other bytes
 * behind it is no PNG: its readable runs, `PNG\r\n`, are judged, round 24.)
 */
const PNG = Uint8Array.from(PNG_HEAD);

const piiRecord = {
  guardrail: 'pii',
  status: 'modified',
  reason: undefined,
  info: { types: ['EMAIL_ADDRESS'], spans: [{ type: 'EMAIL_ADDRESS', start: 8, end: 24 }] },
};

/** A direct `doGenerate` of one user file: what the model got (its file part) and the records. */
async function direct(
  file: { mediaType?: string; data: unknown },
  unreadableFiles?: 'pass' | 'block',
) {
  const mock = textModel('ok');
  const model = wrapLanguageModel({
    model: mock,
    middleware: guardrails({ input: [pii({ action: 'redact' })], unreadableFiles }),
  });
  const result = await model.doGenerate({
    prompt: [
      { role: 'user', content: [{ type: 'file', ...file }] },
    ] as unknown as LanguageModelV4CallOptions['prompt'],
  });
  const records = (
    result.providerMetadata?.guardrails as { records?: Array<Record<string, unknown>> } | undefined
  )?.records?.map(({ guardrail, status, reason, info }) => ({ guardrail, status, reason, info }));
  const part = mock.doGenerateCalls[0]?.prompt[0]?.content[0] as
    | { mediaType?: string; data: { type: string; data: Uint8Array | string } }
    | undefined;
  return { part, records };
}

const sentText = (data: Uint8Array | string) =>
  typeof data === 'string'
    ? new TextDecoder().decode(Uint8Array.from(atob(data), c => c.charCodeAt(0)))
    : new TextDecoder().decode(data);

describe('a user file of no media type or application/octet-stream', () => {
  it('doGenerate: UTF-8 bytes are judged as text (they passed with no record)', async () => {
    for (const mediaType of ['application/octet-stream', undefined, '']) {
      const { part, records } = await direct({
        mediaType,
        data: { type: 'data', data: bytesOf(TEXT) },
      });
      expect(part?.mediaType).toBe(mediaType);
      expect(sentText(part!.data.data)).toBe(REDACTED);
      expect(records).toEqual([piiRecord]);
    }
  });

  it('doGenerate: base64 data is judged and goes on as base64', async () => {
    const { part, records } = await direct({
      mediaType: 'application/octet-stream',
      data: { type: 'data', data: btoa(TEXT) },
    });
    expect(part!.data.data).toBe(btoa(REDACTED));
    expect(records).toEqual([piiRecord]);
  });

  it('doGenerate: bytes that are not UTF-8 are a file no guardrail reads', async () => {
    const passed = await direct({
      mediaType: 'application/octet-stream',
      data: { type: 'data', data: PNG },
    });
    expect(passed.part!.data.data).toEqual(PNG);
    expect(passed.records).toEqual([]);
    const blocked = await direct(
      { mediaType: 'application/octet-stream', data: { type: 'data', data: PNG } },
      'block',
    );
    expect(blocked.part).toBeUndefined();
    expect(blocked.records).toEqual([
      {
        guardrail: 'unreadable-file',
        status: 'blocked',
        reason:
          "message 0 (user) was not judged: a file of type application/octet-stream, which no guardrail reads (unreadableFiles: 'block')",
        info: undefined,
      },
    ]);
  });

  it('doGenerate: UTF-8 text longer than can be judged fails closed, binary of that size passes unread', async () => {
    const long = new Uint8Array(3_000_010).fill(0x61);
    expect(await direct({ data: { type: 'data', data: long } })).toEqual({
      part: undefined,
      records: [
        {
          guardrail: 'input-unreadable',
          status: 'error',
          reason: 'message 0 (user) was not judged: a text file is longer than 1000000 characters',
          info: undefined,
        },
      ],
    });
    const binary = new Uint8Array(3_000_010).fill(0xff);
    const passed = await direct({ data: { type: 'data', data: binary } });
    expect(passed.records).toEqual([]);
    expect(passed.part!.data.data).toBe(binary);
  });

  it('doGenerate: UTF-8 bytes given as the data itself (AI SDK 6 form) fail closed, as a text file does', async () => {
    const { part, records } = await direct({
      mediaType: 'application/octet-stream',
      data: bytesOf(TEXT),
    });
    expect(part).toBeUndefined();
    expect(records).toEqual([
      {
        guardrail: 'input-unreadable',
        status: 'error',
        reason:
          'message 0 (user) was not judged: a file part the model reads as text could not be read',
        info: undefined,
      },
    ]);
  });

  it('generateText: the model receives the file redacted', async () => {
    const mock = textModel('ok');
    await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [pii({ action: 'redact' })] }),
      }),
      messages: [
        {
          role: 'user',
          content: [{ type: 'file', mediaType: 'application/octet-stream', data: bytesOf(TEXT) }],
        },
      ],
    });
    const part = mock.doGenerateCalls[0]!.prompt[0]!.content[0] as {
      mediaType: string;
      data: { type: string; data: Uint8Array };
    };
    expect(part.mediaType).toBe('application/octet-stream');
    expect(sentText(part.data.data)).toBe(REDACTED);
  });
});
