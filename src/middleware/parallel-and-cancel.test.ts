import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  configIssuesOf,
  generateResult,
  notShownString,
  readAll,
  textParts,
  usage,
  userPrompt,
} from '../../test/helpers';
import { allow, block, defineGuardrail } from '../core/define-guardrail';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/** A promise with its resolver exposed, to order events in tests without timers. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>(resolve => {
    open = resolve;
  });
  return { promise, open };
}

function abortable(signal: AbortSignal | undefined) {
  return new Promise<never>((_, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** A model stream that yields `parts` and then hangs until cancelled; records what happened. */
function hangingStream(parts: LanguageModelV4StreamPart[]) {
  const log = { cancelled: false, pulled: 0 };
  const stream = new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      if (log.pulled < parts.length) {
        controller.enqueue(parts[log.pulled++]!);
        return;
      }
      await new Promise(() => {});
    },
    cancel() {
      log.cancelled = true;
    },
  });
  return { stream, log };
}

describe('parallel input guardrails', () => {
  it('a parallel trip aborts the model call through its abort signal (generate)', async () => {
    let modelSignal: AbortSignal | undefined;
    const modelStarted = gate();
    const mock = new MockLanguageModelV4({
      doGenerate: async ({ abortSignal }) => {
        modelSignal = abortSignal;
        modelStarted.open();
        return abortable(abortSignal);
      },
    });
    const judge = defineGuardrail({
      name: 'judge',
      parallel: true,
      check: async () => {
        await modelStarted.promise; // the model is already running when the judge decides
        return block({ message: 'Off topic.' });
      },
    });
    const model = wrapLanguageModel({ model: mock, middleware: guardrails({ input: [judge] }) });
    const result = await generateText({ model, prompt: 'q', maxRetries: 0 });
    expect(modelSignal?.aborted).toBe(true);
    expect(result.text).toBe('Off topic.');
    expect(result.finishReason).toBe('content-filter');
    expect((await getGuardrailOutcome(result))?.records.map(r => [r.guardrail, r.status])).toEqual([
      ['judge', 'blocked'],
    ]);
  });

  it('a parallel trip cancels the model stream and returns the blocked result', async () => {
    const { stream, log } = hangingStream([
      { type: 'stream-start', warnings: [] },
      ...textParts(['partial ']),
    ]);
    let modelSignal: AbortSignal | undefined;
    const mock = new MockLanguageModelV4({
      doStream: async ({ abortSignal }) => {
        modelSignal = abortSignal;
        return { stream };
      },
    });
    const judgeMayDecide = gate();
    const judge = defineGuardrail({
      name: 'judge',
      parallel: true,
      check: async () => {
        await judgeMayDecide.promise;
        return block({ message: 'Off topic.' });
      },
    });
    const model = wrapLanguageModel({ model: mock, middleware: guardrails({ input: [judge] }) });
    const { stream: guarded } = await model.doStream({ prompt: userPrompt('q') });
    setTimeout(judgeMayDecide.open, 20);
    const parts = await readAll(guarded);
    expect(modelSignal?.aborted).toBe(true);
    expect(log.cancelled).toBe(true);
    expect(parts.map(p => p.type)).toEqual([
      'stream-start',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
    ]);
    expect(parts.find(p => p.type === 'text-delta')).toEqual({
      type: 'text-delta',
      id: 'guardrail-blocked',
      delta: 'Off topic.',
    });
  });

  it('holds every part of a passing stream until the parallel guardrail finished', async () => {
    const judgeMayDecide = gate();
    let judgeDone = false;
    const judge = defineGuardrail({
      name: 'judge',
      parallel: true,
      check: async () => {
        await judgeMayDecide.promise;
        judgeDone = true;
        return allow();
      },
    });
    const mock = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            for (const part of [
              { type: 'stream-start', warnings: [] },
              ...textParts(['fast ', 'answer']),
              { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
            ] as LanguageModelV4StreamPart[]) {
              controller.enqueue(part);
            }
            controller.close();
          },
        }),
      }),
    });
    const model = wrapLanguageModel({ model: mock, middleware: guardrails({ input: [judge] }) });
    const { stream } = await model.doStream({ prompt: userPrompt('q') });
    const reader = stream.getReader();
    const first = reader
      .read()
      .then(r => ({ judgeDoneWhenFirstPartArrived: judgeDone, part: r.value }));
    setTimeout(judgeMayDecide.open, 30);
    const { judgeDoneWhenFirstPartArrived, part } = await first;
    expect(judgeDoneWhenFirstPartArrived).toBe(true);
    expect(part).toEqual({ type: 'stream-start', warnings: [] });
    const rest: LanguageModelV4StreamPart[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest.push(value);
    }
    expect(rest.flatMap(p => (p.type === 'text-delta' ? [p.delta] : []))).toEqual([
      'fast ',
      'answer',
    ]);
  });

  it('with no output guardrails, releases parts as soon as the parallel guardrail passed (not at the end)', async () => {
    const { stream, log } = hangingStream([
      { type: 'stream-start', warnings: [] },
      ...textParts(['early ']),
    ]);
    const judge = defineGuardrail({ name: 'judge', parallel: true, check: async () => allow() });
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({ doStream: async () => ({ stream }) }),
      middleware: guardrails({ input: [judge] }),
    });
    const { stream: guarded } = await model.doStream({ prompt: userPrompt('q') });
    const reader = guarded.getReader();
    const received: LanguageModelV4StreamPart[] = [];
    while (received.length < 3) received.push((await reader.read()).value!);
    // The model is still streaming (it never ends here), yet the text arrived.
    expect(received.map(p => p.type)).toEqual(['stream-start', 'text-start', 'text-delta']);
    await reader.cancel();
    expect(log.cancelled).toBe(true);
  });

  it('reports the usage of a model call that completed before the trip', async () => {
    const modelDone = gate();
    const mock = new MockLanguageModelV4({
      doGenerate: async () => {
        modelDone.open();
        return generateResult('answer');
      },
    });
    const judge = defineGuardrail({
      name: 'judge',
      parallel: true,
      check: async () => {
        await modelDone.promise;
        return block();
      },
    });
    const model = wrapLanguageModel({ model: mock, middleware: guardrails({ input: [judge] }) });
    const result = await generateText({ model, prompt: 'q' });
    expect(result.text).toBe("Sorry, I can't help with that.");
    expect(result.usage.outputTokens).toBe(20);
  });

  it('runs alongside the model: both start before either finishes', async () => {
    const order: string[] = [];
    const bothStarted = gate();
    let started = 0;
    const arrive = (who: string) => {
      order.push(`${who} started`);
      if (++started === 2) bothStarted.open();
    };
    const mock = new MockLanguageModelV4({
      doGenerate: async () => {
        arrive('model');
        await bothStarted.promise;
        order.push('model done');
        return generateResult('ok');
      },
    });
    const judge = defineGuardrail({
      name: 'judge',
      parallel: true,
      check: async () => {
        arrive('judge');
        await bothStarted.promise;
        order.push('judge done');
        return allow();
      },
    });
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({
        input: [defineGuardrail({ name: 'first', check: () => allow() }), judge],
      }),
    });
    const result = await generateText({ model, prompt: 'q' });
    expect(result.text).toBe('ok');
    expect(order.slice(0, 2).sort()).toEqual(['judge started', 'model started']);
    expect((await getGuardrailOutcome(result))?.records.map(r => r.guardrail)).toEqual([
      'first',
      'judge',
    ]);
  });
});

