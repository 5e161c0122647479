import { describe, expect, it } from 'vitest';
import { tagTokensBeam } from '../scripts/train/ner/beam';
import { buildClusters, defaultClusterOptions } from '../scripts/train/ner/clusters';
import { type GoldSpan, sequence as makeSequence, selfSequence } from '../scripts/train/ner/data';
import { floatScorer, quantise, trainPerceptron } from '../scripts/train/ner/perceptron';
import {
  candidateSet,
  decide,
  personCandidates,
  scoreSet,
  tagWithMargins,
  trainStack,
} from '../scripts/train/ner/stack';
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

  it('hands the running average to afterEpoch after every epoch, the last one the weights it returns', () => {
    const seen: Array<[number, Float64Array]> = [];
    const weights = trainPerceptron(data, {
      ...options,
      afterEpoch: (epoch, averaged) => seen.push([epoch, averaged()]),
    });
    expect(seen.map(([epoch]) => epoch)).toEqual([1, 2, 3, 4, 5]);
    expect(Buffer.from(seen[4]![1].buffer).equals(Buffer.from(weights.buffer))).toBe(true);
    // Earlier averages differ, and the hook changes nothing: three epochs alone give the third.
    expect(Buffer.from(seen[2]![1].buffer).equals(Buffer.from(weights.buffer))).toBe(false);
    const three = trainPerceptron(data, { ...options, epochs: 3 });
    expect(Buffer.from(seen[2]![1].buffer).equals(Buffer.from(three.buffer))).toBe(true);
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

  it('decodes with a beam of width 1 exactly as tagTokens, and a wider beam keeps the label rules', () => {
    const score = floatScorer(trainPerceptron(data.slice(0, 2), options));
    for (const row of data) {
      expect(Array.from(tagTokensBeam(row.scanned, score, 1))).toEqual(
        Array.from(tagTokens(row.scanned, score)),
      );
      const wide = tagTokensBeam(row.scanned, score, 8);
      // An I label only after B or I of its type.
      for (let index = 0; index < wide.length; index++) {
        const label = wide[index]!;
        if (label !== 0 && label % 2 === 0) expect([label - 1, label]).toContain(wide[index - 1]);
      }
    }
    const beam = data[1]!;
    expect(
      spansOfLabels(beam.text, beam.scanned, tagTokensBeam(beam.scanned, score, 8)).map(
        span => `${span.type}:${beam.text.slice(span.start, span.end)}`,
      ),
    ).toEqual(['PERSON:Alan Turing', 'PERSON:Grace Hopper', 'LOCATION:Paris']);
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

describe('the span-level second stage (NER_STACK experiment)', () => {
  const gazetteer = gazetteers();
  const text = 'Then Ludwig van Beethoven met J. R. Smith, said Ada.\nLondon Bridge';
  const sample = sequence(text, [], gazetteer);
  const slice = (span: { start: number; end: number }) => text.slice(span.start, span.end);

  it('takes every 1-4 token part of a capitalised run (particles and initials inside), and the tagger spans moved by one token', () => {
    const ludwig = text.indexOf('Ludwig');
    const candidates = personCandidates(text, sample.scanned, [
      { type: 'PERSON', start: ludwig, end: ludwig + 6 },
    ]);
    expect(candidates.map(slice)).toEqual([
      'Then',
      'Then Ludwig',
      'Then Ludwig van Beethoven',
      'Ludwig',
      'Ludwig van Beethoven',
      'Beethoven',
      'J.',
      'J. R.',
      'J. R. Smith',
      'R.',
      'R. Smith',
      'Smith',
      'Ada',
      'London',
      'London Bridge',
      'Bridge',
    ]);
  });

  it('records the margins of the labels tagTokens gives, without changing them', () => {
    const data = [
      sequence(
        'Write to Ada Lovelace in London.',
        [
          { type: 'PERSON', start: 9, end: 21 },
          { type: 'LOCATION', start: 25, end: 31 },
        ],
        gazetteer,
      ),
    ];
    const score = floatScorer(
      trainPerceptron(data, { epochs: 5, seed: 7, benignWeight: 0.5, lexicalDropout: 0 }),
    );
    for (const row of [...data, sample]) {
      const evidence = tagWithMargins(row.scanned, score);
      const labels = tagTokens(row.scanned, score);
      expect(Array.from(evidence.labels)).toEqual(Array.from(labels));
      for (let index = 0; index < labels.length; index++) {
        const margin = evidence.marginB[index]!;
        // B-PER wins exactly where its margin over every other allowed label is positive.
        if (!Number.isNaN(margin)) expect(margin > 0).toBe(labels[index] === 1);
      }
    }
    const evidence = tagWithMargins(data[0]!.scanned, score);
    // Write to Ada Lovelace in London .
    expect(Array.from(evidence.labels)).toEqual([0, 0, 1, 2, 0, 5, 0]);
    expect(evidence.marginI[3]).toBeGreaterThan(0);
    expect(Number.isNaN(evidence.marginI[2]!)).toBe(true);
  });

  it('keeps the best candidate of overlapping ones above the threshold, then the next that overlaps none kept', () => {
    const candidates = personCandidates(text, sample.scanned, []);
    const set = {
      id: 'x',
      candidates,
      features: [],
      gold: new Uint8Array(candidates.length),
      goldCount: 0,
      goldSpans: [],
      tagged: new Uint8Array(candidates.length),
    };
    const logit = new Map([
      ['Ludwig van Beethoven', 3],
      ['Beethoven', 4],
      ['Ludwig', 2],
      ['J. R. Smith', 1],
      ['Smith', 0.5],
      ['Ada', -1],
    ]);
    const logits = Float64Array.from(candidates, candidate => logit.get(slice(candidate)) ?? -5);
    expect(decide(set, logits, 0).map(slice)).toEqual(['Ludwig', 'Beethoven', 'J. R. Smith']);
    expect(decide(set, logits, 1.5).map(slice)).toEqual(['Ludwig', 'Beethoven']);
    expect(decide(set, logits, -2).map(slice)).toEqual([
      'Ludwig',
      'Beethoven',
      'J. R. Smith',
      'Ada',
    ]);
  });

  it('trains deterministically', () => {
    const score = floatScorer(
      trainPerceptron([sample], { epochs: 2, seed: 7, benignWeight: 0.5, lexicalDropout: 0 }),
    );
    const gold = sequence(text, [{ type: 'PERSON', start: 5, end: 25 }], gazetteer);
    const evidence = tagWithMargins(gold.scanned, score);
    const set = candidateSet(gold, evidence, spansOfLabels(text, gold.scanned, evidence.labels));
    expect(set.goldCount).toBe(1);
    expect(set.candidates.filter((_, index) => set.gold[index] === 1).map(slice)).toEqual([
      'Ludwig van Beethoven',
    ]);
    const first = trainStack([set], 0, 0.01);
    const second = trainStack([set], 0, 0.01);
    expect(Array.from(second)).toEqual(Array.from(first));
    const logits = scoreSet(first, set, 0);
    const best = set.candidates[logits.indexOf(Math.max(...logits))]!;
    expect(slice(best)).toBe('Ludwig van Beethoven');
  });
});
