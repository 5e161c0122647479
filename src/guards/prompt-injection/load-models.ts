import { decodeInjectionModel, InjectionScorer } from './injection-model';
import { languageModelTable } from './model/char-language-model-table';
import { directModel } from './model/direct-model';
import { indirectModel } from './model/statement-model';
import { SlotInjectionScorer } from './slot-features';

/** The detector's models, decoded. */
export interface InjectionModels {
  direct: InjectionScorer;
  /** Indirect mode's model of one statement (n-grams only). */
  statement: InjectionScorer;
  /** Quantised surprisal table of the character language model. */
  languageModel: Uint8Array;
}

let loaded: InjectionModels | undefined;

function decodeBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * The shipped models, decoded on first use and kept: importing the
 * guardrail costs nothing until it scores a text.
 */
export function injectionModels(): InjectionModels {
  if (!loaded) {
    const spec = decodeInjectionModel(directModel);
    loaded = {
      direct: spec.slotRepeat
        ? new SlotInjectionScorer(spec, spec.slotRepeat)
        : new InjectionScorer(spec),
      statement: new InjectionScorer(decodeInjectionModel(indirectModel)),
      languageModel: decodeBytes(languageModelTable),
    };
  }
  return loaded;
}

/** Decodes a base64 language-model table (for the training script). */
export const decodeLanguageModel = decodeBytes;
