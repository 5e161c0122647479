/**
 * Word clusters for the tagger from unlabelled text (training time only; the
 * model ships the table): every word of English prose
 * (`../shared/corpora/english_text.txt`) and the benign prompts
 * (`benign.jsonl`), lower-cased, is described by the words seen right before
 * and right after it (counts over the most frequent tokens, log-scaled and
 * normalised) and how often it is written capitalised mid-sentence; the
 * descriptions are projected to a few dimensions with a seeded random matrix
 * and grouped by k-means (cosine, seeded start). Words used alike (names
 * after `Mr`, places after `in`, verbs after `to`) land together, so a
 * feature that reads a neighbour's cluster generalises beyond the words of
 * the labelled templates. Deterministic: counts in text order, ties broken by
 * the word, a fixed seed.
 */
import { readFileSync } from 'node:fs';
import { hashString, tokenBounds, WordClusters } from '../../../src/guards/pii/ner/features';
import { prng } from '../logistic';

/** Weight of the capitalised share beside the unit-length context description (so it does not decide alone). */
const CAPITAL_WEIGHT = 0.3;

/** Settings, fixed before any evaluation. */
export interface ClusterOptions {
  /** Words given a cluster: the most frequent ones written with a letter first. */
  vocabulary: number;
  /** Context tokens counted either side (the most frequent tokens). */
  contexts: number;
  /** Dimensions of the random projection. */
  dimensions: number;
  /** Clusters (at most 255: ids 1-255, 0 is "no cluster"). */
  clusters: number;
  iterations: number;
  seed: number;
}

export const defaultClusterOptions: ClusterOptions = {
  vocabulary: 16_000,
  contexts: 300,
  dimensions: 64,
  clusters: 255,
  iterations: 15,
  seed: 20261130,
};

/** Lower-cased token ids of `texts`, in order, with a sentinel (-1) between texts. */
function tokenIds(texts: readonly string[]) {
  const idOf = new Map<string, number>();
  const words: string[] = [];
  const counts: number[] = [];
  const capitalised: number[] = [];
  const seenMid: number[] = [];
  const sequence: number[] = [];
  for (const text of texts) {
    const bounds = tokenBounds(text);
    for (let index = 0; index < bounds.count; index++) {
      const raw = text.slice(
        bounds.start[index]!,
        Math.min(bounds.end[index]!, bounds.start[index]! + 40),
      );
      const lower = raw.toLowerCase();
      let id = idOf.get(lower);
      if (id === undefined) {
        id = words.length;
        idOf.set(lower, id);
        words.push(lower);
        counts.push(0);
        capitalised.push(0);
        seenMid.push(0);
      }
      counts[id]! += 1;
      const previous = index > 0 ? text.charCodeAt(bounds.start[index - 1]!) : 46;
      const sentenceStart =
        bounds.newline[index] === 1 || previous === 46 || previous === 33 || previous === 63;
      if (!sentenceStart) {
        seenMid[id]! += 1;
        if (raw !== lower) capitalised[id]! += 1;
      }
      sequence.push(id);
    }
    sequence.push(-1);
  }
  return { words, counts, capitalised, seenMid, sequence };
}

/** The texts the clusters are learnt from. */
export function clusterTexts(corpora: string): string[] {
  const texts = readFileSync(`${corpora}/english_text.txt`, 'utf8').split(/\n\s*\n/);
  for (const line of readFileSync(`${corpora}/benign.jsonl`, 'utf8').split('\n')) {
    if (line.trim()) texts.push((JSON.parse(line) as { text: string }).text);
  }
  return texts;
}

