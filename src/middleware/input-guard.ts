import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { type ChainContext, type ChainResult, runChain } from '../core/chain';
import { type ChainRun, chainEnded, chainStarted } from '../core/chain-memo';
import { allow } from '../core/define-guardrail';
import { emitEvent } from '../core/events';
import { sha256Hex } from '../core/sha256-hex';
import { cutToolName, shownToolCallIdOf } from '../core/shown-tool-calls';
import type {
  Guardrail,
  GuardrailEventListener,
  GuardrailMetadata,
  GuardrailRecord,
} from '../core/types';
import { UNREADABLE_FILE, type UnreadableFiles } from '../tools/model-output-check';
import { parseModifiedJson } from '../tools/quote-redacted-literals';
import {
  type PromptText,
  promptTexts,
  rebuildPrompt,
  TOOL_CALL_ID_SLOT,
  userTextOf,
} from './prompt-texts';
import {
  cachedBlockRecord,
  toCachedVerdict,
  type VerdictCache,
  type VerdictSlot,
} from './verdict-cache';

/** Which messages input guardrails judge. */
export type InputScope = 'user' | 'all';

/** Name of the record of an input text the middleware could not read (`inputScope: 'all'`). */
export const INPUT_UNREADABLE = 'input-unreadable';

/**
 * What a text is judged as, in the verdict cache and among the texts of one
 * prompt: `'user'`, `'system'`, or `'<role>-<part>'` (`'assistant-text'`,
 * `'assistant-tool-call'`, ...): a guardrail may read `ctx.role` and `ctx.part`.
 * A user's text after an assistant message (`firstAssistant`, the index of
 * the prompt's first one, is before it) is `'user-after-assistant'`: a
 * guardrail may read the conversation before it (`promptInjection()` does,
 * round 49), and a message keeps its place in the later calls of its
 * conversation, so nothing is judged again for it.
 */
function formOf(entry: PromptText, firstAssistant: number): string {
  if (entry.role === 'user' && entry.part === 'text') {
    return firstAssistant >= 0 && firstAssistant < entry.message ? 'user-after-assistant' : 'user';
  }
  return entry.role === 'system' ? entry.role : `${entry.role}-${entry.part}`;
}

/**
 * The text hashed for the cache: a tool call's input with its tool name in
 * front (a guardrail may read `ctx.toolName`), its length first so that no
 * two name and text pairs meet.
 */
function keyedText(entry: PromptText, content: string): string {
  return entry.part === 'tool-call'
    ? `${entry.toolName!.length}:${entry.toolName}\u0000${content}`
    : content;
}

/** The record fields that say what an input text is (none for a user text, as before). */
function sourceFields(
  entry: PromptText,
  state: object,
): Pick<GuardrailRecord, 'role' | 'part' | 'toolName' | 'toolCallId'> {
  if (entry.role === 'user') return entry.part === 'text' ? {} : { part: entry.part };
  const fields: Pick<GuardrailRecord, 'role' | 'part' | 'toolName' | 'toolCallId'> = {
    role: entry.role,
    part: entry.part,
  };
  if (entry.toolName !== undefined) fields.toolName = cutToolName(entry.toolName);
  if (entry.toolCallId !== undefined) {
    fields.toolCallId = shownToolCallIdOf(state, entry.toolCallId);
  }
  return fields;
}

/** The input chain's result for one call. */
export interface InputGuardResult {
  /** The prompt after every modification (the given prompt when none applied). */
  prompt: LanguageModelV4Prompt;
  /** Records of the texts judged in this call (a remembered verdict makes none, except a block). */
  records: GuardrailRecord[];
  trip?: GuardrailRecord;
  /** The judged texts of the prompt, for parallel guardrails. */
  texts: PromptText[];
  /** Their contents after the sequential guardrails' modifications, in the same order. */
  contents: string[];
  /** How many verdicts came from the cache instead of a new judgment. */
  cachedVerdicts: number;
}

/** What judging one guardrail over the prompt's texts produced. */
export interface GuardrailPass {
  contents: string[];
  records: GuardrailRecord[];
  trip?: GuardrailRecord;
  cachedVerdicts: number;
}

