import { describe, expect, it } from 'vitest';
import { guardContext, windowAndGenerateTexts } from '../../../test/helpers';
import { contentFilter } from './content-filter';

/*
 * Round 44, an attacker's read of round 43's spelled-runs window filter:
 * an entry spelled out with its word break written in other blanks than
 * spaces (two tabs, three NBSPs, two ideographic spaces, two line breaks),
 * or its letters one NBSP apart, with some words before it.
 * `generateText` blocks it; window mode released the whole spelled-out
 * entry and one letter after it (`ok so k i l l\t\ty o u r s e l f n`)
 * and only then sent the block message. The filter is not the cause: the
 * guardrail with `mayMatch` and `mayMatchReach` removed releases the same
 * (the window's hold of a spelled-out run; not traced further). Found at
 * bbe5b0ee, and at 8302f965 (before round 43's filter): not a regression.
 * With three spaces, or with the entry at the text's start, nothing of it
 * is released. The fix is in src/guards/content-filter/ (hC's lane this
 * round): it.fails.
 */

const MESSAGE = 'This content is not allowed.';
const guard = () => contentFilter({ blocklist: ['kill yourself'], categories: [] });
const CHUNKINGS = [[1], [2], [3], [4], [5], [7], [1, 9, 2]];

/** What a stream sent before the block message (all of it when it sent none). */
const released = (text: string) => (text.endsWith(MESSAGE) ? text.slice(0, -MESSAGE.length) : text);

const spelled = (wordBreak: string) => `k i l l${wordBreak}y o u r s e l f`;

/** The entry spelled out with `separator` between its letters. */
const spelledWith = (separator: string, wordBreak: string) =>
  ['kill', 'yourself'].map(word => [...word].join(separator)).join(wordBreak);

describe('a spelled-out entry whose word break is not spaces, in window mode', () => {
  it.each([
    ['three spaces', `ok so ${spelled('   ')} now`],
    ['a space, a tab, a space', `ok so ${spelled(' \t ')} now`],
    ['two tabs, the entry first', `${spelled('\t\t')} now`],
  ])(
    '%s: generate blocks, and no stream releases a letter of the entry (the baseline)',
    async (_, text) => {
      const { generated, streamed } = await windowAndGenerateTexts(guard(), text, CHUNKINGS);
      expect(generated).toBe(MESSAGE);
      for (const text of streamed) {
        expect(text.endsWith(MESSAGE)).toBe(true);
        expect('ok so '.startsWith(released(text))).toBe(true);
      }
    },
  );

  const releasesNothingOfTheEntry = async (text: string) => {
    const { generated, streamed } = await windowAndGenerateTexts(guard(), text, CHUNKINGS);
    expect(generated).toBe(MESSAGE);
    for (const text of streamed) {
      expect(text.endsWith(MESSAGE)).toBe(true);
      expect('ok so '.startsWith(released(text))).toBe(true);
    }
  };

  // At bbe5b0ee: `ok so k i l l<break>y o u r s e l f n` then the message, at
  // chunkings [3] (NBSPs) and [1], [2], [4] (ideographic spaces). Held since
  // round 44's spelled-run hold (hC: a run's hold starts from any of its
  // letters, and every gap in a run may count as nothing or as a blank).
  it.each([
    ['three NBSPs', `ok so ${spelled('\u00a0\u00a0\u00a0')} now`],
    ['two ideographic spaces', `ok so ${spelled('\u3000\u3000')} now`],
    ['NBSPs between the letters too', `ok so ${spelledWith('\u00a0', '   ')} now`],
  ])('%s: no stream releases a letter of the entry', async (_, text) => {
    await releasesNothingOfTheEntry(text);
  });

  // The round's second read: a run with letters before the entry, a two-blank
  // break inside a word and an NBSP between two letters. Generate blocked it
  // (round 44's reading of an entry inside a run) while window mode released
  // `k i l l   y o  u r s` and more: the hold's walk ended the run at the
  // NBSP, which the fold reads as a space (NFKC). The hold reads the blanks
  // NFKC writes as a space as one.
  it('letters before the entry, a break inside a word, an NBSP: nothing of the entry is released', async () => {
    const text = `ok so j u s t k i l l   y o  u r s\u00a0e l f now`;
    const { generated, streamed } = await windowAndGenerateTexts(guard(), text, CHUNKINGS);
    expect(generated).toBe(MESSAGE);
    for (const text of streamed) {
      expect(text.endsWith(MESSAGE)).toBe(true);
      expect('ok so j u s t '.startsWith(released(text))).toBe(true);
    }
  });

  // Released after round 44 (tabs and line breaks as the word break), at
  // chunkings [1], [2], [4]: the hold's walk ended the run at the tab. Held
  // since round 45 (hC: the hold reads tabs and line breaks as spaces, as
  // the check's second reading does, `spelled-blanks.ts`).
  it.each([
    ['two tabs', `ok so ${spelled('\t\t')} now`],
    ['two line breaks', `ok so ${spelled('\n\n')} now`],
  ])('%s: no stream releases a letter of the entry', async (_, text) => {
    await releasesNothingOfTheEntry(text);
  });
});

/*
 * The check itself (both modes): letters one NBSP or one ideographic space
 * apart are read as spelled out and blocked, one tab apart they are not
 * (`k\ti\tl\tl   y\to\tu…` passes `generateText` and every stream).
 * Found at bbe5b0ee and 8302f965. The fix is in the fold or the matcher
 * (fold-text.ts hA's, content-filter hC's lane): it.fails.
 */
describe('a spelled-out entry, its letters one tab apart', () => {
  const check = (text: string) =>
    (guard().check(text, guardContext('output')) as { action: string }).action;

  it.each([
    ['one space', ' '],
    ['one NBSP', '\u00a0'],
    ['one ideographic space', '\u3000'],
  ])('%s apart: blocked (the baseline)', (_, separator) => {
    expect(check(`ok so ${spelledWith(separator, '   ')} now`)).toBe('block');
  });

  // At bbe5b0ee: allow. Blocked since round 45: the check also reads tabs
  // and line breaks between spelled-out letters as spaces.
  it('one tab apart: blocked', () => {
    expect(check(`ok so ${spelledWith('\t', '   ')} now`)).toBe('block');
  });
});
