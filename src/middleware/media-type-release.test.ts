import type { LanguageModelV4Content } from '@ai-sdk/provider';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, textModel, withoutTiming } from '../../test/helpers';
import { toolFileSent } from '../../test/helpers/tool-file';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/**
 * Round 24. A media type a guardrail changed went on as its bare type
 * whenever that bare type looked plain, as if the change could only have
 * been in its parameters. A value `isPlainMediaType` does not see (four
 * digits at most: `1.2.3.4`) in the subtype, with any parameter after it,
 * was redacted in the judged text and sent on as written:
 * `text/1.2.3.4; x=1` reached the model (a user's file, a tool's file) and
 * result.files (a generated file) as `text/1.2.3.4`. The bare type goes on
 * only when the judged text kept it. And a `reasoning-file`'s media type
 * (an assistant message's, with `inputScope: 'all'`) was not judged at all.
 */
const bytes = new TextEncoder().encode('meeting at noon');

async function promptFileSent(
  mediaType: string,
  type: 'file' | 'reasoning-file' = 'file',
): Promise<{ mediaType: unknown; records: unknown }> {
  const mock = textModel('ok');
  const part = { type, mediaType, data: bytes };
  const result = await generateText({
    model: wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [pii()], inputScope: type === 'file' ? 'user' : 'all' }),
    }),
    messages:
      type === 'file'
        ? [{ role: 'user', content: [{ type: 'text', text: 'Read this.' }, part as never] }]
        : [
            { role: 'user', content: 'Read this.' },
            { role: 'assistant', content: [part as never, { type: 'text', text: 'Read.' }] },
            { role: 'user', content: 'And?' },
          ],
  });
  const message = mock.doGenerateCalls[0]!.prompt[type === 'file' ? 0 : 1]!;
  const sent = (message.content as unknown as Array<Record<string, unknown>>)[
    type === 'file' ? 1 : 0
  ]!;
  const outcome = await getGuardrailOutcome(result);
  return {
    mediaType: sent.mediaType,
    records: withoutTiming(outcome?.records)?.filter(record => record.status !== 'passed'),
  };
}

const ipRecord = (extra: Record<string, unknown> = {}) => ({
  guardrail: 'pii',
  kind: 'input',
  status: 'modified',
  ...extra,
  part: 'file',
  info: { types: ['IP_ADDRESS'], spans: [{ type: 'IP_ADDRESS', start: 5, end: 12 }] },
});

describe('a media type changed in its type/subtype goes on as application/octet-stream', () => {
  it("a user's file: the redacted subtype never reaches the model", async () => {
    expect(await promptFileSent('text/1.2.3.4; x=1')).toEqual({
      mediaType: 'application/octet-stream',
      records: [ipRecord()],
    });
    // A change in the parameters only keeps the bare type, as before.
    expect((await promptFileSent('text/plain; host=1.2.3.4')).mediaType).toBe('text/plain');
  });

  it("a reasoning file's media type is judged as a file's, with inputScope 'all'", async () => {
    expect(await promptFileSent('text/1.2.3.4; x=1', 'reasoning-file')).toEqual({
      mediaType: 'application/octet-stream',
      records: [ipRecord({ role: 'assistant' })],
    });
    expect(await promptFileSent('text/plain; host=1.2.3.4', 'reasoning-file')).toEqual({
      mediaType: 'text/plain',
      records: [
        {
          ...ipRecord({ role: 'assistant' }),
          info: { types: ['IP_ADDRESS'], spans: [{ type: 'IP_ADDRESS', start: 17, end: 24 }] },
        },
      ],
    });
  });

  it("a tool's file (guardTools' toModelOutput)", async () => {
    expect((await toolFileSent(bytes, 'text/1.2.3.4; x=1')).mediaType).toBe(
      'application/octet-stream',
    );
    expect((await toolFileSent(bytes, 'text/plain; host=1.2.3.4')).mediaType).toBe('text/plain');
  });

  it('a generated file (result.files)', async () => {
    const file = (mediaType: string): LanguageModelV4Content => ({
      type: 'file',
      mediaType,
      data: { type: 'data', data: bytes },
    });
    const result = await generateText({
      model: wrapLanguageModel({
        model: new MockLanguageModelV4({
          doGenerate: async () =>
            generateResult([
              { type: 'text', text: 'Files.' },
              file('text/1.2.3.4; x=1'),
              file('text/plain; host=1.2.3.4'),
            ]),
        }),
        middleware: guardrails({ output: [pii({ action: 'redact' })] }),
      }),
      prompt: 'write the files',
    });
    expect(result.files.map(f => f.mediaType)).toEqual(['application/octet-stream', 'text/plain']);
  });
});
