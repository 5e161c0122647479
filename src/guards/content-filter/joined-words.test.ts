import { describe, expect, it } from 'vitest';
import { guardContext as context } from '../../../test/helpers';
import * as cases from '../../../test/helpers/content-filter-cases';
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

  it('blocks each, with the exact verdict; generateText gives the blocked message and record', async () => {
    await cases.expectSelfHarmGenerated('Honestly, just kill-yourself.');
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

  it('window mode releases no letter of the entry, for any chunking', async () => {
    for (const [phrase, options] of [
      ['kill-yourself', undefined],
      ['kill.yourself', undefined],
      ['kill_yourself', undefined],
      ['kill/yourself', undefined],
      ['ACME_SECRET', { blocklist: ['acme secret'], categories: [] }],
    ] as const) {
      await cases.expectWindowHoldsPhrase(cases.contentFilterWindowMiddleware(options), phrase);
    }
  });

  it('passes words an entry only touches, and streams such prose whole', async () => {
    await cases.expectAllowed([
      'skill-you and kill-yourselves_list',
      'the kill-switch, a self-kill.js file, run kill/usr',
      'export ACME_SECRETS=1',
    ]);
    await cases.expectStreamedWhole(
      cases.contentFilterWindowMiddleware(),
      'A well-known skill-set: e.g. run kill.sh or /usr/bin/kill, see a.io/docs, v1.2 and 3.14 - done.',
    );
  });
});