/** Everything the input guardrails of one call share. */
export interface InputJudgeOptions {
  prompt: LanguageModelV4Prompt;
  cache: VerdictCache;
  metadata: GuardrailMetadata;
  state: Map<string, unknown>;
  /** The call's `maxOutputTokens`, when set (budgets reserve it). */
  maxOutputTokens?: number;
  /** The call's tools, when it has some (budgets count their definitions). */
  tools?: LanguageModelV4CallOptions['tools'];
  /** The call's index within its run, when known (`ctx.step`). */
  step?: number;
  abortSignal: AbortSignal;
  onEvent: GuardrailEventListener | undefined;
  defaultTimeoutMs: number;
}

/**
 * A per-call guardrail comes once for the whole prompt: its modification
 * could not be mapped back to the messages, so only its allow or block counts.
 */
function judgingOnly(guardrail: Guardrail): Guardrail {
  return {
    ...guardrail,
    check: async (content, ctx) => {
      const verdict = await guardrail.check(content, ctx);
      return verdict?.action === 'modify' ? allow(verdict.info) : verdict;
    },
  };
}

/**
 * Judges the texts of one call's prompt, one guardrail at a time, with the
 * verdict cache: a text whose verdict this deployment remembers is not judged
 * again (a remembered block still trips), every other text is.
 */
