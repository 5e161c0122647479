/**
 * One fact about one text, kept while a chain runs (`runChain`), so that
 * guardrails of the chain that read the very same string do not compute it
 * twice: `pii()` and `secrets()` both read a long text in pieces, and when
 * `pii` changes nothing (most text holds no personal data) `secrets` reads
 * the same string and searched it again for what normalising may change
 * (`normalizationPoints`, about 0.7 ms per MB of real text).
 *
 * Safety: a fact is a function of the text alone (the same for any
 * guardrail and call), and is used only for the identical string (`===`),
 * so findings never depend on it. One entry at most, kept only while a
 * chain is running (outside one nothing is kept) and dropped when the
 * last running chain ends: no text outlives the chains that hold it.
 */
let running = 0;
let keptKind: string | undefined;
let keptText: string | undefined;
let keptValue: unknown;

/** Called by `runChain` when it starts. */
export function chainStarted(): void {
  running++;
}

/** Called by `runChain` when it ends (also when it throws): the last one to end drops the entry. */
export function chainEnded(): void {
  running = Math.max(0, running - 1);
  if (running === 0) {
    keptKind = undefined;
    keptText = undefined;
    keptValue = undefined;
  }
}

/**
 * `compute(text)`, reused for the same `kind` and string while a chain runs.
 * `compute` must be a function of `text` alone.
 */
export function inChain<T>(kind: string, text: string, compute: (text: string) => T): T {
  if (running === 0) return compute(text);
  if (
    keptKind === kind &&
    keptText !== undefined &&
    keptText.length === text.length &&
    keptText === text
  ) {
    return keptValue as T;
  }
  const value = compute(text);
  keptKind = kind;
  keptText = text;
  keptValue = value;
  return value;
}
