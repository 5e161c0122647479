import { streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { cut, modelFor } from '../../../test/helpers';
import { guardrails } from '../../middleware/guardrails-middleware';
import { contentFilter } from './content-filter';

/** The text deltas `streamText` delivers for `answer` streamed in `size`-character deltas. */
async function streamedDeltas(answer: string, size: number): Promise<string[]> {
  const model = wrapLanguageModel({
    model: modelFor(answer, cut(answer, [size])),
    middleware: guardrails({
      output: [contentFilter()],
      stream: { mode: 'window' },
      blockedMessage: 'BLOCKED',
    }),
  });
  const result = streamText({ model, prompt: 'q' });
  const deltas: string[] = [];
  for await (const delta of result.textStream) deltas.push(delta);
  return deltas;
}

describe('contentFilter in window mode: an entry after punctuation inside a token', () => {
  // Found by the round-6 hook work: the hook only looked at words after
  // whitespace, so `(shi` was released before the `t` that makes the filter block.
  for (const wrapped of ['(shit)', '"shit"', '--shit', 'x/shit']) {
    it(`releases no letter of ${wrapped} before the block, wherever a check falls`, async () => {
      // The entry at every offset from 1 to 72, so some check sees the text
      // cut right after `shi` (checks run every 32-64 characters).
      for (let offset = 1; offset <= 72; offset++) {
        const answer = `${'word '.repeat(40).slice(0, offset)} ${wrapped} to anyone at all, please.`;
        const deltas = await streamedDeltas(answer, 1);
        expect(deltas.at(-1)).toBe('BLOCKED');
        const released = deltas.slice(0, -1).join('');
        expect(answer.startsWith(released)).toBe(true);
        expect(released.length, answer).toBeLessThanOrEqual(answer.indexOf('shit'));
      }
    });
  }

  it('still streams a word with an apostrophe or a slash that begins no entry', async () => {
    const answer = "Don't worry: the either/or choice is yours, and it's fine to take time.";
    const deltas = await streamedDeltas(answer, 1);
    expect(deltas.join('')).toBe(answer);
    expect(deltas.length).toBeGreaterThanOrEqual(2);
  });
});