export function inputJudge({
  prompt,
  cache,
  metadata,
  state,
  maxOutputTokens,
  tools,
  step,
  abortSignal,
  onEvent,
  defaultTimeoutMs,
}: InputJudgeOptions) {
  const context: ChainContext = { kind: 'input', messages: prompt, metadata, state };
  const firstAssistant = prompt.findIndex(message => message.role === 'assistant');
  if (maxOutputTokens !== undefined) context.maxOutputTokens = maxOutputTokens;
  if (tools !== undefined && tools.length > 0) context.tools = tools;
  if (step !== undefined) context.step = step;
  const hashes = new Map<string, Promise<string>>();
  const hashOf = (text: string) => {
    let hash = hashes.get(text);
    if (!hash) {
      hash = sha256Hex(text);
      hashes.set(text, hash);
    }
    return hash;
  };

  function run(
    guardrail: Guardrail,
    text: string,
    messages = prompt,
    entry?: PromptText,
    memo?: ChainRun,
  ): Promise<ChainResult> {
    let ctx = messages === prompt ? context : { ...context, messages };
    if (entry) {
      ctx = { ...ctx, role: entry.role, part: entry.part };
      if (entry.part === 'tool-call') {
        ctx.toolName = entry.toolName;
        ctx.toolCallId = entry.toolCallId;
        // The arguments as the text now says (an earlier guardrail may have redacted them).
        ctx.value = text === entry.text ? entry.value : JSON.parse(text);
      } else if (entry.part === 'provider-options') {
        ctx.value = entry.value;
      }
    }
    return runChain([guardrail], text, ctx, { abortSignal, onEvent, defaultTimeoutMs, memo });
  }

  /** A record the middleware makes itself about an input text, emitted like a guardrail's. */
  function ownRecord(
    guardrail: string,
    status: 'blocked' | 'error',
    reason: string,
    entry: PromptText,
  ): GuardrailRecord {
    const record: GuardrailRecord = {
      guardrail,
      kind: 'input',
      status,
      reason,
      durationMs: 0,
      ...sourceFields(entry, state),
    };
    emitEvent(onEvent, record);
    return record;
  }

  /**
   * `modified`, the new text of `entry` after a modification of `before`: a
   * tool call's input must still be JSON (a redacted bare number is quoted,
   * as in tool results); one that is not any more blocks the call, since the
   * model must not read the value the guardrail hid. Provider options are
   * never rewritten (signatures, cache control and encrypted content must
   * reach the provider as sent): a modification of them blocks the call.
   */
  function applied(
    guardrail: Guardrail,
    entry: PromptText,
    before: string,
    modified: string,
  ): { content: string; trip?: undefined } | { trip: GuardrailRecord } {
    if (modified === before) return { content: modified };
    if (entry.part === 'provider-options') {
      return {
        trip: ownRecord(
          guardrail.name,
          'blocked',
          `modified the provider options of message ${entry.message}, which reach the provider as they were sent (signatures, cache control, encrypted content): blocked instead`,
          entry,
        ),
      };
    }
    if (entry.part === 'file' && entry.binary) {
      // The bytes of a file that is not text are never rewritten (round 23: a `.mo` catalog was).
      return {
        trip: ownRecord(
          guardrail.name,
          'blocked',
          `modified the text read from a file of message ${entry.message} that is not text, whose bytes are never rewritten: blocked instead`,
          entry,
        ),
      };
    }
    if (entry.part !== 'tool-call') return { content: modified };
    try {
      return { content: parseModifiedJson(before, modified).text };
    } catch {
      return {
        trip: ownRecord(
          guardrail.name,
          'blocked',
          `modified the input of tool call "${shownToolCallIdOf(state, entry.toolCallId!)}" into text that is not valid JSON`,
          entry,
        ),
      };
    }
  }

  /** Runs a per-call guardrail once, on the user text of the whole prompt. */
  async function judgeCall(
    guardrail: Guardrail,
    texts: readonly PromptText[],
    contents: string[],
    memo?: ChainRun,
  ): Promise<GuardrailPass> {
    const messages = rebuildPrompt(prompt, texts, contents);
    const result = await run(
      judgingOnly(guardrail),
      userTextOf(texts, contents),
      messages,
      undefined,
      memo,
    );
    return { contents, records: result.records, trip: result.trip, cachedVerdicts: 0 };
  }

  /**
   * Runs a guardrail over every text whose verdict is not remembered. `memo`:
   * the chain memo its runs share with the guardrails before and after it
   * (`guardInput` starts and ends one), else each run has its own.
   */
  async function judgeTexts(
    guardrail: Guardrail,
    texts: readonly PromptText[],
    current: readonly string[],
    memo?: ChainRun,
  ): Promise<GuardrailPass> {
    if (guardrail.perCall) return judgeCall(guardrail, texts, [...current], memo);
    const contents = [...current];
    // The conversation each text is judged in is the prompt as the guardrails
    // before this one left it (round 29: it was the prompt as the client sent
    // it, so an llmJudge after pii showed the judge model the card pii hid).
    const messages = rebuildPrompt(prompt, texts, current);
    const records: GuardrailRecord[] = [];
    // Content the middleware cannot read (inputScope 'all') fails closed before it is judged.
    const unreadable = texts.find(entry => entry.unreadable !== undefined);
    if (unreadable) {
      const reason = unreadable.unreadable!.replace(
        TOOL_CALL_ID_SLOT,
        () => `"${shownToolCallIdOf(state, String(unreadable.toolCallId))}"`,
      );
      const trip = ownRecord(INPUT_UNREADABLE, 'error', reason, unreadable);
      return { contents, records: [trip], trip, cachedVerdicts: 0 };
    }
    // A file no guardrail reads, with `unreadableFiles: 'block'`.
    const refused = texts.find(entry => entry.refused !== undefined);
    if (refused) {
      const trip = ownRecord(UNREADABLE_FILE, 'blocked', refused.refused!, refused);
      return { contents, records: [trip], trip, cachedVerdicts: 0 };
    }
    // Look every text up at once: one round trip per guardrail, not per message.
    const slots: Array<VerdictSlot | undefined> = await Promise.all(
      contents.map(async (text, i) =>
        cache.slot(
          guardrail,
          await hashOf(keyedText(texts[i]!, text)),
          formOf(texts[i]!, firstAssistant),
          metadata,
        ),
      ),
    );
    const remembered = await Promise.all(slots.map(slot => (slot ? cache.get(slot) : undefined)));
    // A remembered block trips before anything is judged: the text was blocked before.
    for (let i = 0; i < remembered.length; i++) {
      const verdict = remembered[i];
      if (verdict?.action === 'block') {
        const trip = cachedBlockRecord(guardrail, verdict, 'input', sourceFields(texts[i]!, state));
        emitEvent(onEvent, trip);
        return { contents, records: [trip], trip, cachedVerdicts: 1 };
      }
    }
    let cachedVerdicts = 0;
    // The same text twice in one prompt ("ok", "ok") is judged once.
    const judgedNow = new Map<string, string>();
    for (let i = 0; i < contents.length; i++) {
      const entry = texts[i]!;
      const verdict = remembered[i];
      if (verdict) {
        cachedVerdicts++;
        if (verdict.action === 'modify') {
          const next = applied(guardrail, entry, contents[i]!, verdict.content);
          if (next.trip)
            return { contents, records: [...records, next.trip], trip: next.trip, cachedVerdicts };
          contents[i] = next.content;
        }
        continue;
      }
      // Not by place: a guardrail that reads the conversation judges a text by
      // its first place (`promptInjection()` does), so one verdict holds for both.
      const sameKey = `${formOf(entry, -1)}\u0000${keyedText(entry, contents[i]!)}`;
      const already = guardrail.cache === 'none' ? undefined : judgedNow.get(sameKey);
      if (already !== undefined) {
        contents[i] = already;
        continue;
      }
      const result = await run(guardrail, contents[i]!, messages, entry, memo);
      records.push(...result.records);
      const slot = slots[i];
      const record = result.records[0];
      if (slot && record) {
        const toRemember = toCachedVerdict(record, result.content);
        if (toRemember) await cache.set(slot, toRemember);
      }
      if (result.trip) return { contents, records, trip: result.trip, cachedVerdicts };
      const next = applied(guardrail, entry, contents[i]!, result.content);
      if (next.trip) {
        records.push(next.trip);
        return { contents, records, trip: next.trip, cachedVerdicts };
      }
      if (record?.status !== 'error') judgedNow.set(sameKey, next.content);
      contents[i] = next.content;
    }
    return { contents, records, cachedVerdicts };
  }

  return { judgeTexts, judgeCall };
}

