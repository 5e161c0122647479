import { APICallError, type JSONObject } from '@ai-sdk/provider';
import { generateText, type LanguageModel, type LanguageModelUsage, Output } from 'ai';
import { z } from 'zod/v4';
import { GuardrailFailClosedError, GuardrailTimeoutError } from '../../core/chain';
import { allow, block, defineGuardrail } from '../../core/define-guardrail';
import { validateFactoryOptions } from '../../core/options';
import type { Guardrail, GuardrailContext, GuardrailSeverity } from '../../core/types';
import { memoryStore } from '../../store/memory-store';
import type { Store } from '../../store/store';
import { readStoredJson } from '../../store/stored-json';
import { sha256Hex } from '../shared/hash-key';
import { CircuitBreaker, type CircuitBreakerOptions } from './circuit-breaker';
import {
  defaultJudgeTemplate,
  JUDGE_SYSTEM_PROMPT,
  type JudgeTemplate,
  judgeContext,
  renderJudgeTemplate,
} from './judge-prompt';
import { llmJudgeOptionShape } from './llm-judge-options';
import { withoutQuotes } from './reason-masking';

/** The structured verdict the judge model must return. */
export const judgeVerdictSchema = z.object({
  flagged: z.boolean().describe('true when the content violates the policy'),
  confidence: z.number().min(0).max(1).describe('how sure the judge is of its decision, 0 to 1'),
  reason: z.string().describe('one short sentence explaining the decision'),
});

/** Longest judge reason a record carries (longer ones are cut, with `…`). */
const MAX_JUDGE_REASON_CHARS = 300;

/** A judge model's verdict. */
export type JudgeVerdict = z.infer<typeof judgeVerdictSchema>;

/** Verdict cache of `llmJudge`. */
export interface JudgeCacheOptions {
  /** Where verdicts live. Default a `memoryStore({ maxEntries })` private to this judge. */
  store?: Store;
  /** Most verdicts kept by the default memory store (least recently used go first). Default 1,000. */
  maxEntries?: number;
  /** How long a verdict is reused. Default 1 hour. */
  ttlMs?: number;
}

/** Options of `llmJudge`. */
export interface LlmJudgeOptions {
  /** The judge: any AI SDK language model, e.g. `openai('gpt-4.1-mini')`. */
  model: LanguageModel;
  /** The policy in natural language, e.g. "The assistant must not give medical advice." */
  policy: string;
  /** Trip when the judge flags the content with at least this confidence (0..1). Default 0.7. */
  threshold?: number;
  /** Input guardrails only: judge concurrently with the main model call. Default false (in `output`: a `GuardrailConfigError`). */
  parallel?: boolean;
  /**
   * Reuse verdicts for identical judgements (same policy, model, prompt) and
   * share one judge call between concurrent identical checks. `true`
   * (default) for an in-memory LRU of 1,000 verdicts kept 1 hour; an object to
   * size it or back it with a shared `Store` (e.g. Redis); `false` to call the
   * judge every time.
   */
  cache?: boolean | JudgeCacheOptions;
  /** Give up on the judge after this many milliseconds (an `error` record). Default 10,000. */
  timeoutMs?: number;
  /**
   * What a timeout or judge error does: `'block'` (default) or
   * `'allow'`. A refused call (HTTP 401, 403: a key, an account, or a WAF
   * the text may trip; or the provider's content filter: finish reason
   * `content-filter`, a 400 `content_filter`) always blocks, and so do
   * failures the judged text causes: an unparsable verdict, HTTP 400 or 413.
   */
  onError?: 'block' | 'allow';
  /**
   * Stop calling a judge that is down: after `failures` consecutive failures
   * of the judge itself (HTTP 404: the model), for
   * `resetMs` every check fails at once (and `onError` applies) without a
   * call. Failures the judged text may cause (an unparsable verdict, HTTP 400
   * or 413) never open it: else a client's texts could turn the judge off
   * for every user. Timeouts, refusals (401, 403), rate limits (408, 429), server errors (5xx)
   * and network errors, which the text may cause too, open it when
   * confirmed: after `failures` consecutive ones the judge is sent a health
   * check (a fixed text, no client's), and only if that times out or fails
   * too does the circuit open. Default `{ failures: 5, resetMs: 30_000 }`; `false` turns it off.
   */
  breaker?: CircuitBreakerOptions | false;
  /** How many preceding conversation messages the judge sees. Default 4; 0 for none. */
  contextMessages?: number;
  /** Longest text taken from one context message. Default 2,000 characters. */
  contextMaxChars?: number;
  /** Replaces the default prompt (policy, conversation, content in delimiters). */
  template?: JudgeTemplate;
  /** Retries of a failed judge call (within `timeoutMs`). Default 0: fail fast, `onError` decides. */
  maxRetries?: number;
  /**
   * Most tokens the judge may answer with (`maxOutputTokens` of its call).
   * Default 400: a verdict whose reason is 300 characters (the most a record
   * keeps) is 70 tokens in English and up to 359 in Chinese. An answer cut
   * there (finish reason `length`) that is no whole verdict fails closed as
   * an unparsable one. A reasoning model counts its reasoning in it: raise it.
   */
  maxOutputTokens?: number;
  /** User-facing message of a block. */
  message?: string;
  /** Severity reported on a block. Default `'warning'`. */
  severity?: GuardrailSeverity;
  /** Guardrail name in records. Default `'llm-judge'`. */
  name?: string;
}

