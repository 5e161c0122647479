import { describe, expect, it } from 'vitest';
import { ClusterScorer } from '../../scripts/train/injection/cluster-scorer';
import { emptySpec } from '../../scripts/train/logistic';
import { hashString, WordClusters } from '../../src/guards/pii/ner/features';
import { SlotInjectionScorer } from '../../src/guards/prompt-injection/slot-features';

// A hand-made class table: two verbs in class 1, two nouns in class 2.
const entries = [
  ['overlook', 1],
  ['ignore', 1],
  ['guidelines', 2],
  ['rules', 2],
] as const;
const sorted = [...entries].sort((a, b) => hashString(a[0]) - hashString(b[0]));
const table = new WordClusters(
  Uint32Array.from(sorted, ([word]) => hashString(word)),
  Uint8Array.from(sorted, ([, id]) => id),
);
const spec = emptySpec(16);

function classFeatures(text: string, kinds: Array<'uni' | 'bi' | 'mix'>, repeat = 1): number[] {
  const withClasses = new ClusterScorer(spec, 1, {
    tables: [table],
    kinds: new Set(kinds),
    repeat,
  });
  const plain = new SlotInjectionScorer(spec, 1);
  const base = plain.features(text, 0, text.length).length;
  return [...withClasses.features(text, 0, text.length).slice(base)].sort((a, b) => a - b);
}

describe('word-class features (experiment)', () => {
  it('gives two words of one class the same class unigrams and bigrams', () => {
    const a = classFeatures('ignore the rules', ['uni', 'bi']);
    const b = classFeatures('overlook the guidelines', ['uni', 'bi']);
    // Unigrams: class 1 and class 2; bigrams: 1→0 ("the" has no class) and 0→2.
    expect(a).toHaveLength(4);
    expect(b).toEqual(a);
  });

  it('keeps the words apart in the word × class mixes', () => {
    const a = classFeatures('ignore rules', ['mix']);
    const b = classFeatures('overlook guidelines', ['mix']);
    // "ignore>2" and "1<rules" against "overlook>2" and "1<guidelines".
    expect(a).toHaveLength(2);
    expect(b).toHaveLength(2);
    expect(a.filter(index => b.includes(index))).toEqual([]);
  });

  it('lists each class feature `repeat` times and adds none for words without a class', () => {
    expect(classFeatures('ignore', ['uni'], 3)).toHaveLength(3);
    expect(classFeatures('the weather is nice today', ['uni', 'bi', 'mix'])).toEqual([]);
  });
});
