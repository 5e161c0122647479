import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import {
  cutToken as cut,
  foundSecrets as found,
  oneSecretInputRecord,
} from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Round 22: a provider key whose first two pieces are both shorter than
 * the provider scan's 14-character printable runs (`ghp_q8Zr4L
 * m2Xw9Tb6Yp 1Kd7Hs3Nf5Vg0Jc7Qe2R`, `sk-proj- Tq7vR2mX9p Lw4ZcB8nYd …`)
 * had no site to be joined from: every piece passed. A prefixed token that
 * short, before a blank and a short piece that reads as a key's, is now a
 * site. Of 300 random tokens cut so, found whole before / now (3 pieces):
 * `ghp_` 0 / 197, `sk-proj-` 0 / 205, `glpat-` 0 / 132, `AIza` 0 / 186,
 * `xoxb-` 0 / 220.
 */

const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const OPENAI = 'sk-proj-Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt';
describe('a key whose first two pieces are both short', () => {
  it('generateText: the model receives the key redacted whole, with the record', async () => {
    const written = cut(GITHUB, 10, 20);
    const { sent, records } = await promptSentWithRecords(
      secrets({ action: 'redact' }),
      `use ${written} now`,
    );
    expect(sent).toBe('use [GITHUB_TOKEN] now');
    expect(records).toEqual(oneSecretInputRecord('GITHUB_TOKEN', 4, written.length));
  });

  it('is found in three or four pieces, and words after a prefix stay words', () => {
    for (const written of [
      cut(GITHUB, 10, 20, 30),
      cut(OPENAI, 8, 18, 28),
      cut(GITHUB, 4, 16, 28),
    ]) {
      const type = written.startsWith('ghp_') ? 'GITHUB_TOKEN' : 'OPENAI_API_KEY';
      expect(found(`key ${written} ok`), written).toEqual([[type, written]]);
    }
    expect(found('sk-learn is great, and ghp_ is a prefix; sk-proj- Tq7v and more')).toEqual([]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Keys: ${cut(GITHUB, 10, 20)} and ${cut(OPENAI, 8, 18, 28)}.`;
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
