import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withoutTiming } from '../../test/helpers';
import {
  type ChainContext,
  type ChainResult,
  GuardrailFailClosedError,
  GuardrailModelLoadTimeoutError,
  MODEL_LOAD_LIMIT_MS,
  runChain,
} from './chain';
import { block, defineGuardrail } from './define-guardrail';
import { afterModelLoad } from './model-wait';
import type { GuardrailContext, Verdict } from './types';

/*
 * A guardrail's wait for its own lazily loaded model (`afterModelLoad`) is
 * not the check's work: the chain starts `timeoutMs` once the model is
 * there, bounds the wait by `MODEL_LOAD_LIMIT_MS` (failing closed whatever
 * `onError` says) and stops it when the call is aborted. Fake timers: no
 * assertion depends on this machine's speed.
 */

const context: ChainContext = { kind: 'input', messages: [], metadata: {}, state: new Map() };

/** A model load the test settles by hand. */
function deferredLoad() {
  let resolve!: (model: string) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<string>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** A guardrail (onError allow, timeoutMs 20) that waits for `load`, then blocks (or runs `after`). */
function loadingGuardrail(
  load: Promise<string>,
  after?: (model: string, ctx: GuardrailContext) => Verdict | Promise<Verdict>,
) {
  const seen: { signal?: AbortSignal } = {};
  const guardrail = defineGuardrail({
    name: 'loads',
    timeoutMs: 20,
    onError: 'allow',
    check: (_text, ctx) => {
      seen.signal = ctx.abortSignal;
      return afterModelLoad(load, model =>
        after ? after(model, ctx) : block({ reason: `judged with ${model}` }),
      );
    },
  });
  return { guardrail, seen };
}

/** The chain's one record, an error with `reason` that tripped it (failed closed despite onError allow). */
function expectFailedClosed(result: ChainResult, reason: string) {
  const error = { guardrail: 'loads', kind: 'input', status: 'error', reason };
  expect(withoutTiming(result.records)).toEqual([error]);
  expect(result.trip && withoutTiming([result.trip])).toEqual([error]);
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("a check's wait for its guardrail's own model", () => {
  it('does not count against timeoutMs: a load far past it, then the verdict with the model', async () => {
    const load = deferredLoad();
    const { guardrail } = loadingGuardrail(load.promise);
    const pending = runChain([guardrail], 'x', context);
    await vi.advanceTimersByTimeAsync(1000); // fifty times the check's timeoutMs
    load.resolve('the model');
    const result = await pending;
    expect(withoutTiming(result.records)).toEqual([
      { guardrail: 'loads', kind: 'input', status: 'blocked', reason: 'judged with the model' },
    ]);
    expect(result.trip?.status).toBe('blocked');
  });

  it('the check still has timeoutMs for its own work once the model is there', async () => {
    const load = deferredLoad();
    const { guardrail, seen } = loadingGuardrail(load.promise, () => new Promise(() => {}));
    const pending = runChain([guardrail], 'x', context);
    await vi.advanceTimersByTimeAsync(1000);
    load.resolve('the model');
    await vi.advanceTimersByTimeAsync(19);
    expect(seen.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    // onError 'allow': a timeout of the check's own work passes, as before.
    expect(withoutTiming(result.records)).toEqual([
      { guardrail: 'loads', kind: 'input', status: 'error', reason: 'timed out after 20 ms' },
    ]);
    expect(result.trip).toBeUndefined();
  });

  it('a hung load fails closed after MODEL_LOAD_LIMIT_MS, even with onError allow', async () => {
    const { guardrail, seen } = loadingGuardrail(new Promise<string>(() => {}));
    const pending = runChain([guardrail], 'x', context);
    await vi.advanceTimersByTimeAsync(MODEL_LOAD_LIMIT_MS - 1);
    expect(seen.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expectFailedClosed(await pending, 'its model did not load within 30000 ms');
    expect(seen.signal?.reason).toBeInstanceOf(GuardrailModelLoadTimeoutError);
    expect(seen.signal?.reason).toBeInstanceOf(GuardrailFailClosedError);
    expect(MODEL_LOAD_LIMIT_MS).toBe(30_000);
  });

  it("the call's abort stops the wait: the abort error, failing closed", async () => {
    const { guardrail, seen } = loadingGuardrail(new Promise<string>(() => {}));
    const controller = new AbortController();
    const pending = runChain([guardrail], 'x', context, { abortSignal: controller.signal });
    await vi.advanceTimersByTimeAsync(100);
    controller.abort(new Error('the user left'));
    expectFailedClosed(await pending, 'aborted: the call was cancelled');
    expect(seen.signal?.reason).toEqual(new Error('the user left'));
  });

  it('a failed load is its own typed error at once, failing closed', async () => {
    class ModelGone extends GuardrailFailClosedError {}
    const load = deferredLoad();
    const { guardrail } = loadingGuardrail(load.promise);
    const pending = runChain([guardrail], 'x', context);
    load.reject(new ModelGone('the chunk did not load'));
    expectFailedClosed(await pending, 'the chunk did not load');
  });

  it('a load noted by a check called outside a chain does not stretch the next check', async () => {
    // The stray note of a direct call is dropped when the chain calls its own check.
    const { guardrail: stray } = loadingGuardrail(new Promise<string>(() => {}));
    void stray.check('x', { ...context, abortSignal: new AbortController().signal });
    const slow = defineGuardrail({
      name: 'slow',
      timeoutMs: 20,
      onError: 'allow',
      check: () => new Promise<Verdict>(() => {}),
    });
    const pending = runChain([slow], 'x', context);
    await vi.advanceTimersByTimeAsync(20);
    expect(withoutTiming((await pending).records)).toEqual([
      { guardrail: 'slow', kind: 'input', status: 'error', reason: 'timed out after 20 ms' },
    ]);
  });
});
