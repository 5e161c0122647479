import { describe, expect, it } from 'vitest';
import { judgeRecordsFor } from '../../../test/helpers/judge-reason';

/*
 * Round 41, an attacker's read of round 40's reason masking (fullwidth
 * quotes, the ROT13 reading of any Latin-read letter, a stretch's edge
 * left out when it touches a word by one or two letters, short quotes
 * written backwards).
 *
 * Defect found and fixed: round 40 read a word's letters one UTF-16 unit
 * at a time, so the two halves of a mathematical letter (`𝐬`) were no
 * letter. A quote in mathematical letters right after a word the stretch
 * touched by one letter (`quote[s 𝐬𝐰𝐨𝐫𝐝𝐟𝐢𝐬𝐡]`, the text's `is swordfish`)
 * was unmarked whole: `s` as the touched edge and every half after it as
 * "what parts it from the rest". A half-mathematical word (`𝐡𝐮𝐧𝐭𝐞𝐫2xyz`)
 * showed its mathematical half. Round 39 masked all of these.
 */

const policy = 'No personal data or secrets.';
const prompt = 'My password is hunter2xyz and my name is Jane Roe, secret is swordfish.';

/** The record's reason for a judge that answers `reason` about `prompt` (its info's too). */
async function shownReason(reason: string): Promise<string | undefined> {
  const [record] = (await judgeRecordsFor(policy, prompt, reason)) ?? [];
  expect((record?.info as { reason?: string } | undefined)?.reason).toBe(record?.reason);
  return record?.reason;
}

/** `text`'s ASCII letters and digits as mathematical bold ones (surrogate pairs). */
const bold = (text: string) =>
  [...text]
    .map(char =>
      /[a-z]/.test(char)
        ? String.fromCodePoint(0x1d41a + char.charCodeAt(0) - 97)
        : /[0-9]/.test(char)
          ? String.fromCodePoint(0x1d7ce + char.charCodeAt(0) - 48)
          : char,
    )
    .join('');
const fullwidth = (text: string) =>
  [...text]
    .map(char =>
      /[a-z0-9]/i.test(char) ? String.fromCodePoint(char.codePointAt(0)! + 0xfee0) : char,
    )
    .join('');
const backwards = (text: string) => [...text].reverse().join('');
const rot13 = (text: string) =>
  text.replace(/[a-z]/g, letter =>
    String.fromCharCode(((letter.charCodeAt(0) - 97 + 13) % 26) + 97),
  );

describe('llmJudge reason masking: a quote in mathematical letters (fixed in round 41)', () => {
  it.each([
    ['whole word', `It quotes ${bold('swordfish')}.`],
    ['mathematical then ASCII', `It quotes ${bold('sword')}fish.`],
    ['a mathematical half of a word with a digit', `It quotes ${bold('hunter')}2xyz.`],
    ['one mathematical letter first', `It quotes ${bold('h')}unter2xyz.`],
    ['digits too', `It quotes ${bold('hunter2xyz')}.`],
  ])('%s: the quote is masked whole, the word before it shown', async (_, reason) => {
    expect(await shownReason(reason)).toBe('It quotes [quoted].');
  });
});

describe('llmJudge reason masking: round 40 readings, combined by an attacker', () => {
  it.each([
    ['fullwidth', fullwidth('hunter2xyz')],
    ['backwards', backwards('hunter2xyz')],
    ['fullwidth backwards', fullwidth(backwards('hunter2xyz'))],
    ['ROT13', rot13('hunter2xyz')],
    ['fullwidth ROT13', fullwidth(rot13('hunter2xyz'))],
    ['ROT13 backwards', backwards(rot13('hunter2xyz'))],
    ['sword after ASCII', `sword${bold('fish')}`],
  ])('a value written %s is masked', async (_, written) => {
    expect(await shownReason(`It quotes ${written}.`)).toBe('It quotes [quoted].');
  });

  it.each([
    ['backwards', backwards('Jane Roe')],
    ['fullwidth backwards', fullwidth(backwards('Jane Roe'))],
    ['backwards without the space', backwards('JaneRoe')],
    ['mathematical', bold('jane roe')],
    ['spaced letters', 'J a n e R o e'],
    ['fullwidth with a hyphen', `${fullwidth('Jane')}-${fullwidth('Roe')}`],
  ])('a short quote (a name) written %s is masked', async (_, written) => {
    expect(await shownReason(`Name: ${written}.`)).toBe('Name: [quoted].');
  });

  it('a fullwidth quote glued to a fullwidth word is masked with it, the words apart shown', async () => {
    expect(await shownReason(`x ${fullwidth('hunter2xyz')}${fullwidth('name')} y`)).toBe(
      'x [quoted] y',
    );
  });
});
