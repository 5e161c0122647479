import { describe, expect, it } from 'vitest';
import { promptSentWithRecords } from '../../../test/helpers';
import { secrets } from '../secrets/secrets';
import { pii } from './pii';

/**
 * Round 26. A long text is read in pieces, and each piece was searched
 * whole (in `pii` and again in `secrets`) for private-use characters, to
 * read it a second time through them (round 24). Now only the characters
 * outside printable ASCII that the normaliser found once for the whole
 * text are looked at. These texts put the private-use characters (one of
 * the BMP's, one astral pair) inside values in a later piece, after prose
 * with accents (so the text has such points and is read in pieces): each
 * value is still found whole.
 */
const prose = 'Le café était fermé, so we met at the station and talked. '.repeat(4_000);
const PII_TAIL =
  'card 4111\uE0001111\uE0001111\uE0001111, mail jane\uE000.doe@corp\uDB80\uDC00.io, call \uF095 +1 415 555 0199 now.';
const SECRETS_TAIL =
  'key AKIA\uE000IOSFODNN7EXAMPLE end, token ghp_q8Zr4Lm2\uF8FFXw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R done.';

describe('private-use characters inside values of a long text (read in pieces)', () => {
  it('generateText: pii redacts each value whole', async () => {
    expect(prose.length).toBeGreaterThan(200_000);
    const { sent, records } = await promptSentWithRecords(pii(), `${prose}\n${PII_TAIL}`);
    expect(sent).toBe(
      `${prose}\ncard [CREDIT_CARD], mail [EMAIL_ADDRESS], call \uF095 [PHONE_NUMBER] now.`,
    );
    const at = prose.length + 1;
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['CREDIT_CARD', 'EMAIL_ADDRESS', 'PHONE_NUMBER'],
          spans: [
            { type: 'CREDIT_CARD', start: at + 5, end: at + 24 },
            { type: 'EMAIL_ADDRESS', start: at + 31, end: at + 50 },
            { type: 'PHONE_NUMBER', start: at + 59, end: at + 74 },
          ],
        },
      },
    ]);
  });

  it('generateText: secrets redacts each key whole', async () => {
    const { sent, records } = await promptSentWithRecords(
      secrets({ action: 'redact' }),
      `${prose}\n${SECRETS_TAIL}`,
    );
    expect(sent).toBe(`${prose}\nkey [AWS_ACCESS_KEY_ID] end, token [GITHUB_TOKEN] done.`);
    const at = prose.length + 1;
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['AWS_ACCESS_KEY_ID', 'GITHUB_TOKEN'],
          spans: [
            { type: 'AWS_ACCESS_KEY_ID', start: at + 4, end: at + 25 },
            { type: 'GITHUB_TOKEN', start: at + 37, end: at + 78 },
          ],
        },
      },
    ]);
  });
});
