import type {
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as ai6 from 'ai-v6';
import * as ai6Test from 'ai-v6/test';
import { describe, expect, it } from 'vitest';
import {
  generateResult,
  guardedStreamParts,
  streamOf,
  userPrompt,
  withoutTiming,
} from '../../test/helpers';
import { pdfHolding, pngHolding } from '../../test/helpers/binary-heads';
import { allow, defineGuardrail } from '../core/define-guardrail';
import { GuardrailTripwireError } from '../core/errors';
import type { GuardrailContext, GuardrailOutcome } from '../core/types';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { type GuardrailsOptions, guardrails } from './guardrails-middleware';

// Round 20: the files a model generates (a `file` part of its response:
// `result.files`, the `file` stream part, the UI stream's data URL) were
// not judged by the output guardrails: a text/plain file with an e-mail
// address passed with status 'passed' and reached the browser as written.

const EMAIL = 'jane.doe@corp.io';
const TEXT = `Contact ${EMAIL} today.`;
const REDACTED = 'Contact [EMAIL_ADDRESS] today.';
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const bytesOf = (text: string) => new TextEncoder().encode(text);
const base64Of = (text: string) => btoa(String.fromCharCode(...bytesOf(text)));
/** The text of a file the AI SDK hands on (`result.files`). */
const textOf = (file: { uint8Array: Uint8Array }) => new TextDecoder().decode(file.uint8Array);
/** A PNG's signature and IHDR chunk, then bytes that read as an e-mail address: not UTF-8. */
const PNG = pngHolding([0xff, ...bytesOf(` ${EMAIL}`)]);

type FilePart = Extract<LanguageModelV4Content, { type: 'file' }>;
const file = (mediaType: string, data: Uint8Array | string): FilePart => ({
  type: 'file',
  mediaType,
  data: { type: 'data', data },
});

const emailRecord = (start: number) => ({
  guardrail: 'pii',
  kind: 'output',
  status: 'modified',
  info: { types: ['EMAIL_ADDRESS'], spans: [{ type: 'EMAIL_ADDRESS', start, end: start + 16 }] },
  part: 'file',
});
const textPassed = { guardrail: 'pii', kind: 'output', status: 'passed' };
const keyRecord = {
  guardrail: 'secrets',
  kind: 'output',
  status: 'blocked',
  message: 'The text contains credentials (AWS_ACCESS_KEY_ID).',
  reason: 'secrets: AWS_ACCESS_KEY_ID',
  severity: 'critical',
  info: { types: ['AWS_ACCESS_KEY_ID'], spans: [{ type: 'AWS_ACCESS_KEY_ID', start: 5, end: 25 }] },
  part: 'file',
};
const unreadable = (index: number, why: string) => ({
  guardrail: 'output-unreadable',
  kind: 'output',
  status: 'error',
  reason: `file ${index} of the response was withheld unjudged: ${why}`,
  part: 'file',
});

const redact = (): GuardrailsOptions => ({ output: [pii({ action: 'redact' })] });

/** The wrapped model's own generate result for one call. */
async function generated(
  content: LanguageModelV4Content[],
  options: GuardrailsOptions,
  extra: Partial<LanguageModelV4GenerateResult> = {},
): Promise<{
  content: unknown[];
  outcome: GuardrailOutcome;
  result: LanguageModelV4GenerateResult;
}> {
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doGenerate: async () => generateResult(content, extra) }),
    middleware: guardrails(options),
  });
  const result = await model.doGenerate({ prompt: userPrompt('write the file') });
  const outcome = result.providerMetadata?.guardrails as unknown as GuardrailOutcome;
  return { content: result.content, outcome, result };
}

/** The wrapped model's own stream for one call: every part, the finish without its metadata. */
function streamed(parts: LanguageModelV4StreamPart[], options: GuardrailsOptions) {
  return guardedStreamParts(parts, options, 'write the file');
}

