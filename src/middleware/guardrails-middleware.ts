import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4Middleware,
  LanguageModelV4Prompt,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { linkedAbortController } from '../core/abort';
import { kindOf, settleUnawaited } from '../core/callback-result';
import { DEFAULT_GUARDRAIL_TIMEOUT_MS } from '../core/chain';
import { GuardrailConfigError, GuardrailTripwireError } from '../core/errors';
import { metadataObject } from '../core/metadata-object';
import { NotShown } from '../core/redact-secrets';
import { callToolCallIds } from '../core/shown-tool-calls';
import type {
  Guardrail,
  GuardrailEventListener,
  GuardrailMetadata,
  GuardrailRecord,
} from '../core/types';
import { memoryStore } from '../store/memory-store';
import type { Store } from '../store/store';
import type { UnreadableFiles } from '../tools/model-output-check';
import {
  type BlockedMessage,
  blockedGenerateResult,
  resolveBlockedMessage,
  withOutcome,
  withoutAnswerRefs,
  withoutRequestBody,
  withoutRequestBodyOnTrip,
} from './blocked-response';
import { abortReasonOf, CallGuard } from './call-guard';
import { type GeneratedFileJudge, judgeResponseFiles } from './generated-files';
import {
  guardStream,
  outcomeOnlyStream,
  type StreamMode,
  type StreamSettings,
  tripStream,
} from './guarded-stream';
import { guardInput, type InputScope, inputJudge } from './input-guard';
import { validateGuardrailsOptions } from './middleware-options';
import { contentWithoutProviderText } from './provider-part-data';
import { dropRemovedToolCalls, type RemovedToolCalls } from './removed-tool-calls';
import { judgeResponseToolResults, type ResponseToolResultJudge } from './response-tool-results';
import {
  addUsage,
  defaultRetryFeedback,
  isRetryableTrip,
  mayResendAnswer,
  type RetryOptions,
  retryPrompt,
} from './retry';
import { supportedUrlsWithoutText } from './supported-urls';
import { judgeResponseToolCalls, type ToolCallJudge } from './tool-calls';
import { type PinToolDefinitionsOptions, toolDefinitionPins } from './tool-definition-pins';
import {
  DEFAULT_MAX_TOOL_DEFINITION_LENGTH,
  judgeToolDefinitions,
  type ToolDefinitionResult,
  type ToolDefinitionTripAction,
} from './tool-definitions';
import { judgeToolOutputs } from './tool-outputs';
import { verdictCache } from './verdict-cache';

/** The language-model middleware specification a consuming `wrapLanguageModel` expects. */
export type MiddlewareSpecificationVersion = 'v3' | 'v4';

/**
 * The middleware as AI SDK 6 (`ai@6`, middleware specification v3) takes
 * it, written structurally so this package's types need no copy of the v3
 * specification: the hooks accept the call objects of AI SDK 6, which have
 * the shapes the middleware reads and writes at run time. It is assignable
 * to `ai@6`'s `LanguageModelMiddleware` without a cast.
 */
export interface LanguageModelV3CompatibleMiddleware {
  readonly specificationVersion: 'v3';
  // biome-ignore lint/suspicious/noExplicitAny: the v3 hook types live in @ai-sdk/provider@3, which this package does not depend on
  transformParams?: (options: any) => PromiseLike<any>;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  wrapGenerate?: (options: any) => PromiseLike<any>;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  wrapStream?: (options: any) => PromiseLike<any>;
}

/**
 * What `guardrails()` returns: a `LanguageModelV4Middleware` (AI SDK 7), or,
 * for `specificationVersion: 'v3'`, a middleware typed for AI SDK 6's
 * `wrapLanguageModel` (`LanguageModelV3CompatibleMiddleware`). No cast is
 * needed with either major.
 */
export type GuardrailsMiddleware<VERSION extends MiddlewareSpecificationVersion = 'v4'> =
  VERSION extends 'v4' ? LanguageModelV4Middleware : LanguageModelV3CompatibleMiddleware;