const HOUR_MS = 60 * 60 * 1000;

/** The judge did not answer in time. */
class JudgeTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`judge timed out after ${timeoutMs} ms`);
  }
}

/** The circuit breaker is open: the judge was not called. */
class JudgeUnavailableError extends Error {}

/**
 * What the breaker's health check asks the judge about: a fixed text no
 * client writes, short, so a judge that cannot answer it in `timeoutMs` is
 * down for every caller, not slowed by what one of them sent.
 */
export const JUDGE_HEALTH_CHECK_TEXT = 'Health check of the judge: this is not a user text.';

function modelIdOf(model: LanguageModel): string {
  return typeof model === 'string' ? model : `${model.provider}:${model.modelId}`;
}

/** The usage of a judge call as JSON (undefined counts dropped). */
function usageInfo(usage: LanguageModelUsage | undefined): JSONObject | undefined {
  if (!usage) return undefined;
  const info: JSONObject = {};
  if (usage.inputTokens !== undefined) info.inputTokens = usage.inputTokens;
  if (usage.outputTokens !== undefined) info.outputTokens = usage.outputTokens;
  if (usage.totalTokens !== undefined) info.totalTokens = usage.totalTokens;
  return info;
}

function describeFailure(error: unknown): string {
  const name = (error as { name?: unknown })?.name;
  if (name === 'AI_NoObjectGeneratedError' || name === 'AI_NoOutputGeneratedError') {
    return 'judge returned output that is not a valid verdict';
  }
  if (error instanceof JudgeRepeatedKeyError) {
    return 'judge returned output that is not a valid verdict (a key given twice)';
  }
  if (error instanceof JudgeAnswerCutError) {
    return 'judge returned output that is not a valid verdict (cut at maxOutputTokens)';
  }
  // Not the error's message: a provider's may quote the request (the judged
  // text, which a later guardrail may hide) or a masked API key. Its name
  // and HTTP status say what failed; the error, stripped of its request and
  // response (`strippedCause`), is the thrown one's `cause` for whoever
  // calls the check directly.
  const errorName = typeof name === 'string' && /^[\w.$-]{1,60}$/.test(name) ? name : typeof error;
  const status = (error as { statusCode?: unknown })?.statusCode;
  return `judge call failed: ${errorName}${
    typeof status === 'number' && Number.isInteger(status) ? ` (HTTP ${status})` : ''
  }`;
}

/**
 * The provider's error as a rejected `check()` carries it (its `cause`):
 * its name, message and HTTP status, never its request or response body.
 * An `APICallError` holds the request it sent (`requestBodyValues`: the
 * judged text, which a later guardrail may hide), a response body that may
 * quote it, and a URL whose query may hold an API key (round 25: the whole
 * error was the cause). A retry error gives its last attempt's, stripped.
 */
