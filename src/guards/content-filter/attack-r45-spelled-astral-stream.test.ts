import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { contentFilter } from './content-filter';

/*
 * Round 45, an attacker's read of round 44's reading of an entry inside a
 * spelled-out run (spelled-run-entries.ts, `spelledRunHold`): the entry
 * spelled in letters past U+FFFF (mathematical bold, each a surrogate
 * pair) with a letter or two before it in the same run. `generateText`
 * blocks it (round 44 reads the entry inside the run); window mode
 * released the entry up to its last letter or two and only then sent the
 * block message: `ok so 𝐚 𝐛 𝐤 𝐢 𝐥 𝐥 𝐲 𝐨 𝐮 𝐫 𝐬 𝐞 𝐥 ` went out. The same
 * run in ASCII or full-width letters (one code unit each) releases
 * nothing of the entry, and the entry at the run's start is held too: the
 * hold does not take a surrogate pair for one unit of a run, so the run
 * is not seen as one. Found at f45bd334; at bbe5b0ee generate passed these
 * texts (no reading inside a run), so streaming and generate agreed: the
 * disagreement is round 44's. The hold is in src/guards/content-filter/
 * (hC's lane this round): it.fails. Held since round 45 (hM): the hold
 * reads each letter the fold reads only once folded (`𝐤`, `🅚`, `⒦`) as
 * that letter, a pair as one unit of the run (`run-letters.ts`).
 */

const MESSAGE = 'This content is not allowed.';
const guard = () => contentFilter({ blocklist: ['kill yourself'], categories: [] });
const CHUNKINGS = [[1], [2], [3], [4], [5], [7], [1, 9, 2], [13]];

/** What a stream sent before the block message (all of it when it sent none). */
const released = (text: string) => (text.endsWith(MESSAGE) ? text.slice(0, -MESSAGE.length) : text);

/** `letters` spelled out, one blank between. */
const spelled = (letters: string) => [...letters].join(' ');

/** Generate blocks `text`, and every stream ends with the block message having sent at most `prefix`. */
async function expectHeldAfter(text: string, prefix: string) {
  const { generated, streamed } = await windowAndGenerateTexts(guard(), text, CHUNKINGS);
  expect(generated).toBe(MESSAGE);
  for (const stream of streamed) {
    expect(stream.endsWith(MESSAGE)).toBe(true);
    expect(prefix.startsWith(released(stream))).toBe(true);
  }
}

describe('an entry spelled inside a run of letters past U+FFFF, in window mode', () => {
  it.each([
    ['ASCII letters', 'ab'],
    ['ASCII letters, four before', 'just'],
    ['full-width letters', 'ａｂ'],
  ])('%s before the entry: nothing of the entry is released (the baseline)', async (_, before) => {
    const run = spelled(`${before}killyourself`);
    const lettersBefore = spelled(before);
    await expectHeldAfter(`ok so ${run} now`, `ok so ${lettersBefore} `);
  });

  it('mathematical bold, the entry at the run start: nothing of it is released (the baseline)', async () => {
    await expectHeldAfter(`ok so ${spelled('𝐤𝐢𝐥𝐥𝐲𝐨𝐮𝐫𝐬𝐞𝐥𝐟')} now`, 'ok so ');
  });

  it.each([
    ['two letters before', '𝐚𝐛'],
    ['four letters before', '𝐣𝐮𝐬𝐭'],
  ])('mathematical bold, %s the entry: generate and every stream block', async (_, before) => {
    const text = `ok so ${spelled(`${before}𝐤𝐢𝐥𝐥𝐲𝐨𝐮𝐫𝐬𝐞𝐥𝐟`)} now`;
    const { generated, streamed } = await windowAndGenerateTexts(guard(), text, CHUNKINGS);
    expect(generated).toBe(MESSAGE);
    for (const stream of streamed) expect(stream.endsWith(MESSAGE)).toBe(true);
  });

  // At f45bd334: `ok so 𝐚 𝐛 𝐤 𝐢 𝐥 𝐥 𝐲 𝐨 𝐮 𝐫 𝐬 𝐞 𝐥 ` released at chunkings [1] and more;
  // `ok so 𝐣 𝐮 𝐬 𝐭 𝐤 𝐢 𝐥 𝐥 𝐲 𝐨 𝐮 𝐫 𝐬 ` for the second. Nothing of it since round 45 (hM).
  it.each([
    ['two letters before', '𝐚𝐛'],
    ['four letters before', '𝐣𝐮𝐬𝐭'],
  ])('mathematical bold, %s the entry: nothing of the entry is released', async (_, before) => {
    await expectHeldAfter(
      `ok so ${spelled(`${before}𝐤𝐢𝐥𝐥𝐲𝐨𝐮𝐫𝐬𝐞𝐥𝐟`)} now`,
      `ok so ${spelled(before)} `,
    );
  });
});
