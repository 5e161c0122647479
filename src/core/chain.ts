import { type ChainRun, chainEnded, chainEntered, chainLeft, chainStarted } from './chain-memo';
import { UnreadableBlockError } from './define-guardrail';
import { emitEvent } from './events';
import { takeModelLoad } from './model-wait';
import { guardrailList, type OptionShape, required, validatedOptions } from './options';
import { cutServerId, cutToolName, shownToolCallIdOf } from './shown-tool-calls';
import { endGuardrailSpan, startGuardrailSpan, withGuardrailSpan } from './telemetry';
import type {
  Guardrail,
  GuardrailContext,
  GuardrailEventListener,
  GuardrailKind,
  GuardrailRecord,
  Verdict,
} from './types';

/** The context a chain passes to each guardrail, minus the per-guardrail abort signal. */
export type ChainContext = Omit<GuardrailContext, 'abortSignal'>;

/** What running a chain over one piece of content produced. */
export interface ChainResult {
  /** The content after every modification (the input content when none applied). */
  content: string;
  /** One record per guardrail that ran, in order. */
  records: GuardrailRecord[];
  /** The record that tripped the chain (status `blocked`, or `error` failing closed). */
  trip?: GuardrailRecord;
}

export interface RunChainOptions {
  /** The call's signal: aborting it aborts every running guardrail. */
  abortSignal?: AbortSignal;
  onEvent?: GuardrailEventListener;
  /**
   * `'enforce'` (default): the first block stops the chain.
   * `'modify-only'`: blocks are ignored and the chain goes on, so every
   * modification applies (used for history a client re-sends).
   */
  mode?: 'enforce' | 'modify-only';
  /**
   * The time limit of a guardrail without its own `timeoutMs`, so a check
   * that never settles fails closed instead of hanging the call. Default
   * `DEFAULT_GUARDRAIL_TIMEOUT_MS` (30 seconds).
   */
  defaultTimeoutMs?: number;
  /**
   * A memo (see `chain-memo.ts`) the caller started and ends itself, for
   * runs of one call that read the same text one after another: the
   * sequential input guardrails run one chain per guardrail, so `pii` and
   * `secrets` on a user message share their facts only through it. Without
   * it the run has its own, dropped when it ends.
   */
  memo?: ChainRun;
}

/** The time limit of a guardrail that sets no `timeoutMs` of its own: 30 seconds. */
export const DEFAULT_GUARDRAIL_TIMEOUT_MS = 30_000;

/** A guardrail that ran past its `timeoutMs`: the reason its `ctx.abortSignal` aborts with. */
export class GuardrailTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
  }
}

/**
 * Thrown by a guardrail whose verdict could not be had for a reason that
 * must not let content through (a judge whose API key, account or WAF
 * refused the request): it blocks, as an `error` record, even with
 * `onError: 'allow'`.
 */
export class GuardrailFailClosedError extends Error {}

/**
 * How long a check may wait for its guardrail's own lazily loaded model
 * (`afterModelLoad`: the harmful model of `promptInjection`, the tagger of
 * `pii`) before it fails closed: 30 seconds. The wait does not count
 * against `timeoutMs`; this bounds it instead.
 */
export const MODEL_LOAD_LIMIT_MS = 30_000;

/**
 * A check's own model did not load within `MODEL_LOAD_LIMIT_MS`: it blocks,
 * as an `error` record, even with `onError: 'allow'` (the text was never
 * judged). The reason its `ctx.abortSignal` aborts with.
 */
export class GuardrailModelLoadTimeoutError extends GuardrailFailClosedError {
  override readonly name = 'GuardrailModelLoadTimeoutError';
  constructor(readonly limitMs: number) {
    super(`its model did not load within ${limitMs} ms`);
  }
}

/** A guardrail cut short because the call was aborted. */
export class GuardrailAbortedError extends Error {
  constructor() {
    super('aborted: the call was cancelled');
  }
}

/**
 * Checks that never read `ctx.abortSignal` and never assign to `ctx` (an
 * internal protocol of the built-in guardrails, like `filtered-hooks`; not
 * public API). Keyed by the check function, so a copy of a built-in with a
 * check of its own is not in it.
 */
const signalFreeChecks = new WeakSet<Guardrail['check']>();

