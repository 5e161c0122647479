import type { Guardrail } from './types';

/**
 * Checks that read `ctx.modelOutput` (internal, not public API): what a
 * tool's own `toModelOutput` sends the model of a result, which `guardTools`
 * hands the `tool_output` checks declared here and no other (round 27: every
 * guardrail's ctx had it, a custom one could call the tool's
 * `toModelOutput` itself). Keyed by the check function, as
 * `declareSignalFreeCheck`: `tokenBudget` counts the model output with it.
 */
const modelOutputReaders = new WeakSet<Guardrail['check']>();

/** Declares that `check` is given `ctx.modelOutput` by `guardTools`. */
export function declareModelOutputReader(check: Guardrail['check']): void {
  modelOutputReaders.add(check);
}

/** True when `guardTools` hands `guardrail` the model output of a result. */
export function readsModelOutput(guardrail: Guardrail): boolean {
  return modelOutputReaders.has(guardrail.check);
}
