import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets } from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/*
 * Round 43b, an attacker's read of round 43's glued keys (glued-keys.ts):
 * only rules of one fixed shape are read glued after a word (`fixedShape`),
 * so a Stripe live key (`sk_live_` then 10 to 247 characters) or a Slack
 * bot token (`xoxb-…`) written right after an e-mail address or a domain
 * is found by no rule: every provider pattern wants no token character
 * before it, the e-mail finder reads `example.comsk` as no domain, and the
 * entropy reading finds nothing in `comsk_live_…`. `secrets()` releases
 * the key it finds after a blank. Found at cbae3de1 (and at 8302f965): []
 * for each row. Fixed in glued-keys.ts (no one's lane this round): a rule
 * that reads a token to its end (`more`) is read glued whatever its shape,
 * to the token's end, as the main scan reads `see sk_live_…done`.
 *
 * And a Shopify token a letter follows is found by no rule, after a blank
 * or glued (its pattern ends at a boundary after 32 hex digits and has no
 * read-on): the class of attack-r43-glued-keys.test.ts's AWS id, a second
 * provider of it (provider-rules.ts, hB's lane). Fixed in round 44 for
 * every hex rule of one length (`readOnPastHex`, hex-keys-read-on.test.ts):
 * the token is read to its end.
 */

const STRIPE = 'sk_live_51Hq8Zr4Lm2Xw9Tb6Yp1Kd7Hs3N';
const SLACK = 'xoxb-123456789012-1234567890123-q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3N';
const SHOPIFY = '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';

describe('a variable-length provider key glued after a word', () => {
  it('after a blank, each key is found (the baseline)', () => {
    expect(foundSecrets(`see ${STRIPE} ok`)).toEqual([['STRIPE_KEY', STRIPE]]);
    expect(foundSecrets(`see ${SLACK} ok`)).toEqual([['SLACK_TOKEN', SLACK]]);
    expect(foundSecrets(`see ${STRIPE}done ok`)).toEqual([['STRIPE_KEY', `${STRIPE}done`]]);
  });

  it.each([
    ['a Stripe key after a domain', 'pay x.com', STRIPE, ' ok', 'STRIPE_KEY', STRIPE],
    [
      'a Stripe key after an e-mail address',
      'mail jane.doe@example.com',
      STRIPE,
      ' now',
      'STRIPE_KEY',
      STRIPE,
    ],
    ['a Stripe key glued on both sides', 'x.com', STRIPE, 'done ok', 'STRIPE_KEY', `${STRIPE}done`],
    ['a Slack token after a domain', 'see ops.example.org', SLACK, ' ok', 'SLACK_TOKEN', SLACK],
  ])('%s: the key is found, the word before kept', (_, before, key, after, type, value) => {
    expect(foundSecrets(`${before}${key}${after}`)).toEqual([[type, value]]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Pay jane.doe@example.com${STRIPE} or ops.example.org${SLACK}now.\nDone.`;
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      [[1], [2], [3], [5], [7], [11], [1, 7, 3], [30]],
    );
    expect(generated).toBe(
      'Pay jane.doe@example.com[STRIPE_KEY] or ops.example.org[SLACK_TOKEN].\nDone.',
    );
    for (const text of streamed) expect(text).toBe(generated);
  });
});

describe('a Shopify token a letter follows', () => {
  it('alone, and glued after a domain, the token is found (the baseline)', () => {
    expect(foundSecrets(`see ${SHOPIFY} ok`)).toEqual([['SHOPIFY_TOKEN', SHOPIFY]]);
    expect(foundSecrets(`x.com${SHOPIFY} ok`)).toEqual([['SHOPIFY_TOKEN', SHOPIFY]]);
  });

  it.each([
    ['after a blank', `see ${SHOPIFY}done ok`],
    ['glued on both sides', `x.com${SHOPIFY}done ok`],
  ])('%s: the token is found, read to its end', (_, text) => {
    expect(foundSecrets(text)).toEqual([['SHOPIFY_TOKEN', `${SHOPIFY}done`]]);
  });
});
