/**
 * A guardrail's wait for its own lazily loaded model (the harmful model of
 * `promptInjection`, the tagger of `pii`), told to the chain that runs the
 * check: the wait is not the check's work, so the chain starts the check's
 * `timeoutMs` once the model is ready, bounds the wait by a fixed limit of
 * its own that fails closed (`GuardrailModelLoadTimeoutError`), and stops
 * it when the call is aborted (see `settle` in chain.ts). Before, the wait
 * counted against `timeoutMs`, and a timeout with `onError: 'allow'` let
 * the text through unjudged while the model was still loading.
 *
 * The note goes through one module variable that `settle` clears before it
 * calls a check and reads right after: the check (or a wrapper that calls
 * it at once) notes the load synchronously, so no other code runs between.
 */

/** The model load the check being called now waits for, if it said so. */
let noted: PromiseLike<unknown> | undefined;

/**
 * `run` with the model once `load` gives it, telling the chain running this
 * check that the time until then is a model load, not the check's work.
 * Call it synchronously inside `check` and return its promise.
 */
export function afterModelLoad<M, T>(
  load: Promise<M>,
  run: (model: M) => T | PromiseLike<T>,
): Promise<T> {
  noted = load;
  return load.then(run);
}

/** Internal (chain.ts): the load the last check noted, forgotten as it is read. */
export function takeModelLoad(): PromiseLike<unknown> | undefined {
  const load = noted;
  noted = undefined;
  return load;
}
