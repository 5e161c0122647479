import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import {
  cutToken as cut,
  foundSecrets as found,
  oneSecretInputRecord,
} from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Round 21: a prefixed provider token in three or more pieces
 * (`ghp_q8Zr4Lm2Xw9Tb6 Yp1Kd7Hs 3Nf5Vg0Jc7Qe2R`) was joined two pieces at
 * most: the prefix and the next piece stayed visible, or the whole token.
 * Pieces after the first two are now joined while the rule's match takes
 * in all of them (or has none yet and they are all a token's characters),
 * each read as a key's (a digit, or a capital inside small letters) and
 * taken whole; `… thanks` after a key is no piece. Still apart: pieces all
 * under the scan's 14-character runs (`ghp_q8Zr4L m2Xw9Tb6Yp 1Kd7Hs3Nf5 …`:
 * no site to start from).
 */

const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const OPENAI = 'sk-proj-Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt';
const GOOGLE = 'AIzaTq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uV';

describe('a provider token in three or more pieces', () => {
  it('is found whole, the blanks in the span', () => {
    for (const written of [
      cut(GITHUB, 18, 26),
      cut(GITHUB, 8, 24, 30),
      cut(OPENAI, 12, 30),
      cut(OPENAI, 10, 26, 34, 40),
      cut(GOOGLE, 16, 24),
    ]) {
      const type = written.startsWith('ghp_')
        ? 'GITHUB_TOKEN'
        : written.startsWith('sk-')
          ? 'OPENAI_API_KEY'
          : 'GOOGLE_API_KEY';
      expect(found(`key ${written} ok`), written).toEqual([[type, written]]);
    }
  });

  it('takes in no word and no part of a run after the pieces', () => {
    expect(found(`key ${cut(OPENAI, 12, 30)} thanks a lot`)).toEqual([
      ['OPENAI_API_KEY', cut(OPENAI, 12, 30)],
    ]);
    // The third run goes on past the token's 36: it is not taken in.
    expect(found(`key ${cut(GITHUB, 18, 26)}XYZ`)).not.toContainEqual([
      'GITHUB_TOKEN',
      `${cut(GITHUB, 18, 26)}XYZ`,
    ]);
  });

  it('generateText: the model receives the token redacted, with the record', async () => {
    const written = cut(GITHUB, 18, 26);
    const { sent, records } = await promptSentWithRecords(
      secrets({ action: 'redact' }),
      `use ${written} now`,
    );
    expect(sent).toBe('use [GITHUB_TOKEN] now');
    expect(records).toEqual(oneSecretInputRecord('GITHUB_TOKEN', 4, written.length));
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Keys: ${cut(GITHUB, 18, 26)} and ${cut(OPENAI, 10, 26, 34, 40)}.`;
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      chunkings,
    );
    expect(generated).toBe('Keys: [GITHUB_TOKEN] and [OPENAI_API_KEY].');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
