import { describe, expect, it } from 'vitest';
import { guardContext, windowAndGenerateTexts } from '../../../test/helpers';
import type { Verdict } from '../../core/types';
import { type ContentFilterOptions, contentFilter } from './content-filter';
import { spelledAcrossMarks } from './spelled-blanks';

/*
 * Round 45 review (hJ): tabs and line breaks between spelled-out letters
 * (spelled-blanks.ts) are read as spaces only when `spelledAcrossMarks`
 * finds four units one separator or one to three blanks apart around a
 * mark. An invisible character the fold removes (a zero-width space, a
 * soft hyphen, a word joiner, a variation selector) beside each tab is a
 * unit of no gap there, so the pre-test says no, the second reading is
 * never made, and `s\u200b\th\u200b\ti\u200b\tt` passes where `s\th\ti\tt`
 * and `s\u200b h\u200b i\u200b t` are blocked: the fold removes the
 * invisible characters and, once the tabs are spaces, joins the run. Both
 * modes agree (allowed). The fix widens the pre-test's gap (bounded, to
 * keep it linear) in content-filter's spelled-blanks.ts: fixed by the lead
 * (the pre-test also reads the text with read-through characters removed).
 *
 * Likewise NEL (U+0085), one of the marks the check reads as a space
 * (`BLANK_MARK_CLASS`), is no `\s` of the pre-test's gap but a unit of it
 * (`UNIT` takes U+0080 on): `s\x85h\x85i\x85t` passes where `s\nh\ni\nt`
 * is blocked. Fixed by the lead: U+0085 out of `UNIT`, into the gap.
 */

const ctx = guardContext('output');
const options: ContentFilterOptions = {
  blocklist: ['kill yourself', 'shit', 'make a bomb', 'kill you'],
  categories: [],
};
const actionOf = (text: string) => (contentFilter(options).check(text, ctx) as Verdict).action;

const invisibles = [
  ['a zero-width space', '\u200b'],
  ['a soft hyphen', '\u00ad'],
  ['a word joiner', '\u2060'],
  ['a variation selector', '\ufe0f'],
] as const;

describe('spelled-out letters one tab apart, an invisible character beside each tab', () => {
  it('the baselines: tabs alone, and the invisible characters with spaces, are blocked', () => {
    expect(actionOf('ok s\th\ti\tt now')).toBe('block');
    expect(actionOf('ok k\ti\tl\tl   y\to\tu now')).toBe('block');
    for (const [, mark] of invisibles) {
      expect(actionOf(`ok s${mark} h${mark} i${mark} t now`)).toBe('block');
    }
  });

  // Before the lead's fix: false for both (the invisible character read as a unit of no gap).
  it.each(invisibles)('what the pre-test says with %s: a run across the tabs', (_, mark) => {
    expect(spelledAcrossMarks(`ok s${mark}\th${mark}\ti${mark}\tt now`)).toBe(true);
    expect(spelledAcrossMarks(`ok s\t${mark}h\t${mark}i\t${mark}t now`)).toBe(true);
  });

  it.each(invisibles)('%s beside each tab: blocked as with tabs alone', (_, mark) => {
    expect(actionOf(`ok s${mark}\th${mark}\ti${mark}\tt now`)).toBe('block');
  });

  it('a zero-width space before each tab, streamed and generated: blocked', async () => {
    const text = `ok k\u200b\ti\u200b\tl\u200b\tl   y\u200b\to\u200b\tu now`;
    const { generated, streamed } = await windowAndGenerateTexts(contentFilter(options), text, [
      [1],
      [7],
    ]);
    expect([generated, ...streamed]).toEqual([
      'This content is not allowed.',
      'This content is not allowed.',
      'This content is not allowed.',
    ]);
  });

  // Before the lead's fix: the pre-test said false (NEL a unit of the run, not a gap).
  it('NEL between the letters: the pre-test finds the run (line feeds: blocked, the baseline)', () => {
    expect(actionOf('ok s\nh\ni\nt now')).toBe('block');
    expect(spelledAcrossMarks('ok s\x85h\x85i\x85t now')).toBe(true);
  });

  it('NEL between the letters: blocked as line feeds are', () => {
    expect(actionOf('ok s\x85h\x85i\x85t now')).toBe('block');
  });
});