/** Builds the cluster table of the most frequent words of `texts`. */
export function buildClusters(
  texts: readonly string[],
  options: ClusterOptions = defaultClusterOptions,
): { clusters: WordClusters; words: number } {
  const { words, counts, capitalised, seenMid, sequence } = tokenIds(texts);
  const byCount = (a: number, b: number) =>
    counts[b]! - counts[a]! || (words[a]! < words[b]! ? -1 : 1);
  const all = words.map((_, id) => id).sort(byCount);
  const contextIndex = new Int32Array(words.length).fill(-1);
  all.slice(0, options.contexts).forEach((id, index) => {
    contextIndex[id] = index;
  });
  const vocabulary = all.filter(id => /^\p{L}/u.test(words[id]!)).slice(0, options.vocabulary);
  const row = new Int32Array(words.length).fill(-1);
  vocabulary.forEach((id, index) => {
    row[id] = index;
  });
  const width = 2 * options.contexts;
  const size = vocabulary.length;
  const context = new Float32Array(size * width);
  for (let index = 0; index < sequence.length; index++) {
    const id = sequence[index]!;
    if (id < 0 || row[id]! < 0) continue;
    const base = row[id]! * width;
    const before = index > 0 ? sequence[index - 1]! : -1;
    const after = index + 1 < sequence.length ? sequence[index + 1]! : -1;
    if (before >= 0 && contextIndex[before]! >= 0) context[base + contextIndex[before]!]! += 1;
    if (after >= 0 && contextIndex[after]! >= 0)
      context[base + options.contexts + contextIndex[after]!]! += 1;
  }
  // Random projection of the log-scaled, normalised counts, plus the capitalised share.
  const random = prng(options.seed);
  const dimensions = options.dimensions;
  const projection = new Float32Array(width * dimensions);
  for (let index = 0; index < projection.length; index++)
    projection[index] = random() < 0.5 ? -1 : 1;
  const points = new Float32Array(size * (dimensions + 1));
  for (let word = 0; word < size; word++) {
    const base = word * width;
    let norm = 0;
    for (let feature = 0; feature < width; feature++) {
      const value = Math.log1p(context[base + feature]!);
      context[base + feature] = value;
      norm += value * value;
    }
    norm = Math.sqrt(norm) || 1;
    const out = word * (dimensions + 1);
    for (let feature = 0; feature < width; feature++) {
      const value = context[base + feature]!;
      if (value === 0) continue;
      const scaled = value / norm;
      const from = feature * dimensions;
      for (let dimension = 0; dimension < dimensions; dimension++)
        points[out + dimension]! += scaled * projection[from + dimension]!;
    }
    let projected = 0;
    for (let dimension = 0; dimension < dimensions; dimension++)
      projected += points[out + dimension]! ** 2;
    projected = Math.sqrt(projected) || 1;
    for (let dimension = 0; dimension < dimensions; dimension++)
      points[out + dimension]! /= projected;
    const id = vocabulary[word]!;
    points[out + dimensions] =
      seenMid[id]! > 0 ? (CAPITAL_WEIGHT * capitalised[id]!) / seenMid[id]! : 0;
  }
  const stride = dimensions + 1;
  // k-means, cosine on the projection plus the capitalised share; the start is a seeded sample of words.
  const k = Math.min(options.clusters, size);
  const order = vocabulary.map((_, index) => index);
  for (let index = order.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  const centres = new Float32Array(k * stride);
  for (let cluster = 0; cluster < k; cluster++)
    centres.set(
      points.subarray(order[cluster]! * stride, (order[cluster]! + 1) * stride),
      cluster * stride,
    );
  const assignment = new Uint8Array(size);
  for (let iteration = 0; iteration < options.iterations; iteration++) {
    for (let word = 0; word < size; word++) {
      const base = word * stride;
      let best = 0;
      let bestScore = -Infinity;
      for (let cluster = 0; cluster < k; cluster++) {
        const centre = cluster * stride;
        let score = 0;
        for (let dimension = 0; dimension < stride; dimension++)
          score += points[base + dimension]! * centres[centre + dimension]!;
        if (score > bestScore) {
          bestScore = score;
          best = cluster;
        }
      }
      assignment[word] = best;
    }
    const sums = new Float64Array(k * stride);
    const sizes = new Int32Array(k);
    for (let word = 0; word < size; word++) {
      const cluster = assignment[word]!;
      sizes[cluster]! += 1;
      for (let dimension = 0; dimension < stride; dimension++)
        sums[cluster * stride + dimension]! += points[word * stride + dimension]!;
    }
    for (let cluster = 0; cluster < k; cluster++) {
      if (sizes[cluster] === 0) continue;
      let norm = 0;
      for (let dimension = 0; dimension < dimensions; dimension++)
        norm += sums[cluster * stride + dimension]! ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let dimension = 0; dimension < dimensions; dimension++)
        centres[cluster * stride + dimension] = sums[cluster * stride + dimension]! / norm;
      centres[cluster * stride + dimensions] =
        sums[cluster * stride + dimensions]! / sizes[cluster]!;
    }
  }
  // The table: sorted hashes of the words, a word whose hash another word took first is left out.
  const entries = new Map<number, number>();
  for (let word = 0; word < size; word++) {
    const hash = hashString(words[vocabulary[word]!]!);
    if (!entries.has(hash)) entries.set(hash, assignment[word]! + 1);
  }
  const hashes = Uint32Array.from([...entries.keys()].sort((a, b) => a - b));
  const ids = Uint8Array.from(hashes, hash => entries.get(hash)!);
  return { clusters: new WordClusters(hashes, ids), words: hashes.length };
}
