/**
 * Word classes for the injection detector's experiments (issue 15): the
 * distributional clusters of `scripts/train/ner/clusters.ts` (imported, not
 * copied), built at other sizes from the English prose and the benign
 * prompts (no labels, no attack text). Several sizes give a coarse-to-fine
 * hierarchy: a word has one class per size. Deterministic (the builder's
 * fixed seed); the table is cached under the system's temporary directory
 * by its options, for experiments only.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WordClusters } from '../../../src/guards/pii/ner/features';
import { buildClusters, clusterTexts, defaultClusterOptions } from '../ner/clusters';

/** The cluster table of `clusters` classes over the `vocabulary` most frequent words. */
export function wordClasses(corpora: string, clusters: number, vocabulary = 16_000): WordClusters {
  const options = { ...defaultClusterOptions, clusters, vocabulary };
  const cache = join(tmpdir(), `injection-word-classes-${clusters}-${vocabulary}.json`);
  if (existsSync(cache)) {
    const { hashes, ids } = JSON.parse(readFileSync(cache, 'utf8')) as {
      hashes: number[];
      ids: number[];
    };
    return new WordClusters(Uint32Array.from(hashes), Uint8Array.from(ids));
  }
  const { clusters: table } = buildClusters(clusterTexts(corpora), options);
  writeFileSync(cache, JSON.stringify({ hashes: [...table.hashes], ids: [...table.ids] }));
  return table;
}