/**
 * Declares that `check` never reads `ctx.abortSignal` and never assigns to
 * `ctx` (it may read the other fields and use `ctx.state`). The chain then
 * hands all such checks of one run one context object, built once, instead
 * of one per guardrail: no check can see another's signal (they read none)
 * or change what the next one sees (they assign nothing), and on a chat
 * message building that object (a spread and a getter, on V8's slow path)
 * costs about as much as a built-in's whole check.
 */
export function declareSignalFreeCheck(check: Guardrail['check']): void {
  signalFreeChecks.add(check);
}

/** True when `check` was declared with `declareSignalFreeCheck`. */
export function isSignalFreeCheck(check: Guardrail['check']): boolean {
  return signalFreeChecks.has(check);
}

/**
 * The one context of a run's signal-free checks. They never read its signal
 * or spread it, so the getter can sit on the prototype: a class instance
 * with data properties is about ten times cheaper to build than an object
 * with an own getter. Its signal (made if read after all) is no
 * guardrail's and never aborts.
 */
class SharedCheckContext {
  #controller: AbortController | undefined;

  constructor(context: ChainContext) {
    const fields = this as unknown as Record<string, unknown>;
    for (const key in context) {
      if (key !== 'abortSignal' && Object.hasOwn(context, key)) {
        fields[key] = (context as Record<string, unknown>)[key];
      }
    }
  }

  get abortSignal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }
}

/**
 * A check's own abort controller, made when its signal is first read or when
 * a timeout or the call's abort must abort it. One object instead of the two
 * closures a check used to get, and only for a check that may read it (one
 * not declared signal-free) or that returned a promise.
 */
class LazySignal {
  #controller: AbortController | undefined;

  get signal(): AbortSignal {
    return this.controller().signal;
  }

  controller(): AbortController {
    this.#controller ??= new AbortController();
    return this.#controller;
  }
}

/** The context of a check: the chain's context with an abort signal made when first read. */
function withLazySignal(context: ChainContext, lazy: LazySignal): GuardrailContext {
  return {
    ...context,
    get abortSignal() {
      return lazy.signal;
    },
  };
}

