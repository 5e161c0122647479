import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { pii } from '../pii/pii';
import { secrets } from './secrets';

/**
 * Round 24. The normaliser reads through NUL and the other controls that
 * are not tab or line breaks, so one between a word and a value glued them
 * into one word: `key\0AKIAIOSFODNN7EXAMPLE\0end` held no key, and a
 * GitHub or OpenAI token between two words and an ESC or NUL was one
 * `HIGH_ENTROPY_STRING` that hid the words too (or, under
 * `entropy: false`, nothing). `secrets` now reads such a text a second time
 * with each control beside a letter as a blank, as `pii` does.
 */
const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const OPENAI = 'sk-proj-Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt';
const KEYS = `key\0AKIAIOSFODNN7EXAMPLE\0end, token\x1b${GITHUB}\x1bdone and x\x01${OPENAI}\x02y.`;
const KEYS_REDACTED =
  'key\0[AWS_ACCESS_KEY_ID]\0end, token\x1b[GITHUB_TOKEN]\x1bdone and x\x01[OPENAI_API_KEY]\x02y.';

describe('NUL and other controls between a word and a value', () => {
  it('generateText: keys between words and controls are redacted, the words and controls kept', async () => {
    const guardrail = secrets({ action: 'redact' });
    const { sent, records } = await promptSentWithRecords(guardrail, KEYS);
    expect(sent).toBe(KEYS_REDACTED);
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['AWS_ACCESS_KEY_ID', 'GITHUB_TOKEN', 'OPENAI_API_KEY'],
          spans: [
            { type: 'AWS_ACCESS_KEY_ID', start: 4, end: 24 },
            { type: 'GITHUB_TOKEN', start: 36, end: 76 },
            { type: 'OPENAI_API_KEY', start: 88, end: 136 },
          ],
        },
      },
    ]);
    expect((await promptSentWithRecords(guardrail, sent)).sent).toBe(sent);
    // Without the entropy rule the tokens were not found at all.
    const bare = secrets({ action: 'redact', entropy: false });
    expect((await promptSentWithRecords(bare, KEYS)).sent).toBe(KEYS_REDACTED);
  });

  it('generateText: an e-mail, a card and a phone number between words and NULs', async () => {
    const text =
      'Accounting\0jane.doe@corp.io\0customer card\x014111 1111 1111 1111\x02ok Call\0+1 415 555 0132\0now';
    const { sent } = await promptSentWithRecords(pii(), text);
    expect(sent).toBe(
      'Accounting\0[EMAIL_ADDRESS]\0customer card\x01[CREDIT_CARD]\x02ok Call\0[PHONE_NUMBER]\0now',
    );
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      KEYS,
      chunkings,
    );
    expect(generated).toBe(KEYS_REDACTED);
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
