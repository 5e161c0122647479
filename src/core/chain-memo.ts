/**
 * One fact about one text, kept for one run of a chain (`runChain`), so
 * that guardrails of the run that read the very same string do not compute
 * it twice: `pii()` and `secrets()` both read a long text in pieces, and
 * when `pii` changes nothing (most text holds no personal data) `secrets`
 * reads the same string and searched it again for what normalising may
 * change (`normalizationPoints`, about 0.7 ms per MB of real text).
 *
 * Safety: a fact is a function of the text alone (the same for any
 * guardrail and call), and is used only for the identical string (`===`),
 * so findings never depend on it. Each run has its own entry (one at most):
 * it is read only by that run's checks, while their synchronous part runs
 * (`runChain` makes the run current around each check and restores the one
 * before, so a chain run inside a check has its own), and dropped when the
 * run ends. Until round 30 one entry was shared by every running chain and
 * dropped only when none was running: with calls overlapping (a stream
 * whose chain waits on a judge while other calls run theirs) a finished
 * call's text stayed held, and another call read its entry.
 *
 * The input side runs one chain per guardrail and text, so since round 31
 * `guardInput` starts one memo for a call's sequential input guardrails and
 * passes it to each of their runs (`RunChainOptions.memo`), ending it when
 * the input is judged: `secrets` after `pii` on a user message reads pii's
 * fact. It is still one entry (the last text read) and still this call's.
 */
export interface ChainRun {
  kind: string | undefined;
  text: string | undefined;
  value: unknown;
}

/** The run whose check is running now (synchronously), if any. */
let current: ChainRun | undefined;

/** Runs holding an entry (only for `heldChainTexts`): at most one per running chain. */
const holding = new Set<ChainRun>();

/** Called by `runChain` when it starts: the run's own (empty) memo. */
export function chainStarted(): ChainRun {
  return { kind: undefined, text: undefined, value: undefined };
}

/**
 * Makes `run` the current one (its checks' `inChain` calls use its entry);
 * returns the run that was current, for `chainLeft`.
 */
export function chainEntered(run: ChainRun): ChainRun | undefined {
  const previous = current;
  current = run;
  return previous;
}

/** After a check's synchronous part: `previous` (from `chainEntered`) is current again. */
export function chainLeft(previous: ChainRun | undefined): void {
  current = previous;
}

/** Called by `runChain` when it ends (also when it throws): its entry is dropped. */
export function chainEnded(run: ChainRun): void {
  if (run.text === undefined) return;
  run.kind = undefined;
  run.text = undefined;
  run.value = undefined;
  holding.delete(run);
}

/**
 * `compute(text)`, reused for the same `kind` and string within the current
 * run. `compute` must be a function of `text` alone. Outside a run's check
 * (or after a check's first `await`) nothing is kept.
 */
export function inChain<T>(kind: string, text: string, compute: (text: string) => T): T {
  const run = current;
  if (run === undefined) return compute(text);
  const keptText = run.text;
  if (
    run.kind === kind &&
    keptText !== undefined &&
    keptText.length === text.length &&
    keptText === text
  ) {
    return run.value as T;
  }
  const value = compute(text);
  run.kind = kind;
  run.text = text;
  run.value = value;
  holding.add(run);
  return value;
}

/**
 * The current run's fact of `kind` about `text` when it holds one (a
 * guardrail before in the chain computed it), else undefined: for a
 * reader that uses the fact when it is there and does without otherwise.
 */
export function keptInChain<T>(kind: string, text: string): T | undefined {
  const run = current;
  const keptText = run?.text;
  if (
    run === undefined ||
    run.kind !== kind ||
    keptText === undefined ||
    keptText.length !== text.length ||
    keptText !== text
  ) {
    return undefined;
  }
  return run.value as T;
}

/** The texts the running chains hold facts of, one per run holding one (for tests). */
export function heldChainTexts(): string[] {
  return Array.from(holding, run => run.text!);
}