function strippedCause(error: unknown, depth = 0): unknown {
  if ((error as { name?: unknown })?.name === 'AI_RetryError' && depth < 4) {
    return strippedCause((error as { lastError?: unknown }).lastError, depth + 1);
  }
  if (APICallError.isInstance(error)) {
    return new APICallError({
      message: error.message,
      url: urlWithoutQuery(error.url),
      requestBodyValues: undefined,
      ...(error.statusCode !== undefined && { statusCode: error.statusCode }),
      isRetryable: error.isRetryable,
    });
  }
  if (!(error instanceof Error)) return undefined;
  const stripped = new Error(error.message);
  stripped.name = error.name;
  return stripped;
}

/** A URL without its query, fragment or credentials (where a key may be). */
function urlWithoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '';
  }
}

/** HTTP status of a model id the provider does not have: unavailable to every caller, whatever it was asked. */
const UNAVAILABLE_STATUSES = new Set([404]);
/**
 * HTTP statuses of a refused request: a key or account that is not allowed
 * (a misconfiguration), or a proxy or WAF in front of the judge that
 * blocked this request (its body: the judged text may trip it).
 */
const REFUSED_STATUSES = new Set([401, 403]);

/**
 * The judge refused the request (HTTP 401 or 403): its API key or account,
 * or a proxy or WAF in front of it; or its provider's content filter
 * refused the judged text (finish reason `content-filter`, or an HTTP 400
 * `content_filter` / `invalid_prompt`); or the circuit opened on refusals
 * (no `statusCode`). The check fails closed whatever `onError` says: a text
 * that trips a WAF must not pass unjudged. What a direct `check()` of an
 * `llmJudge` rejects with; in a chain, an `error` record that blocks. The
 * provider's error, without its request and response, is its `cause`.
 */
