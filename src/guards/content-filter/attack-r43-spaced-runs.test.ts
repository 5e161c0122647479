import { describe, expect, it } from 'vitest';
import { guardContext } from '../../../test/helpers';
import { contentFilter } from './content-filter';

/*
 * Round 43, an attacker's read of round 42's pre-test of spaced letters
 * (lower-case-letters-pretest.ts). The pre-test itself held: 200,000
 * random `[a-z ]` texts and entry lists (letters a-e, entries with and
 * without a blank), no text it passed that `foldText` and the matcher
 * block; CPU linear (100, 200, 400 KB: 0.8, 1.7, 3.2 ms spaced letters).
 * What it shares with the check: a spelled-out run is joined as one word,
 * so an entry spelled out inside a longer run matches nothing. One letter
 * before it (`u k i l l   y o u r s e l f`, "u" for "you"), or the words
 * written without the three blanks of a word break
 * (`j u s t k i l l y o u r s e l f`), and the entry passes, where
 * `k i l l   y o u r s e l f` is blocked. Found at 8302f965, and at
 * fc226bfe (before the pre-test): not a regression. The fix is in the
 * folding or the matcher (fold-text.ts hA's, content-filter hC's lane):
 * an entry read inside a joined run, its blanks dropped.
 */

const filter = () => contentFilter({ blocklist: ['kill yourself'], categories: [] });
const verdict = (text: string) =>
  filter().check(text, guardContext('output')) as { action: string };

describe('an entry spelled out inside a longer spaced run', () => {
  it.each([
    ['the entry spelled out, a word break between its words', 'k i l l   y o u r s e l f'],
    ['a word before it, three blanks after', 'j u s t   k i l l   y o u r s e l f'],
    ['a written word before it', 'just k i l l   y o u r s e l f'],
  ])('%s: blocked (the baseline)', (_, text) => {
    expect(verdict(text).action).toBe('block');
  });

  // Found at 8302f965 (and fc226bfe): allowed. Blocked since round 44
  // (`spelled-run-entries.ts`: an entry read inside a spelled-out run).
  it.each([
    ['one letter before it', 'u k i l l   y o u r s e l f'],
    ['no word breaks', 'j u s t k i l l y o u r s e l f'],
  ])('%s: blocked', (_, text) => {
    expect(verdict(text).action).toBe('block');
  });
});
