import { describe, expect, it } from 'vitest';
import { guardContext as context, cut } from '../../../test/helpers';
import {
  contentFilterGenerate,
  contentFilterWindowMiddleware,
  SELF_HARM_BLOCKED,
} from '../../../test/helpers/content-filter-cases';
import { generatedText, randomSizes, streamedTextDeltas } from '../../../test/helpers/window';
import { contentFilter } from './content-filter';
import { withJoinersBlank } from './markdown-emphasis';

/**
 * Round 35 (hJ): punctuation joining the words of an entry (`kill-you`,
 * `kill.you`, `kill_yourself`, `kill/yourself`, `ACME_SECRET` against
 * `acme secret`) passed: the filter's blank matches white space only. A run
 * of `-`, `.`, `_` or `/` between two letters now reads as a blank too.
 */
describe('contentFilter: punctuation joining the words of an entry', () => {
  const blockedBy = (category: string, entry: number) => ({
    action: 'block',
    message: 'This content is not allowed.',
    reason: `matched ${category} entry ${entry}`,
    severity: 'warning',
    info: { category, entry },
  });

  it('blocks each, with the exact verdict', async () => {
    const filter = contentFilter();
    for (const [answer, category, entry] of [
      ['kill-you', 'violence', 1],
      ['kill.you', 'violence', 1],
      ['I will kill-you', 'violence', 0],
      ['kill_yourself', 'self-harm', 1],
      ['kill/yourself', 'self-harm', 1],
      ['kill--yourself', 'self-harm', 1],
      ['**kill**-yourself', 'self-harm', 1],
    ] as const) {
      expect(await filter.check(answer, context('output')), answer).toEqual(
        blockedBy(category, entry),
      );
    }
    expect(
      await contentFilter({ blocklist: ['acme secret'] }).check(
        'export ACME_SECRET=1',
        context('output'),
      ),
    ).toEqual(blockedBy('blocklist', 0));
  });

  it('reads a run between two letters as blanks, keeping positions; not beside a digit or a blank', () => {
    expect(withJoinersBlank('kill-you, kill._/yourself')).toBe('kill you, kill   yourself');
    expect(withJoinersBlank('so kill-')).toBe('so kill ');
    for (const text of ['3.14 and v1.2', 'a - b', '-x', 'end. Next']) {
      expect(withJoinersBlank(text), text).toBeUndefined();
    }
  });

  it('passes words an entry only touches', async () => {
    const filter = contentFilter();
    for (const answer of [
      'skill-you and kill-yourselves_list',
      'the kill-switch, a self-kill.js file, run kill/usr',
      'export ACME_SECRETS=1',
    ]) {
      expect(await filter.check(answer, context('output')), answer).toEqual({ action: 'allow' });
    }
  });

  it('generateText returns the blocked message with the exact record', async () => {
    expect(await contentFilterGenerate('Honestly, just kill-yourself.')).toEqual({
      text: 'This content is not allowed.',
      records: [SELF_HARM_BLOCKED],
    });
  });

  it('window mode releases no letter of the entry, for any chunking', async () => {
    const filler = 'Some plain words to stream first. '.repeat(3);
    for (const [phrase, options] of [
      ['kill-yourself', undefined],
      ['kill.yourself', undefined],
      ['kill_yourself', undefined],
      ['kill/yourself', undefined],
      ['ACME_SECRET', { blocklist: ['acme secret'], categories: [] }],
    ] as const) {
      const middleware = contentFilterWindowMiddleware(options);
      const answer = `Here is my answer. ${filler}You should ${phrase} today.`;
      expect(await generatedText(middleware, answer), phrase).toBe('BLOCKED');
      const at = answer.indexOf(phrase);
      for (const sizes of [[1], [3], [8], [answer.length], ...[1, 2].map(randomSizes)]) {
        const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
        expect(deltas.at(-1), `${phrase} ${sizes}`).toBe('BLOCKED');
        const released = deltas.slice(0, -1).join('');
        expect(answer.startsWith(released), `${phrase} ${sizes}`).toBe(true);
        expect(released.length, `${phrase} ${sizes}`).toBeLessThanOrEqual(at);
      }
    }
  });

  it('window mode streams hyphenated and dotted prose without an entry whole', async () => {
    const middleware = contentFilterWindowMiddleware();
    const answer =
      'A well-known skill-set: e.g. run kill.sh or /usr/bin/kill, see a.io/docs, v1.2 and 3.14 - done.';
    expect(await generatedText(middleware, answer)).toBe(answer);
    for (const sizes of [[1], [4], [9], ...[1, 2].map(randomSizes)]) {
      expect((await streamedTextDeltas(middleware, answer, cut(answer, sizes))).join('')).toBe(
        answer,
      );
    }
  });
});
