import type { Guardrail } from './types';

/**
 * An internal protocol between `window` mode and the built-in guardrails
 * (not public API): a cheaper `potentialMatchStart` for text the
 * guardrail's own `mayMatch` has just ruled out.
 *
 * When every filter of the chain said false, the window releases up to the
 * hooks' cut without running the chain. A guardrail's `mayMatch` was then
 * false about a text that ends with the hook's text (by the contract of
 * `mayMatchReach`, its verdict on everything received since the chain last
 * ran), so some of what the hook looks for cannot be there: `secrets`' hook
 * need not look for a keyword's assignment, a Kubernetes `data:` block or a
 * PEM block, which its filter rules out. The filtered hook must return what
 * the hook returns on every text (and every substring of a text) that the
 * filter rules out; `src/guards/secrets/potential-start.test.ts` tests that.
 *
 * Registered by the pair (hook, filter): a copy of the guardrail with
 * another `mayMatch` (a wrapper, a user's own filter) gets the full hook.
 */
interface FilteredHook {
  mayMatch: (text: string) => boolean;
  hook: (text: string) => number;
}

const filteredHooks = new WeakMap<(text: string) => number, FilteredHook>();

/** Declares `filtered` as `hook` for text `mayMatch` said false about. */
export function registerFilteredHook(
  hook: (text: string) => number,
  mayMatch: (text: string) => boolean,
  filtered: (text: string) => number,
): void {
  filteredHooks.set(hook, { mayMatch, hook: filtered });
}

/**
 * The guardrail's `potentialMatchStart` for text its `mayMatch` ruled out:
 * the registered cheaper one when both its hook and its filter are the
 * registered pair, else its own hook (undefined without one).
 */
export function filteredHookOf(guardrail: Guardrail): ((text: string) => number) | undefined {
  const hook = guardrail.potentialMatchStart;
  if (typeof hook !== 'function') return undefined;
  const registered = filteredHooks.get(hook);
  return registered !== undefined && registered.mayMatch === guardrail.mayMatch
    ? registered.hook
    : hook;
}
