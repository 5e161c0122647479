import type { LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, readAll, streamOf, textParts } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

// Round 20: a generated file's own providerMetadata (where a provider may
// echo the file's content) was kept when a guardrail redacted the file's
// data: result.content, response.messages' providerOptions, the file
// stream part and the UI stream's file chunk still quoted the address.

const EMAIL = 'jane.doe@corp.io';
const TEXT = `Contact ${EMAIL} today.`;
const REDACTED = 'Contact [EMAIL_ADDRESS] today.';
const bytesOf = (text: string) => new TextEncoder().encode(text);
const textOf = (file: { uint8Array: Uint8Array }) => new TextDecoder().decode(file.uint8Array);
/** The provider's own data of a file: it echoes what the model wrote. */
const echo = (text: string) => ({ acme: { fileId: 'f-1', preview: text } });

type FilePart = Extract<LanguageModelV4Content, { type: 'file' | 'reasoning-file' }>;
const file = (text: string, type: FilePart['type'] = 'file'): FilePart => ({
  type,
  mediaType: 'text/plain',
  data: { type: 'data', data: bytesOf(text) },
  providerMetadata: echo(text),
});

const redact = { output: [pii({ action: 'redact' })], checkReasoning: true };

describe('a redacted generated file loses its provider metadata', () => {
  it('generateText: result.content, files and response.messages; an unchanged file keeps it', async () => {
    const result = await generateText({
      model: wrapLanguageModel({
        model: new MockLanguageModelV4({
          doGenerate: async () =>
            generateResult([
              { type: 'text', text: 'Here.' },
              file(TEXT),
              file('no address here'),
              file(TEXT, 'reasoning-file'),
            ]),
        }),
        middleware: guardrails(redact),
      }),
      prompt: 'write the file',
    });
    expect(
      result.content.map(part =>
        part.type === 'file' || part.type === 'reasoning-file'
          ? [part.type, textOf(part.file), part.providerMetadata]
          : part.type,
      ),
    ).toEqual([
      'text',
      ['file', REDACTED, undefined],
      ['file', 'no address here', echo('no address here')],
      ['reasoning-file', REDACTED, undefined],
    ]);
    expect(JSON.stringify(result.response.messages)).not.toContain(EMAIL);
    expect(JSON.stringify(result.steps)).not.toContain(EMAIL);
    expect(JSON.stringify(result.response.messages)).toContain('no address here');
  });

  for (const mode of ['hold', 'window', 'passthrough'] as const) {
    it(`streamText ${mode}: the file part, the UI stream and the step's content`, async () => {
      const parts: LanguageModelV4StreamPart[] = [
        ...textParts(['Here.']),
        file(TEXT),
        file('no address here'),
      ];
      const run = () =>
        streamText({
          model: wrapLanguageModel({
            model: new MockLanguageModelV4({ doStream: async () => streamOf(parts) }),
            middleware: guardrails({ ...redact, stream: { mode } }),
          }),
          prompt: 'write the file',
        });
      const result = run();
      const files = (await readAll(result.fullStream)).filter(part => part.type === 'file');
      expect(files.map(part => [textOf(part.file), part.providerMetadata])).toEqual([
        [REDACTED, undefined],
        ['no address here', echo('no address here')],
      ]);
      expect(JSON.stringify(await result.steps)).not.toContain(EMAIL);
      expect(JSON.stringify((await result.response).messages)).not.toContain(EMAIL);

      const body = await run().toUIMessageStreamResponse().text();
      expect(body).toContain('Here.');
      expect(body).toContain('"preview":"no address here"');
      expect(body).not.toContain(EMAIL);
    });
  }
});
