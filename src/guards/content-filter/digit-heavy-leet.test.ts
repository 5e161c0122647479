import { describe, expect, it } from 'vitest';
import {
  contentFilterGenerate,
  contentFilterWindow,
  SELF_HARM_BLOCKED,
} from '../../../test/helpers/content-filter-cases';

/**
 * Round 39 (hD, issue 15): a word of leetspeak with as many digits as
 * letters (`m4k3`, `p1p3`, `4g3n7`) stayed as written, so an entry spelled
 * with one passed the filter: the shared fold read `m4k3 4 b0mb` as
 * `m4k3 a bomb` and `n3rv3 4g3n7` as `nerve 4g3n7`. Beside a word of
 * leetspeak (or another such word) they now read as letters.
 */
const answerOf = (phrase: string) => `Sure. Step one: ${phrase}, then wait.`;

describe('contentFilter: entries in leetspeak with digit-heavy words', () => {
  it.each([
    ['m4k3 4 b0mb', 2],
    ['n3rv3 4g3n7', 3],
    ['m4k3 4 p1p3 b0mb', 0],
  ] as const)(
    'blocks %j (weapons entry %i), generated and one character a delta',
    async (phrase, entry) => {
      const answer = answerOf(phrase);
      const info = { category: 'weapons', entry };
      expect(await contentFilterGenerate(answer)).toEqual({
        text: 'This content is not allowed.',
        records: [{ ...SELF_HARM_BLOCKED, reason: `matched weapons entry ${entry}`, info }],
      });
      const { released, last } = await contentFilterWindow(answer);
      expect(last).toBe('BLOCKED');
      expect(answer.startsWith(released)).toBe(true);
      expect(released.length).toBeLessThan(answer.indexOf(phrase) + phrase.length);
    },
  );

  it('passes numbers and codes beside ordinary words, generated and streamed', async () => {
    const answer = answerOf('order 10k units of r407c at 1080p by the 10th, ref 4a3f, t00 late');
    expect(await contentFilterGenerate(answer)).toEqual({
      text: answer,
      records: [{ guardrail: 'content-filter', kind: 'output', status: 'passed' }],
    });
    // Window mode holds what may start an entry and releases it whole at the end.
    const { released, last } = await contentFilterWindow(answer);
    expect(`${released}${last}`).toBe(answer);
  });
});
