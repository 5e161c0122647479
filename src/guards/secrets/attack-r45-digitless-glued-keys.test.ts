import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets } from '../../../test/helpers/secrets-redacted';
import { runChain } from '../../core/chain';
import { pii } from '../pii/pii';
import { secrets } from './secrets';

/*
 * Round 45, an attacker's read of round 44's identifiers rule
 * (glued-keys.ts): a key of no fixed shape glued to a word needs a digit
 * past its prefix, "a random key of 24 base62 characters lacks one about
 * once in 70, and then the entropy reading still takes word and key as
 * one token". It does not: a digitless Stripe key glued to a domain or a
 * word (`x.comsk_live_QZrL…`) was found by no rule, and with `pii()`
 * first `john@example.comsk_live_…` went out whole, the address and the
 * key (at bbe5b0ee both were hidden). Found at f45bd334. Fixed in
 * glued-keys.ts (no one's lane this round): a digitless rest reads as
 * random when it has a lower-case letter, two capitals side by side at
 * least twice and no run of eight lower-case letters; of 2,000 random
 * digitless 24-letter keys 1,791 are now found glued (none before), and
 * round 44's identifiers are still none. Findings identical on 111,676
 * texts (the four corpora, the five dev sets, the English prose's
 * paragraphs): they hold no glued match.
 */

const STRIPE = 'sk_live_QZrLmXWTbyPKdHsnfVgJCQeRtu';

describe('a digitless key of no fixed shape glued to a word', () => {
  it('after a blank: found by its rule (the baseline)', () => {
    expect(foundSecrets(`see ${STRIPE} now`)).toEqual([['STRIPE_KEY', STRIPE]]);
  });

  // At f45bd334: [] for each.
  it.each([
    ['after a domain', `see x.com${STRIPE} now`],
    ['after a word', `see prod${STRIPE} now`],
    ['after a domain and a -', `see x.com-${STRIPE} now`],
  ])('%s: the key is found', (_, text) => {
    expect(foundSecrets(text)).toEqual([['STRIPE_KEY', STRIPE]]);
  });

  it.each([
    // Round 44's identifiers, and ones of capitalised words.
    ['network_test_connectivity'],
    ['task_live_configuration'],
    ['task_live_Configuration'],
    ['task_live_UserDataSet'],
    ['desk-admin-Config-Panel-For-Users'],
    ['taskxoxp-User-Data-Sync-Job'],
  ])('the identifier %s: no key', text => {
    expect(foundSecrets(text)).toEqual([]);
  });

  it('pii() then secrets(): the address and the key are both hidden', async () => {
    const context = { kind: 'output' as const, messages: [], metadata: {}, state: new Map() };
    const result = await runChain(
      [pii({ action: 'redact' }), secrets({ action: 'redact' })],
      `mail john@example.com${STRIPE} now`,
      context,
    );
    // At f45bd334: the text unchanged.
    expect(result.content).toBe('mail [EMAIL_ADDRESS][STRIPE_KEY] now');
  });

  it('pii() then secrets() in window mode end as generate does, at every cut', async () => {
    const { generated, streamed } = await windowAndGenerateTexts(
      [pii({ action: 'redact' }), secrets({ action: 'redact' })],
      `Mail john@example.com${STRIPE} or task_live_UserDataSet now.\nDone.`,
      [[1], [2], [3], [5], [7], [11], [1, 7, 3], [30]],
    );
    expect(generated).toBe('Mail [EMAIL_ADDRESS][STRIPE_KEY] or task_live_UserDataSet now.\nDone.');
    for (const text of streamed) expect(text).toBe(generated);
  });
});