/** An input judge, as `inputJudge` builds it. */
export type InputJudge = ReturnType<typeof inputJudge>;

/**
 * Runs the sequential input guardrails over the prompt, in declared order.
 *
 * The client owns the chat history, so every text in the prompt is
 * unverified: each user message (and, with `scope: 'all'`, each system
 * message, each assistant message's text, reasoning and tool-call inputs, and
 * each tool-approval-response reason) is judged by every guardrail unless the
 * verdict cache remembers that guardrail's verdict on that exact text. A
 * remembered block blocks again; a remembered modification is applied again.
 * Per-call guardrails run once, on the user text of the whole prompt. Other
 * parts pass through.
 */
export async function guardInput({
  prompt,
  guardrails,
  scope,
  judge,
  unreadableFiles = 'pass',
  specificationVersion = 'v4',
}: {
  prompt: LanguageModelV4Prompt;
  guardrails: readonly Guardrail[];
  scope: InputScope;
  judge: InputJudge;
  /** `'block'`: a file no guardrail reads blocks the call (see `guardrails({ unreadableFiles })`). */
  unreadableFiles?: UnreadableFiles;
  /** `'v3'` (AI SDK 6): a file part's data may be its bytes, base64 or URL itself. */
  specificationVersion?: 'v3' | 'v4';
}): Promise<InputGuardResult> {
  const texts = promptTexts(
    prompt,
    scope === 'all',
    undefined,
    unreadableFiles === 'block',
    specificationVersion === 'v3',
  );
  let contents = texts.map(t => t.text);
  const records: GuardrailRecord[] = [];
  let cachedVerdicts = 0;
  // One chain memo for every guardrail's runs (round 31): each guardrail runs
  // its own chain per text, so without it `secrets` searched a user message
  // again for what `pii` had already found about the same string. It holds
  // one text's fact (the last text read), and is dropped when this returns.
  const memo = chainStarted();
  try {
    for (const guardrail of guardrails) {
      const pass = await judge.judgeTexts(guardrail, texts, contents, memo);
      records.push(...pass.records);
      cachedVerdicts += pass.cachedVerdicts;
      if (pass.trip) return { prompt, records, trip: pass.trip, texts, contents, cachedVerdicts };
      contents = pass.contents;
    }
  } finally {
    chainEnded(memo);
  }
  return {
    prompt: rebuildPrompt(prompt, texts, contents),
    records,
    texts,
    contents,
    cachedVerdicts,
  };
}
