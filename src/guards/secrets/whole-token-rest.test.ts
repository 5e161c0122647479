import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { secretsRedacted as redacted } from '../../../test/helpers/secrets-redacted';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

/**
 * Round 22. A `sk-proj-` key cut after 20 or more of its characters reads
 * whole before the blank, and a rule that matched the part before the
 * blank took in nothing after it: `sk-proj-Tq7v…nYd 3HsK6fJg1QaE5uVo0iWt`
 * was redacted to `[OPENAI_API_KEY] 3HsK6fJg1QaE5uVo0iWt`, the rest (under
 * the entropy detector's 24 characters) sent as it was. Such a rest is now
 * taken in when it reads as a key's (a digit, or a capital inside small
 * letters, and a letter) and the match takes it in whole (but closing
 * signs). And a token joined across a blank right after an assignment's
 * key (`token=sk-proj-Tq7vR2m X9p…).`) was redacted to
 * `token=[OPENAI_API_KEY]).`, where a second redaction read `)` as the
 * rest of the value and redacted it: the value is now read on past the
 * token as it reads once the token is redacted.
 */

const OPENAI = 'sk-proj-Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt';
const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const splitAt = (token: string, at: number) => `${token.slice(0, at)} ${token.slice(at)}`;

const found = (text: string) =>
  findSecrets(text).map(span => [span.type, text.slice(span.start, span.end)]);

describe('the rest of a key after a blank, when the part before it is a whole token', () => {
  it('generateText: the model receives the key redacted whole, with the record', async () => {
    const written = splitAt(OPENAI, 28);
    const { sent, records } = await promptSentWithRecords(
      secrets({ action: 'redact' }),
      `use ${written} now`,
    );
    expect(sent).toBe('use [OPENAI_API_KEY] now');
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['OPENAI_API_KEY'],
          spans: [{ type: 'OPENAI_API_KEY', start: 4, end: 4 + written.length }],
        },
      },
    ]);
    expect(redacted(sent)).toBe(sent);
  });

  it('takes in the rest at each cut, and a third piece, but no word, date or part of a run', () => {
    for (const at of [28, 34, 40, 44]) {
      expect(found(`key ${splitAt(OPENAI, at)} ok`), String(at)).toEqual([
        ['OPENAI_API_KEY', splitAt(OPENAI, at)],
      ]);
    }
    const three = `${OPENAI.slice(0, 30)} ${OPENAI.slice(30, 40)} ${OPENAI.slice(40)}`;
    expect(found(`key ${three}.`)).toEqual([['OPENAI_API_KEY', three]]);
    for (const after of ['thanks', 'Thanks a lot', '2024-05-01', 'README.md', 'Lw4Zc.B8nYd']) {
      expect(found(`${OPENAI} ${after}`), after).toEqual([['OPENAI_API_KEY', OPENAI]]);
    }
    // A short rest that does not read as a key's end is no piece (`Wt`: short-last-pieces.test.ts).
    expect(found(`key ${splitAt(OPENAI, 46)} ok`)).toEqual([
      ['OPENAI_API_KEY', OPENAI.slice(0, 46)],
    ]);
    // The run goes on past what the rule takes: not joined, as before.
    expect(redacted(`password-555:${OPENAI} x0x5Zq9E7:[AWS_ACCESS_KEY_ID][x:-a`)).toBe(
      'password-555:[OPENAI_API_KEY] x0x5Zq9E7:[AWS_ACCESS_KEY_ID][x:-a',
    );
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Key: ${splitAt(OPENAI, 30)}, then ${splitAt(OPENAI, 44)}.`;
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      chunkings,
    );
    expect(generated).toBe('Key: [OPENAI_API_KEY], then [OPENAI_API_KEY].');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});

describe('a token joined across a blank right after an assignment', () => {
  it('generateText: redacting the redacted text changes nothing', async () => {
    const cases: Array<[string, string]> = [
      [`token=${splitAt(OPENAI, 15)}). ok`, 'token=[GENERIC_SECRET] ok'],
      [`password-555:${splitAt(GITHUB, 18)}]. ok`, 'password-555:[GENERIC_SECRET] ok'],
      [`f(token=${splitAt(GITHUB, 18)}). ok`, 'f(token=[GITHUB_TOKEN]). ok'],
      [`?access_token=${splitAt(OPENAI, 15)}&page=2`, '?access_token=[OPENAI_API_KEY]&page=2'],
      [`token=${splitAt(OPENAI, 15)} ok`, 'token=[OPENAI_API_KEY] ok'],
    ];
    for (const [text, expected] of cases) {
      const { sent } = await promptSentWithRecords(secrets({ action: 'redact' }), text);
      expect(sent, text).toBe(expected);
      const again = await promptSentWithRecords(secrets({ action: 'redact' }), sent);
      expect(again.sent, text).toBe(expected);
      expect(again.records).toEqual([
        { guardrail: 'secrets', kind: 'input', status: 'passed', info: undefined },
      ]);
    }
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Use token=${splitAt(OPENAI, 15)}). Or f(token=${splitAt(GITHUB, 18)}).`;
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      chunkings,
    );
    expect(generated).toBe('Use token=[GENERIC_SECRET] Or f(token=[GITHUB_TOKEN]).');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
