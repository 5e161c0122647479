import { describe, expect, it } from 'vitest';
import { guardContext as context, cut } from '../../../test/helpers';
import {
  contentFilterGenerate,
  contentFilterWindowMiddleware,
  expectStreamedWhole,
  expectWindowHoldsPhrase,
  SELF_HARM_BLOCKED,
} from '../../../test/helpers/content-filter-cases';
import { generatedText, randomSizes, streamedTextDeltas } from '../../../test/helpers/window';
import { contentFilter } from './content-filter';

/**
 * Round 35: a model answers in Markdown, and emphasis markers between the
 * words or letters of an entry (`kill **yourself**`, `**kill** you`,
 * `k**ill** yourself`, `~~kill~~ yourself`, `` kill `yourself` ``) are not
 * shown: the reader sees "kill yourself", and the filter, whose blank
 * matches white space only, saw none. A run of `*`, `_`, `~` or `` ` ``
 * beside a letter or digit is now also read as not there.
 */
describe('contentFilter: Markdown emphasis between the words or letters of an entry', () => {
  const violence = { category: 'violence', entry: 0 }; // "i will kill you"
  const selfHarm = { category: 'self-harm', entry: 1 }; // "kill yourself"
  const blockedBy = (info: { category: string; entry: number }) => ({
    action: 'block',
    message: 'This content is not allowed.',
    reason: `matched ${info.category} entry ${info.entry}`,
    severity: 'warning',
    info,
  });

  it('blocks an entry with emphasis markers around or inside its words', async () => {
    const filter = contentFilter();
    for (const [answer, info] of [
      ['I will **kill** you', violence],
      ['I will kill *you*', violence],
      ['just kill _yourself_', selfHarm],
      ['just k**ill** yourself', selfHarm],
      ['go ~~kill~~ yourself', selfHarm],
      ['kill `yourself`', selfHarm],
      ['__kill__ **yourself**', selfHarm],
      ['***kill*** yourself now', selfHarm],
    ] as const) {
      expect(await filter.check(answer, context('output')), answer).toEqual(blockedBy(info));
    }
  });

  it("blocks an entry split by a link's destination or written with character references", async () => {
    const filter = contentFilter();
    for (const answer of [
      '[kill](https://a.io/x) yourself',
      'kill [yourself](#top)',
      '[kill yourself](https://a.io)',
      'kill&nbsp;yourself',
      'kill&#32;yourself',
      '&#107;ill yourself',
      '&#x6B;ill&#x20;yourself',
      '**kill**&nbsp;[yourself](#)',
    ]) {
      expect(await filter.check(answer, context('output')), answer).toEqual(blockedBy(selfHarm));
    }
  });

  it('passes prose whose markers touch no entry, and markers with blanks on both sides', async () => {
    const filter = contentFilter();
    for (const answer of [
      'We **kill** the process, then restart it.',
      'A *skill* you learn: snake_case_kill yourselves_list.',
      'kill ** you', // no emphasis: the markers are shown
      'a * b = kill * yourself_count',
      'See [the kill switch](https://a.io) yourself, &amp; [1] &#65;.',
    ]) {
      expect(await filter.check(answer, context('output')), answer).toEqual({ action: 'allow' });
    }
  });

  it('generateText returns the blocked message with the exact record', async () => {
    expect(await contentFilterGenerate('Honestly, just kill **yourself**.')).toEqual({
      text: 'This content is not allowed.',
      records: [SELF_HARM_BLOCKED],
    });
  });

  it('window mode releases no letter of the entry, for any chunking', async () => {
    const middleware = contentFilterWindowMiddleware();
    const answer = `Here is my answer. ${'Some plain words to stream first. '.repeat(3)}You should k**ill** _yourself_ today.`;
    expect(await generatedText(middleware, answer)).toBe('BLOCKED');
    const at = answer.indexOf('k**ill**');
    for (const sizes of [[1], [2], [3], [5], [8], [answer.length], ...[1, 2, 3].map(randomSizes)]) {
      const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
      expect(deltas.at(-1), `${sizes}`).toBe('BLOCKED');
      const released = deltas.slice(0, -1).join('');
      expect(answer.startsWith(released), `${sizes}`).toBe(true);
      expect(released.length, `${sizes}`).toBeLessThanOrEqual(at);
    }
  });

  it('window mode releases no letter of an entry split by a link destination or a reference', async () => {
    const middleware = contentFilterWindowMiddleware();
    for (const phrase of [
      `[kill](https://example.com/${'a'.repeat(400)}) yourself`,
      'kill&nbsp;yourself',
      '&#107;ill yourself',
    ]) {
      // The entry's first character as written (a link's `[` before it hides nothing).
      await expectWindowHoldsPhrase(middleware, phrase, phrase.search(/[a-z&]/));
    }
  });

  it('window mode streams Markdown prose without an entry whole, as generate returns it', async () => {
    await expectStreamedWhole(
      contentFilterWindowMiddleware(),
      'Use **bold** and _italic_ text, `code` and ~~struck~~ words: a *skill* you learn. See [the docs](https://a.io/docs) &amp; more&nbsp;text [1].',
    );
  });
});
