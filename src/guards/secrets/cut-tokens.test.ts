import { describe, expect, it } from 'vitest';
import { expectInputRedacted, expectWindowAsGenerate } from '../../../test/helpers/redacted-input';
import {
  foundSecrets as found,
  oneSecretInputRecord,
} from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Round 30. A GitHub token is 30 random characters and a 6-character
 * checksum. One cut short (30 to 35 characters after `ghp_`) was not
 * reported at all, though all of its secret is there; and a short word of
 * prose that brought a split token to its length was redacted with it
 * (`Key ghp_…30 c7Q and more words` lost its `and`).
 */

const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const LEGACY_OPENAI = 'sk-Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWtAb3Cd9Ef';

describe('a GitHub token cut short of its checksum', () => {
  it('generateText: redacted at 30 to 35 characters after the prefix, with its span', async () => {
    for (const length of [34, 37, 39]) {
      const token = GITHUB.slice(0, length);
      await expectInputRedacted(
        () => secrets({ action: 'redact' }),
        `Key ${token} and more words`,
        'Key [GITHUB_TOKEN] and more words',
        oneSecretInputRecord('GITHUB_TOKEN', 4, length),
      );
    }
  });

  it('fewer than its 30 random characters is no token', () => {
    const token = GITHUB.slice(0, 33);
    expect(found(`Key ${token}. Done`), token).toEqual([]);
  });

  // Round 33: more than 36 was no finding either, and the whole key reached the model.
  it('more than 36 is the token, read to its end', () => {
    for (const token of [`${GITHUB}x`, `${GITHUB}${GITHUB.slice(4)}`, `${GITHUB}_backup`]) {
      expect(found(`Key ${token}. Done`), token).toEqual([['GITHUB_TOKEN', token]]);
    }
  });
});

describe('a short word after a split key', () => {
  it('generateText: the word that would complete the key is sent, the key redacted', async () => {
    const split = `${GITHUB.slice(0, 34)} ${GITHUB.slice(34, 37)}`;
    await expectInputRedacted(
      () => secrets({ action: 'redact' }),
      `Key ${split} and more words`,
      'Key [GITHUB_TOKEN] and more words',
      oneSecretInputRecord('GITHUB_TOKEN', 4, split.length),
    );
    // A key of one fixed length with no shorter form: redacted up to the word.
    const legacy = LEGACY_OPENAI.slice(0, 48);
    await expectInputRedacted(
      () => secrets({ action: 'redact' }),
      `Key ${legacy} and more`,
      'Key [OPENAI_API_KEY] and more',
      oneSecretInputRecord('OPENAI_API_KEY', 4, legacy.length),
    );
  });

  it('takes no short word of prose in', () => {
    for (const word of ['and', 'the', 'The', 'is', 'a', 'and.']) {
      expect(found(`Key ${GITHUB.slice(0, 34)} c7Q ${word} x`), word).toEqual([
        ['GITHUB_TOKEN', `${GITHUB.slice(0, 34)} c7Q`],
      ]);
    }
  });

  it('window streaming ends as generate does', async () => {
    await expectWindowAsGenerate(
      () => secrets({ action: 'redact' }),
      `Key ${GITHUB.slice(0, 34)} c7Q and more, then ${GITHUB.slice(0, 37)} ok.`,
      'Key [GITHUB_TOKEN] and more, then [GITHUB_TOKEN] ok.',
    );
  });
});
