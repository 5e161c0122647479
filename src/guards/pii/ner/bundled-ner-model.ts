import { nerModel } from './model/ner-model';
import type { NerModel } from './ner-model';
import { decodedOnce } from './ner-model-loader';

/**
 * The shipped tagger's model, decoded on first use and kept: what
 * `findPii` and `findNamedEntities` tag with, synchronously. Whatever
 * imports this module bundles the weights (`model/ner-model.ts`, about
 * 1.4 MB minified); `pii()` does not: it loads them with `import()` (see
 * `lazy-ner-model.ts`) the first time a check asks for a tagged type.
 */
export function bundledNerModel(): NerModel {
  return decodedOnce(nerModel);
}
