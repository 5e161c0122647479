import { GuardrailFailClosedError } from '../../../core/chain';
import { loadOnce } from '../../../core/load-once';
import { afterModelLoad } from '../../../core/model-wait';
import type { Guardrail } from '../../../core/types';
import { nerEntities } from './labels';
import { decodeNerModel, type EncodedNerModel, type NerModel } from './ner-model';

/**
 * The tagger's model could not be had: its chunk failed to load or decode,
 * or a find asked for a tagged type with no model given (a bug). A
 * `GuardrailFailClosedError`: the check's record has status `error` and the
 * text does not pass, even with `onError: 'allow'` (its names and addresses
 * were never looked for).
 */
export class NerModelLoadError extends GuardrailFailClosedError {
  override readonly name = 'NerModelLoadError';
}

/** The model of the synchronous find running now (`withNerModel`). */
let scoped: (() => NerModel) | undefined;

/**
 * Runs `run` (synchronous) with `model` as the tagger's model: what
 * `scopedNerModel` returns while it runs. `findPii` gives the bundled model,
 * `pii()`'s check the one it loaded. Nested calls restore the outer model.
 */
export function withNerModel<T>(model: () => NerModel, run: () => T): T {
  const outer = scoped;
  scoped = model;
  try {
    return run();
  } finally {
    scoped = outer;
  }
}

/** The model given by the `withNerModel` running now; throws `NerModelLoadError` outside one. */
export function scopedNerModel(): NerModel {
  if (scoped === undefined) {
    throw new NerModelLoadError('pii: no named-entity model was loaded for this check');
  }
  return scoped();
}

let decodedFrom: EncodedNerModel | undefined;
let decoded: NerModel | undefined;

/**
 * `encoded` decoded, kept while the same object is asked for: `findPii`'s
 * bundled model and `pii()`'s loaded one are the same weights (one module
 * instance), decoded once.
 */
export function decodedOnce(encoded: EncodedNerModel): NerModel {
  if (decodedFrom !== encoded || decoded === undefined) {
    decoded = decodeNerModel(encoded);
    decodedFrom = encoded;
  }
  return decoded;
}

/** The loader `import 'ai-guardrails/ner'` registered (src/ner/index.ts), if any. */
let registered: (() => Promise<NerModel>) | undefined;

/**
 * Internal (src/ner/index.ts): the `import()` of the weights that an app's bundler
 * sees, as a chunk of their own, in an app that imports `ai-guardrails/ner`.
 */
export function registerNerModelLoader(load: () => Promise<NerModel>): void {
  registered = load;
}

/**
 * The package's own `ai-guardrails/ner`, imported by name: a specifier that
 * bundlers do not follow (not a literal; the comments tell webpack and
 * Vite), so an app that never imports that module bundles no weights. It
 * resolves where the package is installed (Node, from `node_modules`); in a
 * bundled app without `node_modules` it fails, and the check fails closed.
 */
const selfReference: string = 'ai-guardrails/ner';

/** Loads the shipped model: through the registered loader, else by the package's name. */
const importBundled = (): Promise<NerModel> => {
  if (registered !== undefined) return registered();
  return (
    import(/* webpackIgnore: true */ /* @vite-ignore */ selfReference) as Promise<
      typeof import('../../../ner/index')
    >
  ).then(
    module => module.loadShippedNerModel(),
    (cause: unknown) => {
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new Error(
        `in a bundled app, import 'ai-guardrails/ner' once to ship the tagger; ai-guardrails/ner did not load: ${reason}`,
        { cause },
      );
    },
  );
};

const nerModel = loadOnce(
  importBundled,
  (reason, cause) =>
    new NerModelLoadError(`pii: the named-entity model could not be loaded (${reason})`, {
      cause,
    }),
);
const loadedModel = () => nerModel.loaded!;

/**
 * The shipped model, loaded once: concurrent first callers share one load. A
 * failed load rejects with `NerModelLoadError` (its cause kept) and is tried
 * again by the next caller.
 */
export function loadNerModel(): Promise<NerModel> {
  return nerModel.load();
}

/**
 * Internal (tests): loads the model with `next` from now on (default: the
 * shipped chunk) and forgets the model loaded so far.
 */
export function setNerModelLoader(next?: () => Promise<NerModel>): void {
  nerModel.setLoader(next ?? importBundled);
}

/** Whether an `entities` option (validated) asks for a type the tagger finds. */
export function needsNerModel(entities: readonly string[] | 'all' | undefined): boolean {
  if (entities === 'all') return true;
  return (
    Array.isArray(entities) &&
    entities.some(type => (nerEntities as readonly string[]).includes(type))
  );
}

/**
 * `check` run with the loaded model in scope. Before the model is loaded,
 * a check whose options ask for no tagged type (`needsModel`) runs as it
 * is (synchronously; it never reads the model), and one that does waits
 * for the load: it settles with the verdict, or rejects with
 * `NerModelLoadError` and the text is not passed. The chain times the
 * check from when the model is there (see `afterModelLoad`).
 */
export function checkWithNerModel(
  check: Guardrail['check'],
  needsModel: () => boolean,
): Guardrail['check'] {
  return (content, ctx) => {
    if (nerModel.loaded !== undefined) {
      return withNerModel(loadedModel, () => check(content, ctx));
    }
    if (!needsModel()) return check(content, ctx);
    // The wait for the load is not the check's work (`afterModelLoad`).
    return afterModelLoad(loadNerModel(), model =>
      withNerModel(
        () => model,
        () => check(content, ctx),
      ),
    );
  };
}
