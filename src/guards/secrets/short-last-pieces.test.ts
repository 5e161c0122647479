import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import {
  cutToken as cut,
  foundSecrets as found,
  secretsRedacted as redacted,
} from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Round 23. A piece after a split joined a key only with four characters
 * or more (`keyLike`): a key whose last piece was shorter left it visible
 * (`sk-proj-…nYd3H sK6f…uVo0 iWt` redacted to `[OPENAI_API_KEY] iWt`),
 * and a fixed-length one (`ghp_` and 36) was no match at all, the whole key
 * sent as it was. A piece of two or three characters now joins when it
 * reads as a key's end (a letter and a digit, or a capital after a small
 * letter), and while the rule has no match yet any short piece of token
 * characters that completes it does, when the match takes it in whole (closing signs
 * after it stay outside, as after longer pieces).
 */

const OPENAI = 'sk-proj-Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt';
const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
describe('a last piece shorter than four characters', () => {
  it('generateText: the model receives each key redacted whole, with the record', async () => {
    const openai = cut(OPENAI, 30, 45);
    const github = cut(GITHUB, 12, 37);
    const text = `use ${openai} and ${github} now`;
    const { sent, records } = await promptSentWithRecords(secrets({ action: 'redact' }), text);
    expect(sent).toBe('use [OPENAI_API_KEY] and [GITHUB_TOKEN] now');
    const githubStart = 4 + openai.length + 5;
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['OPENAI_API_KEY', 'GITHUB_TOKEN'],
          spans: [
            { type: 'OPENAI_API_KEY', start: 4, end: 4 + openai.length },
            { type: 'GITHUB_TOKEN', start: githubStart, end: githubStart + github.length },
          ],
        },
      },
    ]);
    expect(redacted(sent)).toBe(sent);
  });

  it('joins short last and middle pieces, after a whole token too', () => {
    for (const written of [
      cut(OPENAI, 45),
      cut(OPENAI, 30, 45),
      cut(OPENAI, 20, 30, 45),
      cut(GITHUB, 20, 37),
      cut(GITHUB, 12, 24, 37),
      cut(GITHUB, 12, 24, 27),
      cut(GITHUB, 12, 24, 27, 30),
    ]) {
      const type = written.startsWith('sk-') ? 'OPENAI_API_KEY' : 'GITHUB_TOKEN';
      expect(found(`key ${written} ok`), written).toEqual([[type, written]]);
      // At a sentence's end: the closing signs stay outside.
      expect(found(`(key ${written}).`), written).toEqual([[type, written]]);
    }
  });

  it('takes in no short word, number or sign after a key', () => {
    for (const after of ['ok', 'is ok', 'The v2', 'Wt', '42', 'a.', 'It']) {
      for (const written of [OPENAI, cut(OPENAI, 30)]) {
        expect(found(`key ${written} ${after}`), `${written} ${after}`).toEqual([
          ['OPENAI_API_KEY', written],
        ]);
      }
    }
    // A prefix and a short piece are no key without the rest.
    expect(found('ghp_q8Zr4Lm2 is the ok way')).toEqual([]);
    expect(found(`${cut(GITHUB.slice(0, 24), 12)} is ok`)).toEqual([]);
    // Short words carry no match on to the length a rule needs.
    expect(found('my key starts with sk-proj-abc123 and is in the env now')).toEqual([]);
    expect(found('sk-proj-Tq7vR2mX9 is a to by the way ok')).toEqual([]);
  });

  it('window streaming ends as generate does', async () => {
    const answer = `Key: ${cut(OPENAI, 30, 45)}, then ${cut(GITHUB, 12, 37)}.`;
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      chunkings,
    );
    expect(generated).toBe('Key: [OPENAI_API_KEY], then [GITHUB_TOKEN].');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
