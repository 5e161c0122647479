import { describe, expect, it } from 'vitest';
import { bundledNerModel } from './bundled-ner-model';
import {
  bucket,
  coarse,
  contextFeatures,
  Flag,
  MAX_FEATURES,
  mix,
  NONE,
  type Scanned,
  scanText,
  T,
  WordTable,
} from './features';
import { findNamedEntities } from './find-named-entities';

/**
 * Round 47 (issue 17, speed): `contextFeatures` reads each word's own
 * buckets and hashes from its row of the word table (`WordTable.rows`, made
 * once when the word is added) instead of hashing them per token, and the
 * table's slots hold a hash and a word id side by side. The buckets must be
 * the ones the features always gave (the model was trained on them): here
 * they are made again the way round 46 made them, from the word table's
 * hash arrays, and compared bucket by bucket.
 */

const gazetteers = bundledNerModel().gazetteers;

/** Round 46's `contextFeatures`: every bucket hashed from the word table's arrays. */
function reference(scanned: Scanned, index: number): number[] {
  const { words, word: ids, flags, count } = scanned;
  const lower = (at: number) => (at >= 0 && at < count ? words.lowerHash[ids[at]!]! : NONE);
  const shape = (at: number) => (at >= 0 && at < count ? words.shapeHash[ids[at]!]! : NONE);
  const id = ids[index]!;
  const hasBefore = index > 0;
  const hasAfter = index + 1 < count;
  const beforeFlags = hasBefore ? flags[index - 1]! : 0;
  const afterFlags = hasAfter ? flags[index + 1]! : 0;
  const out = [
    bucket(T.Bias, 0),
    bucket(T.Shape, shape(index)),
    bucket(T.Flags, flags[index]!),
    bucket(T.PrevLower, lower(index - 1)),
    bucket(T.NextLower, lower(index + 1)),
    bucket(T.Prev2Lower, lower(index - 2)),
    bucket(T.Next2Lower, lower(index + 2)),
    bucket(T.PrevShape, shape(index - 1)),
    bucket(T.NextShape, shape(index + 1)),
    bucket(
      T.PrevFlags,
      hasBefore
        ? coarse(beforeFlags) | (beforeFlags & (Flag.Street | Flag.Honorific | Flag.Punct))
        : NONE,
    ),
    bucket(
      T.NextFlags,
      hasAfter
        ? coarse(afterFlags) | (afterFlags & (Flag.Street | Flag.Organisation | Flag.Punct))
        : NONE,
    ),
    bucket(T.ShapeNextShape, mix(shape(index) ^ Math.imul(shape(index + 1), 13))),
    bucket(T.PlaceSpan, scanned.placeSpan[index]!),
  ];
  if (words.gazetteers.clusters !== undefined) {
    const capital = flags[index]! & (Flag.Title | Flag.Upper);
    out.push(
      bucket(T.Cluster, words.cluster[id]! * 4 + (capital === 0 ? 0 : capital === 1 ? 1 : 2)),
      bucket(T.PrevCluster, hasBefore ? words.cluster[ids[index - 1]!]! : 256),
      bucket(T.NextCluster, hasAfter ? words.cluster[ids[index + 1]!]! : 256),
    );
  }
  out.push(
    bucket(T.Lower, lower(index)),
    bucket(T.PrevLowerLower, mix(lower(index - 1) ^ Math.imul(lower(index), 31))),
    bucket(T.LowerNextLower, mix(lower(index) ^ Math.imul(lower(index + 1), 17))),
    bucket(T.Prefix3, words.prefixHash[id]!),
    bucket(T.Suffix3, words.suffix3Hash[id]!),
    bucket(T.Suffix2, words.suffix2Hash[id]!),
  );
  return out;
}

/** The buckets `contextFeatures` writes for each token of `scanned`. */
function buckets(scanned: Scanned): number[][] {
  const out = new Int32Array(MAX_FEATURES);
  return Array.from({ length: scanned.count }, (_, index) => [
    ...out.subarray(0, contextFeatures(scanned, index, out)),
  ]);
}

function expectReference(scanned: Scanned): void {
  expect(buckets(scanned)).toEqual(
    Array.from({ length: scanned.count }, (_, index) => reference(scanned, index)),
  );
}

describe('NER features from word rows (round 47)', () => {
  it('gives the buckets hashed per token, at both ends of the text and between', () => {
    const scanned = scanText(
      'Dr. Grace Okafor moved to New Zealand; Rue du Lac 4 — bob@x.io, TV!',
      gazetteers,
      new WordTable(gazetteers),
    );
    expect(scanned.count).toBe(22);
    expectReference(scanned);
    // One word alone: every neighbour is past an end.
    expectReference(scanText('Okafor', gazetteers, new WordTable(gazetteers)));
  });

  it('keeps each word its own row as the table grows and rehashes, and after clear()', () => {
    const words = new WordTable(gazetteers);
    const many = Array.from({ length: 3_000 }, (_, index) => `Name${index} w${index}`).join(' ');
    const first = scanText(many, gazetteers, words);
    expect(words.size).toBe(6_000);
    expectReference(first);
    // Ids handed out in the same order when read again: the rows are the same rows.
    const again = scanText(many, gazetteers, words);
    expect([...again.word]).toEqual([...first.word]);
    expect(words.size).toBe(6_000);
    // After clear() ids start again at 0: a row kept from the word that had the id before
    // (`Name0`) would give its buckets to `Lagos`.
    words.clear();
    const fresh = scanText('Lagos Name0', gazetteers, words);
    expect([...fresh.word]).toEqual([0, 1]);
    expectReference(fresh);
    expect(buckets(fresh)[0]).not.toEqual(buckets(scanText('Name0 Lagos', gazetteers, words))[0]);
  });

  it('finds the same names as before', () => {
    expect(
      findNamedEntities('Grace Okafor flew from Lagos to meet Tomasz Nowak at 12 Baker Street.'),
    ).toEqual([
      { type: 'PERSON', start: 0, end: 12 },
      { type: 'LOCATION', start: 23, end: 28 },
      { type: 'PERSON', start: 37, end: 49 },
      { type: 'STREET_ADDRESS', start: 53, end: 68 },
    ]);
  });
});
