import type {
  LanguageModelV4Prompt,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import type { ChainResult } from '../core/chain';
import { GuardrailTripwireError } from '../core/errors';
import type { Guardrail, GuardrailRecord } from '../core/types';
import { streamedStep } from '../tools/step-calls';
import {
  type BlockedMessage,
  blockedFinishReason,
  blockedTextParts,
  heldResponseId,
  NO_USAGE,
  resolveBlockedMessage,
  withOutcome,
} from './blocked-response';
import type { CallGuard } from './call-guard';
import {
  type FileCounts,
  type GeneratedFileJudge,
  isJudgedFile,
  judgeStreamedFile,
} from './generated-files';
import { holdProcessor } from './hold-processor';
import { partNormalizer } from './normalize-parts';
import { passthroughProcessor } from './passthrough-processor';
import { withoutProviderText } from './provider-part-data';
import { type RemovedToolCalls, removedToolCallParts } from './removed-tool-calls';
import { judgedToolResult, type ResponseToolResultJudge } from './response-tool-results';
import { addUsage, isRetryableTrip, mayResendAnswer, retryPrompt } from './retry';
import {
  blockKey,
  HELD,
  metadataKeptOnChange,
  type ProcessorStep,
  quotesNothing,
  type StreamMode,
  type StreamPart,
  type StreamProcessor,
} from './stream-processor';
import { type StreamedToolCalls, streamedToolCalls, type ToolCallJudge } from './tool-calls';
import { windowProcessor } from './window-processor';

export type { StreamMode } from './stream-processor';

type Part = StreamPart;
type FinishPart = Extract<Part, { type: 'finish' }>;

export interface StreamSettings {
  mode: StreamMode;
  onTrip: 'return' | 'throw';
  blockedMessage: BlockedMessage | undefined;
  output: readonly Guardrail[];
  checkReasoning: boolean;
  holdBackWindow: number;
  /**
   * Drop the provider's `raw` parts (`includeRawChunks`): they carry its
   * own, unjudged chunks, so what a guardrail hid in the text parts. True
   * when the middleware judges the response, in every mode: `passthrough`
   * releases text as written, but withholds files and judged tool calls.
   */
  dropRaw: boolean;
  /**
   * `hold` mode with the middleware's `retry`: how many extra model calls a
   * retryable output trip may cost, the feedback of a trip, and how to
   * stream the model again with another prompt.
   */
  retry?: {
    maxAttempts: number;
    feedbackOf: (record: GuardrailRecord) => string;
    streamWith: (prompt: LanguageModelV4Prompt) => PromiseLike<LanguageModelV4StreamResult>;
  };
  /**
   * The generated files' judge (see generated-files.ts), when the read loop
   * judges each `file` part as it reads it (no layer of its own that every
   * text delta would pass through). The model's stream (a retry's too)
   * comes unjudged.
   */
  files?: GeneratedFileJudge;
  /**
   * The judge of the response's tool results (provider-executed: see
   * response-tool-results.ts), when the read loop judges each `tool-result`
   * part as it reads it, in the stream's order (no layer of its own that
   * every text delta would pass through). The model's stream (a retry's
   * too) comes unjudged.
   */
  toolResults?: ResponseToolResultJudge;
  /**
   * With tools removed from the call (see removed-tool-calls.ts): the read
   * loop drops the model's calls to them (their input parts too) before
   * anything else sees them.
   */
  removed?: RemovedToolCalls;
  /**
   * The judge of the response's tool calls (the middleware's `toolCalls`:
   * see tool-calls.ts): the read loop holds each call's input parts and
   * judges the call where it reads it, in the stream's order (no layer of
   * its own that every text delta would pass through).
   */
  toolCalls?: ToolCallJudge;
  /**
   * The call offers tools: the stream notes each tool call it hands on, and
   * when the response's calls are all known, for `guardTools`' `stopOnTrip`
   * (see tools/step-calls.ts), where it hands them on (no layer of its own).
   */
  noteToolCalls?: boolean;
}

/** `readPastHeld`'s read failed (the error is kept beside it, no object per read). */
const READ_FAILED = Symbol('read failed');

/** The most parts one pull of a guarded stream hands to its consumer (see `outbox`). */
const PARTS_PER_PULL = 64;

/** Usage of a call that was cut short: the model did not report it. */
const UNKNOWN_USAGE: LanguageModelV4Usage = {
  inputTokens: {
    total: undefined,
    noCache: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
  },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/** The parts that end a tripped response: the blocked message (or the error) and the finish. */
function tripParts(
  call: CallGuard,
  record: GuardrailRecord,
  settings: Pick<StreamSettings, 'onTrip' | 'blockedMessage'>,
  finish: FinishPart | undefined,
  usage: LanguageModelV4Usage,
): Part[] {
  // The message first: a failed blockedMessage adds its record to the outcome.
  const message =
    settings.onTrip === 'throw'
      ? undefined
      : resolveBlockedMessage(settings.blockedMessage, record, call.records, call.onEvent);
  const outcome = call.outcome(true);
  const body: Part[] =
    message === undefined
      ? [{ type: 'error', error: new GuardrailTripwireError({ record, records: outcome.records }) }]
      : blockedTextParts(message);
  return [
    ...body,
    {
      type: 'finish',
      usage: finish?.usage ?? usage,
      finishReason: blockedFinishReason(record),
      providerMetadata: withOutcome(finish?.providerMetadata, outcome, true),
    },
  ];
}

function fromParts(parts: Part[]): ReadableStream<Part> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** The stream of a call that tripped before the model streamed anything. */
export function tripStream(
  call: CallGuard,
  record: GuardrailRecord,
  settings: Pick<StreamSettings, 'onTrip' | 'blockedMessage'>,
): ReadableStream<Part> {
  return fromParts([
    { type: 'stream-start', warnings: [] },
    ...tripParts(call, record, settings, undefined, NO_USAGE),
  ]);
}

function processorFor(call: CallGuard, settings: StreamSettings): StreamProcessor {
  const judged = (type: 'text' | 'reasoning') =>
    settings.output.length > 0 && (type === 'text' || settings.checkReasoning);
  // Nothing to judge in the answer (only parallel input guardrails): parts need
  // to wait for those, not for the end of the answer.
  if (settings.output.length === 0) return passthroughProcessor(call, settings.output, judged);
  switch (settings.mode) {
    case 'window':
      return windowProcessor(call, settings.output, settings.holdBackWindow, judged);
    case 'passthrough':
      return passthroughProcessor(call, settings.output, judged);
    default:
      return holdProcessor(call, settings.output, judged);
  }
}

type ReadResult =
  | { kind: 'part'; part: Part }
  | { kind: 'done' }
  | { kind: 'parallel'; result: ChainResult | undefined };

/**
 * Enforces the output guardrails (and the parallel input guardrails) on a
 * model stream. Pull-driven: the model stream is read only as fast as the
 * consumer reads, and cancelling the result cancels the model stream and
 * aborts every running guardrail.
 */
export function guardStream(
  source: ReadableStream<Part>,
  call: CallGuard,
  settings: StreamSettings,
): ReadableStream<Part> {
  let reader = source.getReader();
  let processor = processorFor(call, settings);
  let normalizer = partNormalizer();
  // Retry (hold mode): the attempt being read, the usage of the attempts
  // before it, and the text of the current answer by block id (for the
  // assistant turn of the retry prompt).
  const retry = settings.mode === 'hold' && settings.output.length > 0 ? settings.retry : undefined;
  let attempt = 1;
  let earlierUsage: LanguageModelV4Usage | undefined;
  let answerTexts = new Map<string, string>();
  // Each response's files are numbered from 0 (a retry's too).
  const files = settings.files;
  const toolResults = settings.toolResults;
  let fileCounts: FileCounts = { file: 0, 'reasoning-file': 0 };
  // Each response's tool calls are its own (a retry's too).
  const removedCallParts = () => settings.removed && removedToolCallParts(settings.removed);
  const toolCallJudge = () => settings.toolCalls && streamedToolCalls(settings.toolCalls);
  let removedCalls = removedCallParts();
  let toolCalls: StreamedToolCalls | undefined = toolCallJudge();
  if (retry) call.startAttempt(attempt);
  const totalUsage = (usage: LanguageModelV4Usage) =>
    earlierUsage ? addUsage(earlierUsage, usage) : usage;
  const parallel = call.startParallel();
  /**
   * The main loop's one state: parts wait for the parallel input guardrails
   * (`awaiting-parallel`), flow (`streaming`), or the stream is over
   * (`finished` after the finish part or a trip, `cancelled` by the consumer).
   * Nothing follows `finished` or `cancelled`.
   */
  let phase: 'awaiting-parallel' | 'streaming' | 'finished' | 'cancelled' = 'awaiting-parallel';
  const parallelSettled = () => phase !== 'awaiting-parallel';
  const cancelled = () => phase === 'cancelled';
  const settleParallel = () => {
    if (phase === 'awaiting-parallel') phase = 'streaming';
  };
  /** The model stream was read to its end or cancelled (kept apart: it is the source's state, not the loop's). */
  let sourceClosed = false;
  const parallelOutcome = parallel.then(result => ({ kind: 'parallel' as const, result }));
  // Parts produced while parallel input guardrails still run are held here.
  const heldForParallel: Part[] = [];

  // The read in flight: kept across a race that the parallel guardrails won, so no part is lost.
  let pendingRead: Promise<ReadResult> | undefined;

  const fromRead = ({ done, value }: ReadableStreamReadResult<Part>): ReadResult =>
    done ? { kind: 'done' } : { kind: 'part', part: value };
  const onReadError = async (error: unknown): Promise<ReadResult> => {
    // A parallel trip aborts the model call: its stream then fails with the abort.
    if (call.abortedByTrip()) return { kind: 'parallel', result: await parallel };
    throw error;
  };

  async function read(): Promise<ReadResult> {
    if (parallelSettled() && pendingRead === undefined) {
      try {
        return fromRead(await reader.read());
      } catch (error) {
        return onReadError(error);
      }
    }
    pendingRead ??= reader.read().then(fromRead, onReadError);
    const next = parallelSettled()
      ? await pendingRead
      : await Promise.race([pendingRead, parallelOutcome]);
    if (next.kind !== 'parallel' || parallelSettled()) pendingRead = undefined;
    return next;
  }

  async function stopSource(reason: unknown) {
    if (sourceClosed) return;
    sourceClosed = true;
    if (!call.controller.signal.aborted) call.controller.abort(reason);
    await reader.cancel(reason).catch(() => {});
  }

  let finish: FinishPart | undefined;
  /** The response id goes only with an answer nothing of which was hidden (see `heldResponseId`). */
  const responseId = heldResponseId();

  /**
   * The provider's per-part data that may quote what a guardrail hid (see
   * `withoutProviderText`), in `hold` and `window` mode when the answer is
   * judged. Hold mode releases the answer once judged: the data goes when
   * it was changed. Window mode releases text before the rest is judged:
   * judged text starts and ends never carry their metadata (deltas carry
   * what the window processor decided), citations go once something was
   * changed, and sources wait for the end (dropped when the answer was
   * changed or blocked).
   */
  const scrubs = settings.dropRaw && settings.output.length > 0 && settings.mode !== 'passthrough';
  const judgedPartType = (type: 'text' | 'reasoning') => type === 'text' || settings.checkReasoning;
  const heldSources: Part[] = [];
  /**
   * Window mode's judged text ends with citations, and deltas with metadata
   * that may quote the answer followed by the rest of their block's
   * metadata and its end, held to the end (see `scrubbed`).
   */
  const heldEnds: Part[] = [];
  /** The judged blocks (`blockKey`) with parts in `heldEnds`: their later metadata and end wait too. */
  const heldBlocks = new Set<string>();
  /** Releases the held parts: with their citations and metadata only when nothing of the answer was hidden. */
  function releaseHeldEnds(keepCitations: boolean) {
    heldBlocks.clear();
    for (const part of heldEnds.splice(0)) {
      if (keepCitations) put(part);
      else if (part.type !== 'text-delta' && part.type !== 'reasoning-delta') {
        put(withoutProviderText(part, judgedPartType)!);
      } else {
        const kept = metadataKeptOnChange(part.providerMetadata!);
        if (kept !== undefined) put({ ...part, providerMetadata: kept });
      }
    }
  }
  /**
   * Window mode: a judged delta's metadata as the window released it
   * (`windowProcessor`: what cannot quote the answer with its text, the
   * rest as empty deltas before its block's end). What may quote the
   * answer waits for the answer's end, as do the block's later metadata and
   * its end (order kept); once something was changed it goes at once
   * without what may quote it. Undefined: held or dropped.
   */
  function windowDelta(part: Part & { type: 'text-delta' | 'reasoning-delta' }): Part | undefined {
    const metadata = part.providerMetadata;
    if (metadata === undefined) return part;
    const key = blockKey(part, judgedPartType);
    if (key === undefined) return part;
    if (!heldBlocks.has(key)) {
      if (quotesNothing(metadata)) return part;
      if (call.responseModified()) {
        const kept = metadataKeptOnChange(metadata);
        return kept && { ...part, providerMetadata: kept };
      }
      heldBlocks.add(key);
    }
    heldEnds.push(part);
    return undefined;
  }
  function scrubbed(part: Part): Part | undefined {
    if (
      heldBlocks.size > 0 &&
      (part.type === 'text-end' || part.type === 'reasoning-end') &&
      heldBlocks.delete(blockKey(part, judgedPartType)!)
    ) {
      heldEnds.push(withoutProviderText(part, judgedPartType, false)!);
      return undefined;
    }
    if (
      part.type !== 'source' &&
      (part as { providerMetadata?: unknown }).providerMetadata === undefined &&
      (part as { citations?: unknown }).citations === undefined
    ) {
      return part;
    }
    if (settings.mode === 'window') {
      if (part.type === 'text-delta' || part.type === 'reasoning-delta') return windowDelta(part);
      if (part.type === 'source') {
        heldSources.push(part);
        return undefined;
      }
      if (
        !call.responseModified() &&
        (part.type === 'text-end' || part.type === 'reasoning-end') &&
        (part as { citations?: unknown }).citations !== undefined &&
        judgedPartType(part.type === 'text-end' ? 'text' : 'reasoning')
      ) {
        // Its citations may quote what a later redaction hides (round 21: they
        // were released with the text's end and could not be taken back): the
        // end waits for the answer's end, as sources do.
        heldEnds.push(withoutProviderText(part, judgedPartType, false)!);
        return undefined;
      }
      return withoutProviderText(part, judgedPartType, call.responseModified());
    }
    return call.responseModified() ? withoutProviderText(part, judgedPartType) : part;
  }

  /** Sends parts to the consumer, or holds them while parallel input guardrails run. */
  function release(parts: Part[], emit: (part: Part) => void) {
    if (parallelSettled()) for (const part of parts) emit(part);
    else heldForParallel.push(...parts);
  }

  async function trip(
    record: GuardrailRecord,
    usage: LanguageModelV4Usage,
    emit: (part: Part) => void,
  ) {
    // The caller aborted: the stream fails with the abort, as the bare model's would.
    if (call.callerAborted()) {
      await stopSource(call.abortReason());
      throw call.abortReason();
    }
    await stopSource(new GuardrailTripwireError({ record }));
    for (const part of heldForParallel.splice(0)) {
      if (part.type === 'stream-start' || part.type === 'response-metadata') emit(part);
    }
    for (const part of processor.close()) emit(part);
    releaseHeldEnds(false);
    const finishSoFar = finish && { ...finish, usage: totalUsage(finish.usage) };
    for (const part of tripParts(call, record, settings, finishSoFar, totalUsage(usage)))
      emit(part);
    phase = 'finished';
  }

  /** The source ended: wait for parallel guardrails, let the processor finish, emit the finish part. */
  async function complete(emit: (part: Part) => void) {
    sourceClosed = true;
    // No finish part: input whose call never came is withheld all the same.
    if (toolCalls !== undefined) {
      await handleInOrder(toolCalls.end(), emit);
      if (phase === 'finished' || cancelled()) return;
    }
    if (!parallelSettled()) {
      const result = await parallel;
      if (cancelled()) return;
      settleParallel();
      if (result?.trip) return trip(result.trip, finish?.usage ?? UNKNOWN_USAGE, emit);
      for (const part of heldForParallel.splice(0)) emit(part);
    }
    const last = await processor.end(finish?.usage);
    if (cancelled()) return;
    if (last.trip && !last.reportOnly && (await retried(last.trip))) return;
    if (cancelled()) return;
    if (last.trip && !last.reportOnly) return trip(last.trip, finish?.usage ?? UNKNOWN_USAGE, emit);
    // A response with no text (tool calls only) still settles per-call guardrails such as a budget.
    const settled = last.trip
      ? undefined
      : await call.settlePerCallOutput(settings.output, finish?.usage);
    if (cancelled()) return;
    if (settled?.trip && settings.mode !== 'passthrough') {
      return trip(settled.trip, finish?.usage ?? UNKNOWN_USAGE, emit);
    }
    for (const part of last.parts) emit(part);
    const tripped = last.trip !== undefined;
    if (tripped && settings.onTrip === 'throw') {
      emit({
        type: 'error',
        error: new GuardrailTripwireError({ record: last.trip!, records: call.records }),
      });
    }
    // Window mode's sources, held to the end: they back an answer nothing of which was hidden.
    releaseHeldEnds(!tripped && !call.responseModified());
    if (!tripped && !call.responseModified()) for (const part of heldSources.splice(0)) put(part);
    for (const part of responseId.release(tripped || call.responseModified())) emit(part);
    emit({
      type: 'finish',
      usage: totalUsage(finish?.usage ?? UNKNOWN_USAGE),
      finishReason: tripped
        ? blockedFinishReason(last.trip)
        : (finish?.finishReason ?? { unified: 'other', raw: undefined }),
      providerMetadata: withOutcome(
        finish?.providerMetadata,
        call.outcome(tripped),
        settings.dropRaw && (tripped || call.responseModified()),
      ),
    });
    phase = 'finished';
  }

  /**
   * Hold mode with `retry`: nothing of the tripped answer was released, so
   * the model is streamed again with the feedback and its stream replaces
   * the source. False when the trip is not retried (the call ends with it).
   */
  async function retried(record: GuardrailRecord): Promise<boolean> {
    if (!retry || attempt > retry.maxAttempts || !isRetryableTrip(record, settings.output)) {
      return false;
    }
    if (call.callerAborted()) return false;
    // What a guardrail hid in this answer must not be sent again: then only the feedback goes.
    const answerSafe = mayResendAnswer(
      record,
      settings.output,
      call.records.filter(r => r.attempt === attempt),
    );
    const prompt = retryPrompt({
      prompt: call.prompt,
      content: [...answerTexts.values()].map(text => ({ type: 'text' as const, text })),
      answerSafe,
      feedback: retry.feedbackOf(record),
    });
    let next: LanguageModelV4StreamResult;
    // The finish part's provider data (logprobs) and the part metadata are the next response's own.
    call.nextResponse();
    try {
      next = await retry.streamWith(prompt);
    } catch (error) {
      if (call.callerAborted()) throw error;
      // The retry failed: the call ends as it would have without retry.
      return false;
    }
    earlierUsage = totalUsage(finish?.usage ?? UNKNOWN_USAGE);
    reader = next.stream.getReader();
    processor = processorFor(call, settings);
    normalizer = partNormalizer();
    answerTexts = new Map();
    fileCounts = { file: 0, 'reasoning-file': 0 };
    removedCalls = removedCallParts();
    toolCalls = toolCallJudge();
    finish = undefined;
    // The blocked attempt's id never goes: the retry's own (if it sends one) may.
    responseId.release(true);
    sourceClosed = false;
    attempt++;
    call.startAttempt(attempt);
    return true;
  }

  /** Acts on one read. Returns a promise only when it has to wait (a check, the end). */
  function handle(next: ReadResult, emit: (part: Part) => void): void | Promise<void> {
    if (next.kind === 'parallel') {
      settleParallel();
      if (next.result?.trip) return trip(next.result.trip, UNKNOWN_USAGE, emit);
      for (const part of heldForParallel.splice(0)) emit(part);
      return;
    }
    if (next.kind === 'done') return complete(emit);
    return handlePart(next.part, emit);
  }

  /** Acts on one source part. Returns a promise only when it has to wait (a check, a tool call). */
  function handlePart(part: Part, emit: (part: Part) => void): void | Promise<void> {
    // A call to a removed tool goes before anything else sees it (its input parts wait for it).
    const kept = removedCalls?.(part);
    if (kept === undefined) return handleKeptPart(part, emit);
    if (kept.length === 0) return; // held or dropped
    return handleKeptInOrder(kept, emit);
  }

  /** Acts on the parts a call to a tool still offered releases, in order, stopping at a trip. */
  async function handleKeptInOrder(parts: readonly Part[], emit: (part: Part) => void) {
    for (const part of parts) {
      if (phase === 'finished' || cancelled()) return;
      const handled = handleKeptPart(part, emit);
      if (handled) await handled;
    }
  }

  /** Acts on one part that no call to a removed tool holds. Returns a promise only when it has to wait. */
  function handleKeptPart(part: Part, emit: (part: Part) => void): void | Promise<void> {
    if (toolCalls !== undefined) {
      // Tool calls are judged before anything else sees them: their input parts wait for them.
      const judged =
        part.type === 'finish'
          ? toolCalls.end().then(parts => (parts.length === 0 ? [part] : [...parts, part]))
          : toolCalls.push(part);
      if (judged !== undefined) {
        if (judged instanceof Promise) return handleInOrder(judged, emit);
        if (judged.length === 0) return; // held or dropped
        return handleInOrder(judged, emit);
      }
    }
    return handleResponsePart(part, emit);
  }

  /** Acts on parts that go on after the tool calls' judge, in order, stopping at a trip. */
  async function handleInOrder(
    parts: readonly Part[] | Promise<readonly Part[]>,
    emit: (part: Part) => void,
  ) {
    for (const part of await parts) {
      if (phase === 'finished' || cancelled()) return;
      const handled = handleResponsePart(part, emit);
      if (handled) await handled;
    }
  }

  /** Acts on one part of the response, its tool calls judged. Returns a promise only when it has to wait (a check). */
  function handleResponsePart(part: Part, emit: (part: Part) => void): void | Promise<void> {
    // A generated file is judged as it is read, before anything else sees it
    // (as a layer before this loop judged it): withheld, it is never handled.
    if (files !== undefined && isJudgedFile(part, files)) {
      return judgeStreamedFile(part, fileCounts, files).then(judged => {
        if (judged === undefined || cancelled()) return;
        return handleJudgedPart(judged, emit);
      });
    }
    // So is a tool result (a provider-executed tool's): its judged result goes on.
    if (toolResults !== undefined && part.type === 'tool-result') {
      return judgedToolResult(part, toolResults).then(judged => {
        if (cancelled()) return;
        return handleJudgedPart(judged, emit);
      });
    }
    return handleJudgedPart(part, emit);
  }

  /** Acts on one source part, its files and tool results judged. Returns a promise only when it has to wait (a check). */
  function handleJudgedPart(part: Part, emit: (part: Part) => void): void | Promise<void> {
    // A delta of an open text block, nearly every part of a stream: straight to the processor.
    if (part.type === 'text-delta' && retry === undefined && normalizer.isOpenDelta(part)) {
      const pushed = processor.push(part);
      if (pushed instanceof Promise) return pushed.then(step => released(step, emit));
      if (pushed.trip === undefined && pushed.parts.length === 0) return; // held
      return released(pushed, emit);
    }
    if (part.type === 'finish') {
      finish = part;
      return;
    }
    if (part.type === 'tool-call') call.noteToolCall();
    if (part.type === 'raw' && settings.dropRaw) return;
    // A retry's stream starts again: the consumer has seen the first start.
    if (part.type === 'stream-start' && attempt > 1) return;
    if (retry && part.type === 'text-delta') {
      answerTexts.set(part.id, (answerTexts.get(part.id) ?? '') + part.delta);
    }
    if (part.type === 'stream-start' || part.type === 'response-metadata') {
      release([part.type === 'response-metadata' ? responseId.strip(part) : part], emit);
      return;
    }
    // A delta of an open block (nearly every part) goes straight to the processor.
    const parts = normalizer.isOpenDelta(part) ? undefined : normalizer.push(part);
    if (parts === undefined || parts.length === 1) {
      const pushed = processor.push(parts === undefined ? part : parts[0]!);
      if (pushed instanceof Promise) return pushed.then(step => released(step, emit));
      return released(pushed, emit);
    }
    return pushInOrder(parts, emit);
  }

  /** Pushes several parts (a synthesised start and its delta), stopping at a trip. */
  async function pushInOrder(parts: Part[], emit: (part: Part) => void) {
    for (const part of parts) {
      await released(await processor.push(part), emit);
      if (phase === 'finished' || cancelled()) return;
    }
  }

  function released(step: ProcessorStep, emit: (part: Part) => void): void | Promise<void> {
    if (step.trip === undefined && step.parts.length === 0) return; // a held delta
    if (cancelled()) return;
    if (step.trip) return trip(step.trip, UNKNOWN_USAGE, emit);
    release(step.parts, emit);
  }

  /** Reads one source part (or the parallel guardrails' outcome) and acts on it. */
  async function advance(emit: (part: Part) => void) {
    const next = await read();
    if (cancelled()) return;
    const handled = handle(next, emit);
    if (handled) await handled;
  }

  /**
   * Parts released and not yet handed to the consumer. A web stream's queue
   * costs time in its length per part read (Node's is an array it shifts),
   * so a step that releases many parts at once (hold mode's whole answer:
   * 262,144 deltas for 1 MB in 4-character deltas) goes out at most
   * `PARTS_PER_PULL` per pull, which keeps reading them linear. The parts
   * go from `outboxAt` to `outboxEnd`; the array is not cut when it is
   * handed out (setting an array's length calls the runtime: round 34,
   * about 630 instructions per release), only its slots cleared, so it
   * holds no part handed out.
   */
  const outbox: Array<Part | undefined> = [];
  let outboxAt = 0;
  let outboxEnd = 0;
  function put(part: Part) {
    outbox[outboxEnd++] = part;
  }
  const emit = scrubs
    ? (part: Part) => {
        const kept = scrubbed(part);
        if (kept !== undefined) outbox[outboxEnd++] = kept;
      }
    : (part: Part) => {
        outbox[outboxEnd++] = part;
      };

  /** Text deltas of an open block go straight to the processor (not with retry, which keeps the answer's text). */
  const direct = retry === undefined;
  /**
   * The processor holds deltas (window and hold mode; not with retry, whose
   * deltas do not go straight to it): `readPastHeld` reads them. A
   * passthrough processor releases every delta, which would cost that
   * function's promise per part.
   */
  const holdsDeltas = direct && settings.output.length > 0 && settings.mode !== 'passthrough';
  /** The step of the delta `readPastHeld` pushed that the processor did not hold. */
  let releasedStep: ProcessorStep | Promise<ProcessorStep> | undefined;
  /** Why the model's stream failed to read (`readPastHeld` returned `READ_FAILED`). */
  let readError: unknown;
  /**
   * Reads the model's stream while it gives deltas of the open text block
   * that the processor holds (nearly every part of a stream of short
   * deltas), pushing each: returns the first read it does not push, or
   * `undefined` once a pushed delta released something (`releasedStep`).
   * A function of its own, small: the engine inlines the stream's `read`
   * into it (in `pull`'s long body it did not: round 38).
   */
  async function readPastHeld(): Promise<
    ReadableStreamReadResult<Part> | typeof READ_FAILED | undefined
  > {
    for (;;) {
      let result: ReadableStreamReadResult<Part>;
      try {
        result = await reader.read();
      } catch (error) {
        readError = error;
        return READ_FAILED;
      }
      if (result.done || phase !== 'streaming') return result;
      const part = result.value;
      if (!(direct && part.type === 'text-delta' && normalizer.isOpenDelta(part))) return result;
      const pushed = processor.push(part);
      if (pushed !== HELD) {
        releasedStep = pushed;
        return undefined;
      }
    }
  }
  const step = settings.noteToolCalls ? streamedStep() : undefined;

  return new ReadableStream<Part>({
    async pull(controller) {
      try {
        // Read on until something is released, and on while the consumer
        // still waits once it is handed out: the stream would call `pull`
        // again at once (its queue is below the high-water mark), and a pull
        // of its own costs a few promises and reactions per release (the
        // source's parts cost none more than a bare reader's).
        for (;;) {
          while (outboxAt === outboxEnd && phase !== 'finished' && !cancelled()) {
            if (phase !== 'streaming' || pendingRead !== undefined) {
              await advance(emit);
              continue;
            }
            // Streaming with no race in flight, the common case. A delta of the
            // open text block that the processor holds (nearly every part of a
            // stream of short deltas) costs one `await` and an identity
            // comparison with `HELD` in `readPastHeld`: no promise or object
            // of ours, no `handlePart`. Its own promise is paid once per part
            // it returns (a release, about one in 18 parts of prose), not per
            // part: round 38 measured 8.9 M instructions fewer on 256 KB
            // (the engine inlines the stream's `read` into the small loop).
            let result: Awaited<ReturnType<typeof readPastHeld>>;
            if (holdsDeltas) {
              result = await readPastHeld();
            } else {
              try {
                result = await reader.read();
              } catch (error) {
                readError = error;
                result = READ_FAILED;
              }
            }
            let handled: void | Promise<void>;
            if (result === undefined) {
              // A pushed delta released something (`released` stops if the consumer cancelled).
              const pushed = releasedStep!;
              releasedStep = undefined;
              handled = released(pushed instanceof Promise ? await pushed : pushed, emit);
              if (handled) await handled;
              continue;
            }
            if (result === READ_FAILED) {
              const next = await onReadError(readError);
              readError = undefined;
              if (cancelled()) break;
              await handle(next, emit);
              continue;
            }
            if (cancelled()) break;
            if (result.done) {
              await complete(emit);
              continue;
            }
            const part = result.value;
            if (direct && part.type === 'text-delta' && normalizer.isOpenDelta(part)) {
              const pushed = processor.push(part);
              if (pushed === HELD) continue;
              handled = released(pushed instanceof Promise ? await pushed : pushed, emit);
            } else {
              handled = handlePart(part, emit);
            }
            if (handled) await handled;
          }
          if (cancelled()) return;
          const until = Math.min(outboxEnd, outboxAt + PARTS_PER_PULL);
          while (outboxAt < until) {
            const part = outbox[outboxAt]!;
            outbox[outboxAt++] = undefined;
            step?.note(part);
            controller.enqueue(part);
          }
          if (outboxAt === outboxEnd) {
            // A long release (hold mode's whole answer) leaves no long array behind.
            if (outboxEnd > PARTS_PER_PULL) outbox.length = 0;
            outboxAt = 0;
            outboxEnd = 0;
          }
          if (phase === 'finished' && outboxAt === outboxEnd) {
            step?.forget();
            call.release();
            controller.close();
            return;
          }
          if (!((controller.desiredSize ?? 0) > 0)) return;
        }
      } catch (error) {
        step?.forget();
        if (!call.controller.signal.aborted) call.controller.abort(error);
        call.release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      step?.forget();
      phase = 'cancelled';
      await stopSource(reason);
      call.release();
    },
  });
}

/**
 * A stream whose text nothing judges (no output or parallel input
 * guardrails): parts pass as they come and only the finish part gains the
 * call's outcome, so an input-only middleware costs next to nothing per
 * part. What the middleware judges of the response apart from its text
 * (calls to removed tools, `toolCalls`, provider-executed tool results) is
 * judged here as each part is read, in the stream's order: no layer of its
 * own that every text delta would pass through.
 */
export function outcomeOnlyStream(
  source: ReadableStream<Part>,
  call: CallGuard,
  {
    dropRaw = false,
    removed,
    toolCalls: toolCallJudge,
    toolResults,
    noteToolCalls,
  }: Pick<StreamSettings, 'removed' | 'toolCalls' | 'toolResults' | 'noteToolCalls'> & {
    dropRaw?: boolean;
  } = {},
): ReadableStream<Part> {
  // A pull-driven wrapper costs about half of what a TransformStream does per part.
  const reader = source.getReader();
  const removedCalls = removed && removedToolCallParts(removed);
  const toolCalls = toolCallJudge && streamedToolCalls(toolCallJudge);
  const step = noteToolCalls ? streamedStep() : undefined;
  const responseId = heldResponseId();
  /** The consumer cancelled: nothing more is judged or handed on. */
  let cancelled = false;
  /** Hands on one part that goes on: a tool result judged, the finish with the outcome. */
  function enqueue(
    part: Part,
    controller: ReadableStreamDefaultController<Part>,
  ): void | Promise<void> {
    step?.note(part);
    if (part.type === 'tool-result' && toolResults !== undefined) {
      return judgedToolResult(part, toolResults).then(judged => controller.enqueue(judged));
    }
    if (part.type === 'response-metadata' && dropRaw) {
      controller.enqueue(responseId.strip(part));
    } else if (part.type === 'finish') {
      const outcome = call.outcome(false);
      for (const idPart of responseId.release(call.responseModified())) controller.enqueue(idPart);
      controller.enqueue({
        ...part,
        providerMetadata: withOutcome(
          part.providerMetadata,
          outcome,
          dropRaw && call.responseModified(),
        ),
      });
    } else {
      controller.enqueue(part);
    }
  }
  /** Hands on one part that no call to a removed tool holds, its tool call judged. */
  function pass(
    part: Part,
    controller: ReadableStreamDefaultController<Part>,
  ): void | Promise<void> {
    const judged =
      toolCalls === undefined
        ? undefined
        : part.type === 'finish'
          ? toolCalls.end().then(parts => [...parts, part])
          : toolCalls.push(part);
    if (judged === undefined) return enqueue(part, controller);
    return (async () => {
      for (const judgedPart of await judged) await enqueue(judgedPart, controller);
    })();
  }
  return new ReadableStream<Part>({
    async pull(controller) {
      // Read on until a part goes on (a held or dropped one hands out nothing),
      // and on while the consumer waits for more: a pull of its own per part
      // costs more than the loop's turn.
      for (;;) {
        let read: ReadableStreamReadResult<Part>;
        try {
          read = await reader.read();
        } catch (error) {
          step?.forget();
          throw error;
        }
        const { done, value } = read;
        if (cancelled) return;
        if (done) {
          // No finish part: input whose call never came is withheld all the same.
          if (toolCalls !== undefined) {
            for (const part of await toolCalls.end()) await enqueue(part, controller);
          }
          step?.forget();
          call.release();
          controller.close();
          return;
        }
        // The tool calls are judged on their own (toolCalls, toolOutputs): the raw chunks hold them unjudged.
        if (dropRaw && value.type === 'raw') continue;
        // A call to a removed tool goes first (its input parts wait for it).
        const kept = removedCalls?.(value);
        if (kept === undefined) {
          const passed = pass(value, controller);
          if (passed) await passed;
        } else {
          for (const part of kept) await pass(part, controller);
        }
        if (!((controller.desiredSize ?? 0) > 0)) return;
      }
    },
    cancel(reason) {
      cancelled = true;
      step?.forget();
      call.release();
      return reader.cancel(reason);
    },
  });
}
