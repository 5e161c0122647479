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
  fused: FusedHook | undefined;
}

/**
 * The filtered hook for a text that is the end of a text `window` mode's
 * one scan of the chain's filters ruled out (`middleware/may-match-union`,
 * built with this guardrail's own `FilterTriggers`): that scan also notes
 * where `notes` occur, so the hook need not search the text for them again.
 * `hook(text, noted)` must return what the filtered hook returns on every
 * such text, `noted` being false only when none of `notes` occurs in
 * `text`. (The scan saw no character its triggers flag and nothing beyond
 * printable ASCII, tabs and line breaks, which the hook may rely on too.)
 */
export interface FusedHook {
  /** ASCII characters and literals (matched in any case) the scan notes for the hook. */
  notes?: HookNotes;
  hook: (text: string, noted: boolean) => number;
}

/** What a `FusedHook` asks the scan to note. */
export interface HookNotes {
  characters: string;
  literals: readonly string[];
}

const filteredHooks = new WeakMap<(text: string) => number, FilteredHook>();

/**
 * Declares `filtered` as `hook` for text `mayMatch` said false about, and
 * `fused` as `hook` for text the chain's one scan ruled out (see `FusedHook`).
 */
export function registerFilteredHook(
  hook: (text: string) => number,
  mayMatch: (text: string) => boolean,
  filtered: (text: string) => number,
  fused?: FusedHook,
): void {
  filteredHooks.set(hook, { mayMatch, hook: filtered, fused });
}

/** The guardrail's `FusedHook` when its hook and its filter are the registered pair (else undefined). */
export function fusedHookOf(guardrail: Guardrail): FusedHook | undefined {
  const hook = guardrail.potentialMatchStart;
  if (typeof hook !== 'function') return undefined;
  const registered = filteredHooks.get(hook);
  return registered !== undefined && registered.mayMatch === guardrail.mayMatch
    ? registered.fused
    : undefined;
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

/**
 * What a built-in's `mayMatch` looks for, declared for `window` mode's one
 * scan of the whole chain's filters (`middleware/may-match-union`): on a
 * text of printable ASCII, tabs and line breaks (`\t`, `\n`, `\r`), the
 * filter says false whenever none of these occurs. (An internal protocol like the one above, not public API.)
 * The union may say "maybe" more often than the filter (then the filters
 * are asked one by one), never less; `*-triggers` tests in the guards
 * check that on random texts.
 */
export interface FilterTriggers {
  /** ASCII characters any one of which may make the filter say true (digits, `@`, ...). */
  characters: string;
  /**
   * ASCII literals matched in any case, a space standing for any run of
   * whitespace (an entry, a keyword's leading letters). Where one ends,
   * `confirm(text, end)` decides (its case, the character before it); without
   * `confirm`, the filter may say true.
   */
  literals: ReadonlyArray<{ literal: string; confirm?: (text: string, end: number) => boolean }>;
  /** A run of `length` characters of `characters` (ASCII) may make the filter say true. */
  run?: { characters: string; length: number };
  /** ASCII characters at which `test(text, at)` decides; each occurrence costs a call, so rare ones. */
  near?: { characters: string; test: (text: string, at: number) => boolean };
  /** Asked at every ASCII letter standing alone (no ASCII letter on either side): `a`, `I`, a spelled-out word's first letter. */
  singleLetter?: (text: string, at: number) => boolean;
  /**
   * How far the tests above read: each answers from `text[pos - left]` to
   * `text[pos + right]` alone (`pos`: `at` for `near` and `singleLetter`, a
   * literal's last character, `end - 1`, for `confirm`), whatever the text
   * holds beyond (beyond its ends: nothing). Declared by every filter of a
   * chain, `window` mode's one scan resumes where it stopped instead of
   * reading the last characters again: it asks again only the tests whose
   * `right` reached past the text it had. Absent: the scan reads again.
   */
  reads?: { left: number; right: number };
}

const filterTriggers = new WeakMap<(text: string) => boolean, FilterTriggers>();

/** Declares what the filter `mayMatch` looks for (see `FilterTriggers`). */
export function registerFilterTriggers(
  mayMatch: (text: string) => boolean,
  triggers: FilterTriggers,
): void {
  filterTriggers.set(mayMatch, triggers);
}

/** The triggers declared for the guardrail's own `mayMatch`; undefined for any other (a copy, a user's own). */
export function filterTriggersOf(guardrail: Guardrail): FilterTriggers | undefined {
  const { mayMatch } = guardrail;
  return typeof mayMatch === 'function' ? filterTriggers.get(mayMatch) : undefined;
}
