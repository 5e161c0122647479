import { describe, expect, it, vi } from 'vitest';
import { contentFilter } from './content-filter';

// Round 27 (issue 16): `contentFilter`'s hook takes a position after a
// character that is no ASCII letter as a possible start of an entry and
// folds the text from there to its end. With junk between every two
// letters every position was one, and each check folded its text once per
// code unit (quadratic in the window's code units). A position inside a
// run of characters folding reads through reads as the run's end does:
// only that one is folded now.

const folded = vi.hoisted(() => ({ characters: 0 }));
vi.mock('../prompt-injection/fold-text', async importOriginal => {
  const original = await importOriginal<typeof import('../prompt-injection/fold-text')>();
  return {
    ...original,
    foldText: (text: string, options?: Parameters<typeof original.foldText>[1]) => {
      folded.characters += text.length;
      return original.foldText(text, options);
    },
    // The hook folds through it since round 40: one fold, and a second
    // when the second reading is asked (counted as one whether or not it folds again).
    foldTextReadings: (text: string) => {
      folded.characters += text.length;
      const { folded: first, plain } = original.foldTextReadings(text);
      return {
        folded: first,
        plain: () => {
          folded.characters += text.length;
          return plain();
        },
      };
    },
  };
});

describe('contentFilter potentialMatchStart on junk-heavy text', () => {
  it('folds each run of junk once, not once per code unit, and still holds an entry begun', () => {
    const hook = contentFilter().potentialMatchStart!;
    const junk = '\u200b'.repeat(50);
    const text = [...'The plan went well, so we can kill'].join(junk);
    folded.characters = 0;
    const start = hook(text);
    // 10,372 code units folded (the last word, 1,751 with its junk, a few
    // times); before, 480,821: one fold per code unit of the last words.
    expect(folded.characters).toBeLessThan(20 * 1_751);
    // `kill` may begin `kill yourself`: held from its token's start (the junk before its `k`).
    expect(start).toBe(text.lastIndexOf(' ') + 1);
  });
});

// Round 28: with a turned letter among its last `maxMatchLength + 2 × TURNED_REACH`
// counted characters, the hook holds from there whatever its own reading says
// (it reads only the last `maxMatchLength`). It still ran that reading first:
// in turned text every position after a turned letter is a candidate, each
// folded to the text's end, twice (`maxMatchLength` squared characters a check).
describe('contentFilter potentialMatchStart on upside-down text', () => {
  it('holds from `maxMatchLength + 64` counted characters back without folding anything', () => {
    const hook = contentFilter().potentialMatchStart!;
    // `have a nice day and thank you` turned, without blanks, 20 times (472 units).
    const text = `The answer: ${'noʎʞuɐɥʇpuɐʎɐpǝɔıuɐǝʌɐɥ'.repeat(20)}`;
    folded.characters = 0;
    // 472 - 140: maxMatchLength 76 (the longest entry's 19 characters x 4) + 2 x 32.
    expect(hook(text)).toBe(332);
    // Before: 4,126 characters folded for this one check.
    expect(folded.characters).toBe(0);
  });
});