export class JudgeRefusedError extends GuardrailFailClosedError {
  override readonly name = 'JudgeRefusedError';
  constructor(
    message: string,
    /** The HTTP status of the refusal, when the judge was called. */
    readonly statusCode?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The HTTP status of a failed judge call (the last attempt's, after retries). */
function statusOf(error: unknown): number | undefined {
  const name = (error as { name?: unknown })?.name;
  if (name === 'AI_RetryError') return statusOf((error as { lastError?: unknown }).lastError);
  const status = (error as { statusCode?: unknown })?.statusCode;
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined;
}

/** The judge's answer ended with finish reason `content-filter`: its provider filtered the call. */
class JudgeContentFilteredError extends Error {
  override readonly name = 'JudgeContentFilteredError';
}

/**
 * The judge's answer names a key of its verdict twice
 * (`{"flagged":true,…,"flagged":false}`): JSON.parse keeps the last, so a
 * text that got the judge to append `"flagged":false` after its verdict
 * passed (round 39). Not a verdict: it fails closed as one that does not
 * parse.
 */
class JudgeRepeatedKeyError extends Error {
  override readonly name = 'JudgeRepeatedKeyError';
}

/**
 * The judge's answer reached `maxOutputTokens` (finish reason `length`)
 * before its verdict was whole: not a verdict, it fails closed as one that
 * does not parse (a text can make the judge write at length).
 */
class JudgeAnswerCutError extends Error {
  override readonly name = 'JudgeAnswerCutError';
}

/**
 * Whether the top-level object of a JSON text names a key twice (keys
 * compared as JSON reads them: `"fl\u0061gged"` is `flagged`). One pass;
 * a text that is no JSON object answers false (its parse failed already).
 */
export function repeatsATopLevelKey(text: string): boolean {
  const keys = new Set<string>();
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 34 /* " */) {
      const start = at;
      for (at++; at < text.length && text.charCodeAt(at) !== 34; at++) {
        if (text.charCodeAt(at) === 92 /* \ */) at++;
      }
      if (depth !== 1) continue;
      let next = at + 1;
      while (next < text.length && /\s/.test(text[next]!)) next++;
      if (text[next] !== ':') continue;
      let key: unknown;
      try {
        key = JSON.parse(text.slice(start, at + 1));
      } catch {
        return false;
      }
      if (keys.has(key as string)) return true;
      keys.add(key as string);
    } else if (code === 123 /* { */ || code === 91 /* [ */) depth++;
    else if (code === 125 /* } */ || code === 93 /* ] */) depth--;
  }
  return false;
}

/**
 * Error codes of an HTTP 400 by which a provider says its content filter
 * refused the request (Azure OpenAI `content_filter`, OpenAI
 * `invalid_prompt`, `content_policy_violation`): the judged text tripped it.
 */
const CONTENT_FILTER_CODE =
  /"code"\s*:\s*"(?:content_filter|content_policy_violation|invalid_prompt)"/;

/**
 * Whether a failed judge call is its provider's content filter refusing
 * the judged text: a finish reason `content-filter` (no verdict, or one cut
 * short), or an HTTP 400 whose error code says so (first 10,000 characters
 * of the body read).
 */
function filteredByProvider(error: unknown): boolean {
  const failed = error as {
    name?: unknown;
    finishReason?: unknown;
    statusCode?: unknown;
    responseBody?: unknown;
    lastError?: unknown;
  };
  if (failed?.name === 'AI_RetryError') return filteredByProvider(failed.lastError);
  if (error instanceof JudgeContentFilteredError) return true;
  if (failed?.finishReason === 'content-filter') return true;
  return (
    failed?.statusCode === 400 &&
    typeof failed.responseBody === 'string' &&
    CONTENT_FILTER_CODE.test(failed.responseBody.slice(0, 10_000))
  );
}

/**
 * What a failed judge call says of the judge ({@link failureOf}): `'down'`,
 * unavailable to every caller (the circuit breaker counts it); `'text'`,
 * this content made it fail (the breaker does not); `'unsure'`, either
 * (the breaker counts it once a health check fails too, as a timeout).
 */
type JudgeFailure = 'down' | 'text' | 'unsure' | 'refused';

/** Names of the AI SDK's errors for an answer that is not a verdict. */
const NOT_A_VERDICT = new Set<unknown>([
  'AI_NoObjectGeneratedError',
  'AI_NoOutputGeneratedError',
  'AI_TypeValidationError',
  'AI_JSONParseError',
  'JudgeRepeatedKeyError',
  'JudgeAnswerCutError',
]);

/**
 * Whether a failed judge call says the judge is down for everyone, that
 * this content made it fail, or may say either. The judged text is the
 * client's: a text that makes the judge answer garbage (an injection) or a
 * request the provider refuses (HTTP 400 or 413: too long, filtered) is
 * the text's, and would otherwise open the circuit for every user, whose
 * checks then pass unjudged with `onError: 'allow'` (or are all blocked).
 * The model id failing (404) is the judge's own. A refusal (401, 403) is
 * a key or account that is not allowed, or a WAF in front of the judge that
 * this text tripped (an HTML page from a proxy): `'refused'`, which fails
 * closed whatever `onError` says and counts, like `'unsure'`, once a health
 * check is refused too (round 22 opened the circuit on two, so a client's
 * texts that trip a WAF turned the judge off for every user).
 * A rate limit (408, 429), a server error (5xx) or a transport failure
 * usually is too, but the text can cause one: OpenAI answers 429 "Request
 * too large" to one request over the tokens-per-minute limit, and servers
 * answer 5xx to inputs they choke on (round 22: two such texts opened the
 * circuit); a health check of a fixed text tells them apart.
 */
function failureOf(error: unknown): JudgeFailure {
  if (error instanceof JudgeContentFilteredError) return 'text';
  const name = (error as { name?: unknown })?.name;
  if (name === 'AI_RetryError') return failureOf((error as { lastError?: unknown }).lastError);
  if (NOT_A_VERDICT.has(name)) return 'text';
  const status = (error as { statusCode?: unknown })?.statusCode;
  if (typeof status !== 'number') return 'unsure';
  if (UNAVAILABLE_STATUSES.has(status)) return 'down';
  if (REFUSED_STATUSES.has(status)) return 'refused';
  return status >= 500 || status === 408 || status === 429 ? 'unsure' : 'text';
}

/** HTTP statuses of a request the judge would not take: too long for its context, or invalid. */
const TEXT_REQUEST_STATUSES = new Set([400, 413]);

/**
 * Whether a failure the judged text may have caused ({@link failureOf}
 * `'text'`) is one the client can cause at will, so that it fails closed
 * whatever `onError` says: `'verdict'`, an answer that is not a verdict
 * (the text talked the judge out of its format); `'request'`, HTTP 400 or
 * 413 (a text too long for the judge). Other 4xx (402, 410, 422...) say
 * more of the account or the model and follow `onError`.
 */
function textFailure(error: unknown): 'verdict' | 'request' | undefined {
  const name = (error as { name?: unknown })?.name;
  if (name === 'AI_RetryError') return textFailure((error as { lastError?: unknown }).lastError);
  if (NOT_A_VERDICT.has(name)) return 'verdict';
  const status = statusOf(error);
  return status !== undefined && TEXT_REQUEST_STATUSES.has(status) ? 'request' : undefined;
}

interface JudgeResult {
  verdict: JudgeVerdict;
  usage?: JSONObject;
  cached: boolean;
}

/** One judge call shared by every concurrent identical check. */
interface Flight {
  promise: Promise<JudgeResult>;
  controller: AbortController;
  waiters: number;
  /** The last caller left because its own time limit ran out (the chain's timeout). */
  timedOut?: boolean;
}

/**
 * A guardrail that asks a model whether content violates a policy written in
 * natural language (off-topic requests, subtle jailbreaks, medical advice...).
 * The judge answers with a structured verdict `{ flagged, confidence, reason }`
 * (`generateText` with `Output.object`), and the guardrail blocks when
 * `flagged && confidence >= threshold`.
 *
 * Cheap and bounded: verdicts are cached by a hash of (policy, model,
 * prompt) and concurrent identical checks share one judge call; the
 * conversation context is the last `contextMessages` messages; a call is cut
 * at `timeoutMs`. A timeout, a judge error or an unparsable verdict is an
 * `error` record that blocks (`onError: 'block'`, default) or allows; a
 * circuit breaker stops calling a judge that keeps failing. The record's
 * `info` holds the verdict, the threshold, whether it was cached and the
 * judge's token usage.
 *
 * Works at every kind. Not stream-safe: in `window` mode it cannot be
 * configured; in `hold` mode it judges the whole answer once. As an input
 * guardrail it may run `parallel` to the main model call.
 *
 * @example
 * guardrails({
 *   input: [llmJudge({ model: openai('gpt-4.1-mini'), policy: 'Only questions about cooking.', parallel: true })],
 *   output: [llmJudge({ model: openai('gpt-4.1-mini'), policy: 'No medical advice.' })],
 * });
 */
export function llmJudge(options: LlmJudgeOptions): Guardrail {
  const {
    model,
    policy,
    threshold = 0.7,
    parallel = false,
    cache = true,
    timeoutMs = 10_000,
    onError = 'block',
    breaker = { failures: 5, resetMs: 30_000 },
    contextMessages = 4,
    contextMaxChars = 2_000,
    template = defaultJudgeTemplate,
    maxRetries = 0,
    maxOutputTokens = 400,
    message = 'This content was blocked by a content policy.',
    severity = 'warning',
    name = 'llm-judge',
  } = validateFactoryOptions(options, 'llm-judge', llmJudgeOptionShape);
  const modelId = modelIdOf(model);
  const cacheOptions = cache === false ? undefined : cache === true ? {} : cache;
  const store = cacheOptions
    ? (cacheOptions.store ?? memoryStore({ maxEntries: cacheOptions.maxEntries ?? 1_000 }))
    : undefined;
  const ttlMs = cacheOptions?.ttlMs ?? HOUR_MS;
  const circuit = breaker === false ? undefined : new CircuitBreaker(breaker);
  const flights = new Map<string, Flight>();
  let uncachedFlightId = 0;

  async function callJudge(prompt: string, signal: AbortSignal): Promise<JudgeResult> {
    try {
      return await askJudge(prompt, signal);
    } catch (error) {
      // Cut at `maxOutputTokens` before the verdict was whole (one that
      // parsed whole stands): said so, and failing closed as not a verdict.
      if ((error as { finishReason?: unknown })?.finishReason === 'length') {
        throw new JudgeAnswerCutError();
      }
      throw error;
    }
  }

  async function askJudge(prompt: string, signal: AbortSignal): Promise<JudgeResult> {
    const result = await generateText({
      model,
      system: JUDGE_SYSTEM_PROMPT,
      prompt,
      output: Output.object({ schema: judgeVerdictSchema, name: 'verdict' }),
      maxRetries,
      maxOutputTokens,
      abortSignal: signal,
      // The prompt holds the judged text (which a later guardrail may hide)
      // and the conversation: telemetry an app registers for its own calls
      // (AI SDK 7's `registerTelemetry`, on by default) gets the judge's
      // call without them (round 24: with inputs and outputs).
      experimental_telemetry: {
        recordInputs: false,
        recordOutputs: false,
        functionId: 'ai-guardrails.llm-judge',
      },
    });
    // The judge's provider filtered the call (its safety system, or the
    // model's refusal): no verdict, whatever text came with it.
    if (result.finishReason === 'content-filter') throw new JudgeContentFilteredError();
    if (repeatsATopLevelKey(result.text)) throw new JudgeRepeatedKeyError();
    let verdict: JudgeVerdict;
    try {
      verdict = result.output;
    } catch (error) {
      // Nothing to parse (an answer cut before any text): no verdict either.
      throw result.finishReason === 'length' ? new JudgeAnswerCutError() : error;
    }
    return { verdict, usage: usageInfo(result.usage), cached: false };
  }

  /** Starts the judge call of a flight: timeout, breaker bookkeeping, cache write. */
  function startFlight(
    key: string | undefined,
    prompt: string,
    flight: Flight,
    shownReason: (reason: string) => string,
  ) {
    const { controller } = flight;
    const timer = setTimeout(() => controller.abort(new JudgeTimeoutError(timeoutMs)), timeoutMs);
    return (async (): Promise<JudgeResult> => {
      try {
        const fresh = await callJudge(prompt, controller.signal);
        circuit?.success();
        if (store && key) {
          // First writer wins, so every instance sharing the store agrees on one verdict.
          // A store that fails keeps nothing: the judge's own verdict stands.
          // Its reason as records show it (round 27: the store, Redis
          // shared by every instance, kept the card the judge quoted).
          const kept = { ...fresh.verdict, reason: shownReason(fresh.verdict.reason) };
          const stored = await store
            .setIfAbsent(key, JSON.stringify(kept), ttlMs)
            .catch(() => undefined);
          const parsed = judgeVerdictSchema.safeParse(safeJson(stored));
          if (parsed.success) return { ...fresh, verdict: parsed.data };
        }
        return fresh;
      } catch (error) {
        const reason = controller.signal.reason;
        // Only a judge that is down for everyone counts: not callers who
        // left, nor a failure this content caused. A timeout, or a failure
        // the content may have caused, counts once a health check confirms
        // it (a hanging judge): without that, every check waited the whole
        // `timeoutMs` however long it hung.
        const failure = controller.signal.aborted ? undefined : failureOf(error);
        if (reason instanceof JudgeTimeoutError || flight.timedOut) {
          if (circuit?.timeout()) checkHealth();
        } else if (failure === 'unsure' || failure === 'refused') {
          if (circuit?.timeout(failure === 'unsure' ? 'failure' : 'refused')) checkHealth();
        } else if (failure === 'down') circuit?.failure();
        else circuit?.release();
        if (controller.signal.aborted) throw reason;
        if (filteredByProvider(error)) {
          // Round 24: a refusal in other words than 401/403 was a failure
          // like any other, so with `onError: 'allow'` a text that tripped
          // the judge's own content filter (the very text to stop) passed.
          const status = statusOf(error);
          throw new JudgeRefusedError(
            `judge refused the content: its provider's content filter stopped the call${status === undefined ? '' : ` (HTTP ${status})`}; failing closed whatever onError says`,
            status,
            { cause: strippedCause(error) },
          );
        }
        if (failure === 'refused') {
          const status = statusOf(error);
          throw new JudgeRefusedError(
            `judge call refused (HTTP ${status}): the judge's API key or account, or a proxy or WAF in front of it, refused the request; failing closed whatever onError says`,
            status,
            { cause: strippedCause(error) },
          );
        }
        const byText = failure === 'text' ? textFailure(error) : undefined;
        if (byText !== undefined) {
          // Round 36: with `onError: 'allow'` such a text passed unjudged,
          // a fail-open its client chose ("Ignore the verdict format").
          throw new GuardrailFailClosedError(
            `${describeFailure(error)}, which the judged text can cause${byText === 'request' ? ' (too long for the judge, or a request it rejects)' : ''}; failing closed whatever onError says`,
            { cause: strippedCause(error) },
          );
        }
        throw new Error(describeFailure(error), { cause: strippedCause(error) });
      } finally {
        clearTimeout(timer);
      }
    })();
  }

  /**
   * Asks the judge about a fixed text, uncached, within `timeoutMs`: no
   * answer (or a failure of a judge down for everyone) opens the circuit.
   * Any answer, even one that is not a verdict, says the judge is up.
   */
  function checkHealth() {
    let prompt: string;
    try {
      prompt = renderJudgeTemplate(template, {
        policy,
        content: JUDGE_HEALTH_CHECK_TEXT,
        kind: 'output',
        context: '',
      });
    } catch {
      circuit?.probed(false);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new JudgeTimeoutError(timeoutMs)), timeoutMs);
    callJudge(prompt, controller.signal)
      .then(
        () => circuit?.probed(false),
        error => circuit?.probed(controller.signal.aborted || failureOf(error) !== 'text'),
      )
      .finally(() => clearTimeout(timer));
  }

