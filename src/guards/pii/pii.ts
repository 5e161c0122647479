import { settleUnawaited, stringFromCallback } from '../../core/callback-result';
import { declareSignalFreeCheck } from '../../core/chain';
import { allow, block, defineGuardrail, modify } from '../../core/define-guardrail';
import { validateFactoryOptions } from '../../core/options';
import type { OutputSideGuardrail } from '../../core/output-side';
import { judgeToolCallIdsWith } from '../../core/shown-tool-calls';
import type { Guardrail, GuardrailContext } from '../../core/types';
import { memoryStore } from '../../store/memory-store';
import type { Store } from '../../store/store';
import { normalizeInCall, offerNormalForm, offerTextSource } from '../shared/call-normalization';
import { type PiecesRead, redactedTextSource } from '../shared/chunked-scan';
import { decodedJsonSpans, readsJson } from '../shared/json-string-spans';
import { normalizeText } from '../shared/normalize-text';
import { redactedNormalForm } from '../shared/redacted-normal-form';
import { replaceSpans } from '../shared/spans';
import {
  allPiiEntities,
  type FindPiiOptions,
  findPiiInChunks,
  findPiiInNormalForm,
  findPiiWithScopedModel,
  type PiiSpan,
  piiMaxMatchLength,
} from './find-pii';
import { placeholderPattern } from './ner/find-named-entities';
import { checkWithNerModel, needsNerModel } from './ner/ner-model-loader';
import { piiNeedsSomethingToFind, piiOptionShape } from './pii-options';
import { piiMayMatch, piiPotentialStart } from './potential-start';
import { messageStrings, originalsShownIn } from './pseudonym-tool-scope';
import { callVault, type PseudonymVault, storeVault } from './pseudonym-vault';

/** Options of `pii`. */
export interface PiiOptions extends FindPiiOptions {
  /**
   * - `'redact'` (default): replace each value with a typed placeholder;
   * - `'block'`: trip, reporting the entity types found (never the values);
   * - `'pseudonymize'`: replace each value with a placeholder stable within
   *   the conversation (`<EMAIL_ADDRESS_1>`); the same instance used as an
   *   output guardrail restores the originals in the answer.
   */
  action?: 'redact' | 'block' | 'pseudonymize';
  /** Placeholder for `redact`. Default `` type => `[${type}]` ``. */
  placeholder?: (type: string) => string;
  /** Guardrail name in records. Default `'pii'`. */
  name?: string;
  /** Message of a block. Default: a sentence naming the entity types. */
  message?: string;
  /** Pseudonym vault. Default a `memoryStore()` private to this guardrail. */
  store?: Store;
  /**
   * The conversation a call belongs to, for `pseudonymize`. Default: the
   * `sessionId` (else `conversationId`, `chatId`, `threadId`) from
   * `ctx.metadata`; without one, the mapping lives only for one call.
   */
  conversationId?: (ctx: GuardrailContext) => string | undefined;
  /** How long a pseudonym mapping is kept after its last use. Default 24 hours. */
  ttlMs?: number;
  /**
   * What a placeholder in a tool's arguments (`guardTools({ input: [p] })`)
   * may turn back into:
   * - `'messages'` (default): a value the messages the tool call came from
   *   carry (the caller's messages, results of earlier tools); a placeholder
   *   whose value they do not carry stays as written (round 36: a client
   *   could write `<EMAIL_ADDRESS_1>` and have the tool receive the value of
   *   an earlier turn);
   * - `'vault'`: any value of the conversation's vault (before round 36), for
   *   an app whose clients keep only placeholders in the history and whose
   *   conversation id the client cannot choose.
   */
  toolRestore?: 'messages' | 'vault';
}

const pseudonymPattern = /<([A-Z][A-Z0-9_]*)_(\d{1,6})>/g;

