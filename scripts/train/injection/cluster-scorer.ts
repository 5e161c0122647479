/**
 * Experiment (CLUSTERS=…, training only until it wins): the slot model plus
 * word-class features, so words the training sources never used share
 * weight with words of the same distributional class ("overlook" with
 * "ignore", "guidelines" with "rules"). Per window: each word's class
 * (unigram), the classes of two words in a row (bigram), and with
 * `mixes` a word beside its neighbour's class. One table per size (a
 * coarse-to-fine hierarchy), hashed into the model's buckets under names
 * of their own. Linear: one pass over the words.
 */
import { hashString, type WordClusters } from '../../../src/guards/pii/ner/features';
import { namedFeature } from '../../../src/guards/prompt-injection/hashed-features';
import type { InjectionModelSpec } from '../../../src/guards/prompt-injection/injection-model';
import { SlotInjectionScorer } from '../../../src/guards/prompt-injection/slot-features';

export interface ClusterFeatureOptions {
  tables: readonly WordClusters[];
  /** Which kinds: class unigrams, class bigrams, word × neighbour class. */
  kinds: ReadonlySet<'uni' | 'bi' | 'mix'>;
  /** Each class feature is listed this many times. */
  repeat: number;
}

export class ClusterScorer extends SlotInjectionScorer {
  #buffer = new Int32Array(4096);
  readonly #options: ClusterFeatureOptions;

  constructor(spec: InjectionModelSpec, slotRepeat: number, options: ClusterFeatureOptions) {
    super(spec, slotRepeat);
    this.#options = options;
  }

  override features(text: string, start: number, end: number): Int32Array {
    const base = super.features(text, start, end);
    const { tables, kinds, repeat } = this.#options;
    const bits = this.spec.bits;
    const names = new Set<string>();
    const words = text.slice(start, end).match(/\p{L}+/gu) ?? [];
    for (const [level, table] of tables.entries()) {
      let previous = -1;
      let previousWord = '';
      for (const word of words) {
        const id = table.clusterOf(hashString(word));
        if (kinds.has('uni') && id > 0) names.add(`k${level}:${id}`);
        if (previous >= 0) {
          if (kinds.has('bi') && (id > 0 || previous > 0)) names.add(`k${level}:${previous}:${id}`);
          if (kinds.has('mix')) {
            if (id > 0) names.add(`w${level}:${previousWord}>${id}`);
            if (previous > 0) names.add(`w${level}:${previous}<${word}`);
          }
        }
        previous = id;
        previousWord = word;
      }
    }
    const needed = base.length + names.size * repeat;
    if (this.#buffer.length < needed) this.#buffer = new Int32Array(needed * 2);
    this.#buffer.set(base);
    let at = base.length;
    for (const name of names) {
      const index = namedFeature(name, bits);
      for (let copy = 0; copy < repeat; copy++) this.#buffer[at++] = index;
    }
    return this.#buffer.subarray(0, at);
  }
}
