import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { allow, block, defineGuardrail } from '../../core/define-guardrail';
import { GuardrailConfigError, type GuardrailConfigIssue } from '../../core/errors';
import type { Guardrail, GuardrailContext } from '../../core/types';
import { memoryStore } from '../../store/memory-store';
import type { Store } from '../../store/store';

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
   * A call without a session id is not counted against any session budget.
   */
  sessionId?: (ctx: GuardrailContext) => string | undefined;
  /** Where session totals live. Default: a `memoryStore()` of this guardrail. */
  store?: Store;
  /**
   * Counts the tokens of a text. Default: the o200k_base tokenizer (GPT-4o and
   * newer OpenAI models); pass another tokenizer for other model families.
   */
  countTokens?: (text: string) => number;
  /** User-facing message of a block. */
  message?: string;
  /** Guardrail name in records; also the prefix of store keys. Default `'token-budget'`. */
  name?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The text the model is billed for in a prompt: every text part, tool input and result. */
function promptText(prompt: LanguageModelV4Prompt): string {
  const pieces: string[] = [];
  for (const message of prompt) {
    if (typeof message.content === 'string') {
      pieces.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') pieces.push(part.text);
      else if (part.type === 'tool-call') pieces.push(JSON.stringify(part.input));
      else if (part.type === 'tool-result') pieces.push(JSON.stringify(part.output));
    }
  }
  return pieces.join('\n');
}

/**
 * Caps tokens with a real tokenizer (o200k_base by default, not length / 4).
 * As an input guardrail it counts the whole prompt and blocks it over
 * `maxInputTokens` before the model is called; as an output guardrail it takes
 * the model's reported usage when there is one (else the tokenizer count) and
 * blocks over `maxOutputTokens`. With `perSession`, input and output tokens add
 * up per session id in a `Store` (an atomic capped increment for prompts, so
 * concurrent calls of one session cannot both slip under the cap); a prompt
 * that would exceed the budget is blocked and not counted, an answer that
 * exceeds it is blocked and counted. The record's `info` holds the counts.
 *
 * Not stream-safe (it needs the whole answer's count): use `hold` mode for
 * output in streams.
 *
 * @example
 * const budget = tokenBudget({ maxInputTokens: 8_000, perSession: { maxTokens: 100_000 } });
 * guardrails({ input: [budget], output: [budget] });
 */
export function tokenBudget({
  maxInputTokens,
  maxOutputTokens,
  perSession,
  sessionId = ctx => {
    const id = ctx.metadata.sessionId;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  },
  store = memoryStore(),
  countTokens = countO200k,
  message = 'The token budget for this conversation is used up.',
  name = 'token-budget',
}: TokenBudgetOptions = {}): Guardrail {
  const issues: GuardrailConfigIssue[] = [];
  for (const [key, value] of [
    ['maxInputTokens', maxInputTokens],
    ['maxOutputTokens', maxOutputTokens],
    ['perSession.maxTokens', perSession?.maxTokens],
    ['perSession.windowMs', perSession?.windowMs],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      issues.push({ path: `${name}.${key}`, value, expected: 'a positive integer' });
    }
  }
  if (perSession !== undefined && perSession.maxTokens === undefined) {
    issues.push({
      path: `${name}.perSession.maxTokens`,
      value: undefined,
      expected: 'a positive integer',
    });
  }
  if (maxInputTokens === undefined && maxOutputTokens === undefined && perSession === undefined) {
    issues.push({
      path: name,
      value: {},
      expected: 'at least one of maxInputTokens, maxOutputTokens, perSession',
    });
  }
  if (issues.length > 0) throw new GuardrailConfigError(issues);
  const windowMs = perSession?.windowMs ?? DAY_MS;

  return defineGuardrail({
    name,
    perCall: true,
    async check(content, ctx) {
      const isOutput = ctx.kind === 'output';
      const reported = isOutput ? ctx.usage?.outputTokens.total : undefined;
      const tokens =
        reported ??
        countTokens(
          ctx.kind === 'input' && ctx.messages.length > 0 ? promptText(ctx.messages) : content,
        );
      const source = reported !== undefined ? 'usage' : 'tokenizer';
      const cap = isOutput ? maxOutputTokens : maxInputTokens;
      const label = isOutput ? 'output' : 'input';
      if (cap !== undefined && tokens > cap) {
        return block({
          message,
          reason: `${label} is ${tokens} tokens, over the per-request cap of ${cap}`,
          severity: 'warning',
          info: { tokens, cap, source },
        });
      }
      const session = perSession ? sessionId(ctx) : undefined;
      if (!perSession || session === undefined) return allow({ tokens, source });

      const key = `${name}:session:${session}`;
      const budget = perSession.maxTokens;
      const overBudget = (sessionTokens: number, resetInMs?: number) =>
        block({
          message,
          reason: `session "${session}" would use ${sessionTokens + tokens} tokens, over its budget of ${budget}`,
          severity: 'warning',
          info: {
            tokens,
            sessionTokens,
            budget,
            source,
            ...(resetInMs === undefined ? {} : { resetInMs }),
          },
        });
      if (!isOutput) {
        // A refused prompt never reaches the model, so it is not counted:
        // one atomic capped increment, safe under concurrent calls.
        const result = await store.incrByCapped(key, tokens, budget, windowMs);
        if (!result.applied) return overBudget(result.value, result.resetInMs);
        return allow({ tokens, sessionTokens: result.value, budget, source });
      }
      // An answer was generated (and billed) already: it always counts.
      const total = await store.incrBy(key, tokens, windowMs);
      if (total > budget) return overBudget(total - tokens);
      return allow({ tokens, sessionTokens: total, budget, source });
    },
  });
}
