import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets } from '../../../test/helpers/secrets-redacted';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

/*
 * Round 44: every prefixed provider rule of one length whose value ends
 * in hex digits at a token boundary had the Shopify hole of
 * attack-r43b-glued-variable-keys.test.ts: a letter after the key failed
 * the boundary, no rule matched and the entropy reading found nothing.
 * Found at ec645340: [] for each row's `done` and `_v2` text. Fixed by one
 * rule (`readOnPastHex` in provider-rules.ts): such a rule reads on to the
 * token's end, as the AWS id does since round 43.
 */

// type, key: one row per rule the read-on applies to.
const KEYS: Array<[string, string]> = [
  ['TWILIO_API_KEY', 'SK8b7dd5097d4afa76a6db80743e61b919'],
  ['TWILIO_ACCOUNT_SID', 'ACc2890fde1729128d0b0de8e5337c39b2'],
  ['MAILGUN_API_KEY', 'key-fc40dfcb8340dba4a241e795ebada2db'],
  ['SHOPIFY_TOKEN', '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'],
  ['DIGITALOCEAN_TOKEN', 'dop_v1_ca5628de1846cfe7df09dee107ffbda1d63bfa37c34487c334d2163157131a29'],
  [
    'INTRA42_CLIENT_SECRET',
    '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',
  ],
  ['SENTRY_TOKEN', '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'],
  ['SOURCEGRAPH_TOKEN', 'sgp_385f64f72c7602ed66a4f8a64dec4b1a74be6c3d'],
];

describe('a hex provider key a token character follows', () => {
  it.each(KEYS)('%s after a blank: found alone (the baseline)', (type, key) => {
    expect(foundSecrets(`see ${key} ok`)).toEqual([[type, key]]);
    expect(foundSecrets(`see ${key}. ok`)).toEqual([[type, key]]);
  });

  it.each(KEYS)('%s: a letter, `_` or `-` after it is read to the token end', (type, key) => {
    expect(foundSecrets(`see ${key}done ok`)).toEqual([[type, `${key}done`]]);
    expect(foundSecrets(`see ${key}_v2 ok`)).toEqual([[type, `${key}_v2`]]);
    expect(foundSecrets(`see ${key}-x9 ok`)).toEqual([[type, `${key}-x9`]]);
  });

  it.each(KEYS)(
    '%s: shorter by one digit, none of its type (the length still holds)',
    (type, key) => {
      expect(foundSecrets(`see ${key.slice(0, -1)} ok`).map(([found]) => found)).not.toContain(
        type,
      );
    },
  );

  // A prefix marked by `_` or a digit is read glued after a domain too; `SK`, `AC` and
  // `key-` before hex digits glued to a word are a digest's shape (glued-keys.ts).
  const unmarked = ['TWILIO_API_KEY', 'TWILIO_ACCOUNT_SID', 'MAILGUN_API_KEY'];
  it.each(KEYS.filter(([type]) => !unmarked.includes(type)))(
    '%s glued after a domain and before a word: the key and the word',
    (type, key) => {
      expect(foundSecrets(`x.com${key}done ok`)).toEqual([[type, `${key}done`]]);
    },
  );

  it('a digest glued after a word is still no Mailgun key read on', () => {
    expect(foundSecrets('cachekey-fc40dfcb8340dba4a241e795ebada2dbdone ok')).toEqual([]);
    expect(foundSecrets('x.comkey-fc40dfcb8340dba4a241e795ebada2dbdone ok')).toEqual([]);
  });

  it('the span covers the read-on text (offsets)', () => {
    const text = 'token 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XYZ end';
    expect(findSecrets(text).map(({ type, start, end }) => [type, start, end])).toEqual([
      ['SHOPIFY_TOKEN', 6, 47],
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Use ${KEYS[3]![1]}done and x.com${KEYS[4]![1]}_prod now.\nDone.`;
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      [[1], [2], [3], [5], [7], [11], [1, 7, 3], [30]],
    );
    expect(generated).toBe('Use [SHOPIFY_TOKEN] and x.com[DIGITALOCEAN_TOKEN] now.\nDone.');
    for (const text of streamed) expect(text).toBe(generated);
  });
});
