import { describe, expect, it } from 'vitest';
import { chunkEnd, NER_CHUNK } from './find-named-entities';
import { LABEL_COUNT } from './labels';
import { int8Scorer } from './ner-model';

/**
 * Round 43 made two parts of a reading faster with the same results: the
 * int8 scorer sums each label in a local (nine labels, unrolled), and a
 * chunk's cut looks for its line breaks and blanks with `lastIndexOf` on
 * the chunk's last quarter. These compare each with what it replaced.
 */

/** The round-42 scorer: every feature's row added into `scores` label by label. */
function referenceScore(
  weights: Int8Array,
  buckets: Int32Array,
  count: number,
  scores: Float64Array,
) {
  for (let feature = 0; feature < count; feature++) {
    const row = buckets[feature]! * LABEL_COUNT;
    for (let label = 0; label < LABEL_COUNT; label++) scores[label]! += weights[row + label]!;
  }
}

/** A deterministic stream of numbers in [0, 1) (no test depends on chance). */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
}

describe('int8Scorer (round 43: nine labels unrolled)', () => {
  it('adds the same sums as the loop it replaced, extremes included', () => {
    expect(LABEL_COUNT).toBe(9);
    const rows = 64;
    const weights = new Int8Array(rows * LABEL_COUNT);
    const next = numbers(7);
    for (let index = 0; index < weights.length; index++)
      weights[index] =
        index < 2 * LABEL_COUNT ? (index % 2 === 0 ? 127 : -128) : Math.floor(next() * 256) - 128;
    const score = int8Scorer(weights);
    for (const count of [0, 1, 2, 27]) {
      for (let trial = 0; trial < 20; trial++) {
        const buckets = new Int32Array(27);
        for (let feature = 0; feature < count; feature++)
          buckets[feature] = trial === 0 ? feature % 2 : Math.floor(next() * rows);
        // Scores that already hold values (the trainer's beam adds onto context scores).
        const start = Float64Array.from({ length: LABEL_COUNT }, (_, label) => label * 0.5 - 2);
        const expected = start.slice();
        referenceScore(weights, buckets, count, expected);
        const actual = start.slice();
        score(buckets, count, actual);
        expect([...actual]).toEqual([...expected]);
      }
    }
  });
});

/** The round-42 search: the last unit in `text[floor, limit)` passing `wanted`, when the range holds another. */
function referenceLastOfTwo(
  text: string,
  floor: number,
  limit: number,
  wanted: (code: number) => boolean,
): number {
  let last = -1;
  for (let index = limit - 1; index >= floor; index--) {
    if (!wanted(text.charCodeAt(index))) continue;
    if (last >= 0) return last;
    last = index;
  }
  return -1;
}

/** The round-42 `chunkEnd`, for comparison. */
function referenceChunkEnd(text: string, start: number): number {
  const limit = start + NER_CHUNK;
  if (limit >= text.length) return text.length;
  const floor = start + (NER_CHUNK * 3) / 4;
  const newline = referenceLastOfTwo(text, floor, limit, code => code === 10);
  if (newline >= 0) return newline + 1;
  for (let index = limit - 1; index >= floor; index--) {
    const code = text.charCodeAt(index);
    if (code === 0x3002 || code === 0xff01 || code === 0xff1f || code === 0xff61) return index + 1;
  }
  const blank = referenceLastOfTwo(text, floor, limit, code => code === 32 || code === 9);
  if (blank >= 0) return blank + 1;
  return -2; // past the searches this test covers: a content cut or the fixed size
}

describe('chunkEnd (round 43: lastIndexOf on the last quarter)', () => {
  const floor = (NER_CHUNK * 3) / 4;
  const limit = NER_CHUNK;
  /** `NER_CHUNK + 10` units of `x` with `units` written at the offsets given. */
  const textWith = (units: Array<[number, string]>) => {
    const chars = Array.from({ length: NER_CHUNK + 10 }, () => 'x');
    for (const [at, unit] of units) chars[at] = unit;
    return chars.join('');
  };
  const cases: Array<[string, Array<[number, string]>, number]> = [
    [
      'two line breaks: after the last',
      [
        [floor + 5, '\n'],
        [limit - 3, '\n'],
      ],
      limit - 2,
    ],
    [
      'a line break alone at the floor, two blanks',
      [
        [floor, '\n'],
        [floor + 9, ' '],
        [floor + 20, ' '],
      ],
      floor + 21,
    ],
    [
      'a line break alone at the end',
      [
        [limit - 1, '\n'],
        [floor + 1, ' '],
        [floor + 2, '\t'],
      ],
      floor + 3,
    ],
    [
      'line breaks at the floor and the end',
      [
        [floor, '\n'],
        [limit - 1, '\n'],
      ],
      limit,
    ],
    [
      'a line break before the floor does not count',
      [
        [floor - 1, '\n'],
        [limit - 4, '\n'],
        [floor, ' '],
        [floor + 1, ' '],
      ],
      floor + 2,
    ],
    [
      'a blank and a tab: after the later',
      [
        [floor + 100, '\t'],
        [floor + 50, ' '],
      ],
      floor + 101,
    ],
    [
      'one blank at the floor, one past the limit',
      [
        [floor, ' '],
        [limit, ' '],
      ],
      -2,
    ],
    [
      'a full stop of CJK before blanks',
      [
        [floor + 3, '。'],
        [floor + 7, ' '],
        [floor + 8, ' '],
      ],
      floor + 4,
    ],
  ];
  for (const [name, units, cut] of cases) {
    it(name, () => {
      const text = textWith(units);
      expect(referenceChunkEnd(text, 0)).toBe(cut);
      if (cut !== -2) expect(chunkEnd(text, 0)).toBe(cut);
      else expect(chunkEnd(text, 0)).not.toBe(floor + 1);
    });
  }

  it('cuts every chunk of varied text where the loop it replaced did', () => {
    const next = numbers(11);
    const alphabet = ['a', 'b', ' ', ' ', '\n', '\t', 'é', '。', 'Z', '.'];
    for (const weights of [
      [1, 1, 0.02, 0, 0.0005, 0, 0, 0, 1, 1],
      [1, 1, 0, 0, 0, 0.0002, 0, 0.0001, 1, 1],
    ]) {
      const total = weights.reduce((sum, weight) => sum + weight, 0);
      let text = '';
      while (text.length < 4 * NER_CHUNK) {
        let pick = next() * total;
        let index = 0;
        while (pick >= weights[index]!) pick -= weights[index++]!;
        text += alphabet[index]!;
      }
      for (let start = 0; start + NER_CHUNK < text.length; start += 9_973) {
        const expected = referenceChunkEnd(text, start);
        if (expected !== -2) expect(chunkEnd(text, start)).toBe(expected);
      }
    }
  });
});
