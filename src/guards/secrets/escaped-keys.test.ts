import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets } from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Round 27: keys written with percent escapes (a query string, a URL inside
 * a URL) or HTML character references (a page, an attribute) were read as
 * written. `ghp%5Fq8Zr…` and `ghp&#95;q8Zr…` left the prefix visible beside
 * an entropy token, `xoxb%2D…` too, and `password&#61;…`,
 * `password%3D…` and `aws_secret_access_key=…%2F…` were no secret at all.
 * The text is now also read with its escapes decoded.
 */
const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';

describe('keys written with percent escapes or character references', () => {
  it('generateText: the model receives each key redacted whole, escapes included; the record has the spans', async () => {
    const prompt =
      `see https://x.io/cb?k=${GITHUB.replace('_', '%5F')} ` +
      `<a title="${GITHUB.replace('_', '&#95;')}"> ` +
      'next=%2Flogin%3Fpassword%3DTr0ub4dor3x%26u%3D1 ' +
      '<p>db_password&#61;Tr0ub4dor3x </p>';
    const { sent, records } = await promptSentWithRecords(secrets({ action: 'redact' }), prompt);
    expect(sent).toBe(
      'see https://x.io/cb?k=[GITHUB_TOKEN] <a title="[GITHUB_TOKEN]"> ' +
        'next=%2Flogin%3Fpassword%3D[GENERIC_SECRET]%26u%3D1 <p>db_password&#61;[GENERIC_SECRET] </p>',
    );
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['GITHUB_TOKEN', 'GENERIC_SECRET'],
          spans: [
            { type: 'GITHUB_TOKEN', start: 22, end: 64 },
            { type: 'GITHUB_TOKEN', start: 75, end: 119 },
            { type: 'GENERIC_SECRET', start: 149, end: 160 },
            { type: 'GENERIC_SECRET', start: 188, end: 199 },
          ],
        },
      },
    ]);
  });

  it('finds escaped separators inside keys, and leaves escaped prose alone', () => {
    expect(
      foundSecrets('t=xoxb%2D123456789012%2D1234567890123%2Dq8Zr4Lm2Xw9Tb6Yp1Kd7Hs3N'),
    ).toEqual([['SLACK_TOKEN', 'xoxb%2D123456789012%2D1234567890123%2Dq8Zr4Lm2Xw9Tb6Yp1Kd7Hs3N']]);
    // Typed as the same text in ASCII is (round 29; before, the assignment's GENERIC_SECRET).
    expect(
      foundSecrets('&aws_secret_access_key=wJalrXUtnFEMI%2FK7MDENG%2FbPxRfiCYzK8Q2mN4pL'),
    ).toEqual([['AWS_SECRET_ACCESS_KEY', 'wJalrXUtnFEMI%2FK7MDENG%2FbPxRfiCYzK8Q2mN4pL']]);
    expect(foundSecrets('&#x67;&#x68;&#x70;&#x5f;q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R')).toEqual([
      ['GITHUB_TOKEN', '&#x67;&#x68;&#x70;&#x5f;q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R'],
    ]);
    expect(foundSecrets('see https://x.io/a%20b?q=hello%2C%20world&amp;lang=en&#8217;s')).toEqual(
      [],
    );
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Your link: https://x.io/cb?k=${GITHUB.replace('_', '%5F')}&password%3DTr0ub4dor3x done.`;
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      [[1], [2], [3], [5], [7], [13], [1, 4, 2]],
    );
    expect(generated).toBe(
      'Your link: https://x.io/cb?k=[GITHUB_TOKEN]&password%3D[GENERIC_SECRET] done.',
    );
    for (const text of streamed) expect(text).toBe(generated);
  });
});
