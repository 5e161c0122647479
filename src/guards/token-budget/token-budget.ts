import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { countFromCallback, stringFromCallback } from '../../core/callback-result';
import { allow, block, defineGuardrail } from '../../core/define-guardrail';
import { declareModelOutputReader } from '../../core/model-output-reader';
import { validateFactoryOptions } from '../../core/options';
import { shownToolName } from '../../core/shown-tool-calls';
import type { StreamWatcher, StreamWatchingGuardrail } from '../../core/stream-watch';
import type { Guardrail, GuardrailContext } from '../../core/types';
import { checkedCappedIncrement, checkedCount } from '../../store/checked-counts';
import { memoryStore } from '../../store/memory-store';
import type { Store } from '../../store/store';
import { countO200k } from './o200k-count';
import { COUNT_SLICE, StreamedTokenCount, sliceEnd } from './streamed-token-count';
import { tokenBudgetNeedsALimit, tokenBudgetOptionShape } from './token-budget-options';

/** A cumulative budget per session. */
export interface SessionTokenBudget {
  /** Most tokens (input and output together) one session may use in `windowMs`. */
  maxTokens: number;
  /** Length of the budget window, from the session's first counted call. Default 24 hours. */
  windowMs?: number;
}

/** Options of `tokenBudget`. */
export interface TokenBudgetOptions {
  /** Most tokens of prompt per request (input guardrail): checked before the model is called. */
  maxInputTokens?: number;
  /** Most tokens of answer per request (output guardrail). */
  maxOutputTokens?: number;
  /** Cumulative budget per session, counted in `store`. */
  perSession?: SessionTokenBudget;
  /**
   * The session of a call. Default: `ctx.metadata.sessionId` (set through the
   * call's `providerOptions.guardrails` or the middleware's `context` option).
   * Calls without a session id (this returns `undefined`) share one budget,
   * under the key `""` (as seed 002 does): anonymous traffic is bounded too.
   */
  sessionId?: (ctx: GuardrailContext) => string | undefined;
  /** Where session totals live. Default: a `memoryStore()` of this guardrail. */
  store?: Store;
  /**
   * Counts the tokens of a text. Default: the o200k_base tokenizer (GPT-4o and
   * newer OpenAI models; linear in the text whatever it holds, and text that
   * spells a special token such as `<|endoftext|>` counted as text, see
   * `o200k-count.ts`); pass another tokenizer for other model families.
   * It is called on slices of at most 256 characters (cut before whitespace)
   * and the counts are added: byte-pair tokenizers are quadratic in one long
   * run of letters.
   */
  countTokens?: (text: string) => number;
  /**
   * Output tokens reserved against the session budget before the model runs,
   * for calls that set no `maxOutputTokens` (a call's own `maxOutputTokens` is
   * reserved when set: the answer cannot cost more). Default: this
   * guardrail's `maxOutputTokens` when set, else 1,024.
   */
  reserveOutputTokens?: number;
  /** Estimated tokens of one image part (any size). Default 1,600. */
  imageTokens?: number;
  /**
   * Bytes per token for other file parts sent inline (PDF, audio, text files
   * as bytes or base64): the estimate is `ceil(bytes / bytesPerToken)`.
   * Default 4. Inline text documents are counted with the tokenizer.
   */
  bytesPerToken?: number;
  /** Estimated tokens of a non-image file sent by URL or provider reference (size unknown). Default 1,600. */
  referencedFileTokens?: number;
  /**
   * User-facing message of a block. Default: for a per-request cap, "This
   * request is over the token limit of N tokens per request." (`maxInputTokens`;
   * "The answer is over the token limit of N tokens per answer." for
   * `maxOutputTokens`, "The tool result is over the token limit of N tokens."
   * and the like in `guardTools`); for the session budget, "This request
   * would exceed the token budget for this conversation." when a session's
   * reservation is refused while it still had tokens left, else "The token
   * budget for this conversation is used up."
   */
  message?: string;
  /** Guardrail name in records; also the prefix of store keys. Default `'token-budget'`. */
  name?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_RESERVE_OUTPUT_TOKENS = 1_024;
const DEFAULT_MEDIA_TOKENS = 1_600;
/**
 * Counts `text` slice by slice so that one long run of letters costs linear
 * time. Stops once the count passes `stopAbove`: a check only needs to know
 * that a 10 MB prompt is over its cap, not by how much, so an oversized
 * prompt costs no more than the cap's worth of tokenizing.
 */
function countInSlices(
  text: string,
  countTokens: (text: string) => number,
  stopAbove = Number.POSITIVE_INFINITY,
): number {
  if (text.length <= COUNT_SLICE) return countTokens(text);
  let total = 0;
  let start = 0;
  while (start < text.length && total <= stopAbove) {
    // Cut before the last whitespace of the slice: it begins the next word's token.
    const end = start + COUNT_SLICE < text.length ? sliceEnd(text, start) : text.length;
    total += countTokens(text.slice(start, end));
    start = end;
  }
  return total;
}

/** How file and image parts are estimated (see the options of the same names). */
interface MediaEstimate {
  imageTokens: number;
  bytesPerToken: number;
  referencedFileTokens: number;
  countText: (text: string, stopAbove?: number) => number;
}

/**
 * The bytes a `data:` URL carries: its payload after the comma, as base64
 * when it says `;base64`, else as written (percent escapes counted as
 * written: at most 3 characters a byte, an estimate on the safe side).
 */
function dataUrlBytes(url: string): number {
  const comma = url.indexOf(',');
  if (comma < 0) return 0;
  const payload = url.length - comma - 1;
  return /;base64$/i.test(url.slice(Math.max(0, comma - 7), comma))
    ? Math.floor((payload * 3) / 4)
    : payload;
}

/** The bytes of inline file data (bytes, base64 or a `data:` URL), or undefined for a URL / reference. */
function inlineBytes(data: unknown): number | undefined {
  if (data instanceof Uint8Array) return data.byteLength;
  if (data instanceof URL) return data.protocol === 'data:' ? dataUrlBytes(data.href) : undefined;
  if (typeof data === 'string') {
    // AI SDK 6 passes base64 strings, data URLs or URL strings directly.
    if (/^https?:/i.test(data.slice(0, 8))) return undefined;
    if (/^data:/i.test(data.slice(0, 5))) return dataUrlBytes(data);
    return Math.floor((data.length * 3) / 4);
  }
  if (data != null && typeof data === 'object' && 'type' in data) {
    const tagged = data as { type: string; data?: unknown; url?: unknown };
    if (tagged.type === 'data') return inlineBytes(tagged.data);
    // A `data:` URL is sent whole, inline: counted by its size, not as a referenced file.
    if (tagged.type === 'url' && (typeof tagged.url === 'string' || tagged.url instanceof URL)) {
      const url = tagged.url;
      return (typeof url === 'string' ? /^data:/i.test(url.slice(0, 5)) : url.protocol === 'data:')
        ? inlineBytes(url)
        : undefined;
    }
  }
  return undefined;
}

/** The estimated tokens of one file part (images a fixed count, other files by size). */
function fileTokens(part: { data: unknown; mediaType: string }, estimate: MediaEstimate): number {
  if (/^image(\/|$)/i.test(part.mediaType)) return estimate.imageTokens;
  const data = part.data as { type?: string; text?: unknown } | undefined;
  if (data?.type === 'text' && typeof data.text === 'string') return estimate.countText(data.text);
  const bytes = inlineBytes(part.data);
  if (bytes === undefined) return estimate.referencedFileTokens;
  return Math.ceil(bytes / estimate.bytesPerToken);
}

/** A V4 file part's data, as `SharedV4FileData` has it; anything else is malformed. */
function isFileData(data: unknown): boolean {
  if (data === null || typeof data !== 'object') return false;
  const tagged = data as {
    type?: unknown;
    data?: unknown;
    url?: unknown;
    text?: unknown;
    reference?: unknown;
  };
  switch (tagged.type) {
    case 'data':
      return tagged.data instanceof Uint8Array || typeof tagged.data === 'string';
    case 'url':
      return tagged.url instanceof URL || typeof tagged.url === 'string';
    case 'text':
      return typeof tagged.text === 'string';
    case 'reference':
      return tagged.reference !== null && typeof tagged.reference === 'object';
    default:
      return false;
  }
}

/**
 * The estimated tokens of one media part of a tool result's `content` output,
 * the way file parts of the prompt are estimated: V4's `file` part and AI SDK
 * 6's (spec v3) `file-data`, `image-data`, `file-url`, `image-url`, `file-id`,
 * `image-file-id`, and the older `media`. Undefined for a text part, a custom
 * part or a malformed one (counted as text by the caller).
 */
function contentPartMedia(
  part: Record<string, unknown>,
  estimate: MediaEstimate,
): number | undefined {
  const { mediaType } = part;
  switch (part.type) {
    case 'file':
      if (typeof mediaType !== 'string' || !isFileData(part.data)) return undefined;
      return fileTokens({ data: part.data, mediaType }, estimate);
    case 'file-data':
    case 'media':
      if (typeof mediaType !== 'string' || typeof part.data !== 'string') return undefined;
      return fileTokens({ data: part.data, mediaType }, estimate);
    case 'image-data':
      return typeof part.data === 'string' ? estimate.imageTokens : undefined;
    case 'file-url':
      if (
        typeof part.url !== 'string' ||
        (mediaType !== undefined && typeof mediaType !== 'string')
      ) {
        return undefined;
      }
      return fileTokens({ data: part.url, mediaType: mediaType ?? '' }, estimate);
    case 'image-url':
      return typeof part.url === 'string' ? estimate.imageTokens : undefined;
    case 'file-id':
    case 'image-file-id': {
      const { fileId } = part;
      if (typeof fileId !== 'string' && (fileId === null || typeof fileId !== 'object'))
        return undefined;
      return part.type === 'image-file-id' ? estimate.imageTokens : estimate.referencedFileTokens;
    }
    default:
      return undefined;
  }
}

/**
 * Adds a tool result's output to `pieces` and returns the tokens of its media.
 * A `content` output's text parts are text and its media parts are estimated
 * like file parts (a 100 KB screenshot is one image, not 30,000 tokens of
 * base64, round 25); any other output, and any part not of a known shape, is
 * counted as its JSON text, as before.
 */
function toolOutputTokens(output: unknown, estimate: MediaEstimate, pieces: string[]): number {
  const content = output as { type?: unknown; value?: unknown; providerOptions?: unknown } | null;
  if (
    content === null ||
    typeof content !== 'object' ||
    content.type !== 'content' ||
    !Array.isArray(content.value)
  ) {
    pieces.push(JSON.stringify(output) ?? '');
    return 0;
  }
  let media = 0;
  for (const item of content.value as unknown[]) {
    const part =
      item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : undefined;
    const tokens = part === undefined ? undefined : contentPartMedia(part, estimate);
    if (part?.type === 'text' && typeof part.text === 'string') {
      pieces.push(part.text);
    } else if (part === undefined || tokens === undefined) {
      pieces.push(JSON.stringify(item) ?? '');
      continue;
    } else {
      media += tokens;
      // The provider sends a file's name, and reads its options, as in the prompt.
      if (typeof part.filename === 'string') pieces.push(part.filename);
    }
    if (part.providerOptions !== undefined) pieces.push(JSON.stringify(part.providerOptions) ?? '');
  }
  if (content.providerOptions !== undefined)
    pieces.push(JSON.stringify(content.providerOptions) ?? '');
  return media;
}

/** The tokens of a tool's model output: its texts through the tokenizer, its media by their estimate. */
function modelOutputTokens(output: unknown, estimate: MediaEstimate, stopAbove: number): number {
  const { type, value } = (output ?? {}) as { type?: unknown; value?: unknown };
  // A text output is sent as its text, not as the JSON of the output object.
  if ((type === 'text' || type === 'error-text') && typeof value === 'string') {
    return estimate.countText(value, stopAbove);
  }
  const pieces: string[] = [];
  const media = toolOutputTokens(output, estimate, pieces);
  return estimate.countText(pieces.join('\n'), stopAbove - media) + media;
}

/**
 * What guardTools says the model is sent of a result, when the tool has its
 * own `toModelOutput` (internal `ctx.modelOutput`); undefined otherwise, or
 * when it failed (the result's text is counted, and guardTools fails closed
 * on a `toModelOutput` that throws when it judges the model output).
 */
async function modelOutputOf(ctx: GuardrailContext): Promise<unknown> {
  const read = (ctx as { modelOutput?: unknown }).modelOutput;
  if (typeof read !== 'function') return undefined;
  try {
    return await (read as () => Promise<unknown>)();
  } catch {
    return undefined;
  }
}

/**
 * The tokens the model is billed for in a prompt: every text part, tool input
 * and result through the tokenizer, and each file or image part by its
 * estimate (its name and provider options through the tokenizer).
 */
function promptTokens(
  prompt: LanguageModelV4Prompt,
  estimate: MediaEstimate,
  stopAbove = Number.POSITIVE_INFINITY,
  tools: LanguageModelV4CallOptions['tools'] = [],
): number {
  const pieces: string[] = [];
  let media = 0;
  // The call's tool definitions are sent with every call and billed as input:
  // an MCP server's 200,000-character description passed the cap (round 21).
  for (const tool of tools) {
    pieces.push(tool.name);
    if (tool.type === 'function') {
      if (typeof tool.description === 'string') pieces.push(tool.description);
      pieces.push(JSON.stringify(tool.inputSchema) ?? '');
      if (tool.inputExamples !== undefined) pieces.push(JSON.stringify(tool.inputExamples));
    } else {
      pieces.push(JSON.stringify(tool.args) ?? '');
    }
  }
  for (const message of prompt) {
    if (typeof message.content === 'string') {
      pieces.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') pieces.push(part.text);
      else if (part.type === 'tool-call') pieces.push(JSON.stringify(part.input));
      else if (part.type === 'tool-result')
        media += toolOutputTokens(part.output, estimate, pieces);
      // A reasoning file reaches the provider as a file does (round 35: it was not counted).
      else if (part.type === 'file' || part.type === 'reasoning-file') {
        media += fileTokens(part, estimate);
        // The provider sends its name (OpenAI's filename) and reads its options
        // (Anthropic's document title and context): 100,000 characters of
        // name were billed and not counted (round 19).
        if ('filename' in part && typeof part.filename === 'string') pieces.push(part.filename);
        if (part.providerOptions !== undefined) pieces.push(JSON.stringify(part.providerOptions));
      } else if (part.type === 'custom' && part.providerOptions !== undefined) {
        // A custom part's payload is its provider options.
        pieces.push(JSON.stringify(part.providerOptions));
      }
    }
  }
  return estimate.countText(pieces.join('\n'), stopAbove - media) + media;
}

/** What the input check reserved for one call, kept in `ctx.state` until the answer settles it. */
interface Reservation {
  key: string;
  /** Tokens charged for this call so far (the reservation, then the settled amount). */
  charged: number;
  inputTokens: number;
  /** Output tokens counted so far by the tokenizer (answers without reported usage). */
  outputTokens: number;
  /** True once the reported usage replaced the estimate. */
  settled: boolean;
  /** The answer being settled (the middleware's `retry` asks again: 2, 3...). */
  attempt: number;
  /** Tokens of the earlier answers of the call (retries), settled for good. */
  earlier: number;
}

const USED_UP = 'The token budget for this conversation is used up.';
const WOULD_EXCEED = 'This request would exceed the token budget for this conversation.';

/**
 * The message of a per-request cap, by what it counted (round 37: it said
 * the conversation's budget was used up, which may be untouched, or none).
 */
const OVER_CAP: Record<GuardrailContext['kind'], (cap: number) => string> = {
  input: cap => `This request is over the token limit of ${cap} tokens per request.`,
  output: cap => `The answer is over the token limit of ${cap} tokens per answer.`,
  tool_input: cap => `The tool arguments are over the token limit of ${cap} tokens.`,
  tool_output: cap => `The tool result is over the token limit of ${cap} tokens.`,
  tool_definition: cap => `The tool definition is over the token limit of ${cap} tokens.`,
};

/**
 * Caps tokens with a real tokenizer (o200k_base by default, not length / 4).
 *
 * As an input guardrail it judges the call, once: the whole prompt (text
 * through the tokenizer in linear time, each image part `imageTokens`, other
 * file parts by size) against `maxInputTokens` before the model is called.
 * As an output guardrail it takes the model's reported usage when there is
 * one (else the tokenizer count) against `maxOutputTokens`.
 *
 * With `perSession`, a call **reserves** its input estimate plus what its
 * answer may cost (the call's `maxOutputTokens`, else `reserveOutputTokens`)
 * in one atomic capped increment before the model runs; a call whose
 * reservation does not fit is blocked and not counted. The output guardrail
 * (the same instance) then settles the call with the reported usage:
 * releasing the unused part of the reservation, or charging the excess. So
 * concurrent calls of one session cannot overspend the budget by more than
 * what one call used beyond its reservation. A response with tool calls only
 * is settled too (the middleware runs per-call output guardrails on it with
 * an empty text); a call that never reaches the output check (blocked later,
 * or failed) keeps its reservation charged. The record's `info` holds the counts.
 *
 * In `window` streams it counts the answer's text and reasoning deltas as
 * they pass (with the same tokenizer, each slice of text once): once the
 * count passes `maxOutputTokens` the stream trips there, before any more
 * text is released, and the session is charged the input and the tokens
 * produced so far. A stream that ends settles with the reported usage
 * (else the streamed count), as in `hold` mode.
 *
 * @example
 * const budget = tokenBudget({ maxInputTokens: 8_000, perSession: { maxTokens: 100_000 } });
 * guardrails({ input: [budget], output: [budget] });
 */
export function tokenBudget(options?: TokenBudgetOptions): Guardrail {
  const {
    maxInputTokens,
    maxOutputTokens,
    perSession,
    sessionId = (ctx: GuardrailContext) => {
      const id = ctx.metadata.sessionId;
      return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
    },
    store = memoryStore(),
    countTokens = countO200k,
    reserveOutputTokens,
    imageTokens = DEFAULT_MEDIA_TOKENS,
    bytesPerToken = 4,
    referencedFileTokens = DEFAULT_MEDIA_TOKENS,
    message,
    name = 'token-budget',
  } = validateFactoryOptions(
    options,
    'token-budget',
    tokenBudgetOptionShape,
    tokenBudgetNeedsALimit,
  );
  const windowMs = perSession?.windowMs ?? DAY_MS;
  // A caller's counter that returns no count (an async one: a Promise is
  // over no cap) let a prompt of any size pass: checked, fails closed.
  const countChecked =
    countTokens === countO200k
      ? countO200k
      : (text: string) => countFromCallback(countTokens(text), `${name}.countTokens`);
  const countText = (text: string, stopAbove?: number) =>
    countInSlices(text, countChecked, stopAbove);
  // Past the smaller cap a prompt is blocked whatever its exact size: counting stops there.
  const inputStop = Math.min(
    maxInputTokens ?? Number.POSITIVE_INFINITY,
    perSession?.maxTokens ?? Number.POSITIVE_INFINITY,
  );
  const estimate: MediaEstimate = { imageTokens, bytesPerToken, referencedFileTokens, countText };
  const defaultOutputReserve =
    reserveOutputTokens ?? maxOutputTokens ?? DEFAULT_RESERVE_OUTPUT_TOKENS;
  // One reservation per call and guardrail instance, shared by its input and output checks.
  const reservationKey = `${name}:reservation`;
  // Calls without a session id share one budget (seed 002 groups them under "").
  // An async sessionId put every session under one budget: checked, fails closed.
  const sessionOf = (ctx: GuardrailContext) =>
    stringFromCallback(sessionId(ctx), {
      path: `${name}.sessionId`,
      expected: 'a function returning a string or undefined, synchronously',
      optional: true,
    }) ?? '';

  /** What a cap counted, by kind: a tool's traffic is no prompt ("input is ...") of the model. */
  const measured: Record<GuardrailContext['kind'], string> = {
    input: 'input',
    output: 'output',
    tool_input: 'the tool arguments',
    tool_output: 'the tool result',
    tool_definition: 'the tool definition',
  };

  function overCap(kind: GuardrailContext['kind'], tokens: number, cap: number, source: string) {
    return block({
      message: message ?? OVER_CAP[kind](cap),
      reason: `${measured[kind]} is ${tokens} tokens, over the per-request cap of ${cap}`,
      severity: 'warning',
      info: { tokens, cap, source },
    });
  }

  function overBudget(
    session: string,
    wouldUse: number,
    info: { [key: string]: number | string | undefined },
    defaultMessage = USED_UP,
  ) {
    return block({
      message: message ?? defaultMessage,
      reason:
        session === ''
          ? `calls without a session id would use ${wouldUse} tokens, over their shared budget of ${perSession!.maxTokens}`
          : // The client often chooses the id (a chat id from the request body): quoted, escaped, cut.
            `session ${shownToolName(session)} would use ${wouldUse} tokens, over its budget of ${perSession!.maxTokens}`,
      severity: 'warning',
      info: Object.fromEntries(Object.entries(info).filter(([, value]) => value !== undefined)) as {
        [key: string]: number | string;
      },
    });
  }

  async function checkInput(content: string, ctx: GuardrailContext) {
    const previous = ctx.state.get(reservationKey) as Reservation | undefined;
    // The call is judged once: a middleware that runs input checks per text
    // part must not reserve the prompt again for each of them.
    if (previous !== undefined) {
      return allow({
        tokens: previous.inputTokens,
        reserved: previous.charged,
        source: 'tokenizer',
      });
    }
    const modelOutput = ctx.kind === 'tool_output' ? await modelOutputOf(ctx) : undefined;
    const tokens =
      ctx.kind === 'input' && ctx.messages.length > 0
        ? promptTokens(ctx.messages, estimate, inputStop, ctx.tools)
        : modelOutput !== undefined
          ? modelOutputTokens(modelOutput, estimate, inputStop)
          : countText(content, inputStop);
    const source = 'tokenizer';
    if (maxInputTokens !== undefined && tokens > maxInputTokens) {
      return overCap(ctx.kind, tokens, maxInputTokens, source);
    }
    const session = perSession ? sessionOf(ctx) : undefined;
    if (!perSession || session === undefined) return allow({ tokens, source });

    const key = `${name}:session:${session}`;
    const budget = perSession.maxTokens;
    // Tool traffic is charged as it is (it reaches the model as part of a later prompt).
    const reserveOutput = ctx.kind === 'input' ? (ctx.maxOutputTokens ?? defaultOutputReserve) : 0;
    const reserved = tokens + reserveOutput;
    // A refused call never reaches the model, so it is not counted: one
    // atomic capped increment, safe under concurrent calls.
    const result = checkedCappedIncrement(
      await store.incrByCapped(key, reserved, budget, windowMs),
    );
    if (!result.applied) {
      return overBudget(
        session,
        result.value + reserved,
        {
          tokens,
          reserved,
          sessionTokens: result.value,
          budget,
          source,
          resetInMs: result.resetInMs,
        },
        // A call refused while the session still had tokens left (its
        // reservation alone over what is left) was told the budget was "used up".
        result.value < budget ? WOULD_EXCEED : USED_UP,
      );
    }
    if (ctx.kind === 'input') {
      ctx.state.set(reservationKey, {
        key,
        charged: reserved,
        inputTokens: tokens,
        outputTokens: 0,
        settled: false,
        attempt: 1,
        earlier: 0,
      } satisfies Reservation);
    }
    return allow({ tokens, reserved, sessionTokens: result.value, budget, source });
  }

  async function checkOutput(content: string, ctx: GuardrailContext) {
    const reported = tokenCount(ctx.usage?.outputTokens.total);
    // A window stream counted the whole response as it passed (see watchStream).
    const streamed = ctx.state.get(streamedKey) as StreamedTokenCount | undefined;
    const tokens = reported ?? streamed?.total() ?? countText(content);
    const source = reported !== undefined ? 'usage' : 'tokenizer';
    const session = perSession ? sessionOf(ctx) : undefined;
    let sessionTokens: number | undefined;
    if (perSession && session !== undefined) {
      const reservation = ctx.state.get(reservationKey) as Reservation | undefined;
      const key = reservation?.key ?? `${name}:session:${session}`;
      if (reservation && (ctx.attempt ?? 1) !== reservation.attempt) {
        // A retry's answer (the middleware's `retry`) is a new model call:
        // it is charged in full on top of what the earlier answers cost.
        reservation.attempt = ctx.attempt ?? 1;
        reservation.earlier = reservation.charged;
        reservation.outputTokens = 0;
        reservation.settled = false;
      }
      if (!reservation) {
        // No input check reserved this call: an answer was billed already, it always counts.
        sessionTokens = checkedCount(await store.incrBy(key, tokens, windowMs), 'incrBy');
      } else if (!reservation.settled) {
        // Settle: what the call cost replaces the estimate, so the unused
        // reservation goes back to the session (or the excess is charged).
        // Reported usage covers the whole answer; without it each text part
        // of the answer adds its own count.
        let actual: number;
        if (reported !== undefined) {
          actual =
            reservation.earlier +
            (tokenCount(ctx.usage?.inputTokens.total) ?? reservation.inputTokens) +
            reported;
          reservation.settled = true;
        } else {
          // The streamed count covers the whole response; a hold check sees one text part.
          reservation.outputTokens = streamed ? tokens : reservation.outputTokens + tokens;
          actual = reservation.earlier + reservation.inputTokens + reservation.outputTokens;
        }
        // When the window reset between the reservation and its release, the
        // release belongs to the old window: the store's incrBy floors the new
        // one at 0 in the same atomic step (a repair by a second call raced with
        // other releases, and the racing repairs charged a refund twice).
        sessionTokens = checkedCount(
          await store.incrBy(key, actual - reservation.charged, windowMs),
          'incrBy',
        );
        reservation.charged = actual;
        if (sessionTokens < 0) {
          // A custom Store without the floor: repaired here, not atomically.
          sessionTokens = checkedCount(await store.incrBy(key, -sessionTokens, windowMs), 'incrBy');
        }
      }
      if (sessionTokens !== undefined && sessionTokens > perSession.maxTokens) {
        return overBudget(session, sessionTokens, {
          tokens,
          sessionTokens: sessionTokens - tokens,
          budget: perSession.maxTokens,
          source,
        });
      }
    }
    if (maxOutputTokens !== undefined && tokens > maxOutputTokens) {
      return overCap('output', tokens, maxOutputTokens, source);
    }
    if (sessionTokens === undefined) return allow({ tokens, source });
    return allow({ tokens, sessionTokens, budget: perSession!.maxTokens, source });
  }

  // Window streams: the response's tokens, counted as it streams.
  const streamedKey = `${name}:streamed`;
  // o200k is byte-level: a token is at least one UTF-8 byte, at most 3 per UTF-16 unit.
  const tokensPerCharAtMost = countTokens === countO200k ? 3 : Number.POSITIVE_INFINITY;

  /**
   * Window streams: counts every text and reasoning delta of the response
   * with the tokenizer as it passes (each slice once), so the per-request
   * cap trips as soon as the answer passes it, before more text is
   * released; the settlement then charges the session what was produced.
   */
  function watchStream(ctx: GuardrailContext): StreamWatcher {
    // Without an output cap the count only settles a session whose model reports no usage.
    if (maxOutputTokens === undefined && !perSession) return {};
    const counted = new StreamedTokenCount(countChecked);
    ctx.state.set(streamedKey, counted);
    const cap = maxOutputTokens ?? Number.POSITIVE_INFINITY;
    let tripped = false;
    return {
      delta(delta) {
        if (tripped) return undefined;
        counted.push(delta);
        if (cap === Number.POSITIVE_INFINITY) return undefined;
        // The open slice is tokenized only when it could take the count past the cap.
        if (counted.lowerBound + tokensPerCharAtMost * counted.openLength <= cap) return undefined;
        if (counted.total() <= cap) return undefined;
        tripped = true;
        return checkOutput('', ctx);
      },
    };
  }

  const guardrail: StreamWatchingGuardrail = defineGuardrail({
    name,
    perCall: true,
    // In window streams a per-call guardrail is not run on the windows: it
    // watches the response's deltas (watchStream), and the middleware
    // settles it once with the response's reported usage.
    streamSafe: true,
    check: (content, ctx) =>
      ctx.kind === 'output' ? checkOutput(content, ctx) : checkInput(content, ctx),
  });
  guardrail.watchStream = watchStream;
  declareModelOutputReader(guardrail.check);
  return guardrail;
}

/**
 * A usage the model reported, when it is a count of tokens; else undefined
 * (the tokenizer counts). A NaN settled into a session made its counter NaN,
 * which passes every cap; a negative one refunded the session.
 */
function tokenCount(reported: number | undefined): number | undefined {
  return Number.isSafeInteger(reported) && (reported as number) >= 0 ? reported : undefined;
}