function isThenable<T>(value: unknown): value is PromiseLike<T> {
  return (
    value != null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * A block verdict whose fields have the wrong type: the guardrail meant to
 * block, so it blocks (as an `error` record) even with `onError: 'allow'`.
 */
class MalformedBlockError extends Error {}

/**
 * Whether a verdict's `info` can travel in `providerMetadata`, records and
 * events: an object (not an array) that `JSON.stringify` can write. A
 * `BigInt`, a cycle or a throwing getter made the result unserialisable
 * wherever the app sent it on (a route's JSON response, a UI stream).
 */
function isJsonInfo(info: unknown): boolean {
  if (info === null || typeof info !== 'object' || Array.isArray(info)) return false;
  // Plain data (what the built-in guardrails return, a span object per
  // value on text full of values) is walked without writing it out;
  // anything else is for `JSON.stringify` to judge, as before.
  try {
    if (isPlainData(info, [])) return true;
  } catch {
    // A throwing getter or proxy trap: `JSON.stringify` decides below.
  }
  try {
    JSON.stringify(info);
    return true;
  } catch {
    return false;
  }
}

/** Deeper than this, `isPlainData` leaves the value to `JSON.stringify`. */
const plainDataDepth = 32;

/**
 * Whether `JSON.stringify` surely writes `value` without throwing: strings,
 * numbers, booleans, `null` and `undefined`, in arrays and objects whose
 * prototype is `Array.prototype`, `Object.prototype` or `null`, without a
 * `toJSON` and not inside themselves. `false` means "not sure", never "not
 * JSON". It reads every property `JSON.stringify` reads (and, with `for in`,
 * any inherited enumerable one): a getter runs as it would there.
 */
function isPlainData(value: unknown, ancestors: object[]): boolean {
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean' || value == null) return true;
  if (type !== 'object' || ancestors.length >= plainDataDepth) return false;
  const object = value as Record<string, unknown>;
  const prototype = Object.getPrototypeOf(object);
  const array = prototype === Array.prototype;
  if (!array && prototype !== Object.prototype && prototype !== null) return false;
  if (array !== Array.isArray(object) || object.toJSON !== undefined) return false;
  if (ancestors.includes(object)) return false;
  ancestors.push(object);
  if (array) {
    const items = object as unknown as unknown[];
    for (let index = 0; index < items.length; index++) {
      if (!isPlainData(items[index], ancestors)) return false;
    }
  } else {
    for (const key in object) {
      if (!isPlainData(object[key], ancestors)) return false;
    }
  }
  ancestors.pop();
  return true;
}

function invalidVerdict(verdict: unknown): string | undefined {
  if (verdict == null || typeof verdict !== 'object') return 'returned no verdict';
  const { action, info } = verdict as { action?: unknown; info?: unknown };
  if (info !== undefined && !isJsonInfo(info)) {
    const problem = 'returned a verdict whose info is not a JSON object';
    // A guardrail that meant to block still blocks.
    if (action === 'block') throw new MalformedBlockError(problem);
    return problem;
  }
  if (action === 'allow') return undefined;
  if (action === 'block') {
    // The message becomes the answer and the record goes to the browser:
    // an object there was "42" in generate, an empty answer in streams.
    const { message, reason, severity } = verdict as Record<string, unknown>;
    if (message !== undefined && typeof message !== 'string') {
      throw new MalformedBlockError('returned a block verdict whose message is not a string');
    }
    if (reason !== undefined && typeof reason !== 'string') {
      throw new MalformedBlockError('returned a block verdict whose reason is not a string');
    }
    if (
      severity !== undefined &&
      severity !== 'info' &&
      severity !== 'warning' &&
      severity !== 'critical'
    ) {
      throw new MalformedBlockError(
        "returned a block verdict whose severity is not 'info', 'warning' or 'critical'",
      );
    }
    return undefined;
  }
  if (action === 'modify') {
    return typeof (verdict as { content?: unknown }).content === 'string'
      ? undefined
      : 'returned a modify verdict without string content';
  }
  return `returned an unknown action ${JSON.stringify(action)}`;
}

/**
 * Runs one guardrail with its timeout and the call's abort signal, turning
 * throws, rejections, timeouts and malformed verdicts into an `Error`. A
 * synchronous check settles synchronously (no promise, timer or listener):
 * window streams run a chain again and again, and most checks are.
 */
function settle(
  guardrail: Guardrail,
  content: string,
  context: ChainContext,
  sharedContext: () => GuardrailContext,
  callSignal: AbortSignal | undefined,
  defaultTimeoutMs: number,
): Verdict | Promise<Verdict> {
  if (callSignal?.aborted) throw new GuardrailAbortedError();
  // The guardrail's own signal is made when it is first read (most checks
  // never read it); a timeout or abort makes it aborted, read or not. A
  // signal-free check's synchronous path allocates nothing for it.
  const lazy = signalFreeChecks.has(guardrail.check) ? undefined : new LazySignal();
  takeModelLoad(); // a note left by a check called outside a chain is not this one's
  const pending = guardrail.check(
    content,
    lazy === undefined ? sharedContext() : withLazySignal(context, lazy),
  );
  const modelLoad = takeModelLoad();
  if (!isThenable<Verdict>(pending)) return validVerdict(pending);
  // A synchronous check cannot be interrupted: the timer and the call's abort
  // listener are only set up when the check returned a promise.
  const signal = lazy ?? new LazySignal();
  const timeoutMs = guardrail.timeoutMs ?? defaultTimeoutMs;
  if (modelLoad === undefined) return timed(pending, signal, timeoutMs, callSignal);
  // The check waits for its guardrail's own model first: that wait is bounded
  // by the model-load limit (failing closed) and the call's abort, and the
  // check's `timeoutMs` starts once the model is there (a failed load
  // rejects `pending` at once with its typed error).
  return stoppable(
    Promise.resolve(modelLoad).then(noop, noop),
    signal,
    MODEL_LOAD_LIMIT_MS,
    () => new GuardrailModelLoadTimeoutError(MODEL_LOAD_LIMIT_MS),
    callSignal,
  ).then(() => timed(pending, signal, timeoutMs, callSignal));
}

const noop = () => {};

function validVerdict(verdict: Verdict): Verdict {
  const problem = invalidVerdict(verdict);
  if (problem) throw new Error(problem);
  return verdict;
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** `pending`'s verdict, checked, unless the check's `timeoutMs` or the call's abort comes first. */
function timed(
  pending: PromiseLike<Verdict>,
  signal: LazySignal,
  timeoutMs: number,
  callSignal: AbortSignal | undefined,
): Promise<Verdict> {
  return stoppable(
    pending,
    signal,
    timeoutMs,
    () => new GuardrailTimeoutError(timeoutMs),
    callSignal,
  ).then(validVerdict);
}

/**
 * `pending`, unless `limitMs` passes first (rejects with `late()`) or the call
 * is aborted (rejects with `GuardrailAbortedError`); either aborts `signal`.
 */
function stoppable<T>(
  pending: PromiseLike<T>,
  signal: LazySignal,
  limitMs: number,
  late: () => Error,
  callSignal: AbortSignal | undefined,
): Promise<T> {
  if (callSignal?.aborted) {
    signal.controller().abort(callSignal.reason);
    return Promise.reject(new GuardrailAbortedError());
  }
  const cleanups: Array<() => void> = [];
  const stopped = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => {
      const error = late();
      signal.controller().abort(error);
      reject(error);
    }, limitMs);
    cleanups.push(() => clearTimeout(timer));
    if (callSignal) {
      const onAbort = () => {
        signal.controller().abort(callSignal.reason);
        reject(new GuardrailAbortedError());
      };
      callSignal.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => callSignal.removeEventListener('abort', onAbort));
    }
  });
  stopped.catch(noop); // a late timeout must not surface as an unhandled rejection
  return Promise.race([Promise.resolve(pending), stopped]).then(
    value => {
      for (const cleanup of cleanups) cleanup();
      return value;
    },
    error => {
      for (const cleanup of cleanups) cleanup();
      throw error;
    },
  );
}