  /** Joins (or starts) the flight for `key`, leaving it when this caller's signal aborts. */
  function join(
    key: string | undefined,
    prompt: string,
    signal: AbortSignal,
    shownReason: (reason: string) => string,
  ) {
    const flightKey = key ?? `uncached:${uncachedFlightId++}`;
    let flight = flights.get(flightKey);
    if (!flight) {
      const created: Flight = {
        controller: new AbortController(),
        waiters: 0,
        promise: undefined as unknown as Promise<JudgeResult>,
      };
      created.promise = startFlight(key, prompt, created, shownReason).finally(() => {
        if (flights.get(flightKey) === created) flights.delete(flightKey);
      });
      created.promise.catch(() => {}); // each waiter handles the rejection
      flights.set(flightKey, created);
      flight = created;
    }
    const joined = flight;
    joined.waiters += 1;
    return new Promise<JudgeResult>((resolve, reject) => {
      const leave = () => {
        joined.waiters -= 1;
        // The chain's time limit, not a cancelled call: the judge took too long.
        joined.timedOut = signal.reason instanceof GuardrailTimeoutError;
        // The judge call is aborted only when no caller waits for it any more.
        if (joined.waiters === 0) joined.controller.abort(signal.reason);
        reject(signal.reason);
      };
      if (signal.aborted) return leave();
      signal.addEventListener('abort', leave, { once: true });
      joined.promise.then(
        value => {
          signal.removeEventListener('abort', leave);
          joined.waiters -= 1;
          resolve(value);
        },
        error => {
          signal.removeEventListener('abort', leave);
          joined.waiters -= 1;
          reject(error);
        },
      );
    });
  }

