/**
 * Every system of the comparison, by id. Each loads lazily so that one peer
 * failing to import (or to start) is reported for that peer alone.
 */
import type { SystemAdapter } from './adapter';

/** Loaders of ours and each peer, in report order. */
export const systems: Record<string, () => Promise<SystemAdapter>> = {
  ours: async () => (await import('./ai-guardrails')).aiGuardrails(),
  openai: async () => (await import('./openai-guardrails')).openaiGuardrails(),
  hai: async () => (await import('./hai-guardrails')).haiGuardrails(),
  'llm-guard': async () => (await import('./llm-guard')).llmGuard(),
  llm_guardrail: async () => (await import('./llm-guardrail')).llmGuardrail(),
};

/** The npm package behind each system id, for versions and error messages. */
export const packageOf: Record<string, string> = {
  ours: 'ai-guardrails',
  openai: '@openai/guardrails',
  hai: '@presidio-dev/hai-guardrails',
  'llm-guard': 'llm-guard',
  llm_guardrail: 'llm_guardrail',
};
