import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets } from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Round 28: a key with a Latin look-alike letter from another script in it
 * (Cyrillic `р` `О` `с`, Greek `Α`) passed: the ASCII patterns stopped at
 * the letter. `ghр_…` (Cyrillic `р` in the prefix) was shown as
 * `ghр[HIGH_ENTROPY_STRING]`, its prefix visible and its type wrong. The
 * text is now also read with those letters, beside a key's characters, as
 * the ASCII letters they are drawn like.
 */
const GITHUB_BODY = 'q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';

describe('keys with look-alike letters from other scripts', () => {
  it('generateText: the model receives each key redacted whole; the record has the spans', async () => {
    const prompt =
      `a ghp_${GITHUB_BODY.replace('p1', 'р1')} ` +
      `b gh\u0440_${GITHUB_BODY} ` +
      'c AKIAZ7VRSQ5TJN2\u0425MY3K ' +
      'd \u0391\u039a\u0399\u0391Z7VRSQ5TJN2XMY3K ' +
      'e dapi0123456789ab\u0441def0123456789abcdef end';
    const { sent, records } = await promptSentWithRecords(secrets({ action: 'redact' }), prompt);
    expect(sent).toBe(
      'a [GITHUB_TOKEN] b [GITHUB_TOKEN] c [AWS_ACCESS_KEY_ID] d [AWS_ACCESS_KEY_ID] ' +
        'e [DATABRICKS_TOKEN] end',
    );
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['GITHUB_TOKEN', 'AWS_ACCESS_KEY_ID', 'DATABRICKS_TOKEN'],
          spans: [
            { type: 'GITHUB_TOKEN', start: 2, end: 42 },
            { type: 'GITHUB_TOKEN', start: 45, end: 85 },
            { type: 'AWS_ACCESS_KEY_ID', start: 88, end: 108 },
            { type: 'AWS_ACCESS_KEY_ID', start: 111, end: 131 },
            { type: 'DATABRICKS_TOKEN', start: 134, end: 170 },
          ],
        },
      },
    ]);
  });

  it("generateText: a key after an assignment's key is typed by its provider, as when written in ASCII", async () => {
    // Round 29: the text itself read `token: ghp_…р…` as an assignment's value
    // (GENERIC_SECRET), and the look-alike reading's GITHUB_TOKEN on the same span was dropped.
    const key = `ghp_${GITHUB_BODY.replace('p1', 'р1')}`;
    const prompt = `Copy token: ${key} and api_key="${key}" done`;
    const { sent, records } = await promptSentWithRecords(secrets({ action: 'redact' }), prompt);
    expect(sent).toBe('Copy token: [GITHUB_TOKEN] and api_key="[GITHUB_TOKEN]" done');
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['GITHUB_TOKEN'],
          spans: [
            { type: 'GITHUB_TOKEN', start: 12, end: 52 },
            { type: 'GITHUB_TOKEN', start: 66, end: 106 },
          ],
        },
      },
    ]);
  });

  it('finds an unknown key and an assignment with one, and leaves Russian and Greek prose alone', () => {
    expect(foundSecrets(`x q8Zr4Lm2Xw9Tb6Y\u04401Kd7Hs3Nf5Vg0Jc7Qe2R y`)).toEqual([
      ['HIGH_ENTROPY_STRING', 'q8Zr4Lm2Xw9Tb6Y\u04401Kd7Hs3Nf5Vg0Jc7Qe2R'],
    ]);
    expect(foundSecrets('password=Tr0ub4d\u043er3x')).toEqual([
      ['GENERIC_SECRET', 'Tr0ub4d\u043er3x'],
    ]);
    expect(
      foundSecrets(
        'Привет, мир! В 2024г. вышел Windows 11; ключ API_KEY — это строка. Ο κωδικός ghp είναι.',
      ),
    ).toEqual([]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Copy ghp_${GITHUB_BODY.replace('Yp', 'Y\u0440')} done.`;
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      [[1], [2], [3], [5], [7], [13], [1, 4, 2]],
    );
    expect(generated).toBe('Copy [GITHUB_TOKEN] done.');
    for (const text of streamed) expect(text).toBe(generated);
  });
});