/**
 * Builds the record of one verdict. Kept apart so every caller (chains,
 * stream windows, tool wrappers) reports the same shape.
 */
export function verdictRecord(
  guardrail: Guardrail,
  kind: GuardrailKind,
  verdict: Verdict,
  changed: boolean,
  durationMs: number,
  context: Pick<ChainContext, 'toolName' | 'toolCallId' | 'serverId' | 'role' | 'part' | 'state'>,
): GuardrailRecord {
  const record: GuardrailRecord = {
    guardrail: guardrail.name,
    kind,
    status:
      verdict.action === 'block'
        ? 'blocked'
        : verdict.action === 'modify' && changed
          ? 'modified'
          : 'passed',
    durationMs,
  };
  if (verdict.action === 'block') {
    if (verdict.message !== undefined) record.message = verdict.message;
    if (verdict.reason !== undefined) record.reason = verdict.reason;
    if (verdict.severity !== undefined) record.severity = verdict.severity;
    if (verdict.retryable === false || verdict.retryable === 'without-answer') {
      record.retryable = verdict.retryable;
    }
  }
  if (verdict.info !== undefined) record.info = verdict.info;
  toolFields(record, context);
  if (context.serverId !== undefined) record.serverId = cutServerId(context.serverId);
  sourceOfInput(record, context);
  return record;
}

/**
 * The record's `toolName`, cut to 64 characters (an MCP server chooses it),
 * and `toolCallId` as the call shows it (`#hidden-id-n` for one that is
 * not an id, or holds a value; see `shown-tool-calls.ts`).
 */
function toolFields(
  record: GuardrailRecord,
  context: Pick<ChainContext, 'toolName' | 'toolCallId' | 'state'>,
): void {
  if (context.toolName !== undefined) record.toolName = cutToolName(context.toolName);
  if (context.toolCallId !== undefined) {
    record.toolCallId = shownToolCallIdOf(context.state, context.toolCallId);
  }
}

/**
 * Says on an input record what was judged, unless it was a user text (as
 * records always were); a user's file, file name or provider options say
 * their part only (as the middleware's own records do).
 */
function sourceOfInput(record: GuardrailRecord, context: Pick<ChainContext, 'role' | 'part'>) {
  if (context.role === undefined) {
    // A file the model generated: its output records say so.
    if (record.kind === 'output' && context.part === 'file') record.part = 'file';
    return;
  }
  if (context.role !== 'user') record.role = context.role;
  else if (context.part === 'text') return;
  if (context.part !== undefined) record.part = context.part;
}

