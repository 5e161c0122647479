import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../bench/fixtures';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { pii } from '../pii';

/*
 * Round 45, an attacker's read of round 44b's firm-word person reading
 * (brands.ts, `firmWordContext`): a firm word the tagger read as a PERSON
 * (`Pfizer`) stays one when a personal pronoun follows in the six tokens
 * after it, else it becomes an ORGANIZATION, which `pii({ entities:
 * ['PERSON'] })` releases. Six tokens are not bounded in characters: a run
 * of 250 blanks, or a long word, between the name and the pronoun puts the
 * pronoun past what window mode holds (about 200 to 250 characters
 * here). `generateText` reads the pronoun and hides the name; every
 * stream (but the one cut in deltas of 30 for the blanks) released
 * `Pfizer` before the pronoun came. Found at f45bd334
 * (at bbe5b0ee `Pfizer` was a PERSON with no cue, so both modes hid it:
 * the disagreement is round 44's). Fixed in round 45 (brands.ts): the
 * pronoun must end within `firmCueReach` (127) characters of the name's
 * start, the reach of the words that make a name a firm (organisations.ts,
 * round 40), within the 128 window mode holds with PERSON alone; past it
 * the pronoun is no cue, the name the firm in both modes.
 */

const CUTS = [[1], [3], [7], [30], [1, 7, 3]];

async function expectSameInBothModes(text: string, redacted: string) {
  const guard = pii({ entities: ['PERSON'], action: 'redact' });
  const { generated, streamed } = await windowAndGenerateTexts(guard, text, CUTS);
  expect(generated).toBe(redacted);
  for (const stream of streamed) expect(stream).toBe(redacted);
}

describe('a firm-word surname whose pronoun is far in characters, streamed', () => {
  it('100 blanks between: hidden in both modes (the baseline)', async () => {
    const gap = ' '.repeat(100);
    await expectSameInBothModes(
      `Pfizer told${gap}me her password.`,
      `[PERSON] told${gap}me her password.`,
    );
  });

  it('the pronoun in the next sentence: the firm in both modes (round 44, the baseline)', async () => {
    const text = 'Pfizer raised its prices. She was angry.';
    await expectSameInBothModes(text, text);
  });

  // At f45bd334: generate `[PERSON] told …`, streams (all for the long word, most for the
  // blanks) `Pfizer told …`. Fixed (brands.ts, `firmWordContext`): the pronoun must end within
  // 127 characters of the name's start (`firmCueReach`, what window mode holds with PERSON
  // alone, 128, less one); past that it is no cue, the name the firm, released in both modes.
  it.each([
    ['250 blanks', `told${' '.repeat(250)}me her password.`],
    ['a word of 300 letters', `told me about ${'x'.repeat(300)} her password.`],
  ])('%s between: past the reach, the firm in both modes', async (_, rest) => {
    const text = `Pfizer ${rest}`;
    await expectSameInBothModes(text, text);
  });

  it('the reach: `her` ending at 127 characters from the name hides it, at 128 not', async () => {
    // "Pfizer told " (12) + blanks + "me her" (6): `her` ends at 18 + the blanks.
    const at = (blanks: number) => `Pfizer told ${' '.repeat(blanks)}me her password.`;
    await expectSameInBothModes(at(109), `[PERSON]${at(109).slice(6)}`);
    await expectSameInBothModes(at(110), at(110));
  });

  it('an ordinary sentence keeps its cue: hidden in both modes', async () => {
    await expectSameInBothModes(
      'Pfizer called yesterday and said she would send the signed contract.',
      '[PERSON] called yesterday and said she would send the signed contract.',
    );
  });
});

/** A gap of `length` characters: blanks, one long word, or short words (ending in a blank). */
function gapOf(length: number, kind: number, random: () => number): string {
  if (kind === 0) return ' '.repeat(length);
  if (kind === 1) return length < 2 ? ' '.repeat(length) : `${'x'.repeat(length - 1)} `;
  let gap = '';
  while (gap.length < length) {
    const word = 'abcdefgh'.slice(0, 1 + Math.floor(random() * 8));
    gap += `${word.slice(0, Math.max(0, length - gap.length - 1))} `;
  }
  return gap.slice(0, length);
}

describe('a firm-word surname and its pronoun after a random gap: stream == generate', () => {
  const random = seededRandom(45);
  const cases: [number, number, string][] = [];
  for (let index = 0; index < 24; index++) {
    const length = Math.floor(random() * 401);
    const kind = index % 3;
    cases.push([length, kind, gapOf(length, kind, random)]);
  }
  // And each kind at the reach: `her` ends at 127 or 128 characters from the name's start.
  for (const length of [108, 109])
    for (const kind of [0, 1, 2]) cases.push([length, kind, gapOf(length, kind, random)]);
  it.each(cases)('a gap of %i characters (kind %i)', async (_length, _kind, gap) => {
    const text = `Pfizer told ${gap}her password.`;
    const pronounEnd = text.indexOf('her password.') + 3;
    const hidden = pronounEnd <= 127;
    // `told`, the gap's words and `her`: six tokens at most read after the name.
    const tokensBetween = gap.split(/\s+/).filter(Boolean).length;
    const expected = hidden && tokensBetween <= 4 ? `[PERSON]${text.slice(6)}` : text;
    await expectSameInBothModes(text, expected);
  });
});
