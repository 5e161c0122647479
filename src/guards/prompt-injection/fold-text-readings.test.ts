import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { foldText, foldTextReadings } from './fold-text';

// Round 39 (issue 16): contentFilter folds each text in both readings
// (leetspeak folded and not); `foldTextReadings` skips the second fold when
// no leet character reached the word folding, where the two are one.

const PIECES = [
  ...'kilyourself KIL',
  ...'0123456789@$|',
  ...' .-_*,\n\t',
  'я',
  'а',
  'о',
  '我',
  '未',
  'é',
  '\uff11',
  '\u2463',
  '\u00b3',
  '\u200b',
  '\u202e',
  '\u0250',
];

describe('foldTextReadings', () => {
  it('gives foldText in both readings, the second folded only when it can differ', () => {
    const next = seededRandom(39);
    let folded = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      const length = 1 + Math.floor(next() * 30);
      for (let j = 0; j < length; j++) text += PIECES[Math.floor(next() * PIECES.length)];
      const readings = foldTextReadings(text);
      expect(readings.folded, JSON.stringify(text)).toBe(foldText(text));
      const plain = foldText(text, { leet: false });
      expect(readings.plain(), JSON.stringify(text)).toBe(plain);
      if (plain !== readings.folded) folded++;
    }
    // Texts whose readings differ (leetspeak read): the second was folded.
    expect(folded).toBeGreaterThan(1_000);
  });

  it('reads a leet digit inside a run of another script (the run is read whole, not the digit alone)', () => {
    // `foldWords` reads the run from its first non-ASCII character on; the
    // digits in it are no search hit of their own. `٣` folds to `3` (NFKC).
    for (const text of ['我未满21岁怎么买啤酒', 'k1ll я', 'яk1ll', 'ｋ１ｌｌ you', 'k\u0663ll']) {
      const readings = foldTextReadings(text);
      expect([readings.folded, readings.plain()], text).toEqual([
        foldText(text),
        foldText(text, { leet: false }),
      ]);
    }
    expect(foldTextReadings('k1ll я').plain()).toBe('k1ll я');
    expect(foldTextReadings('k1ll я').folded).toBe('kill я');
  });
});
