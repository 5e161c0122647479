import type { Guardrail, GuardrailContext, Verdict } from './types';

/** The streamed text or reasoning part a delta belongs to. */
export interface StreamedBlock {
  type: 'text' | 'reasoning';
  id: string;
  /** True when the output chain judges this block (text always; reasoning with `checkReasoning`). */
  judged: boolean;
}

/** What a watcher returns: nothing (go on), a verdict, or a promise of one. */
export type WatchResult = Verdict | undefined | PromiseLike<Verdict | undefined>;

/**
 * Follows one streamed response as it passes through a `window` stream (see
 * `StreamWatchingGuardrail.watchStream`). Only a `block` verdict has an
 * effect: it trips the stream at that point, and nothing more is released.
 */
export interface StreamWatcher {
  /**
   * Each text or reasoning delta of the response as the model sends it
   * (before the window holds anything back). Runs on every delta: keep its
   * work bounded by the delta, and return `undefined` synchronously while
   * there is nothing to say.
   */
  delta?(delta: string, block: StreamedBlock): WatchResult;
  /** A text or reasoning part ended, before its last held-back text is released. */
  partEnd?(block: StreamedBlock): WatchResult;
}

/**
 * An output guardrail that can judge a streamed answer as a whole while
 * `window` mode releases it piece by piece: rules about the whole answer
 * (a length or token cap, a pattern the answer must match) that bounded
 * windows cannot decide. The middleware calls `watchStream` once per
 * streamed response, with the call's context (`ctx.state` is the call's
 * shared state), before the first window check, and feeds the watcher the
 * response's deltas and part ends. Its `check` still judges each window.
 */
export interface StreamWatchingGuardrail extends Guardrail {
  watchStream?: (ctx: GuardrailContext) => StreamWatcher;
  /**
   * Why the guardrail is not stream-safe with the options it was given,
   * for the configuration error of `window` mode (for example a pattern
   * whose longest match is unbounded).
   */
  notStreamSafeBecause?: string;
}
