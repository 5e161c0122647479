import { describe, expect, it } from 'vitest';
import { bundledNerModel } from './bundled-ner-model';
import { scanText, WordTable } from './features';
import { hasClass, WordClasses } from './word-classes';

const classes = () => new WordClasses([new Set(['beat', 'for']), new Set(['for', 'the'])]);
/** The mask of each token of `text` read with `words`. */
function masksOf(wordClasses: WordClasses, text: string, words: WordTable): number[] {
  const scanned = scanText(text, bundledNerModel().gazetteers, words);
  const masks = wordClasses.of(scanned);
  return Array.from(scanned.word, id => masks[id]!);
}

describe('WordClasses', () => {
  it('gives each token the bits of the sets its lower-cased word is in', () => {
    const words = new WordTable(bundledNerModel().gazetteers);
    expect(masksOf(classes(), 'Arsenal beat Chelsea for THE cup', words)).toEqual([
      0, 1, 0, 3, 2, 0,
    ]);
  });

  it('fills the words a later text adds, and starts again when the table is emptied', () => {
    const wordClasses = classes();
    const words = new WordTable(bundledNerModel().gazetteers);
    expect(masksOf(wordClasses, 'beat it', words)).toEqual([1, 0]);
    expect(masksOf(wordClasses, 'it went for the cup', words)).toEqual([0, 0, 3, 2, 0]);
    // Emptied: ids start again at 0 for other words, so the masks are made again.
    words.clear();
    expect(masksOf(wordClasses, 'the beat', words)).toEqual([2, 1]);
    // Another table (another gazetteer set's) is read from its own words.
    const other = new WordTable(bundledNerModel().gazetteers);
    expect(masksOf(wordClasses, 'cup for', other)).toEqual([0, 3]);
  });

  it('grows past its first capacity', () => {
    const words = new WordTable(bundledNerModel().gazetteers);
    const text = `${Array.from({ length: 3000 }, (_, index) => `w${index}`).join(' ')} beat`;
    const masks = masksOf(classes(), text, words);
    expect(masks.length).toBe(3001);
    expect(masks.slice(0, 3000).every(mask => mask === 0)).toBe(true);
    expect(masks[3000]).toBe(1);
  });

  it('hasClass: whether the word of a token is in any of the classes asked', () => {
    const wordClasses = classes();
    const scanned = scanText('Arsenal beat Chelsea for THE cup', bundledNerModel().gazetteers);
    const masks = wordClasses.of(scanned);
    const asked = (of: number) =>
      Array.from({ length: scanned.count }, (_, index) => hasClass(scanned, masks, index, of));
    expect(asked(1)).toEqual([false, true, false, true, false, false]);
    expect(asked(2)).toEqual([false, false, false, true, true, false]);
    expect(asked(3)).toEqual([false, true, false, true, true, false]);
  });

  it('refuses more sets than a mask holds', () => {
    expect(() => new WordClasses(Array.from({ length: 32 }, () => new Set<string>()))).toThrow(
      RangeError,
    );
  });
});
