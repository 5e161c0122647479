import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { pii } from '../pii/pii';
import { secrets } from '../secrets/secrets';

/**
 * Round 24. The normaliser keeps private-use characters (icon fonts draw
 * them), so one inside a value split it and pii and secrets missed it:
 * `4111\uE0001111\uE0001111\uE0001111` was no card, `jane\uE000.doe@corp.io`
 * no address, `AKIA\uE000IOSFODNN7EXAMPLE` no key, and a `ghp_` token with
 * U+F8FF inside a high-entropy string whose prefix stayed visible. They are
 * now read through in a second reading: the span covers the characters
 * inside a value; an icon beside a value stays.
 */
const PII_TEXT =
  'card 4111\uE0001111\uE0001111\uE0001111, mail jane\uE000.doe@corp\uDB80\uDC00.io, phone +1 415\uE000555\uE0000132, call \uF095 +1 415 555 0199 now.';
const PII_REDACTED =
  'card [CREDIT_CARD], mail [EMAIL_ADDRESS], phone [PHONE_NUMBER], call \uF095 [PHONE_NUMBER] now.';
const GITHUB = 'ghp_q8Zr4Lm2\uF8FFXw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const SECRETS_TEXT = `key AKIA\uE000IOSFODNN7EXAMPLE end, token ${GITHUB} done \uF0E0.`;
const SECRETS_REDACTED = 'key [AWS_ACCESS_KEY_ID] end, token [GITHUB_TOKEN] done \uF0E0.';

describe('private-use characters inside a value', () => {
  it('generateText: pii redacts the values whole, the icon beside one kept', async () => {
    const { sent, records } = await promptSentWithRecords(pii(), PII_TEXT);
    expect(sent).toBe(PII_REDACTED);
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['CREDIT_CARD', 'EMAIL_ADDRESS', 'PHONE_NUMBER'],
          spans: [
            { type: 'CREDIT_CARD', start: 5, end: 24 },
            { type: 'EMAIL_ADDRESS', start: 31, end: 50 },
            { type: 'PHONE_NUMBER', start: 58, end: 73 },
            { type: 'PHONE_NUMBER', start: 82, end: 97 },
          ],
        },
      },
    ]);
    expect((await promptSentWithRecords(pii(), sent)).sent).toBe(sent);
  });

  it('generateText: secrets redacts the keys whole', async () => {
    const guardrail = secrets({ action: 'redact' });
    const { sent, records } = await promptSentWithRecords(guardrail, SECRETS_TEXT);
    expect(sent).toBe(SECRETS_REDACTED);
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['AWS_ACCESS_KEY_ID', 'GITHUB_TOKEN'],
          spans: [
            { type: 'AWS_ACCESS_KEY_ID', start: 4, end: 25 },
            { type: 'GITHUB_TOKEN', start: 37, end: 78 },
          ],
        },
      },
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    for (const [guardrail, text, redacted] of [
      [pii(), PII_TEXT, PII_REDACTED],
      [secrets({ action: 'redact' }), SECRETS_TEXT, SECRETS_REDACTED],
    ] as const) {
      const { generated, streamed } = await windowAndGenerateTexts(guardrail, text, chunkings);
      expect(generated).toBe(redacted);
      expect(streamed).toEqual(chunkings.map(() => generated));
    }
  });
});
