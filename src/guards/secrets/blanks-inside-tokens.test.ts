import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

/**
 * Round 19: a provider token with a blank inside its rest, not right after
 * its prefix (`sk-proj-Tq7vR2mX9p Lw4Z…`), left the prefix and the part
 * before the blank visible (a token of more than 16 characters before the
 * blank was no prefix to the join), the part after it an entropy finding at
 * best: of 300 random tokens each, split once at a random place in the
 * rest, found whole before / now: `ghp_` 83 / 300, `sk-proj-` 60 / 134,
 * `glpat-` 84 / 277, `AKIA` 40 / 154, `AIza` 107 / 300. The token before the
 * blank may now be a prefix and part of the rest (up to 256 characters),
 * and a rest shorter than a printable run the scan reads (14) is joined
 * too when the token before the blank is one. Limits: two pieces both
 * under 14 characters (`AKIAZ7QH3M2K X9TN4LPW`) and three or more pieces
 * stay apart, and a token a rule matches whole before the blank takes in
 * nothing after it (`sk-proj-` takes 20 to 200 characters: when the part
 * before the blank is 20 or more, the rest stays apart, as before; since
 * round 22 a rest that reads as a key's is taken in whole).
 */

const OPENAI = 'sk-proj-Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt';
const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const GITLAB = 'glpat-Tq7vR2mX9pLw4ZcB8nYd';
const GOOGLE = 'AIzaTq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uV';

const found = (text: string) =>
  findSecrets(text).map(span => [span.type, text.slice(span.start, span.end)]);
const splitAt = (token: string, at: number) => `${token.slice(0, at)} ${token.slice(at)}`;

describe('a provider token with a blank inside its rest', () => {
  it('is found whole, the blank in the span', () => {
    expect(found(`key ${splitAt(OPENAI, 18)} ok`)).toEqual([
      ['OPENAI_API_KEY', splitAt(OPENAI, 18)],
    ]);
    expect(found(`key ${splitAt(GITHUB, 24)} ok`)).toEqual([['GITHUB_TOKEN', splitAt(GITHUB, 24)]]);
    expect(found(`key ${splitAt(GITLAB, 16)}`)).toEqual([['GITLAB_TOKEN', splitAt(GITLAB, 16)]]);
    expect(found(`key ${splitAt(GOOGLE, 19)}`)).toEqual([['GOOGLE_API_KEY', splitAt(GOOGLE, 19)]]);
    expect(found(`key ${GITHUB.slice(0, 24)}\t\t${GITHUB.slice(24)}`)).toEqual([
      ['GITHUB_TOKEN', `${GITHUB.slice(0, 24)}\t\t${GITHUB.slice(24)}`],
    ]);
  });

  it('takes in no word after a whole token', () => {
    expect(found(`${OPENAI} thanks a lot`)).toEqual([['OPENAI_API_KEY', OPENAI]]);
    expect(found(`${OPENAI} Thanks`)).toEqual([['OPENAI_API_KEY', OPENAI]]);
    expect(found(`${GITHUB} done`)).toEqual([['GITHUB_TOKEN', GITHUB]]);
    // Round 22: a rest that reads as a key's is taken in (whole-token-rest.test.ts).
    expect(found(`${OPENAI} Lw4ZcB8nYd`)).toEqual([['OPENAI_API_KEY', `${OPENAI} Lw4ZcB8nYd`]]);
  });

  it('generateText: the model receives the token redacted, with the record', async () => {
    const text = `use ${splitAt(OPENAI, 18)} now`;
    const { sent, records } = await promptSentWithRecords(secrets({ action: 'redact' }), text);
    expect(sent).toBe('use [OPENAI_API_KEY] now');
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: { types: ['OPENAI_API_KEY'], spans: [{ type: 'OPENAI_API_KEY', start: 4, end: 53 }] },
      },
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Keys: ${splitAt(GITHUB, 24)} and ${splitAt(GITLAB, 16)}.`;
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      chunkings,
    );
    expect(generated).toBe('Keys: [GITHUB_TOKEN] and [GITLAB_TOKEN].');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
