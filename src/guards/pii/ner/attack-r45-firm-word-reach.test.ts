import { describe, expect, it } from 'vitest';
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
 * the disagreement is round 44's). The rule's reach is hE's lane (NER
 * rule files, brands.ts) and the window's hold for NER hD's (pii.ts's NER
 * call path) this round: it.fails.
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
  // blanks) `Pfizer told …`.
  it.fails.each([
    ['250 blanks', `told${' '.repeat(250)}me her password.`],
    ['a word of 300 letters', `told me about ${'x'.repeat(300)} her password.`],
  ])('%s between: every stream hides the name as generate does', async (_, rest) => {
    await expectSameInBothModes(`Pfizer ${rest}`, `[PERSON] ${rest}`);
  });

  it.each([
    ['250 blanks', `told${' '.repeat(250)}me her password.`],
    ['a word of 300 letters', `told me about ${'x'.repeat(300)} her password.`],
  ])('%s between: generate hides the name (what the streams disagree with)', async (_, rest) => {
    const guard = pii({ entities: ['PERSON'], action: 'redact' });
    const { generated, streamed } = await windowAndGenerateTexts(guard, `Pfizer ${rest}`, CUTS);
    expect(generated).toBe(`[PERSON] ${rest}`);
    expect(streamed).toContain(`Pfizer ${rest}`);
  });
});