  async function judge(
    content: string,
    context: string,
    ctx: GuardrailContext,
  ): Promise<JudgeResult> {
    const prompt = renderJudgeTemplate(template, {
      policy,
      content,
      kind: ctx.kind,
      context,
      toolName: ctx.toolName,
    });
    const key = store
      ? `ai-guardrails:llm-judge:${await sha256Hex(`${modelId}\n${JUDGE_SYSTEM_PROMPT}\n${prompt}`)}`
      : undefined;
    if (store && key) {
      // The cache can only save a judge call: a store that fails is a miss.
      const cachedText = await store.get(key).catch(() => undefined);
      const hit = judgeVerdictSchema.safeParse(safeJson(cachedText));
      if (hit.success) return { verdict: hit.data, cached: true };
    }
    if (!flights.has(key ?? '') && circuit) {
      const waitMs = circuit.acquire();
      if (waitMs !== undefined) {
        const failures = breaker ? breaker.failures : 0;
        if (circuit.openedBy === 'checked-refusals') {
          throw new JudgeRefusedError(
            `judge circuit open after ${failures} consecutive refused calls (HTTP 401 or 403) and a health check that was refused too; not called, failing closed whatever onError says (retry in ${Math.ceil(waitMs)} ms)`,
          );
        }
        throw new JudgeUnavailableError(
          circuit.openedBy === 'timeouts'
            ? `judge circuit open after ${failures} consecutive timeouts and a health check that got no answer; not called (retry in ${Math.ceil(waitMs)} ms)`
            : circuit.openedBy === 'checked-failures'
              ? `judge circuit open after ${failures} consecutive failures and a health check that failed too; not called (retry in ${Math.ceil(waitMs)} ms)`
              : `judge circuit open after ${failures} consecutive failures; not called (retry in ${Math.ceil(waitMs)} ms)`,
        );
      }
    }
    // One flight per key, and the key hashes the content and the context:
    // every waiter's reason is masked alike.
    return join(key, prompt, ctx.abortSignal, reason =>
      withoutQuotes(boundedReason(reason), [content, context]),
    );
  }

