import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { blockWord, readAll, redactEmails, textModel, userPrompt } from '../../test/helpers';
import { GuardrailConfigError } from '../core/errors';
import { guardrails } from './guardrails-middleware';

/**
 * The middleware hands each call from `transformParams` to `wrapStream` through
 * the params object `transformParams` returned. A composition that copies the
 * params in between (here `{ ...transformed }`) misses that handoff: the call
 * must still be judged, never streamed unchecked.
 */
async function streamWithCopiedParams(
  middleware: ReturnType<typeof guardrails>,
  prompt: string,
  answer: string[],
) {
  const mock = textModel(answer);
  const params: LanguageModelV4CallOptions = { prompt: userPrompt(prompt) };
  const transformed = await middleware.transformParams!({ params, type: 'stream', model: mock });
  const copied = { ...transformed };
  const result = await middleware.wrapStream!({
    doStream: () => mock.doStream(copied),
    doGenerate: () => mock.doGenerate(copied),
    params: copied,
    model: mock,
  });
  const parts = await readAll<LanguageModelV4StreamPart>(result.stream);
  const text = parts.flatMap(part => (part.type === 'text-delta' ? [part.delta] : [])).join('');
  const finish = parts.find(part => part.type === 'finish');
  return {
    text,
    finish,
    modelCalls: mock.doStreamCalls.length,
    sent: mock.doStreamCalls[0]?.prompt,
  };
}

describe('a streamed call whose params missed the transformParams handoff', () => {
  it('still runs the output guardrails (window mode redacts)', async () => {
    const { text } = await streamWithCopiedParams(
      guardrails({ output: [redactEmails()], stream: { mode: 'window' } }),
      'hello',
      ['write to ann', '@corp.io today'],
    );
    expect(text).toBe('write to [EMAIL] today');
  });

  it('still runs the output guardrails (hold mode blocks)', async () => {
    const { text, finish } = await streamWithCopiedParams(
      guardrails({ output: [blockWord('secret')] }),
      'hello',
      ['the sec', 'ret is out'],
    );
    expect(text).toBe('"secret" is not allowed.');
    expect(finish).toMatchObject({ finishReason: { unified: 'content-filter' } });
  });

  it('judges the input on the spot: a block blocks without calling the model', async () => {
    const { finish, modelCalls } = await streamWithCopiedParams(
      guardrails({ input: [blockWord('bomb')] }),
      'a bomb',
      ['never'],
    );
    expect(finish).toMatchObject({ finishReason: { unified: 'content-filter' } });
    expect(modelCalls).toBe(0);
  });

  it('a copy of already-redacted params is judged again and goes out redacted', async () => {
    const { text, modelCalls, sent } = await streamWithCopiedParams(
      guardrails({ input: [redactEmails()] }),
      'mail ann@corp.io',
      ['ok'],
    );
    expect(text).toBe('ok');
    expect(modelCalls).toBe(1);
    expect(sent).toEqual(userPrompt('mail [EMAIL]'));
  });

  it('params that skipped transformParams and need a redaction: a GuardrailConfigError, the model is not called', async () => {
    const middleware = guardrails({ input: [redactEmails()] });
    const mock = textModel('never');
    const params: LanguageModelV4CallOptions = { prompt: userPrompt('mail ann@corp.io') };
    const error = await Promise.resolve(
      middleware.wrapStream!({
        doStream: () => mock.doStream(params),
        doGenerate: () => mock.doGenerate(params),
        params,
        model: mock,
      }),
    ).catch((e: unknown) => e);
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('transformParams');
    expect(mock.doStreamCalls).toHaveLength(0);
  });
});
