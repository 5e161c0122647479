import type {
  JSONObject,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider';
import { kindOf, settleUnawaited } from '../core/callback-result';
import { emitEvent } from '../core/events';
import type { GuardrailEventListener, GuardrailOutcome, GuardrailRecord } from '../core/types';
import { withoutAnswerQuotes } from './quoting-metadata';

/** The key under `providerMetadata` where the middleware reports its outcome. */
export const GUARDRAILS_METADATA_KEY = 'guardrails';

/** Usage of a call that never reached the model. */
export const NO_USAGE: LanguageModelV4Usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/**
 * The finish reason of a call that a guardrail ended: `content-filter` for
 * every trip (the SDK's reason for withheld content), and the raw reason
 * `guardrail:<name>` so an app can tell a rate limit or a budget from a
 * content block (`result.rawFinishReason`) without reading the records.
 */
export function blockedFinishReason(
  record: Pick<GuardrailRecord, 'guardrail'> | undefined,
): LanguageModelV4FinishReason {
  return {
    unified: 'content-filter',
    raw: record ? `guardrail:${record.guardrail}` : 'guardrail',
  };
}

/**
 * Adds the guardrail outcome to a call's provider metadata, keeping the
 * provider's own keys. With `hidden` (a guardrail changed or blocked the
 * response) the provider's keys that may quote the answer go
 * (`withoutAnswerQuotes`: every key but known-safe ids and values without
 * strings).
 */
export function withOutcome(
  providerMetadata: SharedV4ProviderMetadata | undefined,
  outcome: GuardrailOutcome,
  hidden = false,
): SharedV4ProviderMetadata {
  const kept: SharedV4ProviderMetadata =
    hidden && providerMetadata !== undefined
      ? withoutAnswerQuotes(providerMetadata)
      : { ...providerMetadata };
  kept[GUARDRAILS_METADATA_KEY] = outcome as unknown as JSONObject;
  return kept;
}

/** The text a consumer sees in place of a blocked response. */
export type BlockedMessage = string | ((record: GuardrailRecord) => string);

/** What a consumer sees in place of a blocked response when neither `blockedMessage` nor the record's `message` says otherwise. */
export const DEFAULT_BLOCKED_MESSAGE = "Sorry, I can't help with that.";

/** Name of the `error` record of a `blockedMessage` function that returned no string (or threw). */
export const BLOCKED_MESSAGE_RECORD = 'blocked-message';

/**
 * The text shown in place of a blocked response. A `blockedMessage`
 * function must return a string synchronously; one that returns a Promise
 * (an `async` function) or no string, or throws, fails closed, as
 * `guardTools`' does: the block stands, the default message is shown (the
 * record's `message`, else the generic refusal) and an `error` record named
 * `blocked-message` goes to `records` saying why. Before, the call failed
 * with a `GuardrailConfigError` and no message at all.
 */
export function resolveBlockedMessage(
  blockedMessage: BlockedMessage | undefined,
  record: GuardrailRecord,
  records: GuardrailRecord[],
  onEvent?: GuardrailEventListener,
): string {
  if (typeof blockedMessage !== 'function') {
    return blockedMessage ?? record.message ?? DEFAULT_BLOCKED_MESSAGE;
  }
  let text: unknown;
  let threw = false;
  try {
    text = blockedMessage(record);
  } catch {
    // The thrown error's text is the app's, unjudged: only that it threw is said.
    threw = true;
  }
  if (typeof text === 'string') return text;
  // A rejection later is nobody's to handle.
  settleUnawaited(text);
  const failed: GuardrailRecord = {
    guardrail: BLOCKED_MESSAGE_RECORD,
    kind: record.kind,
    status: 'error',
    reason: `blockedMessage ${threw ? 'threw' : `returned no string ${kindOf(text, 'blockedMessage')}`}: the default message was shown`,
    durationMs: 0,
  };
  records.push(failed);
  emitEvent(onEvent, failed);
  return record.message ?? DEFAULT_BLOCKED_MESSAGE;
}

/**
 * The response metadata of an answer a guardrail changed or blocked: without
 * the provider's raw body (`response.body`: the answer as the model wrote
 * it) and without its id (`response.id`: `@ai-sdk/openai`'s Responses API
 * stores the answer under it, and a next call chained on it with
 * `previousResponseId` has the model read the answer as written, what the
 * guardrail hid; the AI SDK gives the response an id of its own). Headers,
 * model id and timestamp stay.
 */
export function withoutAnswerRefs(
  response: LanguageModelV4GenerateResult['response'],
): LanguageModelV4GenerateResult['response'] {
  if (response === undefined || !('body' in response || 'id' in response)) return response;
  const { body: _body, id: _id, ...rest } = response;
  return rest;
}

type ResponseMetadataPart = Extract<LanguageModelV4StreamPart, { type: 'response-metadata' }>;

/**
 * A judged stream's response id, withheld until the answer is judged (see
 * {@link withoutAnswerRefs}). The provider sends it first (`response-metadata`,
 * OpenAI's `response.created`), before a word of the answer: the part goes
 * on at once without it (its timestamp and model id as sent), and the id
 * follows in a part of its own just before the finish when nothing of the
 * answer was hidden; it never goes when something was. The last one the
 * model sent counts; a retry forgets the blocked attempt's
 * (`release(true)`), so only the retry's own id may go.
 */
export function heldResponseId() {
  let id: string | undefined;
  return {
    /** The part without its id, which is kept for {@link release}. */
    strip(part: ResponseMetadataPart): ResponseMetadataPart {
      if (part.id === undefined) return part;
      id = part.id;
      const { id: _id, ...rest } = part;
      return rest;
    },
    /** The part that gives the id: none when the answer was changed or blocked (`hidden`), or had none. */
    release(hidden: boolean): ResponseMetadataPart[] {
      const kept = id;
      id = undefined;
      return hidden || kept === undefined ? [] : [{ type: 'response-metadata', id: kept }];
    },
  };
}

/**
 * The request metadata without the provider's request body: it is the
 * prompt as the model received it, so what a parallel input guardrail
 * blocked (the model call ran alongside it).
 */
export function withoutRequestBody<R extends { body?: unknown } | undefined>(request: R): R {
  if (request === undefined || !('body' in request)) return request;
  const { body: _body, ...rest } = request;
  return rest as R;
}

/**
 * A copy of a stream's request metadata that loses its body when the
 * parallel input guardrails trip. The body is removed before the stream's
 * first part reaches the AI SDK (held until they settle), and the SDK reads
 * the request's fields then.
 */
export function withoutRequestBodyOnTrip<R extends { body?: unknown }>(
  request: R | undefined,
  parallel: Promise<{ trip?: unknown } | undefined>,
): R | undefined {
  if (request === undefined || !('body' in request)) return request;
  const copy = { ...request };
  parallel.then(
    outcome => {
      if (outcome?.trip) delete copy.body;
    },
    () => {},
  );
  return copy;
}

/** A generate result that replaces the whole response with the blocked message. */
export function blockedGenerateResult({
  message,
  record,
  outcome,
  completed,
}: {
  message: string;
  /**
   * The trip that ended the call, named by the raw finish reason. Not the
   * call's first `blocked` record: a file or tool call withheld earlier in
   * the response has one, and the response went on after it.
   */
  record: GuardrailRecord;
  outcome: GuardrailOutcome;
  /** The model's result when the call completed before the trip (its usage is still reported). */
  completed?: LanguageModelV4GenerateResult;
}): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text: message }],
    finishReason: blockedFinishReason(record),
    usage: completed?.usage ?? NO_USAGE,
    providerMetadata: withOutcome(completed?.providerMetadata, outcome, true),
    warnings: completed?.warnings ?? [],
    ...(completed?.request && { request: completed.request }),
    ...(completed?.response && { response: withoutAnswerRefs(completed.response) }),
  };
}

/** The parts of a blocked answer: the message as one text part. */
export function blockedTextParts(
  message: string,
  id = 'guardrail-blocked',
): LanguageModelV4StreamPart[] {
  return [
    { type: 'text-start', id },
    { type: 'text-delta', id, delta: message },
    { type: 'text-end', id },
  ];
}
