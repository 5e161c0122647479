/**
 * `ai-guardrails/ner`: the named-entity tagger's model for `pii()`'s tagged
 * types (`PERSON`, `STREET_ADDRESS`, `LOCATION`, `ORGANIZATION`).
 *
 * An app that bundles the library (edge, browser, a bundled server) and asks
 * for a tagged type imports this module once, for its effect:
 *
 * ```ts
 * import 'ai-guardrails/ner';
 * ```
 *
 * It hands `pii()` an `import()` of the weights that the app's bundler sees,
 * so it ships them as a chunk of their own, loaded the first time a check
 * asks for a tagged type. The main entry holds no such `import()`: a bundle
 * of an app that does not import this module emits no weights (1.4 MB
 * minified). Run from `node_modules` without a bundler, `pii()` imports this
 * module by name itself (`ner-model-loader.ts`).
 */
import type { NerModel } from '../guards/pii/ner/ner-model';
import { registerNerModelLoader } from '../guards/pii/ner/ner-model-loader';

/** Loads (once) and decodes the shipped model; its weights are a chunk of their own. */
export const loadShippedNerModel = (): Promise<NerModel> =>
  import('../guards/pii/ner/lazy-ner-model').then(module => module.lazyNerModel());

registerNerModelLoader(loadShippedNerModel);
