import { describe, it } from 'vitest';
import { expectInputRedacted, expectWindowAsGenerate } from '../../../test/helpers/redacted-input';
import { pii } from './pii';

/**
 * Round 25. An invisible character between two digits glued a number to
 * the value after (or before) it: `12\u200B4111 1111 1111 1111` read as
 * one run of 18 digits, no card, though a model reads `12`, a break and a
 * card. Such a text is also read with the character as a line break (a
 * space would not do: the card finder reads a run from `12`). And an
 * IPv6 address after an interface name with two or three digits
 * (`eth10:fe80::1`) was taken for letter soup.
 */
const PROMPT =
  'ref 12\u200B4111 1111 1111 1111 x; tail 4111 1111 1111 1111\u200B5 y; acct 99\u2060DE89 3704 0044 0532 0130 00 z; ' +
  'tel 7\u200D+1 415 555 0132 and 4111\u200B1111\u200B1111\u200B1111; eth10:fe80::1 up, ens192:fe80::2%ens192 up.';
const REDACTED =
  'ref 12\u200B[CREDIT_CARD] x; tail [CREDIT_CARD]\u200B5 y; acct 99\u2060[IBAN_CODE] z; ' +
  'tel 7\u200D[PHONE_NUMBER] and [CREDIT_CARD]; eth10:[IP_ADDRESS] up, ens192:[IP_ADDRESS] up.';

describe('an invisible character between digits, an IPv6 address after an interface name', () => {
  it('generateText: the model receives the values redacted, the numbers beside them kept', async () => {
    await expectInputRedacted(pii, PROMPT, REDACTED, [
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['CREDIT_CARD', 'IBAN_CODE', 'PHONE_NUMBER', 'IP_ADDRESS'],
          spans: [
            { type: 'CREDIT_CARD', start: 7, end: 26 },
            { type: 'CREDIT_CARD', start: 35, end: 54 },
            { type: 'IBAN_CODE', start: 68, end: 95 },
            { type: 'PHONE_NUMBER', start: 105, end: 120 },
            { type: 'CREDIT_CARD', start: 125, end: 144 },
            { type: 'IP_ADDRESS', start: 152, end: 159 },
            { type: 'IP_ADDRESS', start: 171, end: 185 },
          ],
        },
      },
    ]);
  });

  it('streamText in window mode ends as generate does, at every cut', async () => {
    await expectWindowAsGenerate(pii, PROMPT, REDACTED);
  });
});