/**
 * Runs guardrails over one piece of content in declared order: a `modify`
 * hands its content to the next guardrail, the first `block` stops the chain,
 * and a guardrail that throws or times out fails closed (status `error`,
 * acting as a block) unless it was built with `onError: 'allow'`.
 */
export async function runChain(
  guardrails: readonly Guardrail[],
  content: string,
  context: ChainContext,
  {
    abortSignal,
    onEvent,
    mode = 'enforce',
    defaultTimeoutMs = DEFAULT_GUARDRAIL_TIMEOUT_MS,
    memo,
  }: RunChainOptions = {},
): Promise<ChainResult> {
  // Facts of a text this run's guardrails share while it runs (see `chain-memo.ts`).
  const run = memo ?? chainStarted();
  try {
    const records: GuardrailRecord[] = [];
    let current = content;
    // The one context of this run's signal-free checks, built when the first runs.
    let shared: GuardrailContext | undefined;
    const sharedContext = () => {
      shared ??= new SharedCheckContext(context) as unknown as GuardrailContext;
      return shared;
    };
    for (const guardrail of guardrails) {
      const started = performance.now();
      const span = startGuardrailSpan(guardrail.name, context);
      let record: GuardrailRecord;
      let failsClosed = false;
      try {
        // The run's memo serves the check's synchronous part (a chain run
        // inside it has its own; after an `await` nothing is shared).
        const outer = chainEntered(run);
        let settled: Verdict | Promise<Verdict>;
        try {
          // No tracer (telemetry off): no closure for the span to run.
          settled =
            span === undefined
              ? settle(guardrail, current, context, sharedContext, abortSignal, defaultTimeoutMs)
              : withGuardrailSpan(span, () =>
                  settle(guardrail, current, context, sharedContext, abortSignal, defaultTimeoutMs),
                );
        } finally {
          chainLeft(outer);
        }
        // A synchronous check goes on without waiting for a microtask.
        const verdict = isThenable<Verdict>(settled) ? await settled : settled;
        const changed = verdict.action === 'modify' && verdict.content !== current;
        record = verdictRecord(
          guardrail,
          context.kind,
          verdict,
          changed,
          performance.now() - started,
          context,
        );
        if (verdict.action === 'modify') current = verdict.content;
        failsClosed = verdict.action === 'block';
      } catch (error) {
        record = {
          guardrail: guardrail.name,
          kind: context.kind,
          status: 'error',
          reason: errorMessage(error),
          durationMs: performance.now() - started,
        };
        toolFields(record, context);
        if (context.serverId !== undefined) record.serverId = cutServerId(context.serverId);
        sourceOfInput(record, context);
        failsClosed =
          guardrail.onError !== 'allow' ||
          error instanceof GuardrailAbortedError ||
          error instanceof GuardrailFailClosedError ||
          error instanceof MalformedBlockError ||
          error instanceof UnreadableBlockError;
      }
      if (context.attempt !== undefined) record.attempt = context.attempt;
      records.push(record);
      endGuardrailSpan(span, record);
      emitEvent(onEvent, record);
      if (failsClosed && mode === 'enforce') {
        return { content: current, records, trip: record };
      }
    }
    return { content: current, records };
  } finally {
    if (memo === undefined) chainEnded(run);
  }
}

const checkedChainShape = {
  guardrails: required(guardrailList, 'an array of guardrails'),
} satisfies OptionShape;

/**
 * The package's `runChain`: checks `guardrails` as `guardrails()` checks its
 * lists and reads each once into a frozen copy (a getter or a Proxy trap
 * that throws is a `GuardrailConfigError` at `guardrails[i].check`, naming
 * its error by class only), then runs the chain over the copies. The
 * middleware and the tool wrappers call `runChain` itself, with the copies
 * they made when built.
 */
export async function runCheckedChain(
  guardrails: readonly Guardrail[],
  content: string,
  context: ChainContext,
  options?: RunChainOptions,
): Promise<ChainResult> {
  const read = validatedOptions(
    { guardrails },
    { prefix: '', root: 'runChain', shape: checkedChainShape },
  );
  return runChain(read.guardrails, content, context, options);
}
