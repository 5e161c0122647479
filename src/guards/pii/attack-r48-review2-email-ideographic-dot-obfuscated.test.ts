import { describe, expect, it } from 'vitest';
import { guardContext } from '../../../test/helpers';
import { pii } from './pii';

/*
 * Round 48, second review (hQ) of hR's fix (r48-hR 9a0a5f88,
 * finders/email.ts `withDomainDots`): U+3002 between domain labels is read
 * as a dot only in a run after a literal `@` (`ideographicDomainRun`), so
 * the obfuscated forms the finder reads with an ASCII dot (`jane[at]corp.io`,
 * `jane(at)corp.io`, `jane {at} corp.io`) pass again with U+3002 (or
 * U+FF61, which NFKC folds to it) between the labels.
 */
describe('round 48 review 2: an obfuscated e-mail address with ideographic full stops', () => {
  const guard = pii({ entities: ['EMAIL_ADDRESS'], action: 'redact' });
  const contentOf = async (text: string) => {
    const verdict = await guard.check(text, guardContext('output'));
    return 'content' in verdict ? verdict.content : verdict.action;
  };
  const forms = ['jane[at]corp', 'jane(at)corp', 'jane [at] corp', 'jane{at}corp'];

  it('each form with an ASCII dot is found (so the open test fails on the full stop alone)', async () => {
    const found: unknown[] = [];
    for (const form of forms) found.push(await contentOf(`Write to ${form}.io today.`));
    expect(found).toEqual(forms.map(() => 'Write to [EMAIL_ADDRESS] today.'));
  });

  // Open: each passes as `allow`.
  it.fails('each form with U+3002 or U+FF61 between the labels is found', async () => {
    const found: unknown[] = [];
    for (const form of forms) {
      found.push(await contentOf(`Write to ${form}\u3002io today.`));
      found.push(await contentOf(`Write to ${form}\uFF61io today.`));
    }
    expect(found).toEqual(forms.flatMap(() => Array(2).fill('Write to [EMAIL_ADDRESS] today.')));
  });
});
