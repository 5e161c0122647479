import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { generateText, streamText, tool, wrapLanguageModel } from 'ai';
import type { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { blockWord, redactEmails, textModel, userPrompt, withoutTiming } from '../../test/helpers';
import { allow, defineGuardrail } from '../core/define-guardrail';
import { GuardrailConfigError } from '../core/errors';
import { NotShown } from '../core/redact-secrets';
import type { Guardrail } from '../core/types';
import { guardTools } from '../tools';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/** A guardrail that never settles; `started` resolves when it is first called, `signals` keeps its signals. */
function neverSettles(name = 'never') {
  const signals: AbortSignal[] = [];
  let markStarted!: () => void;
  const started = new Promise<void>(resolve => {
    markStarted = resolve;
  });
  const guardrail: Guardrail = defineGuardrail({
    name,
    check: (_text, ctx) => {
      signals.push(ctx.abortSignal);
      markStarted();
      return new Promise(() => {});
    },
  });
  return { guardrail, started, signals };
}

describe('abort', () => {
  it('an aborted generate call rejects with the abort error and stops the running guardrail', async () => {
    const slow = neverSettles();
    const mock = textModel('never');
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [slow.guardrail] }),
    });
    const controller = new AbortController();
    const call = generateText({ model, prompt: 'hello', abortSignal: controller.signal });
    await slow.started;
    controller.abort();
    const error = await call.catch(e => e);
    expect(error).toBeInstanceOf(DOMException);
    expect(error.name).toBe('AbortError');
    expect(slow.signals[0]!.aborted).toBe(true);
    expect(mock.doGenerateCalls).toHaveLength(0);
  });

  it("rejects with the signal's own reason, as an unguarded model call would", async () => {
    const model = wrapLanguageModel({
      model: textModel('ok'),
      middleware: guardrails({ input: [blockWord('bomb')] }),
    });
    const reason = new Error('user left');
    const controller = new AbortController();
    controller.abort(reason);
    await expect(
      generateText({ model, prompt: 'hello', abortSignal: controller.signal }),
    ).rejects.toBe(reason);
  });

  it('an aborted generate call rejects while an output guardrail runs', async () => {
    const slow = neverSettles();
    const model = wrapLanguageModel({
      model: textModel('answer'),
      middleware: guardrails({ output: [slow.guardrail] }),
    });
    const controller = new AbortController();
    const call = generateText({ model, prompt: 'hello', abortSignal: controller.signal });
    await slow.started;
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(slow.signals[0]!.aborted).toBe(true);
  });

  it('an aborted stream rejects with the abort error, during input and output checks', async () => {
    for (const kind of ['input', 'output'] as const) {
      const slow = neverSettles();
      const model = wrapLanguageModel({
        model: textModel(['an ', 'answer']),
        middleware: guardrails({ [kind]: [slow.guardrail] }),
      });
      const controller = new AbortController();
      const errors: unknown[] = [];
      const result = streamText({
        model,
        prompt: 'hello',
        abortSignal: controller.signal,
        onError: ({ error }) => {
          errors.push(error);
        },
      });
      const text = result.text;
      await slow.started;
      controller.abort();
      await expect(text).rejects.toMatchObject({ name: 'AbortError' });
      expect(slow.signals[0]!.aborted).toBe(true);
      expect(await Promise.resolve(result.finishReason).catch(() => 'rejected')).not.toBe(
        'content-filter',
      );
    }
  });

  it('the wrapped model stream errors with the abort, never a content-filter finish', async () => {
    // streamText also watches the signal; the model's own stream must not pretend a block happened.
    for (const kind of ['input', 'output'] as const) {
      const slow = neverSettles();
      const model = wrapLanguageModel({
        model: textModel(['an ', 'answer']),
        middleware: guardrails({ [kind]: [slow.guardrail] }),
      });
      const controller = new AbortController();
      const reason = new Error(`stopped during ${kind}`);
      const parts: unknown[] = [];
      const outcome = (async () => {
        const { stream } = await model.doStream({
          prompt: userPrompt('hello'),
          abortSignal: controller.signal,
        });
        for await (const part of stream as unknown as AsyncIterable<unknown>) parts.push(part);
      })();
      await slow.started;
      controller.abort(reason);
      await expect(outcome).rejects.toBe(reason);
      expect(JSON.stringify(parts)).not.toContain('content-filter');
    }
  });
});