/** Options of `guardrails()`. */
export interface GuardrailsOptions<VERSION extends MiddlewareSpecificationVersion = 'v4'> {
  /** Guardrails over the text of user messages, in order. */
  input?: Guardrail[];
  /** Guardrails over the text of each model response, in order. */
  output?: Guardrail[];
  /**
   * Guardrails over each tool definition of a call (kind `tool_definition`),
   * in order, before the model is given the tools: they see the definition
   * text (`toolDefinitionText`: name, description, and the text of the input
   * schema) and, in `ctx.value`, the definition. Verdicts are remembered by
   * the hash of that text, like input verdicts. A guardrail that would
   * modify a definition blocks it. See docs/tools.md.
   */
  toolDefinitions?: Guardrail[];
  /**
   * What a blocked (or changed, or unjudgeable) tool definition does:
   * - `'remove'` (default): the tool is taken out of the call (the model
   *   never sees it; a `toolChoice` that forced it becomes `'none'`) and the
   *   call goes on, reported `'modified'`;
   * - `'block'`: the whole call trips, like an input trip.
   */
  onToolDefinitionTrip?: ToolDefinitionTripAction;
  /**
   * Guardrails over every tool result in the prompt (kind `tool_output`), in
   * order, before the model reads it: each `tool-result` part of a tool
   * message (and of an assistant message, from a provider-executed tool),
   * whoever wrote it. The client owns the history it sends, so a tool result
   * in it is as unverified as a user text. They judge the text the model
   * reads: `text` and `error-text` values, an `execution-denied` reason,
   * each text of a `content` output as it is, `json` and `error-json` values
   * as canonical JSON (`ctx.value` the parsed value, `ctx.toolName`,
   * `ctx.toolCallId`). A modification is put back in place (a JSON one must
   * still be JSON); a block withholds that result: the model reads the
   * block's message (else "The result of the "x" tool call was withheld by
   * a guardrail.") as for a result `guardTools` withheld, and the call goes
   * on, reported `'modified'`; with `onTrip: 'throw'` the call throws like
   * an input trip. A result that cannot be read (an unknown output type, over
   * 1,000,000 characters, JSON nested deeper than 64) is withheld with an
   * `error` record. Verdicts are remembered by tool name and text hash, like
   * input verdicts. See docs/middleware.md.
   */
  toolOutputs?: Guardrail[];
  /**
   * Guardrails over each tool call of the model's response (kind
   * `tool_input`), in order, before the app, the tool or the browser sees
   * it: the call's input as JSON text (canonical JSON of its parse, as
   * `guardTools` judges arguments; the text as written when it does not
   * parse), with `ctx.toolName`, `ctx.toolCallId` and, when it parses, the
   * parse in `ctx.value`. A modification rewrites the call's input (a JSON
   * one must still be JSON); a block withholds the call: it is dropped from
   * the response (with a provider-executed call's result), which goes on,
   * reported `'modified'`, as a call to a removed tool is dropped; with
   * `onTrip: 'throw'` the call throws (a stream gets an `error` part). In a
   * stream, every `tool-input-*` part of a call is held until its
   * `tool-call` part and judged; the judged input is released as one
   * `tool-input-delta`. Input over 1,000,000 characters, or whose call never
   * came, is withheld with an `error` record (`tool-input-unreadable`).
   * See docs/tools.md.
   */
  toolCalls?: Guardrail[];
  /**
   * A file the model reads that no guardrail can read (a PDF, an image,
   * audio, a file given by URL or id): `'pass'` (default) lets it through as
   * before; `'block'` fails closed on it: a user's file (and with
   * `inputScope: 'all'` an assistant's) blocks the call before the input
   * guardrails run, a tool result holding one is withheld from the model
   * (`toolOutputs`), each with a `blocked` record named `unreadable-file`.
   * Applies where guardrails judge (`input`, `toolOutputs`).
   */
  unreadableFiles?: UnreadableFiles;
  /**
   * Pin tool definitions: the first definition seen of each tool (per
   * scope and name, per `serverId` for tools guarded with one) is recorded
   * by hash in `store`; a later call with a different definition is a
   * `tool-definition-changed` trip (removed or blocking, as
   * `onToolDefinitionTrip` says) until its hash is approved with
   * `approveToolDefinition` or in `approved`. Give every instance the same
   * `store` (for example `redisStore`). Without `store`, pins live in this
   * middleware's memory. Default false.
   */
  pinToolDefinitions?: boolean | PinToolDefinitionsOptions;
  /**
   * How streamed responses are enforced:
   * - `'hold'` (default): nothing is released before the output guardrails passed;
   * - `'window'`: text streams with a hold-back window; stream-safe guardrails only;
   * - `'passthrough'`: text and reasoning flow as written; guardrails only report
   *   on them (generated files and, with `toolCalls`, tool calls are still judged
   *   before release).
   */
  stream?: { mode?: StreamMode; window?: number };
  /** `'return'` (default): a trip returns the blocked message. `'throw'`: a `GuardrailTripwireError`. */
  onTrip?: 'return' | 'throw';
  /** The text shown in place of a blocked response. Default: the block's message, else a generic refusal. */
  blockedMessage?: BlockedMessage;
  /** Receives one event per guardrail decision. */
  onEvent?: GuardrailEventListener;
  /**
   * `'user'` (default): input guardrails judge user messages, and system
   * messages inside the conversation (the client may have written them).
   * `'all'`: the leading system messages (the server's `system`) too, every
   * assistant turn (text, reasoning, tool-call inputs), tool-approval
   * reasons, and every message's and part's provider options (judged as
   * JSON, never rewritten: a modification of them blocks the call).
   */
  inputScope?: InputScope;
  /**
   * Which responses the output guardrails judge:
   * - `'every-step'` (default): every response's text, also text written
   *   beside tool calls (it reaches the user too);
   * - `'final'`: only responses without tool calls, the run's answer (seeds
   *   000 / 001): an LLM judge is paid once per run instead of once per
   *   step, but text a tool-calling step writes is not judged. Applies to
   *   `generate` and `hold` streams; `window` and `passthrough` streams
   *   release text before the response is known to end in tool calls, so
   *   they judge every step.
   */
  outputScope?: 'every-step' | 'final';
  /** Also judge reasoning text with the output guardrails. Default false. */
  checkReasoning?: boolean;
  /**
   * Per-call values for `ctx.metadata` (session id, user id, ...), computed
   * from the call. Merged under the call's `providerOptions.guardrails`.
   */
  context?: (params: LanguageModelV4CallOptions) => GuardrailMetadata;
  /**
   * Where input verdicts are remembered, by content hash per guardrail, so
   * that a text judged once (by this or any middleware sharing the store) is
   * not judged again, and a remembered redaction applies again. Give every
   * instance of a deployment the same store (for example `redisStore`) so
   * serverless instances never re-judge a history. Default: a `memoryStore`
   * of this middleware, bounded by `memoSize` entries and 32 MB.
   */
  store?: Store;
  /** How long a verdict is remembered. Default 24 hours. */
  verdictTtlMs?: number;
  /**
   * How many verdicts the default in-memory verdict store keeps (the least
   * recently used go first). Default 10,000. Ignored when `store` is given.
   */
  memoSize?: number;
  /**
   * The time limit of a guardrail that sets no `timeoutMs` of its own, so a
   * check that never settles fails closed (status `error`) instead of hanging
   * the call. Default 30 seconds.
   */
  defaultTimeoutMs?: number;
  /**
   * The middleware specification of the `wrapLanguageModel` it is given to:
   * `'v4'` (default) for AI SDK 7, `'v3'` for AI SDK 6. The behaviour is
   * the same; with `'v3'` a file part's data is read in AI SDK 6's form too
   * (its bytes, base64 or URL as the `data` itself).
   */
  specificationVersion?: VERSION;
  /**
   * Re-ask: when an output guardrail blocks an answer, call the model again
   * with the prompt, the blocked answer (left out when a guardrail modified
   * a value of it) and a user message saying why it was blocked, up to
   * `maxAttempts` extra calls; the first answer that passes is returned.
   * Input trips, errors, per-call guardrails and `retryable: false` blocks
   * (the built-in `secrets`) are never retried. Generate calls and `hold`
   * streams; a `window` or `passthrough` stream rejects it (its text is
   * released before it is judged). See docs/middleware.md.
   */
  retry?: RetryOptions;
}