describe('cancellation', () => {
  it('cancelling the consumer stream aborts running guardrails and cancels the model stream', async () => {
    const { stream, log } = hangingStream([
      { type: 'stream-start', warnings: [] },
      ...textParts(['a', 'b']),
    ]);
    let guardrailSignal: AbortSignal | undefined;
    const judgeRunning = gate();
    const judge = defineGuardrail({
      name: 'judge',
      parallel: true,
      check: (_t, ctx) => {
        guardrailSignal = ctx.abortSignal;
        judgeRunning.open();
        return abortable(ctx.abortSignal);
      },
    });
    let modelSignal: AbortSignal | undefined;
    const mock = new MockLanguageModelV4({
      doStream: async ({ abortSignal }) => {
        modelSignal = abortSignal;
        return { stream };
      },
    });
    const model = wrapLanguageModel({ model: mock, middleware: guardrails({ input: [judge] }) });
    const { stream: guarded } = await model.doStream({ prompt: userPrompt('q') });
    const reader = guarded.getReader();
    const pending = reader.read();
    await judgeRunning.promise;
    await reader.cancel('user left');
    await pending.catch(() => {});
    expect(guardrailSignal?.aborted).toBe(true);
    expect(modelSignal?.aborted).toBe(true);
    expect(log.cancelled).toBe(true);
  });

  it("the caller's abort signal aborts running output guardrails", async () => {
    const controller = new AbortController();
    let guardrailSignal: AbortSignal | undefined;
    const checking = gate();
    const slowOutput = defineGuardrail({
      name: 'slow-output',
      check: (_t, ctx) => {
        guardrailSignal = ctx.abortSignal;
        checking.open();
        return abortable(ctx.abortSignal);
      },
    });
    const mock = new MockLanguageModelV4({ doGenerate: async () => generateResult('answer') });
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ output: [slowOutput] }),
    });
    const call = generateText({
      model,
      prompt: 'q',
      abortSignal: controller.signal,
      maxRetries: 0,
    });
    await checking.promise;
    controller.abort();
    await call.catch(() => {});
    expect(guardrailSignal?.aborted).toBe(true);
  });

  it('streamText consumers that stop early cancel the model stream', async () => {
    const { stream, log } = hangingStream([
      { type: 'stream-start', warnings: [] },
      ...textParts(['a']),
    ]);
    const mock = new MockLanguageModelV4({ doStream: async () => ({ stream }) });
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({
        output: [defineGuardrail({ name: 'ok', streamSafe: true, check: () => allow() })],
        stream: { mode: 'window' },
      }),
    });
    const controller = new AbortController();
    const result = streamText({ model, prompt: 'q', abortSignal: controller.signal });
    const reader = result.textStream.getReader();
    setTimeout(() => controller.abort(), 20);
    await reader.read().catch(() => {});
    await new Promise(resolve => setTimeout(resolve, 20));
    expect(log.cancelled).toBe(true);
  });
});

