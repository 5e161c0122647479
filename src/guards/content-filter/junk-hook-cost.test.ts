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
