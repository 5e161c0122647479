import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { cutToken as cut, foundSecrets as found } from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Round 25. A short word after a key that reads as a key's end to the
 * short-last-pieces rule (a letter and a digit) is mostly a version or a
 * common token (`v2`, `S3`, `x2`, `2FA`): `sk-proj-… S3` was redacted with
 * the `S3`, and a fixed-length key split before it (`ghp_… … v2`) was no
 * match at all, since the word took it past its 36 and the match was lost.
 */

const OPENAI = 'sk-proj-Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt';
const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
describe('a version or a common token after a key', () => {
  it('generateText: the key is redacted and the word after it is sent', async () => {
    const github = cut(GITHUB, 12);
    const text = `use ${OPENAI} S3 and ${github} v2 now`;
    const { sent, records } = await promptSentWithRecords(secrets({ action: 'redact' }), text);
    expect(sent).toBe('use [OPENAI_API_KEY] S3 and [GITHUB_TOKEN] v2 now');
    const githubStart = text.indexOf('ghp_');
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['OPENAI_API_KEY', 'GITHUB_TOKEN'],
          spans: [
            { type: 'OPENAI_API_KEY', start: 4, end: 4 + OPENAI.length },
            { type: 'GITHUB_TOKEN', start: githubStart, end: githubStart + github.length },
          ],
        },
      },
    ]);
  });

  it('neither hides a key nor is taken in by it', () => {
    for (const after of ['v2', 'V10', 'S3', 'x2', '2FA', 'k8s', 'EC2', '3rd', 'Q3', 'v2.', 'S3,']) {
      for (const written of [OPENAI, cut(OPENAI, 30), cut(OPENAI, 30, 45)]) {
        expect(found(`key ${written} ${after}`), `${written} ${after}`).toEqual([
          ['OPENAI_API_KEY', written],
        ]);
      }
      for (const written of [GITHUB, cut(GITHUB, 12), cut(GITHUB, 20, 37)]) {
        expect(found(`key ${written} ${after}`), `${written} ${after}`).toEqual([
          ['GITHUB_TOKEN', written],
        ]);
      }
    }
    // A short piece that reads as a key's end still joins (round 23).
    expect(found(`key ${cut(OPENAI, 45)} ok`)).toEqual([['OPENAI_API_KEY', cut(OPENAI, 45)]]);
    expect(found(`key ${cut(GITHUB, 20, 37)} ok`)).toEqual([['GITHUB_TOKEN', cut(GITHUB, 20, 37)]]);
  });

  it('window streaming ends as generate does', async () => {
    const answer = `Key: ${cut(OPENAI, 30)} v2, then ${cut(GITHUB, 20, 37)} S3.`;
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      chunkings,
    );
    expect(generated).toBe('Key: [OPENAI_API_KEY] v2, then [GITHUB_TOKEN] S3.');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