const textParts = (text: string, id = 't1'): LanguageModelV4StreamPart[] => [
  { type: 'text-start', id },
  { type: 'text-delta', id, delta: text },
  { type: 'text-end', id },
];
const finishPart = { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' } };

describe('generated files: generate', () => {
  it('a text/plain file (base64) is redacted: result.files, result.content and the record', async () => {
    const result = await generateText({
      model: wrapLanguageModel({
        model: new MockLanguageModelV4({
          doGenerate: async () =>
            generateResult([
              { type: 'text', text: 'Here is the file.' },
              file('text/plain', base64Of(TEXT)),
            ]),
        }),
        middleware: guardrails(redact()),
      }),
      prompt: 'write the file',
    });
    expect(result.text).toBe('Here is the file.');
    expect(result.files.map(f => [f.mediaType, textOf(f), f.base64])).toEqual([
      ['text/plain', REDACTED, base64Of(REDACTED)],
    ]);
    expect(result.content.map(p => (p.type === 'file' ? textOf(p.file) : p.type))).toEqual([
      'text',
      REDACTED,
    ]);
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('modified');
    expect(withoutTiming(outcome?.records)).toEqual([emailRecord(8), textPassed]);
    expect(JSON.stringify(result.steps)).not.toContain(EMAIL);
    expect(JSON.stringify(result.steps)).not.toContain(base64Of(TEXT));
  });

  it('each encoding goes back in its own form: base64 string, Uint8Array, AI SDK 7 data', async () => {
    // The provider's raw body holds the file as the model wrote it.
    const body = { output: [{ type: 'file', data: base64Of(TEXT) }] };
    const { content, outcome, result } = await generated(
      [file('text/plain', base64Of(TEXT)), file('text/markdown', bytesOf(TEXT))],
      redact(),
      { response: { id: 'r1', body } },
    );
    // The body goes, and the id the provider stored the files under (round 36).
    expect(result.response).toEqual({});
    expect(content).toEqual([
      file('text/plain', base64Of(REDACTED)),
      file('text/markdown', bytesOf(REDACTED)),
    ]);
    expect(withoutTiming(outcome.records)).toEqual([emailRecord(8), emailRecord(8)]);
    expect(outcome.status).toBe('modified');
  });

  it('JSON, CSV, YAML, JavaScript, +json and untyped UTF-8 files are judged; a JSON escape hides nothing', async () => {
    const json = '{"contact":"jane.doe\\u0040corp.io"}';
    const { content, outcome } = await generated(
      [
        file('application/json', bytesOf(json)),
        file('text/csv', bytesOf(`name,email\nJane,${EMAIL}\n`)),
        file('application/yaml', bytesOf(`email: ${EMAIL}\n`)),
        file('application/javascript', bytesOf(`const to = "${EMAIL}";`)),
        file('application/vnd.api+json', bytesOf(`{"to":"${EMAIL}"}`)),
        file('application/octet-stream', bytesOf(TEXT)),
        { type: 'file', mediaType: '', data: { type: 'data', data: base64Of(TEXT) } },
      ],
      redact(),
    );
    expect(content).toEqual([
      file('application/json', bytesOf('{"contact":"[EMAIL_ADDRESS]"}')),
      file('text/csv', bytesOf('name,email\nJane,[EMAIL_ADDRESS]\n')),
      file('application/yaml', bytesOf('email: [EMAIL_ADDRESS]\n')),
      file('application/javascript', bytesOf('const to = "[EMAIL_ADDRESS]";')),
      file('application/vnd.api+json', bytesOf('{"to":"[EMAIL_ADDRESS]"}')),
      file('application/octet-stream', bytesOf(REDACTED)),
      { type: 'file', mediaType: '', data: { type: 'data', data: base64Of(REDACTED) } },
    ]);
    expect(outcome.records.map(r => [r.status, r.part])).toEqual(
      Array(7).fill(['modified', 'file']),
    );
    expect(JSON.stringify(content)).not.toContain('corp.io');
  });

  it('a block withholds the file: the response goes on, reported modified; the key is nowhere', async () => {
    const events: unknown[] = [];
    const { content, outcome, result } = await generated(
      [
        { type: 'text', text: 'Done.' },
        file('text/plain', bytesOf(`key: ${AWS_KEY}`)),
        file('text/plain', bytesOf('notes')),
      ],
      { output: [secrets()], onEvent: event => events.push(event) },
    );
    expect(content).toEqual([
      { type: 'text', text: 'Done.' },
      file('text/plain', bytesOf('notes')),
    ]);
    expect(result.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
    expect(outcome.status).toBe('modified');
    const passed = { guardrail: 'secrets', kind: 'output', status: 'passed' };
    expect(withoutTiming(outcome.records)).toEqual([
      keyRecord,
      { ...passed, part: 'file' },
      passed,
    ]);
    expect(JSON.stringify(outcome)).not.toContain(AWS_KEY);
    expect(JSON.stringify(events)).not.toContain(AWS_KEY);
  });

  it("onTrip 'throw': a blocked file throws a GuardrailTripwireError through generateText", async () => {
    const run = generateText({
      model: wrapLanguageModel({
        model: new MockLanguageModelV4({
          doGenerate: async () =>
            generateResult([
              { type: 'text', text: 'Done.' },
              file('text/plain', base64Of(`key: ${AWS_KEY}`)),
            ]),
        }),
        middleware: guardrails({ output: [secrets()], onTrip: 'throw' }),
      }),
      prompt: 'write the file',
    });
    const error = await run.catch(e => e);
    expect(GuardrailTripwireError.isInstance(error)).toBe(true);
    expect(withoutTiming([error.record])).toEqual([keyRecord]);
  });

  it('an image (its bytes holding an address) and a URL image pass unchanged, unjudged', async () => {
    const url = new URL('https://example.com/cat.png');
    const parts: LanguageModelV4Content[] = [
      { type: 'text', text: 'ok' },
      file('image/png', PNG),
      { type: 'file', mediaType: 'image/png', data: { type: 'url', url } },
      // A PDF: its header, a line marking it binary, its first object.
      file('application/pdf', pdfHolding(bytesOf(`(${EMAIL})`))),
    ];
    const { content, outcome } = await generated(parts, redact());
    expect(content).toEqual(parts);
    // The PDF's text outside its filtered stream is judged (round 23) and passes.
    expect(withoutTiming(outcome.records)).toEqual([{ ...textPassed, part: 'file' }, textPassed]);
    expect(outcome.status).toBe('passed');
  });

  it('a text file that cannot be read is withheld with an error record (fail closed)', async () => {
    const latin1 = Uint8Array.from([...bytesOf(`Contact ${EMAIL} caf`), 0xe9]);
    const { content, outcome } = await generated(
      [
        { type: 'text', text: 'ok' },
        file('text/plain', latin1),
        file('text/plain', '%%% not base64 %%%'),
        file('application/octet-stream', latin1),
        file('text/plain', bytesOf('x'.repeat(1_000_001))),
        {
          type: 'file',
          mediaType: 'text/plain',
          data: { type: 'url', url: new URL('https://example.com/notes.txt') },
        },
        {
          type: 'file',
          mediaType: 'text/plain',
          data: { type: 'url', url: new URL(`data:text/plain,${EMAIL}`) },
        },
      ],
      redact(),
    );
    expect(content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(withoutTiming(outcome.records)).toEqual([
      unreadable(0, 'its bytes are not UTF-8 text'),
      unreadable(1, 'a file part the model reads as text could not be read'),
      unreadable(2, 'its bytes are not UTF-8 text'),
      unreadable(3, 'a text file is longer than 1000000 characters'),
      unreadable(4, 'a file of a text type given by URL is fetched after the guardrails ran'),
      unreadable(5, 'a file given as a data: URL is not read (give its bytes)'),
      textPassed,
    ]);
    expect(outcome.status).toBe('modified');
    expect(JSON.stringify(outcome)).not.toContain('corp.io');
  });

  it('a guardrail is told it judges a file: ctx.kind, ctx.part and ctx.file', async () => {
    const seen: unknown[] = [];
    const spy = defineGuardrail({
      name: 'spy',
      check: (content, ctx: GuardrailContext) => {
        seen.push([content, ctx.kind, ctx.part, ctx.file]);
        return allow();
      },
    });
    await generated(
      [
        { type: 'text', text: 'ok' },
        file('image/png', PNG),
        file('text/plain; charset=utf-8', bytesOf('one')),
        file('application/json', base64Of('{"a":2}')),
      ],
      { output: [spy] },
    );
    expect(seen).toEqual([
      ['one', 'output', 'file', { type: 'file', mediaType: 'text/plain; charset=utf-8', index: 1 }],
      ['{"a":2}', 'output', 'file', { type: 'file', mediaType: 'application/json', index: 2 }],
      ['ok', 'output', undefined, undefined],
    ]);
  });
});

describe('generated files: reasoning files', () => {
  it('a reasoning-file is judged with checkReasoning only, as reasoning text is', async () => {
    const reasoningFile: LanguageModelV4Content = {
      type: 'reasoning-file',
      mediaType: 'text/plain',
      data: { type: 'data', data: bytesOf(TEXT) },
    };
    const judged = await generated([{ type: 'text', text: 'ok' }, reasoningFile], {
      ...redact(),
      checkReasoning: true,
    });
    expect(judged.content).toEqual([
      { type: 'text', text: 'ok' },
      { ...reasoningFile, data: { type: 'data', data: bytesOf(REDACTED) } },
    ]);
    expect(withoutTiming(judged.outcome.records)).toEqual([emailRecord(8), textPassed]);
    const unjudged = await generated([{ type: 'text', text: 'ok' }, reasoningFile], redact());
    expect(unjudged.content).toEqual([{ type: 'text', text: 'ok' }, reasoningFile]);
  });
});

describe('generated files: stream', () => {
  const parts = (data: Uint8Array | string): LanguageModelV4StreamPart[] => [
    ...textParts('Here it is.'),
    file('text/plain', data),
    ...textParts('Bye.', 't2'),
  ];

  for (const mode of ['hold', 'window', 'passthrough'] as const) {
    it(`${mode}: the file part is redacted before it is released, base64 and bytes`, async () => {
      for (const [data, redacted] of [
        [base64Of(TEXT), base64Of(REDACTED)],
        [bytesOf(TEXT), bytesOf(REDACTED)],
      ] as const) {
        const { parts: out, outcome } = await streamed(parts(data), {
          ...redact(),
          stream: { mode },
        });
        expect(out.filter(p => (p as { type: string }).type === 'file')).toEqual([
          file('text/plain', redacted),
        ]);
        expect(JSON.stringify(out)).not.toContain(EMAIL);
        expect(out.at(-1)).toEqual(finishPart);
        expect(outcome.status).toBe('modified');
        expect(withoutTiming(outcome.records).filter(r => r.part === 'file')).toEqual([
          emailRecord(8),
        ]);
      }
    });

    it(`${mode}: streamText's UI message stream never carries the address; text streams on`, async () => {
      const result = streamText({
        model: wrapLanguageModel({
          model: new MockLanguageModelV4({ doStream: async () => streamOf(parts(base64Of(TEXT))) }),
          middleware: guardrails({ ...redact(), stream: { mode } }),
        }),
        prompt: 'write the file',
      });
      const body = await result.toUIMessageStreamResponse().text();
      expect(body).toContain('Here it is.');
      expect(body).toContain('Bye.');
      expect(body).toContain(`data:text/plain;base64,${base64Of(REDACTED)}`);
      expect(body).not.toContain(EMAIL);
      expect(body).not.toContain(base64Of(TEXT));
      expect((await result.files).map(textOf)).toEqual([REDACTED]);
    });

    it(`${mode}: a blocked file is never released; 'throw' puts an error part in its place`, async () => {
      const blocked = [
        ...textParts('Here it is.'),
        file('text/plain', bytesOf(`key: ${AWS_KEY}`)),
        ...textParts('Bye.', 't2'),
      ];
      const { parts: out, outcome } = await streamed(blocked, {
        output: [secrets()],
        stream: { mode },
      });
      expect(out.filter(p => (p as { type: string }).type === 'file')).toEqual([]);
      expect(JSON.stringify(out)).not.toContain(AWS_KEY);
      expect(JSON.stringify(out)).toContain('Bye.');
      expect(outcome.status).toBe('modified');
      expect(withoutTiming(outcome.records).filter(r => r.part === 'file')).toEqual([keyRecord]);

      const thrown = await streamed(blocked, {
        output: [secrets()],
        stream: { mode },
        onTrip: 'throw',
      });
      const errors = thrown.parts.filter(p => (p as { type: string }).type === 'error') as {
        error: unknown;
      }[];
      expect(errors.length).toBe(1);
      expect(GuardrailTripwireError.isInstance(errors[0]!.error)).toBe(true);
      expect(thrown.parts.filter(p => (p as { type: string }).type === 'file')).toEqual([]);
    });
  }

  it('an image passes unchanged and a non-UTF-8 text file is withheld (window)', async () => {
    const latin1 = Uint8Array.from([...bytesOf(`Contact ${EMAIL} caf`), 0xe9]);
    const { parts: out, outcome } = await streamed(
      [...textParts('ok'), file('image/png', PNG), file('text/plain', latin1)],
      { ...redact(), stream: { mode: 'window' } },
    );
    expect(out.filter(p => (p as { type: string }).type === 'file')).toEqual([
      file('image/png', PNG),
    ]);
    expect(withoutTiming(outcome.records).filter(r => r.part === 'file')).toEqual([
      unreadable(1, 'its bytes are not UTF-8 text'),
    ]);
  });
});

describe('generated files: AI SDK 6 (specificationVersion v3)', () => {
  it("a file's base64 as its data itself is redacted in that form (ai@6 generateText)", async () => {
    const model = new ai6Test.MockLanguageModelV3({
      doGenerate: async () => ({
        content: [
          { type: 'text', text: 'ok' },
          { type: 'file', mediaType: 'text/plain', data: base64Of(TEXT) },
          { type: 'file', mediaType: 'image/png', data: PNG },
        ],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      }),
    });
    const result = await ai6.generateText({
      model: ai6.wrapLanguageModel({
        model,
        middleware: guardrails({ ...redact(), specificationVersion: 'v3' }),
      }),
      prompt: 'write the file',
    });
    expect(result.files.map(f => [f.mediaType, f.base64])).toEqual([
      ['text/plain', base64Of(REDACTED)],
      ['image/png', btoa(String.fromCharCode(...PNG))],
    ]);
  });

  it("ai@6 streamText: the file's bytes as its data itself are redacted before the UI stream", async () => {
    const model = new ai6Test.MockLanguageModelV3({
      doStream: async () => ({
        stream: ai6Test.convertArrayToReadableStream([
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: 'Here it is.' },
          { type: 'text-end', id: 't1' },
          { type: 'file', mediaType: 'text/plain', data: bytesOf(TEXT) },
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
    const result = ai6.streamText({
      model: ai6.wrapLanguageModel({
        model,
        middleware: guardrails({ ...redact(), specificationVersion: 'v3' }),
      }),
      prompt: 'write the file',
    });
    const body = await result.toUIMessageStreamResponse().text();
    expect(body).toContain(`data:text/plain;base64,${base64Of(REDACTED)}`);
    expect(body).not.toContain(EMAIL);
    expect(body).not.toContain(base64Of(TEXT));
  });
});
