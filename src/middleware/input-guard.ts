import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { type ChainContext, runChain } from '../core/chain';
import type { Guardrail, GuardrailEventListener, GuardrailRecord } from '../core/types';

/** Which messages input guardrails judge. */
export type InputScope = 'user' | 'all';

/** The input chain's result for one call. */
export interface InputGuardResult {
  prompt: LanguageModelV4Prompt;
  records: GuardrailRecord[];
  trip?: GuardrailRecord;
  /** The texts of the new input after sequential modifications, for parallel guardrails. */
  newInputTexts: string[];
}

/**
 * Remembers what the input chain made of a text, so that a redaction applied
 * to one turn applies again when a chat client re-sends that turn as history,
 * without running blocking checks on it a second time. Bounded (LRU).
 */
export class InputMemo {
  private readonly entries = new Map<string, string>();
  constructor(private readonly maxEntries: number) {}

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: string) {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }
}

/** Index of the first message of the new user input: the messages after the last assistant message. */
function newInputStart(prompt: LanguageModelV4Prompt): number {
  for (let i = prompt.length - 1; i >= 0; i--) {
    if (prompt[i]!.role === 'assistant') return i + 1;
  }
  return 0;
}

function hasNewUserInput(prompt: LanguageModelV4Prompt, start: number): boolean {
  for (let i = start; i < prompt.length; i++) if (prompt[i]!.role === 'user') return true;
  return false;
}

/**
 * Runs the sequential input guardrails over the prompt.
 *
 * - New user input (user messages after the last assistant message) gets the
 *   full chain: a block trips the call.
 * - Every other user message (history, earlier steps of a tool loop) gets the
 *   modifications only, memoised by content, so redactions are durable and
 *   blocking checks run once per new input.
 * - System messages are judged only with `scope: 'all'`, alongside new input.
 * - Non-text parts pass through untouched.
 */
export async function guardInput({
  prompt,
  guardrails,
  scope,
  memo,
  memoScope,
  context,
  abortSignal,
  onEvent,
}: {
  prompt: LanguageModelV4Prompt;
  guardrails: readonly Guardrail[];
  scope: InputScope;
  memo: InputMemo;
  /** Distinguishes memo entries of different conversations (guardrails may depend on metadata). */
  memoScope: string;
  context: Omit<ChainContext, 'kind'>;
  abortSignal: AbortSignal;
  onEvent: GuardrailEventListener | undefined;
}): Promise<InputGuardResult> {
  const start = newInputStart(prompt);
  const hasNewInput = hasNewUserInput(prompt, start);
  const records: GuardrailRecord[] = [];
  const newInputTexts: string[] = [];
  const chainContext: ChainContext = { ...context, kind: 'input' };
  const output: LanguageModelV4Prompt = [];
  let changed = false;

  async function guardText(
    text: string,
    role: string,
    isNew: boolean,
  ): Promise<string | GuardrailRecord> {
    const key = `${memoScope}\u0000${role}\u0000${text}`;
    if (!isNew) {
      const remembered = memo.get(key);
      if (remembered !== undefined) return remembered;
    }
    const result = await runChain(guardrails, text, chainContext, {
      abortSignal,
      onEvent: isNew ? onEvent : undefined,
      mode: isNew ? 'enforce' : 'modify-only',
    });
    if (isNew) records.push(...result.records);
    if (result.trip) return result.trip;
    memo.set(key, result.content);
    if (isNew) newInputTexts.push(result.content);
    return result.content;
  }

  for (let index = 0; index < prompt.length; index++) {
    const message = prompt[index]!;
    if (message.role === 'system') {
      if (scope !== 'all') {
        output.push(message);
        continue;
      }
      const guarded = await guardText(message.content, 'system', hasNewInput);
      if (typeof guarded !== 'string') return { prompt, records, trip: guarded, newInputTexts };
      if (guarded !== message.content) changed = true;
      output.push(guarded === message.content ? message : { ...message, content: guarded });
      continue;
    }
    if (message.role !== 'user') {
      output.push(message);
      continue;
    }
    const isNew = index >= start;
    let content: Extract<LanguageModelV4Message, { role: 'user' }>['content'] | undefined;
    for (let p = 0; p < message.content.length; p++) {
      const part = message.content[p]!;
      if (part.type !== 'text') continue;
      const guarded = await guardText(part.text, 'user', isNew);
      if (typeof guarded !== 'string') return { prompt, records, trip: guarded, newInputTexts };
      if (guarded !== part.text) {
        content ??= [...message.content];
        content[p] = { ...part, text: guarded };
      }
    }
    if (content) changed = true;
    output.push(content ? { ...message, content } : message);
  }
  return { prompt: changed ? output : prompt, records, newInputTexts };
}