const DEFAULT_WINDOW = 256;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Byte bound of the default in-memory verdict store (it keeps modified texts). */
const DEFAULT_VERDICT_STORE_BYTES = 32 * 1024 * 1024;

let passthroughWarned = false;

/**
 * The index of a model call within its run: the assistant messages after
 * the prompt's last user message (each earlier step of a tool loop left
 * one). Undefined for a prompt without a user message.
 */
function stepOfPrompt(prompt: LanguageModelV4CallOptions['prompt']): number | undefined {
  let assistants = 0;
  for (let i = prompt.length - 1; i >= 0; i--) {
    const role = prompt[i]!.role;
    if (role === 'user') return assistants;
    if (role === 'assistant') assistants++;
  }
  return undefined;
}

/**
 * Guardrails as a language-model middleware for `wrapLanguageModel`.
 *
 * Input guardrails judge the new user input before the model is called
 * (or alongside it, for `parallel` ones) and apply their redactions to every
 * user message of every call. Output guardrails judge the text of each
 * response, streamed or not. A trip ends the call with the blocked message
 * and `finishReason: 'content-filter'` (or a `GuardrailTripwireError` with
 * `onTrip: 'throw'`); every call reports `providerMetadata.guardrails`.
 *
 * @example
 * const model = wrapLanguageModel({
 *   model: openai('gpt-4.1-mini'),
 *   middleware: guardrails({ input: [promptInjection()], output: [pii({ action: 'redact' })] }),
 * });
 */
