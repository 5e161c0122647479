import { describe, expect, it } from 'vitest';
import { bundledNerModel } from './bundled-ner-model';
import { Flag, scanText, WordTable } from './features';
import { findNamedEntities } from './find-named-entities';
import { LABEL_COUNT } from './labels';
import { int8Scorer } from './ner-model';
import { WordClasses } from './word-classes';

/**
 * Round 49 (hB, issue 17, speed), the same spans by three cuts: the tagger
 * asks the scorer for the outside and B labels only where no I label may
 * follow (`startsOnly`: five sums of nine); `WordClasses` reads a word's
 * whole mask from one map made of its sets; `describeWord` reads the
 * street, organisation and title flags from one map. Each case here fails
 * on a copy of the cut with its part left out (checked by hand: the
 * scorer asked for starts only everywhere; a map keeping one set's bit per
 * word, not all of them).
 */
describe('ner speed, round 49 (hB)', () => {
  it('scores the I label where one may follow (names and places of two words)', () => {
    expect(findNamedEntities('Maria Garcia met John Smith in New York last May.')).toEqual([
      { type: 'PERSON', start: 0, end: 12 },
      { type: 'PERSON', start: 17, end: 27 },
      { type: 'LOCATION', start: 31, end: 39 },
    ]);
    expect(
      findNamedEntities('She works at Acme Widgets Ltd near 12 Elm Street, Springfield.'),
    ).toEqual([
      { type: 'STREET_ADDRESS', start: 18, end: 29 },
      { type: 'STREET_ADDRESS', start: 35, end: 61 },
    ]);
  });

  it('int8Scorer asked for starts only sums labels 0, 1, 3, 5 and 7 and leaves the rest', () => {
    expect(LABEL_COUNT).toBe(9);
    const weights = Int8Array.from({ length: 4 * LABEL_COUNT }, (_, index) => (index * 37) % 256);
    const buckets = Int32Array.from([3, 1, 1, 0]);
    const all = new Float64Array(LABEL_COUNT).fill(0.5);
    int8Scorer(weights)(buckets, 4, all);
    expect([...all]).toEqual([129.5, 277.5, -86.5, 61.5, -46.5, -154.5, -6.5, 141.5, 289.5]);
    const starts = new Float64Array(LABEL_COUNT).fill(0.5);
    int8Scorer(weights)(buckets, 4, starts, true);
    expect([...starts]).toEqual([129.5, 277.5, 0.5, 61.5, 0.5, -154.5, 0.5, 141.5, 0.5]);
  });

  it('gives a word of several lists every flag (`dr`: a street word and a title)', () => {
    const scanned = scanText('Dr dr Co St Prof', bundledNerModel().gazetteers, undefined);
    const listed = Flag.Street | Flag.Organisation | Flag.Honorific;
    expect(Array.from(scanned.flags, flags => flags & listed)).toEqual([
      Flag.Street | Flag.Honorific,
      Flag.Street | Flag.Honorific,
      Flag.Organisation,
      Flag.Street,
      Flag.Honorific,
    ]);
    expect(findNamedEntities('Dr Anna Kowalski moved to 4 Mill Dr in Leeds.')).toEqual([
      { type: 'PERSON', start: 3, end: 16 },
      { type: 'STREET_ADDRESS', start: 26, end: 35 },
      { type: 'LOCATION', start: 39, end: 44 },
    ]);
  });

  it('gives a word of several word classes every bit, from one map', () => {
    const classes = new WordClasses([
      new Set(['beat', 'for', 'the']),
      new Set(['for']),
      new Set(['the', 'for']),
    ]);
    const words = new WordTable(bundledNerModel().gazetteers);
    const scanned = scanText('For the BEAT of it', bundledNerModel().gazetteers, words);
    const masks = classes.of(scanned);
    expect(Array.from(scanned.word, id => masks[id]!)).toEqual([7, 5, 1, 0, 0]);
  });
});
