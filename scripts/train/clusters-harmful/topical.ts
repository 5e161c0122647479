/**
 * Experiment (training time only): topical word classes for the
 * harmful-request detector, from English prose alone
 * (`../shared/corpora/english_text.txt`; no prompt of any reported source).
 * A word is described by the words around it within ±`window` tokens of
 * the same paragraph (each context word a fixed random ±1 vector,
 * weighted by its inverse document frequency, summed: a random projection
 * of the co-occurrence counts), and the descriptions are grouped by
 * k-means (cosine, seeded). Words used in the same topics ("bomb",
 * "explosive", "grenade") land together, unlike the NER tagger's syntactic
 * clusters (neighbours right before and after). Deterministic: text order,
 * a fixed seed, ties broken by the word.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashString, WordClusters } from '../../../src/guards/pii/ner/features';
import { prng } from '../logistic';

export interface TopicalOptions {
  vocabulary: number;
  /** The most frequent words skipped as context (function words). */
  skipTop: number;
  window: number;
  dimensions: number;
  clusters: number;
  iterations: number;
  seed: number;
}

export const defaultTopicalOptions: TopicalOptions = {
  vocabulary: 20_000,
  skipTop: 150,
  window: 5,
  dimensions: 64,
  clusters: 255,
  iterations: 6,
  seed: 20261130,
};

/** Topical word clusters (ids 1..clusters; 0 is "no cluster") of the prose file. */
export function topicalClusters(
  corpora: string,
  options: TopicalOptions = defaultTopicalOptions,
): WordClusters {
  const paragraphs = readFileSync(join(corpora, 'english_text.txt'), 'utf8')
    .toLowerCase()
    .split(/\n\s*\n/);
  const tokenised = paragraphs.map(paragraph => paragraph.match(/\p{L}+/gu) ?? []);
  const counts = new Map<string, number>();
  const documents = new Map<string, number>();
  for (const words of tokenised) {
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const word of new Set(words)) documents.set(word, (documents.get(word) ?? 0) + 1);
  }
  const ranked = [...counts]
    .filter(([word]) => word.length >= 2)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([word]) => word);
  const vocabulary = ranked.slice(0, options.vocabulary);
  const index = new Map(vocabulary.map((word, at) => [word, at]));
  const skipped = new Set(ranked.slice(0, options.skipTop));
  const { dimensions } = options;
  const random = prng(options.seed);
  // Each vocabulary word as context: a ±1 vector times its idf (skipped words: none).
  const signs = new Float32Array(vocabulary.length * dimensions);
  for (let at = 0; at < vocabulary.length; at++) {
    const word = vocabulary[at]!;
    const idf = skipped.has(word)
      ? 0
      : Math.log(paragraphs.length / (1 + (documents.get(word) ?? 0)));
    for (let d = 0; d < dimensions; d++) signs[at * dimensions + d] = random() < 0.5 ? -idf : idf;
  }
  const vectors = new Float32Array(vocabulary.length * dimensions);
  for (const words of tokenised) {
    const ids = words.map(word => index.get(word) ?? -1);
    for (let at = 0; at < ids.length; at++) {
      const word = ids[at]!;
      if (word < 0) continue;
      const from = Math.max(0, at - options.window);
      const to = Math.min(ids.length, at + options.window + 1);
      for (let other = from; other < to; other++) {
        const context = ids[other]!;
        if (other === at || context < 0) continue;
        const target = word * dimensions;
        const source = context * dimensions;
        for (let d = 0; d < dimensions; d++) vectors[target + d]! += signs[source + d]!;
      }
    }
  }
  for (let at = 0; at < vocabulary.length; at++) {
    let norm = 0;
    for (let d = 0; d < dimensions; d++) norm += vectors[at * dimensions + d]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dimensions; d++) vectors[at * dimensions + d]! /= norm;
  }
  // k-means, cosine; centres start at evenly spaced words of a seeded order.
  const k = options.clusters;
  const order = vocabulary.map((_, at) => at);
  for (let at = order.length - 1; at > 0; at--) {
    const swap = Math.floor(random() * (at + 1));
    [order[at], order[swap]] = [order[swap]!, order[at]!];
  }
  const centres = new Float32Array(k * dimensions);
  for (let c = 0; c < k; c++) {
    const word = order[Math.floor((c * order.length) / k)]!;
    centres.set(vectors.subarray(word * dimensions, (word + 1) * dimensions), c * dimensions);
  }
  const assignment = new Int32Array(vocabulary.length);
  for (let iteration = 0; iteration < options.iterations; iteration++) {
    for (let at = 0; at < vocabulary.length; at++) {
      let best = 0;
      let bestScore = Number.NEGATIVE_INFINITY;
      for (let c = 0; c < k; c++) {
        let dot = 0;
        for (let d = 0; d < dimensions; d++)
          dot += vectors[at * dimensions + d]! * centres[c * dimensions + d]!;
        if (dot > bestScore) {
          bestScore = dot;
          best = c;
        }
      }
      assignment[at] = best;
    }
    centres.fill(0);
    for (let at = 0; at < vocabulary.length; at++) {
      const c = assignment[at]!;
      for (let d = 0; d < dimensions; d++)
        centres[c * dimensions + d]! += vectors[at * dimensions + d]!;
    }
    for (let c = 0; c < k; c++) {
      let norm = 0;
      for (let d = 0; d < dimensions; d++) norm += centres[c * dimensions + d]! ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dimensions; d++) centres[c * dimensions + d]! /= norm;
    }
  }
  // Function words get no cluster (they are in every topic).
  const entries = vocabulary
    .map(
      (word, at) => [hashString(word) >>> 0, skipped.has(word) ? 0 : assignment[at]! + 1] as const,
    )
    .filter(([, id]) => id !== 0)
    .sort((a, b) => a[0] - b[0]);
  const hashes = new Uint32Array(entries.length);
  const ids = new Uint8Array(entries.length);
  let kept = 0;
  for (const [hash, id] of entries) {
    if (kept > 0 && hashes[kept - 1] === hash) continue; // a hash collision: first word kept
    hashes[kept] = hash;
    ids[kept] = id;
    kept++;
  }
  return new WordClusters(hashes.slice(0, kept), ids.slice(0, kept));
}
