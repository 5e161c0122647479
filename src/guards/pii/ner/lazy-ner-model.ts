import { nerModel } from './model/ner-model';
import type { NerModel } from './ner-model';
import { decodedOnce } from './ner-model-loader';

/**
 * The shipped model as `pii()` loads it: this module is imported only with
 * `import()` (`src/ner/index.ts`, the `ai-guardrails/ner` entry), so bundlers
 * put it and the weights in a chunk of their own. Not `bundled-ner-model.ts`: a module the main graph
 * imports statically (even unused) would be shared with the entry's chunk
 * (esbuild splits by file). Decoded once with it (`decodedOnce`).
 */
export const lazyNerModel = (): NerModel => decodedOnce(nerModel);
