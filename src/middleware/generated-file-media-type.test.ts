import type { LanguageModelV4Content } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, streamOf } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

// Round 21: the media type of a generated file is the model's text too. A
// file of clean bytes as `text/plain; name="AKIAIOSFODNN7EXAMPLE"` reached
// result.files with the key in its mediaType: only the bytes were judged.

const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const bytesOf = (text: string) => new TextEncoder().encode(text);
type FilePart = Extract<LanguageModelV4Content, { type: 'file' }>;
const file = (mediaType: string, text: string): FilePart => ({
  type: 'file',
  mediaType,
  data: { type: 'data', data: bytesOf(text) },
});
const middleware = () =>
  guardrails({ output: [secrets({ action: 'redact' }), pii({ action: 'redact' })] });

describe("a generated file's media type", () => {
  it('is judged: a key or an address in its parameters never reaches result.files', async () => {
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({
        doGenerate: async () =>
          generateResult([
            { type: 'text', text: 'Files.' },
            file(`text/plain; name="${AWS_KEY}"`, 'hello'),
            file('application/json; owner=jane.doe@corp.io', '{}'),
            file('text/plain; charset=utf-8', 'plain'),
            file('image/png', 'png'),
          ]),
      }),
      middleware: middleware(),
    });
    const result = await generateText({ model, prompt: 'write the files' });
    const types = result.files.map(f => f.mediaType);
    expect(types).toEqual([
      'text/plain',
      'application/json',
      'text/plain; charset=utf-8',
      'image/png',
    ]);
    expect(JSON.stringify(result.response.messages)).not.toContain(AWS_KEY);
    expect(JSON.stringify(result.response.messages)).not.toContain('jane.doe');
  });

  it('is judged in a stream', async () => {
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({
        doStream: async () => streamOf([file(`text/plain; name="${AWS_KEY}"`, 'hello')]),
      }),
      middleware: middleware(),
    });
    const result = streamText({ model, prompt: 'write the file' });
    const files: string[] = [];
    for await (const part of result.fullStream)
      if (part.type === 'file') files.push(part.file.mediaType);
    expect(files).toEqual(['text/plain']);
  });

  it('a block withholds the file; a plain type adds no record', async () => {
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({
        doGenerate: async () =>
          generateResult([
            { type: 'text', text: 'Files.' },
            file(`text/plain; name="${AWS_KEY}"`, 'hello'),
            file('text/plain', 'plain'),
          ]),
      }),
      middleware: guardrails({ output: [secrets({ action: 'block' })] }),
    });
    const result = await generateText({ model, prompt: 'write the files' });
    expect(result.text).toBe('Files.');
    expect(result.files.map(f => f.mediaType)).toEqual(['text/plain']);
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.records.map(r => [r.guardrail, r.status, r.part])).toEqual([
      ['secrets', 'blocked', 'file'],
      ['secrets', 'passed', 'file'],
      ['secrets', 'passed', undefined],
    ]);
    expect(JSON.stringify(outcome)).not.toContain(AWS_KEY);
  });
});

// Round 22: a plain `type/subtype` was never judged, but a subtype of lower-case letters,
// digits, dots and dashes carries a card number as well as a parameter does.
describe("a generated file's plain media type that carries a value", () => {
  it('is judged: a card number in the subtype never reaches result.files', async () => {
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({
        doGenerate: async () =>
          generateResult([
            { type: 'text', text: 'Files.' },
            file('text/4111-1111-1111-1111', 'hello'),
            file('image/x.4111111111111111', 'png'),
            file('text/4111111111111111; charset=utf-8', 'hi'),
            file('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'doc'),
          ]),
      }),
      middleware: middleware(),
    });
    const result = await generateText({ model, prompt: 'write the files' });
    expect(result.files.map(f => f.mediaType)).toEqual([
      'application/octet-stream',
      'application/octet-stream',
      'application/octet-stream',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ]);
    expect(JSON.stringify(result.response.messages)).not.toMatch(/4111.?1111.?1111.?1111/);
    const outcome = await getGuardrailOutcome(result);
    // The three types are redacted (the bytes, judged after, pass); the long word type is not judged.
    const modified = outcome?.records.filter(r => r.status === 'modified');
    const card = (start: number, end: number) => ({
      types: ['CREDIT_CARD'],
      spans: [{ type: 'CREDIT_CARD', start, end }],
    });
    expect(modified?.map(r => [r.guardrail, r.part, r.info])).toEqual([
      ['pii', 'file', card(5, 24)],
      ['pii', 'file', card(8, 24)],
      ['pii', 'file', card(5, 21)],
    ]);
    expect(JSON.stringify(outcome)).not.toMatch(/4111.?1111.?1111.?1111/);
  });
});
