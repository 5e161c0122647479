import { allow, block, defineGuardrail } from '../../core/define-guardrail';
import { GuardrailConfigError } from '../../core/errors';
import type { Guardrail } from '../../core/types';
import { DEFAULT_PROMPT_INJECTION_THRESHOLD, scorePromptInjection } from './score-prompt-injection';

/** Options of `promptInjection`. */
export interface PromptInjectionOptions {
  /** Block at or above this score (0..1). Default `DEFAULT_PROMPT_INJECTION_THRESHOLD` (0.45). */
  threshold?: number;
  /**
   * `'direct'` judges a user's own message; `'indirect'` judges data the model
   * reads (tool results, documents) and also flags instructions addressed to
   * the assistant. Default: `'indirect'` on `tool_output`, `'direct'` elsewhere.
   */
  mode?: 'direct' | 'indirect';
  /** User-facing message of a block. */
  message?: string;
  /** Guardrail name in records. Default `'prompt-injection'`. */
  name?: string;
}

/**
 * Blocks text that reads like a prompt injection: instruction overrides
 * ("ignore all previous instructions"), jailbreak personas and modes, system
 * prompt extraction, and, in indirect mode, instructions addressed to the
 * assistant inside tool results and documents. Deterministic and offline;
 * the text is normalised (NFKC, invisible characters, homoglyphs, leetspeak)
 * and encoded runs (base64, hex, URL) are decoded before matching.
 *
 * The record's `info` holds `{ score, signals, mode, threshold }`.
 *
 * Not stream-safe: weak signals anywhere in the text add up, so it must see
 * the whole text (use it on input and tool results, or `hold` mode on output).
 *
 * @example
 * guardrails({ input: [promptInjection()] });
 * guardTools(tools, { output: [promptInjection({ mode: 'indirect' })] });
 */
export function promptInjection({
  threshold = DEFAULT_PROMPT_INJECTION_THRESHOLD,
  mode,
  message = 'This request looks like a prompt injection and was blocked.',
  name = 'prompt-injection',
}: PromptInjectionOptions = {}): Guardrail {
  if (typeof threshold !== 'number' || !(threshold > 0 && threshold <= 1)) {
    throw new GuardrailConfigError({
      path: `${name}.threshold`,
      value: threshold,
      expected: 'a number in (0, 1]',
    });
  }
  if (mode !== undefined && mode !== 'direct' && mode !== 'indirect') {
    throw new GuardrailConfigError({
      path: `${name}.mode`,
      value: mode,
      expected: "'direct' or 'indirect'",
    });
  }
  return defineGuardrail({
    name,
    check(content, ctx) {
      const effectiveMode = mode ?? (ctx.kind === 'tool_output' ? 'indirect' : 'direct');
      const { score, signals } = scorePromptInjection(content, { mode: effectiveMode });
      const info = { score, signals, mode: effectiveMode, threshold };
      if (score < threshold) return allow(info);
      return block({
        message,
        reason: `prompt injection score ${score} >= ${threshold} (${signals.join(', ')})`,
        severity: 'critical',
        info,
      });
    },
  });
}
