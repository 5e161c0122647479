import { describe, expect, it } from 'vitest';
import { guardContext, windowAndGenerateTexts } from '../../../test/helpers';
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
 * address passed unredacted. Fixed in round 48 (hR): the e-mail finder reads
 * a U+3002 inside a domain run after an `@` as a dot (one unit for one, so
 * the span covers the original characters).
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

  // Fixed in round 48 (hR): each passed as `{ action: 'allow' }`.
  it('U+3002 and U+FF61 between the labels of the domain are read as dots', async () => {
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

  it('the span covers the original characters, and window mode streams as generate', async () => {
    const text = 'Mail jane.doe@mail\uFF61corp\u3002io or call.';
    expect(await guard.check(text, guardContext('output'))).toEqual({
      action: 'modify',
      content: 'Mail [EMAIL_ADDRESS] or call.',
      info: { types: ['EMAIL_ADDRESS'], spans: [{ type: 'EMAIL_ADDRESS', start: 5, end: 26 }] },
    });
    const { generated, streamed } = await windowAndGenerateTexts(guard, text, [[1], [3], [7, 2]]);
    expect(generated).toBe('Mail [EMAIL_ADDRESS] or call.');
    expect(streamed).toEqual(Array(3).fill('Mail [EMAIL_ADDRESS] or call.'));
  });

  it('an ideographic full stop outside a domain stays a sentence end', async () => {
    const verdict = await guard.check(
      '\u8BF7\u8054\u7CFB\u3002jane@corp.io\u3002\u8C22\u8C22',
      guardContext('output'),
    );
    expect(verdict).toEqual({
      action: 'modify',
      content: '\u8BF7\u8054\u7CFB\u3002[EMAIL_ADDRESS]\u3002\u8C22\u8C22',
      info: { types: ['EMAIL_ADDRESS'], spans: [{ type: 'EMAIL_ADDRESS', start: 4, end: 16 }] },
    });
  });
});
