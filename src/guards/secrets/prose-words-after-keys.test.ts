import { describe, expect, it } from 'vitest';
import { promptSentWithRecords } from '../../../test/helpers';
import { expectWindowAsGenerate } from '../../../test/helpers/redacted-input';
import { cutToken as cut, foundSecrets as found } from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Round 26. A word of four characters or more holding a digit after a key
 * of a rule with no fixed length (`sk-proj-` and 20 to 200) was taken into
 * the key: `sk-proj-… HTTP2`, `… sha256`, `… x86_64`, `… utf8mb4` were
 * redacted whole, the word with the key (round 25 had left only a fixed list
 * of short ones: `v2`, `S3`, `2FA`, `k8s`). A word that more of the key
 * follows is still read as the key's piece.
 */

const OPENAI = 'sk-proj-Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt';
const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const WORDS = [
  'HTTP2',
  'sha256',
  'x86_64',
  'utf8mb4',
  'OAuth2',
  'IPv6',
  'ES2020',
  'version2',
  'gpt4o',
];

describe('a word of prose with a digit after a key', () => {
  it('generateText: the key is redacted and the words after it are sent', async () => {
    const split = cut(OPENAI, 30);
    const text = `use ${OPENAI} HTTP2 and ${split} sha256, x86_64 or utf8mb4.`;
    const { sent, records } = await promptSentWithRecords(secrets({ action: 'redact' }), text);
    expect(sent).toBe('use [OPENAI_API_KEY] HTTP2 and [OPENAI_API_KEY] sha256, x86_64 or utf8mb4.');
    const splitStart = text.indexOf('sk-', 10);
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['OPENAI_API_KEY'],
          spans: [
            { type: 'OPENAI_API_KEY', start: 4, end: 4 + OPENAI.length },
            { type: 'OPENAI_API_KEY', start: splitStart, end: splitStart + split.length },
          ],
        },
      },
    ]);
  });

  it('neither hides a key nor is taken in by it', () => {
    for (const word of WORDS) {
      for (const written of [OPENAI, cut(OPENAI, 30), cut(OPENAI, 30, 45)]) {
        for (const after of [word, `${word}.`, `${word} ${word}`]) {
          expect(found(`key ${written} ${after} ok`), `${written} ${after}`).toEqual([
            ['OPENAI_API_KEY', written],
          ]);
        }
      }
      for (const written of [GITHUB, cut(GITHUB, 12), cut(GITHUB, 20, 37)]) {
        expect(found(`key ${written} ${word} ok`), `${written} ${word}`).toEqual([
          ['GITHUB_TOKEN', written],
        ]);
      }
    }
  });

  it('a piece that reads as a word with more of the key after it is the key', () => {
    // `Tq7v` and `sha256` read as words; the pieces after them are the key's.
    for (const written of [
      `${OPENAI.slice(0, 30)} sha256 ${OPENAI.slice(30)}`,
      `${OPENAI.slice(0, 30)} HTTP2 x86_64 ${OPENAI.slice(30)}`,
      `sk-proj-Lw4ZcB8nYd3HsK6fJg1QaE5 Tq7v uVo0iWt`,
    ]) {
      expect(found(`key ${written} now`), written).toEqual([['OPENAI_API_KEY', written]]);
    }
  });

  it('window streaming ends as generate does', async () => {
    await expectWindowAsGenerate(
      () => secrets({ action: 'redact' }),
      `Key: ${cut(OPENAI, 30)} HTTP2, then ${OPENAI} sha256 ok.`,
      'Key: [OPENAI_API_KEY] HTTP2, then [OPENAI_API_KEY] sha256 ok.',
    );
  });
});
