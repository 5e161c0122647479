import { describe, expect, it } from 'vitest';
import { cut } from '../../../test/helpers';
import {
  contentFilterGenerate,
  contentFilterWindowMiddleware,
  SELF_HARM_BLOCKED,
} from '../../../test/helpers/content-filter-cases';
import { generatedText, randomSizes, streamedTextDeltas } from '../../../test/helpers/window';

/**
 * Round 38 (hI): an entry spelled with its letters one blank apart and its
 * words two or three apart (letter spacing), or in leetspeak with a
 * leet digit standing as a word (`mak3 4 b0mb`), passed the filter: the
 * shared fold read `k i l l  y o u` as `kill y o u` and `mak3 4 b0mb` as
 * `make 4 bomb`. Both now read as the entry, generated and streamed.
 */

const PROSE = 'Here is my answer, with some plain words to stream first. Then: ';
/** The phrase, the entry it reads as, and the record's info. */
const CASES: ReadonlyArray<readonly [string, string, { category: string; entry: number }]> = [
  ['k i l l  y o u', 'kill you', { category: 'violence', entry: 1 }],
  ['h o w  t o  m a k e  a  b o m b', 'make a bomb', { category: 'weapons', entry: 2 }],
  ['e n d  m y  l i f e', 'end my life', { category: 'self-harm', entry: 2 }],
  // A blank between every two characters (the corpora's form): three between words.
  ['e n d   m y   l i f e', 'end my life', { category: 'self-harm', entry: 2 }],
  ['mak3 4 b0mb', 'make a bomb', { category: 'weapons', entry: 2 }],
  // `1` stood alone, so the filter matched `kill you` (violence entry 1).
  ['1 w1ll k1ll y0u', 'i will kill you', { category: 'violence', entry: 0 }],
];

const middleware = contentFilterWindowMiddleware();
const answerOf = (phrase: string) => `${PROSE}${phrase} today, as asked.`;

describe('contentFilter: entries in letter spacing with double word breaks, or leetspeak with short words', () => {
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
        // Letters spelled out may go before the run reads as an entry's
        // start (`k i` is no word yet, as with one blank between words);
        // the phrase never goes out whole.
        expect(released.length, `${sizes}`).toBeLessThan(answer.indexOf(phrase) + phrase.length);
      }
    });
  }

  it('streams whole, as generate passes it, ordinary text with a number and spaced initials', async () => {
    const answer = `${PROSE}buy 4 apples, turn 0n the light, and ask A  B C about it today.`;
    expect(await generatedText(middleware, answer)).toBe(answer);
    for (const sizes of [[1], [7], [answer.length], randomSizes(4)]) {
      const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
      expect(deltas.join(''), `${sizes}`).toBe(answer);
    }
  });
});
