import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { type ChainContext, type ChainResult, runChain } from '../core/chain';
import { allow } from '../core/define-guardrail';
import { emitEvent } from '../core/events';
import { sha256Hex } from '../core/sha256-hex';
import type {
  Guardrail,
  GuardrailEventListener,
  GuardrailMetadata,
  GuardrailRecord,
} from '../core/types';
import { type PromptText, promptTexts, rebuildPrompt, userTextOf } from './prompt-texts';
import {
  cachedBlockRecord,
  toCachedVerdict,
  type VerdictCache,
  type VerdictSlot,
} from './verdict-cache';

/** Which messages input guardrails judge. */
export type InputScope = 'user' | 'all';

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
  step,
  abortSignal,
  onEvent,
  defaultTimeoutMs,
}: InputJudgeOptions) {
  const context: ChainContext = { kind: 'input', messages: prompt, metadata, state };
  if (maxOutputTokens !== undefined) context.maxOutputTokens = maxOutputTokens;
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

  function run(guardrail: Guardrail, text: string, messages = prompt): Promise<ChainResult> {
    return runChain([guardrail], text, messages === prompt ? context : { ...context, messages }, {
      abortSignal,
      onEvent,
      defaultTimeoutMs,
    });
  }

  /** Runs a per-call guardrail once, on the user text of the whole prompt. */
  async function judgeCall(
    guardrail: Guardrail,
    texts: readonly PromptText[],
    contents: string[],
  ): Promise<GuardrailPass> {
    const messages = rebuildPrompt(prompt, texts, contents);
    const result = await run(judgingOnly(guardrail), userTextOf(texts, contents), messages);
    return { contents, records: result.records, trip: result.trip, cachedVerdicts: 0 };
  }

  /** Runs a guardrail over every text whose verdict is not remembered. */
  async function judgeTexts(
    guardrail: Guardrail,
    texts: readonly PromptText[],
    current: readonly string[],
  ): Promise<GuardrailPass> {
    if (guardrail.perCall) return judgeCall(guardrail, texts, [...current]);
    const contents = [...current];
    const records: GuardrailRecord[] = [];
    // Look every text up at once: one round trip per guardrail, not per message.
    const slots: Array<VerdictSlot | undefined> = await Promise.all(
      contents.map(async (text, i) =>
        cache.slot(guardrail, await hashOf(text), texts[i]!.role, metadata),
      ),
    );
    const remembered = await Promise.all(slots.map(slot => (slot ? cache.get(slot) : undefined)));
    // A remembered block trips before anything is judged: the text was blocked before.
    for (const verdict of remembered) {
      if (verdict?.action === 'block') {
        const trip = cachedBlockRecord(guardrail, verdict, 'input');
        emitEvent(onEvent, trip);
        return { contents, records: [trip], trip, cachedVerdicts: 1 };
      }
    }
    let cachedVerdicts = 0;
    // The same text twice in one prompt ("ok", "ok") is judged once.
    const judgedNow = new Map<string, string>();
    for (let i = 0; i < contents.length; i++) {
      const verdict = remembered[i];
      if (verdict) {
        cachedVerdicts++;
        if (verdict.action === 'modify') contents[i] = verdict.content;
        continue;
      }
      const sameKey = `${texts[i]!.role}\u0000${contents[i]}`;
      const already = guardrail.cache === 'none' ? undefined : judgedNow.get(sameKey);
      if (already !== undefined) {
        contents[i] = already;
        continue;
      }
      const result = await run(guardrail, contents[i]!);
      records.push(...result.records);
      const slot = slots[i];
      const record = result.records[0];
      if (slot && record) {
        const toRemember = toCachedVerdict(record, result.content);
        if (toRemember) await cache.set(slot, toRemember);
      }
      if (result.trip) return { contents, records, trip: result.trip, cachedVerdicts };
      if (record?.status !== 'error') judgedNow.set(sameKey, result.content);
      contents[i] = result.content;
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
 * message) is judged by every guardrail unless the verdict cache remembers
 * that guardrail's verdict on that exact text. A remembered block blocks
 * again; a remembered modification is applied again. Per-call guardrails run
 * once, on the user text of the whole prompt. Non-text parts pass through.
 */
export async function guardInput({
  prompt,
  guardrails,
  scope,
  judge,
}: {
  prompt: LanguageModelV4Prompt;
  guardrails: readonly Guardrail[];
  scope: InputScope;
  judge: InputJudge;
}): Promise<InputGuardResult> {
  const texts = promptTexts(prompt, scope === 'all');
  let contents = texts.map(t => t.text);
  const records: GuardrailRecord[] = [];
  let cachedVerdicts = 0;
  for (const guardrail of guardrails) {
    const pass = await judge.judgeTexts(guardrail, texts, contents);
    records.push(...pass.records);
    cachedVerdicts += pass.cachedVerdicts;
    if (pass.trip) return { prompt, records, trip: pass.trip, texts, contents, cachedVerdicts };
    contents = pass.contents;
  }
  return {
    prompt: rebuildPrompt(prompt, texts, contents),
    records,
    texts,
    contents,
    cachedVerdicts,
  };
}