  return defineGuardrail({
    name,
    // Verdicts cached under another configuration must not apply to this one.
    fingerprint: options,
    streamSafe: false,
    timeoutMs,
    onError,
    parallel,
    async check(content, ctx) {
      const context = judgeContext(ctx.messages ?? [], ctx.kind, contextMessages, contextMaxChars);
      const { verdict, usage, cached } = await judge(content, context, ctx);
      // The judge read the content and may have been steered by it: its
      // "short sentence" is bounded before it reaches records, events and
      // spans, and quotes none of what it judged (a card, a key, a name).
      const reason = withoutQuotes(boundedReason(verdict.reason), [content, context]);
      const info: JSONObject = {
        flagged: verdict.flagged,
        confidence: verdict.confidence,
        reason,
        threshold,
        cached,
      };
      if (usage) info.usage = usage;
      if (verdict.flagged && verdict.confidence >= threshold) {
        return block({ message, reason, severity, info });
      }
      return allow(info);
    },
  });
}

/**
 * Control characters (ANSI escapes, line breaks, NUL) and bidirectional
 * overrides: a judge the content steered writes them into records that
 * logs and terminals print (round 24: `\x1b[2K\r` rewrote a log line).
 */
const REASON_CONTROLS = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/**
 * A judge's reason as records carry it: controls as spaces, cut to 300
 * characters with `…`, never inside a surrogate pair (a lone half is no
 * character, and no UTF-8 store or exporter can write it).
 */
function boundedReason(text: string): string {
  const cut = text.length > MAX_JUDGE_REASON_CHARS;
  let end = cut ? MAX_JUDGE_REASON_CHARS - 1 : text.length;
  const last = text.charCodeAt(end - 1);
  if (cut && last >= 0xd800 && last <= 0xdbff) end--;
  const shown = text.slice(0, end).replace(REASON_CONTROLS, ' ');
  return cut ? `${shown}…` : shown;
}

/**
 * Longest stored verdict read back (round 33). The longest written is a
 * verdict with a 300-character reason, every character escaped (`\u00XX`):
 * under 2,000. A longer one is another client's, and a miss (the judge is
 * asked), not a megabyte parsed on every call.
 */
const MAX_STORED_VERDICT_CHARS = 4_096;

/** A stored verdict's JSON value, read bounded; `undefined` (a miss) for one that cannot be read. */
function safeJson(text: string | undefined): unknown {
  return readStoredJson(text, MAX_STORED_VERDICT_CHARS);
}