export function guardrails<VERSION extends MiddlewareSpecificationVersion = 'v4'>(
  options?: GuardrailsOptions<VERSION>,
): GuardrailsMiddleware<VERSION> {
  const {
    input = [],
    output = [],
    stream: { mode = 'hold', window } = {},
    onTrip = 'return',
    blockedMessage,
    onEvent,
    inputScope = 'user',
    outputScope = 'every-step',
    checkReasoning = false,
    context,
    store,
    verdictTtlMs = DAY_MS,
    memoSize = 10_000,
    defaultTimeoutMs = DEFAULT_GUARDRAIL_TIMEOUT_MS,
    specificationVersion = 'v4' as VERSION,
    retry,
    toolDefinitions = [],
    toolOutputs = [],
    toolCalls = [],
    onToolDefinitionTrip = 'remove',
    pinToolDefinitions = false,
    unreadableFiles = 'pass',
  } = validateGuardrailsOptions(options);
  if (mode === 'passthrough' && !passthroughWarned && output.length > 0) {
    passthroughWarned = true;
    console.warn(
      "[ai-guardrails] stream mode 'passthrough': output guardrails only report on streamed text and reasoning (released as written: a trip cannot withhold them); files the model generates are still judged before release (redacted or withheld), and so are tool calls with toolCalls.",
    );
  }
  const sequentialInput = input.filter(g => !g.parallel);
  const parallelInput = input.filter(g => g.parallel);
  // A stream with no output or parallel input guardrails skips guardStream's
  // read loop: only its finish part gains the outcome (outcomeOnlyStream).
  const nothingToJudge = output.length === 0 && parallelInput.length === 0;
  // A reduce, not a spread: one argument per guardrail overflowed the stack at 300,000.
  const holdBackWindow =
    output.reduce((longest, g) => Math.max(longest, g.maxMatchLength ?? 0), window ?? 0) ||
    DEFAULT_WINDOW;
  const verdictStore =
    store ?? memoryStore({ maxEntries: memoSize, maxBytes: DEFAULT_VERDICT_STORE_BYTES });
  const cache = verdictCache({ store: verdictStore, ttlMs: verdictTtlMs, guardrails: input });
  // Apart from input verdicts: a definition text is never a user text.
  const definitionCache = verdictCache({
    store: verdictStore,
    ttlMs: verdictTtlMs,
    prefix: 'ai-guardrails:tool-definition-verdict:',
    guardrails: toolDefinitions,
  });
  // Apart from input verdicts too: a tool result is not a user text.
  const toolOutputCache = verdictCache({
    store: verdictStore,
    ttlMs: verdictTtlMs,
    prefix: 'ai-guardrails:tool-output-verdict:',
    guardrails: toolOutputs,
  });
  const pins = pinToolDefinitions
    ? toolDefinitionPins({
        ...(pinToolDefinitions === true ? {} : pinToolDefinitions),
        // Not the verdict store: a flood of verdicts must not evict a pin (it would re-pin).
        store: store ?? memoryStore({ maxEntries: 100_000 }),
      })
    : undefined;
  const judgesDefinitions = toolDefinitions.length > 0 || pins !== undefined;
  // The tools each prepared call hands to the model, after the definition guardrails.
  const definitionResults = new WeakMap<CallGuard, ToolDefinitionResult>();
  // transformParams hands each call to wrapGenerate / wrapStream through the
  // params object it returns: wrapLanguageModel passes that very object on.
  const calls = new WeakMap<LanguageModelV4CallOptions, CallGuard>();

  function metadataOf(params: LanguageModelV4CallOptions): GuardrailMetadata {
    const fromOptions = params.providerOptions?.guardrails as GuardrailMetadata | undefined;
    return { ...metadataObject(context?.(params), 'context'), ...fromOptions };
  }

  function tripError(record: GuardrailRecord, records: GuardrailRecord[]) {
    return new GuardrailTripwireError({ record, records });
  }

  /** The feedback text of a retry; a `feedback` option that returns no string is a config error. */
  function feedbackOf(record: GuardrailRecord): string {
    if (!retry?.feedback) return defaultRetryFeedback(record);
    const text = retry.feedback(record);
    if (typeof text !== 'string') {
      throw new GuardrailConfigError({
        path: 'retry.feedback',
        value: settleUnawaited(text) ? kindOf(text, 'feedback') : text,
        expected: 'a function of the record returning the feedback text (a string)',
      });
    }
    return text;
  }

  /** Whether a text-like part of this type is judged by the output guardrails. */
  const judgedPartType = (type: 'text' | 'reasoning') =>
    output.length > 0 && (type === 'text' || checkReasoning);

  /** Judges one answer's texts: the content to return, or the trip. */
  async function judgeAnswer(
    call: CallGuard,
    result: LanguageModelV4GenerateResult,
  ): Promise<{ content: LanguageModelV4Content[]; trip?: undefined } | { trip: GuardrailRecord }> {
    if (result.content.some(part => part.type === 'tool-call')) call.noteToolCall();
    const content: LanguageModelV4Content[] = [];
    for (const part of result.content) {
      const judged = part.type === 'text' || (checkReasoning && part.type === 'reasoning');
      if (!judged || output.length === 0) {
        content.push(part);
        continue;
      }
      const checked = await call.checkOutput(output, part.text, { usage: result.usage });
      if (checked.trip) return { trip: checked.trip };
      content.push(checked.content === part.text ? part : { ...part, text: checked.content });
    }
    const settled = await call.settlePerCallOutput(output, result.usage);
    if (settled?.trip) return { trip: settled.trip };
    return { content };
  }

  async function guardedGenerate(
    call: CallGuard,
    doGenerate: () => PromiseLike<LanguageModelV4GenerateResult>,
    generateWith: (prompt: LanguageModelV4Prompt) => PromiseLike<LanguageModelV4GenerateResult>,
  ): Promise<LanguageModelV4GenerateResult> {
    const trip = (record: GuardrailRecord, completed?: LanguageModelV4GenerateResult) => {
      // A call the caller aborted rejects with the abort, as the bare model would.
      if (call.callerAborted()) throw call.abortReason();
      if (onTrip === 'throw') throw tripError(record, call.outcome(true).records);
      // The message first: a failed blockedMessage adds its record to the outcome.
      const message = resolveBlockedMessage(blockedMessage, record, call.records, call.onEvent);
      return blockedGenerateResult({
        message,
        record,
        outcome: call.outcome(true),
        completed,
      });
    };
    if (call.input.trip) return trip(call.input.trip);

    const parallel = call.startParallel();
    let result: LanguageModelV4GenerateResult;
    // The response's parts (its tool calls) are judged as it arrives: under its attempt.
    if (retry) call.startAttempt(1);
    try {
      result = await doGenerate();
    } catch (error) {
      if (call.callerAborted()) throw error;
      const parallelResult = await parallel;
      if (parallelResult?.trip) return trip(parallelResult.trip);
      throw error;
    }
    const parallelResult = await parallel;
    // The request body is the prompt the parallel guardrail blocked: it goes.
    if (parallelResult?.trip) {
      return trip(parallelResult.trip, { ...result, request: withoutRequestBody(result.request) });
    }
    if (call.callerAborted()) throw call.abortReason();

    let usage = result.usage;
    for (let attempt = 1; ; attempt++) {
      if (retry) call.startAttempt(attempt);
      const judged = await judgeAnswer(call, result);
      if (!judged.trip) {
        return {
          ...result,
          // The parts' own provider data may quote what a guardrail hid: kept only when nothing was changed.
          content: call.responseModified()
            ? contentWithoutProviderText(judged.content, judgedPartType)
            : judged.content,
          usage,
          providerMetadata: withOutcome(
            result.providerMetadata,
            call.outcome(false),
            call.responseModified(),
          ),
          // The raw body holds the answer as the model wrote it, and the provider stores it under the
          // id: both kept only when nothing of it was changed.
          ...(result.response &&
            call.responseModified() && { response: withoutAnswerRefs(result.response) }),
        };
      }
      const last = { ...result, usage };
      if (!retry || attempt > retry.maxAttempts || !isRetryableTrip(judged.trip, output)) {
        return trip(judged.trip, last);
      }
      if (call.callerAborted()) throw call.abortReason();
      // What a guardrail hid in this answer must not be sent again: then only the feedback goes.
      const answerSafe = mayResendAnswer(
        judged.trip,
        output,
        call.records.filter(record => record.attempt === attempt),
      );
      const prompt = retryPrompt({
        prompt: call.prompt,
        content: result.content,
        answerSafe,
        feedback: feedbackOf(judged.trip),
      });
      // The result's provider data (body, logprobs, part metadata) is the next response's own.
      call.nextResponse();
      call.startAttempt(attempt + 1);
      try {
        result = await generateWith(prompt);
      } catch (error) {
        if (call.callerAborted()) throw error;
        // The retry failed: the call ends as it would have without retry.
        return trip(judged.trip, last);
      }
      // Its request body is the retry prompt: the blocked answer (when it may be resent) and the feedback.
      if (result.request) result = { ...result, request: withoutRequestBody(result.request) };
      usage = addUsage(usage, result.usage);
    }
  }

  async function guardedStream(
    call: CallGuard,
    doStream: () => PromiseLike<LanguageModelV4StreamResult>,
    streamWith: (prompt: LanguageModelV4Prompt) => PromiseLike<LanguageModelV4StreamResult>,
    judgesResponse: boolean,
    judges: Pick<
      StreamSettings,
      'files' | 'toolResults' | 'removed' | 'toolCalls' | 'noteToolCalls'
    >,
  ): Promise<LanguageModelV4StreamResult> {
    const { files, toolResults, removed, toolCalls: judgedCalls } = judges;
    const settings = {
      onTrip,
      blockedMessage,
      output,
      checkReasoning,
      holdBackWindow,
      mode,
      // The provider's raw chunks hold the response unjudged. Passthrough
      // releases text as written, but withholds files and judged tool calls,
      // which a raw chunk may carry: they go in every mode.
      dropRaw: judgesResponse,
      ...(retry && {
        retry: { maxAttempts: retry.maxAttempts, feedbackOf, streamWith },
      }),
      ...(files && { files }),
      ...(toolResults && { toolResults }),
      ...(removed && { removed }),
      ...(judgedCalls && { toolCalls: judgedCalls }),
      ...(judges.noteToolCalls && { noteToolCalls: true }),
    };
    if (mode !== 'hold') call.judgeEveryStep();
    if (call.input.trip) {
      call.release();
      return { stream: tripStream(call, call.input.trip, settings) };
    }
    const parallel = call.startParallel();
    let result: LanguageModelV4StreamResult;
    try {
      result = await doStream();
    } catch (error) {
      if (call.callerAborted()) {
        call.release();
        throw error;
      }
      const parallelResult = await parallel;
      call.release();
      if (parallelResult?.trip) return { stream: tripStream(call, parallelResult.trip, settings) };
      throw error;
    }
    // The request body is the prompt as the model received it: a parallel trip
    // blocks that prompt, so the body goes. The AI SDK reads the request at the
    // step's first part, which waits for the parallel guardrails.
    const request =
      parallelInput.length > 0
        ? withoutRequestBodyOnTrip(result.request, parallel)
        : result.request;
    return {
      ...result,
      ...(request && { request }),
      stream: nothingToJudge
        ? outcomeOnlyStream(result.stream, call, settings)
        : guardStream(result.stream, call, settings),
    };
  }

  /** Runs the sequential input guardrails of one call and keeps what its hooks need. */
  async function prepare(params: LanguageModelV4CallOptions): Promise<CallGuard> {
    const { controller, dispose } = linkedAbortController(params.abortSignal);
    const metadata = metadataOf(params);
    const state = new Map<string, unknown>();
    // Its records' tool-call ids: the prompt's numbered first, as every step's are.
    callToolCallIds(state, params.prompt);
    const step = stepOfPrompt(params.prompt);
    const judge = inputJudge({
      prompt: params.prompt,
      cache,
      metadata,
      state,
      maxOutputTokens: params.maxOutputTokens,
      tools: params.tools,
      step,
      abortSignal: controller.signal,
      onEvent,
      defaultTimeoutMs,
    });
    let definitions: ToolDefinitionResult | undefined;
    let inputResult: Awaited<ReturnType<typeof guardInput>>;
    let withheldOutputs = 0;
    try {
      if (judgesDefinitions && params.tools && params.tools.length > 0) {
        definitions = await judgeToolDefinitions(params, {
          guardrails: toolDefinitions,
          onTrip: onToolDefinitionTrip,
          cache: definitionCache,
          pins,
          maxLength: DEFAULT_MAX_TOOL_DEFINITION_LENGTH,
          prompt: params.prompt,
          metadata,
          state,
          step,
          abortSignal: controller.signal,
          onEvent,
          defaultTimeoutMs,
        });
      }
      if (definitions?.trip) {
        // onToolDefinitionTrip 'block': the call trips before its input is judged.
        inputResult = {
          prompt: params.prompt,
          records: definitions.records,
          trip: definitions.trip,
          texts: [],
          contents: [],
          cachedVerdicts: definitions.cachedVerdicts,
        };
      } else {
        inputResult = await guardInput({
          prompt: params.prompt,
          guardrails: sequentialInput,
          scope: inputScope,
          judge,
          unreadableFiles,
          specificationVersion,
        });
        if (definitions) {
          inputResult = {
            ...inputResult,
            records: [...definitions.records, ...inputResult.records],
            cachedVerdicts: inputResult.cachedVerdicts + definitions.cachedVerdicts,
          };
        }
        if (!inputResult.trip && toolOutputs.length > 0) {
          const outputs = await judgeToolOutputs({
            guardrails: toolOutputs,
            cache: toolOutputCache,
            prompt: inputResult.prompt,
            tools: params.tools,
            metadata,
            state,
            step,
            abortSignal: controller.signal,
            onEvent,
            defaultTimeoutMs,
            unreadableFiles,
          });
          withheldOutputs = outputs.withheld;
          inputResult = {
            ...inputResult,
            // 'throw': a withheld tool result trips the call, as an input trip does.
            ...(outputs.trip && onTrip === 'throw'
              ? { trip: outputs.trip }
              : { prompt: outputs.prompt }),
            records: [...inputResult.records, ...outputs.records],
            cachedVerdicts: inputResult.cachedVerdicts + outputs.cachedVerdicts,
          };
        }
      }
    } catch (error) {
      dispose();
      throw error;
    }
    if (params.abortSignal?.aborted) {
      dispose();
      throw abortReasonOf(params.abortSignal);
    }
    const call = new CallGuard({
      // The model is not given what the caller sent: a passing call is reported 'modified'.
      promptChanged: (definitions?.removed.length ?? 0) > 0 || withheldOutputs > 0,
      input: inputResult,
      metadata,
      state,
      controller,
      parallelGuardrails: parallelInput,
      onEvent,
      release: dispose,
      judge,
      defaultTimeoutMs,
      callerSignal: params.abortSignal,
      step,
      outputScope,
    });
    if (definitions) definitionResults.set(call, definitions);
    return call;
  }

  /**
   * wrapGenerate / wrapStream received params that did not come from this
   * middleware's transformParams (a composition that copies the params in
   * between). Fail closed: judge the input here; a modified prompt cannot be
   * handed to the model from here, so that is an error rather than a leak.
   */
  async function prepareOnTheSpot(params: LanguageModelV4CallOptions): Promise<CallGuard> {
    const call = await prepare(params);
    const toolsChanged = (definitionResults.get(call)?.removed.length ?? 0) > 0;
    if ((call.prompt !== params.prompt || toolsChanged) && !call.input.trip) {
      call.release();
      throw new GuardrailConfigError({
        path: 'guardrails',
        value: new NotShown('wrapGenerate/wrapStream params'),
        expected:
          'the params object its own transformParams returned (use wrapLanguageModel): the input guardrails modified the prompt (or the tool-definition guardrails removed a tool), and that change cannot be applied to params that bypassed transformParams',
      });
    }
    return call;
  }

  // With no guardrails at all there is nothing to judge or report: the
  // middleware adds no hook, so a call costs exactly what the bare model costs.
  if (
    input.length === 0 &&
    output.length === 0 &&
    toolOutputs.length === 0 &&
    toolCalls.length === 0 &&
    !judgesDefinitions
  ) {
    return { specificationVersion } as GuardrailsMiddleware<VERSION>;
  }

  /** With tools removed from the call: what drops the model's calls to them (see removed-tool-calls.ts). */
  function removedToolCalls(call: CallGuard): RemovedToolCalls | undefined {
    const definitions = definitionResults.get(call);
    if (!definitions || definitions.removed.length === 0) return undefined;
    const serverIds = new Map<string, string>();
    for (const record of definitions.records) {
      if (record.toolName !== undefined && record.serverId !== undefined) {
        serverIds.set(record.toolName, record.serverId);
      }
    }
    return {
      removed: new Set(definitions.removed),
      serverIds,
      records: call.records,
      onEvent,
      attempt: () => call.currentAttempt,
    };
  }

  /**
   * With `toolOutputs`: judges the tool results of the model's response
   * (a provider-executed tool's), which the AI SDK hands on as they are.
   */
  function responseToolResults(
    call: CallGuard,
    params: LanguageModelV4CallOptions,
  ): ResponseToolResultJudge | undefined {
    if (toolOutputs.length === 0) return undefined;
    return {
      judge: prompt =>
        judgeToolOutputs({
          guardrails: toolOutputs,
          cache: toolOutputCache,
          prompt,
          tools: params.tools,
          metadata: call.metadata,
          state: call.state,
          step: call.step,
          abortSignal: call.controller.signal,
          onEvent,
          defaultTimeoutMs,
          unreadableFiles,
          ...(call.currentAttempt !== undefined && { attempt: call.currentAttempt }),
        }),
      records: call.records,
      changed: () => call.noteResponseChanged(),
    };
  }

  /**
   * What judging a part of the model's response (its tool calls, its files)
   * needs from the call: the chain's context, where records go, how a change
   * and, with `onTrip: 'throw'`, a withheld part are reported.
   */
  function responsePartJudge(call: CallGuard, guardrails: readonly Guardrail[]) {
    return {
      guardrails,
      context: {
        messages: call.prompt,
        metadata: call.metadata,
        state: call.state,
        ...(call.step !== undefined && { step: call.step }),
      },
      abortSignal: call.controller.signal,
      onEvent,
      defaultTimeoutMs,
      records: call.records,
      changed: () => call.noteResponseChanged(),
      tripError:
        onTrip === 'throw'
          ? (record: GuardrailRecord) => tripError(record, call.outcome(true).records)
          : undefined,
    };
  }

  /** With `toolCalls`: judges the tool calls of the model's response (see tool-calls.ts). */
  function responseToolCalls(call: CallGuard): ToolCallJudge | undefined {
    if (toolCalls.length === 0) return undefined;
    return { ...responsePartJudge(call, toolCalls), attempt: () => call.currentAttempt };
  }

  /**
   * With `output`: judges the files the model generates (see
   * generated-files.ts). Per-call guardrails (budgets) are settled once per
   * response with its text, not per file.
   */
  const fileGuardrails = output.filter(guardrail => !guardrail.perCall);
  function responseFiles(call: CallGuard): GeneratedFileJudge | undefined {
    if (fileGuardrails.length === 0) return undefined;
    return {
      ...responsePartJudge(call, fileGuardrails),
      checkReasoning,
      v3Data: specificationVersion === 'v3',
      attempt: () => call.currentAttempt,
    };
  }

  const middleware: LanguageModelV4Middleware = {
    specificationVersion: 'v4',

    // Files the guardrails read as text are downloaded by the AI SDK before
    // the call (its bytes judged), not fetched by the provider after it.
    overrideSupportedUrls: ({ model }) => supportedUrlsWithoutText(model.supportedUrls),

    async transformParams({ params }) {
      const call = await prepare(params);
      const definitions = definitionResults.get(call);
      const transformed: LanguageModelV4CallOptions = {
        ...params,
        prompt: call.prompt,
        abortSignal: call.controller.signal,
        // The judged tools: the blocked ones removed, each definition the
        // plain copy that was judged (read once; round 44).
        ...(definitions && { tools: definitions.tools, toolChoice: definitions.toolChoice }),
      };
      calls.set(transformed, call);
      return transformed;
    },

    async wrapGenerate({ doGenerate, params, model }) {
      const call = calls.get(params) ?? (await prepareOnTheSpot(params));
      const removed = removedToolCalls(call);
      const results = responseToolResults(call, params);
      const judgedCalls = responseToolCalls(call);
      const files = responseFiles(call);
      const guardedResponse = async (response: LanguageModelV4GenerateResult) => {
        let kept = removed ? dropRemovedToolCalls(response, removed) : response;
        if (judgedCalls) kept = await judgeResponseToolCalls(kept, judgedCalls);
        if (files) kept = await judgeResponseFiles(kept, files);
        return results ? await judgeResponseToolResults(kept, results) : kept;
      };
      try {
        return await guardedGenerate(
          call,
          async () => guardedResponse(await doGenerate()),
          async prompt => guardedResponse(await model.doGenerate({ ...params, prompt })),
        );
      } finally {
        call.release();
      }
    },

    async wrapStream({ doStream, params, model }) {
      const call = calls.get(params) ?? (await prepareOnTheSpot(params));
      const removed = removedToolCalls(call);
      const results = responseToolResults(call, params);
      const judgedCalls = responseToolCalls(call);
      const files = responseFiles(call);
      // What the middleware judges of the response apart from its text (calls
      // to removed tools, tool calls, files, provider-executed tool results)
      // is judged in the guard's read loop as it reads each part, in the
      // stream's order: no layer of its own, which every text delta would
      // pass through (about as much CPU per MB of 4-character deltas as the
      // whole guard).
      return guardedStream(
        call,
        doStream,
        async prompt => model.doStream({ ...params, prompt }),
        output.length > 0 ||
          removed !== undefined ||
          results !== undefined ||
          judgedCalls !== undefined,
        {
          files,
          toolResults: results,
          removed,
          toolCalls: judgedCalls,
          // guardTools' stopOnTrip holds a step's calls until all of them are known.
          noteToolCalls: (params.tools?.length ?? 0) > 0,
        },
      );
    },
  };
  // AI SDK 6 and 7 call the same hooks with the same part shapes; only the label differs.
  return { ...middleware, specificationVersion } as GuardrailsMiddleware<VERSION>;
}

// `middleware: guardrails` (the factory, not called) type-checks nowhere but in
// JavaScript, where wrapLanguageModel would find no hooks on it and return the
// model unguarded. It reads the hooks when it wraps, so that is where it fails.
for (const hook of ['transformParams', 'wrapGenerate', 'wrapStream'] as const) {
  Object.defineProperty(guardrails, hook, {
    get() {
      throw new GuardrailConfigError({
        path: 'middleware',
        value: new NotShown('guardrails'),
        expected: 'guardrails({ ... }) (called): the middleware is the object it returns',
      });
    },
  });
}
