import { describe, expect, it } from 'vitest';
import { judgeRecordsFor } from '../../../test/helpers/judge-reason';

/*
 * Round 40, two defects of round 39's reason masking.
 *
 * 1. A quote in fullwidth letters masked a word beside it that it did not
 *    quote. The reason is also read in ROT13, which turned ASCII letters
 *    only: `ｓｅｃｒｅｔ９９ name` read `ｓｅｃｒｅｔ９９ anzr`, still the
 *    quote, and `anzr` went on as the text's `secret99 and` did (`a`), so
 *    the stretch reached into `name` and was widened to the whole word. The
 *    ROT13 reading now turns every letter a comparison reads as a Latin
 *    one, and a stretch that goes on past a word it only touches by one
 *    or two letters (in any reading: the text's `time secret99` and the
 *    reason's `name secret99`) leaves that word out.
 * 2. A short quote written backwards (`eoR enaJ` for `Jane Roe`) was shown:
 *    backwards reading was done for runs of 8 letters and for values after
 *    a key, not for round 39's runs of whole words of 5 to 7 letters. It is
 *    now masked when the same run written forwards would be.
 */

const policy = 'No personal data or secrets.';

/** The record of an input judge that answers `reason` about `prompt`, through generateText. */
async function recordFor(prompt: string, reason: string) {
  return judgeRecordsFor(policy, prompt, reason);
}

/** The record's reason (also its info's) for a judge that answers `reason` about `prompt`. */
async function shownReason(prompt: string, reason: string): Promise<string | undefined> {
  const [record] = (await recordFor(prompt, reason)) ?? [];
  expect((record?.info as { reason?: string } | undefined)?.reason).toBe(record?.reason);
  return record?.reason;
}

const secretText = 'Please keep my secret99 and the rest.';

describe('llmJudge reason masking: exactly the quoted stretch, in fullwidth and other letters', () => {
  it('masks a fullwidth quote and not the word after it, in the record', async () => {
    expect(
      await recordFor(
        secretText,
        'The reply quotes \uff53\uff45\uff43\uff52\uff45\uff54\uff19\uff19 name by name.',
      ),
    ).toEqual([
      {
        guardrail: 'llm-judge',
        kind: 'input',
        status: 'blocked',
        message: 'This content was blocked by a content policy.',
        reason: 'The reply quotes [quoted] name by name.',
        severity: 'warning',
        info: {
          flagged: true,
          confidence: 0.9,
          reason: 'The reply quotes [quoted] name by name.',
          threshold: 0.7,
          cached: false,
          usage: { inputTokens: 10, outputTokens: 20, totalTokens: 30 },
        },
      },
    ]);
  });

  it.each([
    ['Cyrillic look-alikes', '\u0455\u0435\u0441r\u0435t99'],
    [
      'mathematical bold (surrogate pairs)',
      '\u{1d42c}\u{1d41e}\u{1d41c}\u{1d42b}\u{1d41e}\u{1d42d}\u{1d7d7}\u{1d7d7}',
    ],
    ['fullwidth written in ROT13', '\uff46\uff52\uff50\uff45\uff52\uff47\uff19\uff19'],
    ['HTML references', '&#115;&#101;&#99;&#114;&#101;&#116;99'],
  ])('%s: the quote is masked, the word after it is not', async (_, quote) => {
    expect(await shownReason(secretText, `The reply quotes ${quote} name by name.`)).toBe(
      'The reply quotes [quoted] name by name.',
    );
  });

  it('a word that continues the text by one or two letters stays, as written or not', async () => {
    // The text's `time secret99`: `name secret99` reads `e secret99` of it.
    const text = 'At that time secret99 was set.';
    for (const quote of [
      'secret99',
      'SECRET99',
      '\uff53\uff45\uff43\uff52\uff45\uff54\uff19\uff19',
    ]) {
      expect(await shownReason(text, `It gives the name ${quote} here.`)).toBe(
        'It gives the name [quoted] here.',
      );
    }
    // `hunter2; also` reads `hunter2a` of the text's `hunter2 and`.
    expect(await shownReason('my password is hunter2 and more', 'It has hunter2; also more.')).toBe(
      'It has [quoted]; also more.',
    );
  });

  it('still masks a word a stretch runs into by three letters or more, or lies inside', async () => {
    // Inside one word: the whole word (`hunter2x` of the text's `hunter2xab`).
    expect(await shownReason('password: hunter2xab', 'It wrote hunter2xyz here.')).toBe(
      'It wrote [quoted] here.',
    );
    // A value parted by the judge: its last word is 7 of the text's letters.
    expect(
      await shownReason('my password is sunsetboulevard', 'It wrote sunset boulevarx here.'),
    ).toBe('It wrote [quoted] here.');
  });
});

const nameText = 'Where will Jane Roe live? I need it.';

describe('llmJudge reason masking: a short quote written backwards', () => {
  it.each([
    'eoR enaJ',
    'EOR ENAJ',
    'eorenaj',
    'e o R e n a J',
    'eoR-enaJ',
    '\uff45\uff4f\uff32 \uff45\uff4e\uff41\uff2a',
  ])('%s', async quote => {
    expect(await shownReason(nameText, `The user asks where ${quote} lives.`)).toBe(
      'The user asks where [quoted] lives.',
    );
  });

  it('keeps what a forward quote keeps: under 8 characters in the text, or part of a word', async () => {
    // `Jo Roe` is 6 characters as written, forwards or backwards.
    expect(await shownReason('Ask Jo Roe now.', 'It names eoR oJ and JO ROE.')).toBe(
      'It names eoR oJ and JO ROE.',
    );
    // `evil` is `live` backwards: a word of 4, no quote.
    expect(await shownReason(nameText, 'Nothing evil is asked.')).toBe('Nothing evil is asked.');
    // Whole words only: `seoR enaJ` is no run of the text's words backwards.
    expect(await shownReason(nameText, 'It names seoR enaJ.')).toBe('It names seoR enaJ.');
  });
});
