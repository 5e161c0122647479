import { describe, expect, it } from 'vitest';
import { cut } from '../../../test/helpers';
import {
  contentFilterGenerate,
  contentFilterWindowMiddleware,
  SELF_HARM_BLOCKED,
} from '../../../test/helpers/content-filter-cases';
import { generatedText, randomSizes, streamedTextDeltas } from '../../../test/helpers/window';

/**
 * Round 39 (hD, issue 15): a word of leetspeak with as many digits as
 * letters (`m4k3`, `p1p3`, `4g3n7`) stayed as written, so an entry spelled
 * with one passed the filter: the shared fold read `m4k3 4 b0mb` as
 * `m4k3 a bomb` and `n3rv3 4g3n7` as `nerve 4g3n7`. Beside a word of
 * leetspeak (or another such word) they now read as letters.
 */

const PROSE = 'Here is my answer, with some plain words to stream first. Then: ';
/** The phrase, the entry it reads as, and the record's info. */
const CASES: ReadonlyArray<readonly [string, string, { category: string; entry: number }]> = [
  ['m4k3 4 b0mb', 'make a bomb', { category: 'weapons', entry: 2 }],
  ['n3rv3 4g3n7', 'nerve agent', { category: 'weapons', entry: 3 }],
  ['m4k3 4 p1p3 b0mb', 'pipe bomb', { category: 'weapons', entry: 0 }],
];

const middleware = contentFilterWindowMiddleware();
const answerOf = (phrase: string) => `${PROSE}${phrase} today, as asked.`;

describe('contentFilter: entries in leetspeak with digit-heavy words', () => {
  for (const [phrase, entry, info] of CASES) {
    it(`generate blocks ${JSON.stringify(phrase)} (${entry}) with the exact record`, async () => {
      const { text, records } = await contentFilterGenerate(answerOf(phrase));
      expect(text).toBe('This content is not allowed.');
      const reason = `matched ${info.category} entry ${info.entry}`;
      expect(records).toEqual([{ ...SELF_HARM_BLOCKED, reason, info }]);
    });

    it(`window mode blocks ${JSON.stringify(phrase)} as generate does, in any chunking`, async () => {
      const answer = answerOf(phrase);
      expect(await generatedText(middleware, answer)).toBe('BLOCKED');
      for (const sizes of [[1], [3], [7], [64], [answer.length], ...[1, 2, 3].map(randomSizes)]) {
        const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
        expect(deltas.at(-1), `${sizes}`).toBe('BLOCKED');
        const released = deltas.slice(0, -1).join('');
        expect(answer.startsWith(released), `${sizes}`).toBe(true);
        expect(released.length, `${sizes}`).toBeLessThan(answer.indexOf(phrase) + phrase.length);
      }
    });
  }

  it('passes, generated and streamed whole, numbers and codes beside ordinary words', async () => {
    const answer = `${PROSE}order 10k units of r407c at 1080p by the 10th, ref 4a3f, then t00 late.`;
    expect(await generatedText(middleware, answer)).toBe(answer);
    for (const sizes of [[1], [7], [answer.length], randomSizes(4)]) {
      const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
      expect(deltas.join(''), `${sizes}`).toBe(answer);
    }
  });
});