describe('parallel outside input', () => {
  it('an output guardrail with parallel: true is a GuardrailConfigError, not a silent sequential check', () => {
    const judge = defineGuardrail({ name: 'judge', parallel: true, check: async () => allow() });
    const plain = defineGuardrail({ name: 'plain', check: async () => allow() });
    expect(configIssuesOf(() => guardrails({ input: [judge], output: [plain, judge] }))).toEqual([
      {
        path: 'output[1]',
        value: notShownString('judge'),
        expected:
          'a guardrail without parallel: true ("judge" is parallel, which only input guardrails can be: an output guardrail judges the answer, so it cannot run alongside the call that writes it; use one without parallel here)',
      },
    ]);
  });

  it('a toolDefinitions or toolOutputs guardrail with parallel: true is a GuardrailConfigError naming its entry', () => {
    const judge = defineGuardrail({ name: 'judge', parallel: true, check: async () => allow() });
    const plain = defineGuardrail({ name: 'plain', check: async () => allow() });
    expect(
      configIssuesOf(() =>
        guardrails({ input: [judge], toolDefinitions: [judge], toolOutputs: [plain, judge] }),
      ),
    ).toEqual([
      {
        path: 'toolDefinitions[0]',
        value: notShownString('judge'),
        expected:
          'a guardrail without parallel: true ("judge" is parallel, which only input guardrails can be: a tool definition is judged before the model call that reads it, so it cannot run alongside that call; use one without parallel here)',
      },
      {
        path: 'toolOutputs[1]',
        value: notShownString('judge'),
        expected:
          'a guardrail without parallel: true ("judge" is parallel, which only input guardrails can be: a tool result in the prompt is judged before the model call that reads it, so it cannot run alongside that call; use one without parallel here)',
      },
    ]);
  });
});
