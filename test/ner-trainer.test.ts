import { describe, expect, it } from 'vitest';
import { buildClusters, defaultClusterOptions } from '../scripts/train/ner/clusters';
import { type GoldSpan, sequence as makeSequence, selfSequence } from '../scripts/train/ner/data';
import { floatScorer, quantise, trainPerceptron } from '../scripts/train/ner/perceptron';
import { BloomFilter, type Gazetteers, hashString } from '../src/guards/pii/ner/features';
import { spansOfLabels, tagTokens } from '../src/guards/pii/ner/tagger';

function gazetteers(): Gazetteers {
  const filter = (values: string[]) => {
    const bloom = BloomFilter.sized(values.length);
    for (const value of values) bloom.add(value);
    return bloom;
  };
  return {
    names: filter(['ada', 'lovelace', 'alan', 'turing', 'grace', 'hopper']),
    firstNames: filter(['ada', 'alan', 'grace']),
    places: filter(['london', 'paris']),
    countries: filter(['france']),
    common: filter(['the', 'to', 'in', 'write', 'met', 'said']),
  };
}

const sequence = (text: string, spans: GoldSpan[], gazetteer: Gazetteers) =>
  makeSequence(text, 'g', text, spans, gazetteer, false);

describe('the NER trainer', () => {
  const gazetteer = gazetteers();
  const at = (text: string, value: string, type: GoldSpan['type']): GoldSpan => {
    const start = text.indexOf(value);
    return { type, start, end: start + value.length };
  };
  const texts: Array<[string, Array<[string, GoldSpan['type']]>]> = [
    [
      'Write to Ada Lovelace in London.',
      [
        ['Ada Lovelace', 'PERSON'],
        ['London', 'LOCATION'],
      ],
    ],
    [
      'Alan Turing met Grace Hopper in Paris.',
      [
        ['Alan Turing', 'PERSON'],
        ['Grace Hopper', 'PERSON'],
        ['Paris', 'LOCATION'],
      ],
    ],
    ['The train to France said nothing.', [['France', 'LOCATION']]],
  ];
  const data = texts.map(([text, spans]) =>
    sequence(
      text,
      spans.map(([value, type]) => at(text, value, type)),
      gazetteer,
    ),
  );
  const options = { epochs: 5, seed: 7, benignWeight: 0.5, lexicalDropout: 0 };

  it('is deterministic: the same data and seed give the same quantised weights', () => {
    const first = quantise(trainPerceptron(data, options));
    const second = quantise(trainPerceptron(data, options));
    expect(second.scale).toBe(first.scale);
    expect(Buffer.from(second.weights).equals(Buffer.from(first.weights))).toBe(true);
  });

  it('learns its training sentences', () => {
    const score = floatScorer(trainPerceptron(data, options));
    const sample = data[1]!;
    const spans = spansOfLabels(sample.text, sample.scanned, tagTokens(sample.scanned, score));
    expect(spans.map(span => `${span.type}:${sample.text.slice(span.start, span.end)}`)).toEqual([
      'PERSON:Alan Turing',
      'PERSON:Grace Hopper',
      'LOCATION:Paris',
    ]);
  });
});

describe('self-training sequences', () => {
  const gazetteer = gazetteers();
  const text = 'Then Alan Turing wrote to Grace in London';
  const person = { type: 'PERSON' as const, start: 5, end: 16 };

  it('know the tagged spans, lower-case words and signs, and leave other capitalised words free', () => {
    const result = selfSequence('p:1', text, [person], gazetteer, 0.25);
    // Then Alan Turing wrote to Grace in London
    expect(Array.from(result.labels)).toEqual([0, 1, 2, 0, 0, 0, 0, 0]);
    expect(Array.from(result.known)).toEqual([0, 1, 1, 1, 1, 0, 1, 0]);
    expect(result.weight).toBe(0.25);
    expect(result.group).toBe('prose');
  });

  it('train with their weight: a weight of 0 teaches nothing', () => {
    const options = { epochs: 3, seed: 7, benignWeight: 0.5, lexicalDropout: 0 };
    const silent = trainPerceptron([selfSequence('p:1', text, [person], gazetteer, 0)], options);
    expect(silent.every(weight => weight === 0)).toBe(true);
    const taught = trainPerceptron([selfSequence('p:1', text, [person], gazetteer, 1)], options);
    expect(taught.some(weight => weight !== 0)).toBe(true);
  });
});

describe('the word-cluster builder', () => {
  // Names always follow `Mr`/`Ms` and come before `said`; places always
  // follow `in`/`to` and come before `today`: words used alike should share
  // a cluster, words used differently should not.
  const names = ['smith', 'jones', 'brown', 'taylor', 'wilson', 'davies'];
  const places = ['paris', 'berlin', 'madrid', 'vienna', 'lisbon', 'prague'];
  const texts: string[] = [];
  for (let round = 0; round < 6; round++) {
    for (const name of names) texts.push(`Mr ${name} said hello. Ms ${name} said thanks.`);
    for (const place of places)
      texts.push(`We flew in ${place} today and drove to ${place} today.`);
  }
  const options = {
    ...defaultClusterOptions,
    vocabulary: 40,
    contexts: 12,
    clusters: 8,
    dimensions: 8,
  };

  it('gives the same table on every run (a fixed seed, ties broken by the word)', () => {
    const first = buildClusters(texts, options).clusters;
    const second = buildClusters(texts, options).clusters;
    expect(Array.from(second.hashes)).toEqual(Array.from(first.hashes));
    expect(Array.from(second.ids)).toEqual(Array.from(first.ids));
  });

  it('puts words used alike in one cluster and words used differently in another', () => {
    const { clusters } = buildClusters(texts, options);
    const of = (word: string) => clusters.clusterOf(hashString(word));
    const nameClusters = new Set(names.map(of));
    const placeClusters = new Set(places.map(of));
    expect(nameClusters.size).toBe(1);
    expect(placeClusters.size).toBe(1);
    expect([...nameClusters][0]).not.toBe([...placeClusters][0]);
    expect(of('never-seen')).toBe(0);
  });
});
