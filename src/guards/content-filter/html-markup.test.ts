import { describe, expect, it } from 'vitest';
import { guardContext as context } from '../../../test/helpers';
import {
  contentFilterWindowMiddleware,
  expectAllowed,
  expectSelfHarmGenerated,
  expectStreamedWhole,
  expectWindowHoldsPhrase,
} from '../../../test/helpers/content-filter-cases';
import { contentFilter } from './content-filter';
import { withoutEmphasis } from './markdown-emphasis';

/**
 * Round 35 (hJ): raw HTML in a Markdown answer is not shown either. A tag
 * or comment inside or around an entry (`kill<b></b> yourself`,
 * `ki<!-- -->ll yourself`) and a block tag between its words
 * (`kill<br>yourself`) passed the default lists; so did the references
 * `&shy;` and `&zwj;`. The text is now also read as a renderer shows it.
 */
describe('contentFilter: raw HTML and more character references inside an entry', () => {
  const blocked = {
    action: 'block',
    message: 'This content is not allowed.',
    reason: 'matched self-harm entry 1',
    severity: 'warning',
    info: { category: 'self-harm', entry: 1 },
  };
  const hidden = [
    'kill<b></b> yourself',
    '<span>kill</span> yourself',
    'ki<!-- -->ll yourself',
    'kill<br>yourself',
    'kill<br/>yourself',
    'kill</p><p>yourself',
    '<a href="https://a.io/x">kill</a> <em class="x">your</em>self',
    'kill&ensp;yourself',
    'kill&thinsp;yourself',
    'ki&shy;ll yourself',
    'ki&zwj;ll yourself',
    'kill&#x2009;yourself',
    'kill&#X20;yourself',
  ];

  it('blocks each, with the exact verdict; generateText gives the blocked message and record', async () => {
    await expectSelfHarmGenerated('Honestly, just kill<br>yourself.');
    const filter = contentFilter();
    for (const answer of hidden) {
      expect(await filter.check(answer, context('output')), answer).toEqual(blocked);
    }
  });

  it('reads tags as not there, block tags as a blank, and maps each unit back to where it was', () => {
    expect(withoutEmphasis('ki<b>ll</b><br>you')).toEqual({
      text: 'kill you',
      origin: Int32Array.from([0, 1, 5, 6, 11, 15, 16, 17]),
    });
    expect(withoutEmphasis('a<!-- x -->b')?.text).toBe('ab');
    // Still open at the text's end: shown as text until it closes (round 36;
    // the window holds it back, as more text may close it).
    expect(withoutEmphasis('kill<span class="x')).toBeUndefined();
    expect(withoutEmphasis('kill<!-- yourself')).toBeUndefined();
  });

  it('leaves a `<` that starts no tag as text', () => {
    for (const text of ['if a<3 then', 'a < b', 'x <3 y', '<<>>', `<a ${'x'.repeat(600)}>`]) {
      expect(withoutEmphasis(text), text).toBeUndefined();
    }
    expect(withoutEmphasis('a <b c<d> e')?.text).toBe('a <b c e');
    // A tag name then a blank, never closed: text (round 36; read as open to the end before).
    expect(withoutEmphasis('if a<b then')).toBeUndefined();
  });

  it('passes HTML prose without an entry', async () => {
    await expectAllowed([
      '<p>We <b>kill</b> the process, then restart it.</p>',
      'Use <code>kill -9</code> on <em>your</em> own process; a <b>skill</b> you learn.',
      'if a<b and c>d, kill the job <!-- note -->',
    ]);
  });

  it('window mode releases no letter of the entry, for any chunking', async () => {
    const middleware = contentFilterWindowMiddleware();
    for (const phrase of [
      'kill<b></b> yourself',
      '<span>kill</span> yourself',
      'ki<!-- -->ll yourself',
      'kill<br>yourself',
      `kill <span title="${'a'.repeat(300)}">yourself</span>`,
      'ki&shy;ll yourself',
    ]) {
      await expectWindowHoldsPhrase(middleware, phrase, phrase.indexOf('k'));
    }
  });

  it('window mode streams HTML prose without an entry whole', async () => {
    await expectStreamedWhole(
      contentFilterWindowMiddleware(),
      '<p>Use <b>bold</b> and <i>italic</i> text,<br>a <em>skill</em> you learn.</p><!-- end --> if a<b ok.',
    );
  });
});