function defaultConversationId(ctx: GuardrailContext): string | undefined {
  for (const key of ['sessionId', 'conversationId', 'chatId', 'threadId']) {
    const value = ctx.metadata?.[key];
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return undefined;
}

function optionalHooks(
  hook: ((text: string) => number) | undefined,
  mayMatch: ((text: string) => boolean) | undefined,
) {
  // mayMatchReach: PII_NEEDS reads at most 8 characters (`( at )`); 12 leaves room.
  return {
    ...(hook && { potentialMatchStart: hook }),
    ...(mayMatch && { mayMatch, mayMatchReach: 12 }),
  };
}

/** `[TYPE]` of a span's type, written once per type (for the spans of one call). */
function defaultPlaceholder(): (span: PiiSpan) => string {
  const written = new Map<string, string>();
  return span => {
    let text = written.get(span.type);
    if (text === undefined) {
      text = `[${span.type}]`;
      written.set(span.type, text);
    }
    return text;
  };
}

function typesOf(spans: readonly PiiSpan[]): string[] {
  const types = new Set<string>();
  let previous: string | undefined;
  // Indexed: called once per check, this loop may run before V8 optimises
  // it, where `for…of` allocates an iterator result per span.
  for (let index = 0; index < spans.length; index++) {
    const { type } = spans[index]!;
    // Values of one type often come in a row: the set is asked once per row.
    if (type === previous) continue;
    previous = type;
    types.add(type);
  }
  return [...types];
}

/** A tool-call id with personal data in it: records show a stand-in (see core/shown-tool-calls.ts). */
const piiInToolCallId = (ids: string) => findPiiWithScopedModel(ids);

/**
 * Keeps personal data out of prompts, answers and tool traffic. Finds it
 * with `findPii` (validated entities on normalised text, offsets into the
 * original) and redacts it, blocks, or pseudonymises it reversibly.
 * Stream-safe: `maxMatchLength` is the longest value it can match.
 *
 * @example
 * guardrails({ input: [pii({ action: 'pseudonymize' })], output: [pii(...same instance)] })
 */
export function pii(options?: PiiOptions): Guardrail {
  // The options as read once: the checks below never read the caller's object again.
  const read = validateFactoryOptions(options, 'pii', piiOptionShape, piiNeedsSomethingToFind);
  /** Whether the caller gave its own `placeholder`. */
  const callerPlaceholder = read.placeholder !== undefined;
  const {
    action = 'redact',
    placeholder = (type: string) => `[${type}]`,
    name = 'pii',
    message,
    store,
    conversationId = defaultConversationId,
    ttlMs = 24 * 60 * 60 * 1000,
    toolRestore = 'messages',
    ...findOptions
  } = read;
  judgeToolCallIdsWith(piiInToolCallId);
  const vaultStore = store ?? memoryStore();
  // A caller's placeholder that returns no string (an async one) wrote
  // "[object Promise]" into the text: checked, an error record instead.
  const writtenPlaceholder = (type: string) =>
    stringFromCallback(placeholder(type), {
      path: `${name}.placeholder`,
      expected: 'a function (type) => string, synchronous',
      optional: false,
    });
  const maxMatchLength = piiMaxMatchLength(findOptions);
  // The name tagger masks this guardrail's own placeholders (the default ones
  // always), so a redacted text redacted again is unchanged.
  let ownPlaceholders: RegExp | undefined;
  /** What the caller's `placeholder` writes for each type (undefined for the default), asked once per type. */
  let ownPlaceholderTexts: Map<string, string> | undefined;
  const placeholderTexts = () => {
    if (!callerPlaceholder) return undefined;
    if (!ownPlaceholderTexts) {
      ownPlaceholderTexts = new Map();
      for (const type of [
        ...allPiiEntities,
        ...(findOptions.custom ?? []).map(entry => entry.type),
      ]) {
        try {
          const written = placeholder(type);
          if (typeof written === 'string') ownPlaceholderTexts.set(type, written);
          else settleUnawaited(written);
        } catch {
          // It throws again when it redacts such a value: an error record.
        }
      }
    }
    return ownPlaceholderTexts;
  };
  const maskedPlaceholders = () => {
    const texts = placeholderTexts();
    if (texts === undefined) return undefined;
    // By type: a text one tagged type alone writes reads as a name of that type (round 41).
    ownPlaceholders ??= placeholderPattern(texts);
    return ownPlaceholders;
  };
  // Redacting, the text beside each value is read again with the placeholder it will have.
  const rescanPlaceholders = () => (action === 'redact' ? placeholderTexts() : undefined);

  function vaultOf(ctx: GuardrailContext): PseudonymVault {
    // An async conversationId put every conversation in one vault: checked, fails closed.
    const id = stringFromCallback(conversationId(ctx), {
      path: `${name}.conversationId`,
      expected: 'a function returning a string or undefined, synchronously',
      optional: true,
    });
    // Without a conversation id the call's shared state carries the mapping
    // from the input guardrail to the output guardrail of the same call.
    if (id === undefined) return callVault(ctx.state, `${name}:pii-vault`);
    return storeVault(vaultStore, `pii-vault:${name}:${id}`, ttlMs);
  }

  /**
   * The placeholders this call's prompt was given, with their values: what
   * the model saw, so what its answer means. Restoring prefers them over the
   * vault, whose mapping may have moved on since (expiry, another instance).
   */
  function callTokens(ctx: GuardrailContext): Map<string, string> {
    let tokens = promptTokens(ctx);
    if (!tokens) {
      tokens = new Map();
      ctx.state.set(`${name}:pii-call-tokens`, tokens);
    }
    return tokens;
  }

  /** `callTokens` when this call's prompt was pseudonymised (by this instance), else undefined. */
  function promptTokens(ctx: GuardrailContext): Map<string, string> | undefined {
    return ctx.state.get(`${name}:pii-call-tokens`) as Map<string, string> | undefined;
  }

  /** This call's placeholders by type and value (the reverse of `callTokens`). */
  function callValues(ctx: GuardrailContext): Map<string, string> {
    const key = `${name}:pii-call-values`;
    let values = ctx.state.get(key) as Map<string, string> | undefined;
    if (!values) {
      values = new Map();
      ctx.state.set(key, values);
    }
    return values;
  }

  async function pseudonymize(content: string, ctx: GuardrailContext) {
    const vault = vaultOf(ctx);
    if (ctx.kind === 'output' || ctx.kind === 'tool_input') {
      // The model writes placeholders; the user (or the tool) gets the originals.
      const tokens = [
        ...new Set(Array.from(content.matchAll(pseudonymPattern), match => match[0])),
      ];
      if (tokens.length === 0) return allow();
      // An answer to a prompt this instance pseudonymised gets back only the
      // values that prompt carried: a placeholder it did not carry was
      // written by the client (`Repeat <EMAIL_ADDRESS_1>`, in a history that
      // dropped the value) or made up by the model, and the vault would
      // restore a value of an earlier turn the call never showed (round 36).
      // A call with no such prompt (a `guardTools` call, a direct check)
      // looks its placeholders up in the vault; a tool call then keeps only
      // those whose value its messages carry (`toolRestore`).
      const prompted = promptTokens(ctx);
      let originals = new Map<string, string>();
      for (const token of tokens) {
        if (!prompted) ctx.abortSignal?.throwIfAborted();
        const original = prompted ? prompted.get(token) : await vault.valueOf(token);
        if (original !== undefined) originals.set(token, original);
      }
      // A tool call restores only the values its messages carry (round 36).
      if (!prompted && ctx.kind === 'tool_input' && toolRestore === 'messages') {
        originals = originalsShownIn(originals, messageStrings(ctx.messages));
      }
      if (originals.size === 0) return allow();
      let restored = 0;
      const text = content.replace(pseudonymPattern, token => {
        const original = originals.get(token);
        if (original === undefined) return token;
        restored++;
        return original;
      });
      return modify(text, { restored });
    }
    const seen = callTokens(ctx);
    const inJson = jsonStringSpans(content, ctx);
    const normalized = inJson ? undefined : normalizeInCall(content, ctx?.state);
    const found = normalized && findPiiInNormalForm(normalized, findOptions, maskedPlaceholders());
    const spans = inJson ?? found!.spans;
    if (spans.length === 0) return allow();
    const tokens: string[] = [];
    const given = callValues(ctx);
    for (const span of spans) {
      const value = content.slice(span.start, span.end);
      const key = `${span.type}\u0000${value}`;
      // One vault lookup per value and call, however often the history repeats it.
      let token = given.get(key);
      if (token === undefined) {
        // A remote vault costs round trips per value: none once the check's
        // time is up (round 36: 10 MB of addresses kept a store busy for
        // minutes after the call was blocked).
        ctx.abortSignal?.throwIfAborted();
        token = await vault.tokenFor(span.type, value);
        const earlier = seen.get(token);
        if (earlier !== undefined && earlier !== value) {
          // Only if a mapping expired and was handed on while this call ran
          // (a TTL shorter than the call): fail closed rather than give the
          // model two values behind one placeholder.
          throw new Error(`pseudonym vault: ${token} changed hands during the call`);
        }
        given.set(key, token);
        seen.set(token, value);
      }
      tokens.push(token);
    }
    let index = 0;
    const text = replaceSpans(content, spans, () => tokens[index++]!);
    // The redacted text's normal form is known only when the text was read as it is.
    if (normalized && found && !found.otherReading) {
      offerNormalForm(text, ctx?.state, () =>
        redactedNormalForm(normalized, found.normalizedSpans, tokens, text),
      );
    }
    return modify(text, { types: typesOf(spans), spans: spans.map(span => ({ ...span })) });
  }

  /**
   * At a tool's arguments and results (and a tool call's input in the
   * history, judged as input with inputScope 'all'), judged as JSON with
   * escapes in its strings: the values found with them decoded
   * (`decodedJsonSpans`), else undefined (the text is read as it is).
   * Answers and user texts are always read as they are (window mode judges
   * parts of an answer, which are not JSON, and must redact as generate does).
   */
  function jsonStringSpans(content: string, ctx: GuardrailContext): PiiSpan[] | undefined {
    if (!readsJson(ctx)) return undefined;
    return decodedJsonSpans(
      content,
      decoded =>
        findPiiInNormalForm(
          normalizeText(decoded),
          findOptions,
          maskedPlaceholders(),
          rescanPlaceholders(),
        ).spans,
    );
  }

  const guardrail = defineGuardrail({
    name,
    // Verdicts cached under another configuration must not apply to this one.
    fingerprint: options,
    streamSafe: true,
    // A retry gets the feedback only: the blocked answer holds the values the block is about.
    retryable: 'without-answer',
    maxMatchLength,
    // Window mode releases text up to where a value could still begin or grow.
    // Window mode skips checks of ordinary prose that no value could match.
    ...optionalHooks(piiPotentialStart(findOptions), piiMayMatch(findOptions)),
    // A pseudonym depends on the conversation's vault, not on the text alone:
    // a remembered one could belong to another conversation, or to a mapping
    // that expired and was handed to another value since.
    ...(action === 'pseudonymize' && { cache: 'none' as const }),
    // Synchronous unless pseudonymising (the vault may be a remote store): a
    // chain settles a synchronous check without a promise, timer or
    // listener, which on a chat message costs more than finding its PII.
    check(content, ctx) {
      if (action === 'pseudonymize') return pseudonymize(content, ctx);
      const inJson = jsonStringSpans(content, ctx);
      // A long text is read in pieces (no megabyte-sized normal form, see `chunked-scan.ts`).
      const read: { normalizationPoints?: Int32Array; pieces?: PiecesRead } = {};
      const inPieces =
        inJson || typeof content !== 'string'
          ? undefined
          : findPiiInChunks(content, findOptions, maskedPlaceholders(), rescanPlaceholders(), read);
      const normalized = inJson || inPieces ? undefined : normalizeInCall(content, ctx?.state);
      const found =
        normalized &&
        findPiiInNormalForm(normalized, findOptions, maskedPlaceholders(), rescanPlaceholders());
      const spans = inJson ?? inPieces ?? found!.spans;
      if (spans.length === 0) return allow();
      const types = typesOf(spans);
      // The spans are this call's own (`findPiiInNormalForm` builds them
      // fresh and nothing here changes them): the record takes them as they
      // are, not a copy of each (text full of values has 100,000s).
      const info = { types, spans: spans as { type: string; start: number; end: number }[] };
      if (action === 'block') {
        return block({
          message: message ?? `The text contains personal data (${types.join(', ')}).`,
          reason: `pii: ${types.join(', ')}`,
          severity: 'warning',
          info,
        });
      }
      // The default placeholder is written once per type and call (text
      // full of values otherwise keeps a fresh copy per value), and listed
      // per value only for a normal form derived from the text's; a
      // caller's function is called per value, as documented.
      const ownPlaceholder = callerPlaceholder ? undefined : defaultPlaceholder();
      const placeholders = ownPlaceholder
        ? undefined
        : spans.map(span => writtenPlaceholder(span.type));
      let index = 0;
      const text = replaceSpans(content, spans, span =>
        ownPlaceholder ? ownPlaceholder(span) : placeholders![index++]!,
      );
      // `secrets()` next in the chain gets this text's normal form without
      // normalising it again (known only when the text was read as it is).
      if (normalized && found && !found.otherReading) {
        offerNormalForm(text, ctx?.state, () =>
          redactedNormalForm(
            normalized,
            found.normalizedSpans,
            // Read only when the text's normal form differs from it.
            placeholders ?? (normalized.changed ? spans.map(ownPlaceholder!) : []),
            text,
          ),
        );
      } else if (inPieces) {
        // `secrets()` reads the redacted text in pieces too, without writing it out.
        offerTextSource(
          text,
          ctx?.state,
          redactedTextSource(
            content,
            spans,
            index => (ownPlaceholder ? ownPlaceholder(spans[index]!) : placeholders![index]!),
            read.normalizationPoints,
            read.pieces,
          ),
        );
      }
      return modify(text, info);
    },
  });
  // The tagger's model is loaded (a chunk of its own) by the first check that needs it.
  guardrail.check = checkWithNerModel(guardrail.check, () => needsNerModel(findOptions.entities));
  // Redacting or blocking, it never reads ctx.abortSignal nor assigns to ctx,
  // so a chain may share one context among such checks. Pseudonymising hands
  // ctx to the user's `conversationId`, which may do either.
  if (action !== 'pseudonymize') declareSignalFreeCheck(guardrail.check);
  // Its placeholders come back in answers; only this instance (its vault)
  // restores them there, so `guardrails()` requires it in output too.
  if (action === 'pseudonymize') {
    (guardrail as OutputSideGuardrail).undoneInOutputOnlyByItself =
      'pseudonymises: the model answers with its placeholders, such as <EMAIL_ADDRESS_1>, and only this instance turns them back into the values';
    (guardrail as OutputSideGuardrail).conversationFromMetadata =
      conversationId === defaultConversationId;
  }
  return guardrail;
}
