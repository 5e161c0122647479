import { GuardrailFailClosedError } from '../../core/chain';
import { loadOnce } from '../../core/load-once';
import { afterModelLoad } from '../../core/model-wait';
import { decodeHarmfulModel } from '../harmful-content/harmful-model';
import type { HarmfulScorer } from '../harmful-content/harmful-scorer';

/**
 * `promptInjection()`'s harmful-content model (its decoded-harmful signal)
 * could not be had: its chunk failed to load or decode. A
 * `GuardrailFailClosedError`: the check's record has status `error` and the
 * text does not pass, even with `onError: 'allow'`; the next check that
 * needs the model loads it again.
 */
export class HarmfulModelLoadError extends GuardrailFailClosedError {
  override readonly name = 'HarmfulModelLoadError';
}

/**
 * The shipped model through an `import()` of `model/harmful-scorer-data.ts`:
 * the scorer's data of `harmful-model-data.ts` in a file that nothing
 * imports statically, so bundlers put it in a chunk of its own (esbuild
 * splits by file: a dynamically imported file that the entry also reaches
 * statically, even tree-shaken, lands in a chunk loaded at start, and a
 * bundle of `pii()` alone got the model). Written by
 * `scripts/write-lazy-harmful-model.ts`; `harmful-model-loader.test.ts`
 * checks it equals the shipped model. Decoded here, once.
 */
const importShipped = (): Promise<HarmfulScorer> =>
  // Round 49 (lead): the word-piece suffix gate is off (SUFFIX_WORD_PIECES_ON), so its
  // vocabulary (model/word-vocabulary-chunk.ts) is not loaded here and the package does
  // not carry it; with the gate on, import it beside the data and give it
  // (giveWordVocabulary).
  import('./model/harmful-scorer-data').then(data =>
    decodeHarmfulModel(data.harmfulModel, data.HARMFUL_READINGS),
  );

const harmfulModel = loadOnce(
  importShipped,
  (reason, cause) =>
    new HarmfulModelLoadError(
      `prompt-injection: the harmful-content model could not be loaded (${reason})`,
      { cause },
    ),
);

/**
 * The harmful model, loaded once: concurrent first callers share one load. A
 * failed load rejects with `HarmfulModelLoadError` (its cause kept) and is
 * tried again by the next caller.
 */
export function loadHarmfulScorer(): Promise<HarmfulScorer> {
  return harmfulModel.load();
}

/**
 * Internal (tests): loads the model with `next` from now on (default: the
 * shipped chunk) and forgets the model loaded so far.
 */
export function setHarmfulModelLoader(next?: () => Promise<HarmfulScorer>): void {
  harmfulModel.setLoader(next ?? importShipped);
}

/** Thrown (and caught) inside `withHarmfulScorer` when a reading asks for a model not loaded yet. */
const notLoaded: unique symbol = Symbol('harmful model not loaded');

const askBeforeLoad = (): HarmfulScorer => {
  throw notLoaded;
};

/**
 * `run` (synchronous) given the harmful model on demand. Once the model is
 * loaded, or when `run` never asks for it (indirect mode, a text that
 * decodes to nothing), the result comes synchronously. When `run` asks
 * before the load, the synchronous attempt is dropped at that point, the
 * model loaded, and `run` run again with it: the first such check settles
 * asynchronously with the verdict it would have had with the model at
 * start, or rejects with `HarmfulModelLoadError`. The chain times the
 * check from when the model is there (see `afterModelLoad`).
 */
export function withHarmfulScorer<T>(run: (harmful: () => HarmfulScorer) => T): T | Promise<T> {
  const scorer = harmfulModel.loaded;
  if (scorer !== undefined) return run(() => scorer);
  try {
    return run(askBeforeLoad);
  } catch (error) {
    if (error !== notLoaded) throw error;
  }
  // The wait for the load is not the check's work (`afterModelLoad`).
  return afterModelLoad(loadHarmfulScorer(), model => run(() => model));
}
