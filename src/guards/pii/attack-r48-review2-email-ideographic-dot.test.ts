import { describe, expect, it } from 'vitest';
import { guardContext } from '../../../test/helpers';
import { pii } from './pii';

/*
 * Round 48, second review (hQ), found on main (abb021b0) while reading the
 * normaliser in front of findPii (hO's lane; hO's change was reverted, so
 * this is older than the round): UTS #46 reads U+3002 (ideographic full
 * stop) and U+FF61 (its half-width form) as label separators, as it reads
 * U+FF0E, so a mail client or a reader takes `jane.doe@corp。io` for
 * `jane.doe@corp.io`. NFKC folds U+FF0E to `.` (found) and U+FF61 only to
 * U+3002, and neither the normaliser's look-alike fold nor the e-mail
 * finder reads U+3002 as a dot (url-filter's find-urls.ts does), so the
 * address passes unredacted.
 */
describe('round 48 review 2: an e-mail address with ideographic full stops', () => {
  const guard = pii({ entities: ['EMAIL_ADDRESS'], action: 'redact' });

  it('the full-width full stop is read as a dot (so the open test fails on the ideographic one alone)', async () => {
    expect(
      await guard.check('Write to jane.doe@corp\uFF0Eio today.', guardContext('output')),
    ).toEqual({
      action: 'modify',
      content: 'Write to [EMAIL_ADDRESS] today.',
      info: { types: ['EMAIL_ADDRESS'], spans: [{ type: 'EMAIL_ADDRESS', start: 9, end: 25 }] },
    });
  });

  // Open: each passes as `{ action: 'allow' }`.
  it.fails('U+3002 and U+FF61 between the labels of the domain are read as dots', async () => {
    const texts = [
      'Write to jane.doe@corp\u3002io today.',
      'Write to jane.doe@corp\uFF61io today.',
      'Write to jane.doe@mail\u3002corp\u3002io today.',
    ];
    const contents: unknown[] = [];
    for (const text of texts) {
      const verdict = await guard.check(text, guardContext('output'));
      contents.push('content' in verdict ? verdict.content : verdict.action);
    }
    expect(contents).toEqual(texts.map(() => 'Write to [EMAIL_ADDRESS] today.'));
  });
});