describe('default timeout', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a never-settling input guardrail fails closed after the default 30 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const slow = neverSettles();
    const mock = textModel('never');
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [slow.guardrail] }),
    });
    const call = generateText({ model, prompt: 'hello' });
    await slow.started;
    await vi.advanceTimersByTimeAsync(29_999);
    expect(slow.signals[0]!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await call;
    expect(result.finishReason).toBe('content-filter');
    expect(mock.doGenerateCalls).toHaveLength(0);
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      { guardrail: 'never', kind: 'input', status: 'error', reason: 'timed out after 30000 ms' },
    ]);
    expect(slow.signals[0]!.aborted).toBe(true);
  });

  it('defaultTimeoutMs applies to output guardrails, in generate and in streams', async () => {
    const model = () =>
      wrapLanguageModel({
        model: textModel(['an ', 'answer']),
        middleware: guardrails({ output: [neverSettles().guardrail], defaultTimeoutMs: 20 }),
      });
    const generated = await generateText({ model: model(), prompt: 'hello' });
    expect(generated.finishReason).toBe('content-filter');
    expect(generated.text).toBe("Sorry, I can't help with that.");
    const streamed = streamText({ model: model(), prompt: 'hello' });
    expect(await streamed.text).toBe("Sorry, I can't help with that.");
    expect((await getGuardrailOutcome(streamed))?.records.map(r => r.reason)).toEqual([
      'timed out after 20 ms',
    ]);
  });

  it("a guardrail's own timeoutMs wins over the default", async () => {
    const ownLimit = defineGuardrail({
      name: 'own',
      timeoutMs: 10,
      check: () => new Promise(() => {}),
    });
    const model = wrapLanguageModel({
      model: textModel('ok'),
      middleware: guardrails({ input: [ownLimit], defaultTimeoutMs: 60_000 }),
    });
    const result = await generateText({ model, prompt: 'hello' });
    expect((await getGuardrailOutcome(result))?.records[0]?.reason).toBe('timed out after 10 ms');
  });

  it('a never-settling tool guardrail fails closed after the default 30 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const slow = neverSettles('never-tool');
    let ran = false;
    const tools = guardTools(
      {
        lookup: tool({
          inputSchema: z.object({ q: z.string() }),
          execute: async () => {
            ran = true;
            return 'found';
          },
        }),
      },
      { input: [slow.guardrail] },
    );
    const output = tools.lookup.execute!(
      { q: 'x' },
      { toolCallId: 'c1', messages: [], context: {} },
    );
    await slow.started;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await output).toMatchObject({
      status: 'blocked',
      guardrail: { guardrail: 'never-tool', status: 'error', reason: 'timed out after 30000 ms' },
    });
    expect(ran).toBe(false);
  });
});

describe('the per-call handoff from transformParams to wrapGenerate', () => {
  const params = (text: string): LanguageModelV4CallOptions => ({ prompt: userPrompt(text) });
  const doGenerate = (mock: MockLanguageModelV4, p: LanguageModelV4CallOptions) => () =>
    mock.doGenerate(p);

  it('params that bypassed transformParams are judged on the spot: a block still blocks', async () => {
    const middleware = guardrails({ input: [blockWord('bomb')] });
    const mock = textModel('never');
    const p = params('a bomb');
    const result = await middleware.wrapGenerate!({
      doGenerate: doGenerate(mock, p),
      doStream: vi.fn(),
      params: p,
      model: mock,
    });
    expect(result.finishReason.unified).toBe('content-filter');
    expect(mock.doGenerateCalls).toHaveLength(0);
  });

  it('output guardrails still run on such a call', async () => {
    const middleware = guardrails({ output: [blockWord('secret')] });
    const mock = textModel('the secret is out');
    const p = params('hello');
    const result = await middleware.wrapGenerate!({
      doGenerate: doGenerate(mock, p),
      doStream: vi.fn(),
      params: p,
      model: mock,
    });
    expect(result.finishReason.unified).toBe('content-filter');
  });

  it('a modification that cannot be applied there is a clear error, not a leak', async () => {
    const middleware = guardrails({ input: [redactEmails()] });
    const mock = textModel('never');
    const p = params('mail ann@corp.io');
    const error = await Promise.resolve(
      middleware.wrapGenerate!({
        doGenerate: doGenerate(mock, p),
        doStream: vi.fn(),
        params: p,
        model: mock,
      }),
    ).catch((e: unknown) => e as Error);
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('transformParams');
    expect(mock.doGenerateCalls).toHaveLength(0);
  });

  it('an unmodified passing call goes through', async () => {
    const middleware = guardrails({
      input: [defineGuardrail({ name: 'ok', check: () => allow() })],
    });
    const mock = textModel('fine');
    const p = params('hello');
    const result = await middleware.wrapGenerate!({
      doGenerate: doGenerate(mock, p),
      doStream: vi.fn(),
      params: p,
      model: mock,
    });
    expect(result.content).toEqual([{ type: 'text', text: 'fine' }]);
  });
});

describe('timeouts longer than a timer can wait', () => {
  // setTimeout runs a delay above 2^31 - 1 ms after 1 ms: such a timeoutMs
  // timed every check out at once, and with onError 'allow' let it pass.
  const tooLong = 2 ** 31;

  it('a guardrail with a timeoutMs above 2^31 - 1 ms is a config error, not an instant timeout', () => {
    expect(() =>
      defineGuardrail({
        name: 'slow-judge',
        timeoutMs: tooLong,
        onError: 'allow',
        check: async () => allow(),
      }),
    ).toThrow(
      new GuardrailConfigError({
        path: 'slow-judge.timeoutMs',
        // A number out of its range is quoted (round 39).
        value: new NotShown(String(tooLong)),
        expected: 'a positive number of milliseconds up to 2147483647 (the longest timer)',
      }),
    );
    expect(() => guardrails({ defaultTimeoutMs: tooLong })).toThrow(GuardrailConfigError);
    const handWritten: Guardrail = { name: 'x', timeoutMs: tooLong, check: () => allow() };
    expect(() => guardrails({ input: [handWritten] })).toThrow(
      /input\[0\]\.timeoutMs: expected a positive number of milliseconds up to 2147483647/,
    );
  });

  it('the longest timer is accepted and does not time a slow check out', async () => {
    const slow = defineGuardrail({
      name: 'slow-block',
      timeoutMs: 2 ** 31 - 1,
      onError: 'allow',
      check: async () => {
        await new Promise(resolve => setTimeout(resolve, 20));
        return { action: 'block', reason: 'judged' } as const;
      },
    });
    const result = await generateText({
      model: wrapLanguageModel({
        model: textModel('hi'),
        middleware: guardrails({ input: [slow] }),
      }),
      prompt: 'x',
    });
    expect(result.finishReason).toBe('content-filter');
    expect((await getGuardrailOutcome(result))?.records.map(r => [r.guardrail, r.status])).toEqual([
      ['slow-block', 'blocked'],
    ]);
  });
});
