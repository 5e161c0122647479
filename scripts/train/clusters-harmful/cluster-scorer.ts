/**
 * Experiment (training time only): word classes as features of the
 * harmful-request detector. Each word of a window is looked up in a
 * distributional word-cluster table (the NER tagger's 255 clusters of 16k
 * words, built deterministically from english_text.txt and the benign
 * prompts by scripts/train/ner/clusters.ts), and the window gets, hashed
 * into the model's feature space beside its n-grams: the cluster of each
 * word, the clusters of each pair of neighbouring words, and each word with
 * its neighbour's cluster (both orders). A request about an action the
 * training data named with other words of the same class then shares
 * features with it. Linear: one pass over the window's words.
 */
import { hashString, type WordClusters } from '../../../src/guards/pii/ner/features';
import { nerModel } from '../../../src/guards/pii/ner/model/ner-model';
import { decodeNerModel } from '../../../src/guards/pii/ner/ner-model';
import type { InjectionModelSpec } from '../../../src/guards/prompt-injection/injection-model';
import { type ConceptFeatureOptions, ExperimentScorer } from '../harmful/concept-features';
import type { ExperimentReadings } from '../harmful/sentence-windows';

let table: WordClusters | undefined;

/** The NER model's cluster table (decoded once). */
export function nerClusters(): WordClusters {
  table ??= decodeNerModel(nerModel).gazetteers.clusters;
  if (!table) throw new Error('cluster-scorer: the NER model has no word clusters');
  return table;
}

/** Which cluster features a window gets. */
export interface ClusterFeatureOptions {
  unigrams: boolean;
  bigrams: boolean;
  mixes: boolean;
}

const isWordUnit = (code: number) =>
  (code >= 97 && code <= 122) ||
  (code >= 48 && code <= 57) ||
  code === 39 ||
  (code >= 0xc0 && code !== 0xd7 && code !== 0xf7 && code < 0x2000);

/** The feature bucket of a pair (a, b) of hashes under a feature kind (also the skip-grams', harmful/skip-grams.ts). */
export function bucket(kind: number, a: number, b: number, bits: number): number {
  let hash = Math.imul(kind ^ 0x5bd1e995, 0x01000193);
  hash = Math.imul(hash ^ a, 0x01000193);
  hash = Math.imul(hash ^ b, 0x01000193);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return (hash >>> 0) >>> (32 - bits);
}

/** The trainer's scorer whose window features add the word-cluster features. */
export class ClusterScorer extends ExperimentScorer {
  readonly clusterOptions: ClusterFeatureOptions;
  readonly #clusters: WordClusters;

  constructor(
    spec: InjectionModelSpec,
    concepts: ConceptFeatureOptions,
    readings: ExperimentReadings | undefined,
    options: ClusterFeatureOptions,
    clusters: WordClusters = nerClusters(),
  ) {
    super(spec, concepts, readings);
    this.clusterOptions = options;
    this.#clusters = clusters;
  }

  override features(text: string, start: number, end: number): Int32Array {
    const base = super.features(text, start, end);
    const bits = this.spec.bits;
    const { unigrams, bigrams, mixes } = this.clusterOptions;
    const seen = new Set<number>(base);
    const extra: number[] = [];
    const add = (index: number) => {
      if (!seen.has(index)) {
        seen.add(index);
        extra.push(index);
      }
    };
    let previousWord = 0;
    let previousCluster = -1;
    let at = start;
    while (at < end) {
      while (at < end && !isWordUnit(text.charCodeAt(at))) at++;
      if (at >= end) break;
      const from = at;
      while (at < end && isWordUnit(text.charCodeAt(at))) at++;
      const word = hashString(text.slice(from, at));
      const cluster = this.#clusters.clusterOf(word);
      if (unigrams && cluster !== 0) add(bucket(1, cluster, 0, bits));
      if (previousCluster >= 0) {
        if (bigrams && (cluster !== 0 || previousCluster !== 0))
          add(bucket(2, previousCluster, cluster, bits));
        if (mixes) {
          if (cluster !== 0) add(bucket(3, previousWord, cluster, bits));
          if (previousCluster !== 0) add(bucket(4, previousCluster, word, bits));
        }
      }
      previousWord = word;
      previousCluster = cluster;
    }
    if (extra.length === 0) return base;
    const out = new Int32Array(base.length + extra.length);
    out.set(base, 0);
    out.set(extra, base.length);
    return out;
  }
}
