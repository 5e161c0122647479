import { runChain } from '../core/chain';
import { allow } from '../core/define-guardrail';
import type {
  StreamedBlock,
  StreamWatcher,
  StreamWatchingGuardrail,
  WatchResult,
} from '../core/stream-watch';
import type { Guardrail, GuardrailRecord, Verdict } from '../core/types';
import type { CallGuard } from './call-guard';

/**
 * The watchers of one streamed response (see `StreamWatchingGuardrail`):
 * each returns `undefined` synchronously while nothing trips, or a promise
 * of the trip record.
 */
export interface ResponseWatch {
  delta(delta: string, block: StreamedBlock): Promise<GuardrailRecord | undefined> | undefined;
  partEnd(block: StreamedBlock): Promise<GuardrailRecord | undefined> | undefined;
}

function isThenable(value: unknown): value is PromiseLike<Verdict | undefined> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

/**
 * Starts the watchers of the output guardrails that have one, for one
 * streamed response; undefined when none has. A verdict other than nothing
 * or an allow goes through `runChain` (as the guardrail's verdict), so its
 * record, event, span, time limit and `onError` are those of any check; a
 * watcher that throws fails closed. Only trips make records: a watcher that
 * lets a delta pass says nothing. The caller reports the trip record (with
 * the records of the windows judged so far).
 */
export function watchResponse(
  call: CallGuard,
  output: readonly Guardrail[],
): ResponseWatch | undefined {
  const watching = output.filter(
    (
      guardrail,
    ): guardrail is StreamWatchingGuardrail &
      Required<Pick<StreamWatchingGuardrail, 'watchStream'>> =>
      typeof (guardrail as StreamWatchingGuardrail).watchStream === 'function',
  );
  if (watching.length === 0) return undefined;
  const context = {
    kind: 'output' as const,
    messages: call.prompt,
    metadata: call.metadata,
    state: call.state,
    ...(call.step !== undefined && { step: call.step }),
  };
  const watchers = watching.map(guardrail => {
    let watcher: StreamWatcher | undefined;
    let failure: unknown;
    try {
      watcher = guardrail.watchStream({ ...context, abortSignal: call.controller.signal });
    } catch (error) {
      failure = error;
    }
    return { guardrail, watcher, failure };
  });

  /** Judges one watcher's result: the trip record, if it tripped. */
  async function judge(
    guardrail: Guardrail,
    result: () => WatchResult,
  ): Promise<GuardrailRecord | undefined> {
    const verdictGuardrail: Guardrail = {
      ...guardrail,
      check: () => {
        const verdict = result();
        return isThenable(verdict)
          ? Promise.resolve(verdict).then(v => v ?? allow())
          : (verdict ?? allow());
      },
    };
    const { trip } = await runChain([verdictGuardrail], '', context, {
      abortSignal: call.controller.signal,
      defaultTimeoutMs: call.defaultTimeoutMs,
    });
    return trip;
  }

  function feed(
    pick: (watcher: StreamWatcher) => (() => WatchResult) | undefined,
  ): Promise<GuardrailRecord | undefined> | undefined {
    const pending: Array<Promise<GuardrailRecord | undefined>> = [];
    for (const entry of watchers) {
      const { guardrail, watcher, failure } = entry;
      if (failure !== undefined) {
        // Reported once: a watcher that could not start fails closed (or, with
        // `onError: 'allow'`, is left out from then on).
        entry.failure = undefined;
        pending.push(
          judge(guardrail, () => {
            throw failure;
          }),
        );
        continue;
      }
      const run = watcher && pick(watcher);
      if (!run) continue;
      let result: WatchResult;
      try {
        result = run();
      } catch (error) {
        pending.push(
          judge(guardrail, () => {
            throw error;
          }),
        );
        continue;
      }
      if (result === undefined || (!isThenable(result) && result.action !== 'block')) continue;
      const settled = result;
      pending.push(judge(guardrail, () => settled));
    }
    if (pending.length === 0) return undefined;
    // In declared order, the first trip is the one reported as the cause.
    return Promise.all(pending).then(trips => trips.find(trip => trip !== undefined));
  }

  return {
    delta: (delta, block) => feed(watcher => watcher.delta && (() => watcher.delta!(delta, block))),
    partEnd: block => feed(watcher => watcher.partEnd && (() => watcher.partEnd!(block))),
  };
}
