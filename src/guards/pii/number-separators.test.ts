import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/**
 * A card or SSN written with `_`, `/`, ` - ` or `--` between its groups is
 * found as with `-` (round 17: these four passed). The separator must be the
 * same between every two groups, the groups shaped like the value's (4-4-4-4,
 * 3-2-4), and a card still needs its issuer prefix and Luhn; the same
 * separator and more digits after or before it make a longer number, not
 * the value.
 */

const separators = ['_', '/', ' - ', '--'];

describe('cards and SSNs with _ / - -- between the groups', () => {
  for (const separator of separators) {
    it(`finds a card and an SSN split by ${JSON.stringify(separator)}, separators inside the span`, () => {
      const card = ['4111', '1111', '1111', '1111'].join(separator);
      const ssn = ['536', '22', '1234'].join(separator);
      const text = `card ${card} and SSN ${ssn}.`;
      const ssnStart = 5 + card.length + 9;
      expect(findPii(text)).toEqual([
        { type: 'CREDIT_CARD', start: 5, end: 5 + card.length },
        { type: 'US_SSN', start: ssnStart, end: ssnStart + ssn.length },
      ]);
    });

    it(`reads groups split by ${JSON.stringify(separator)} with more after or before as a longer number`, () => {
      const card = ['4111', '1111', '1111', '1111'].join(separator);
      const ssn = ['536', '22', '1234'].join(separator);
      for (const text of [
        `id ${card}${separator}2024`,
        `id 2024${separator}${card}`,
        `id ${ssn}${separator}77`,
        `id 77${separator}${ssn}`,
      ]) {
        expect(findPii(text), text).toEqual([]);
      }
    });
  }

  it('needs one separator kind throughout and the groups of a card or SSN', () => {
    for (const text of [
      'n 4111_1111/1111_1111',
      'n 4111--1111-1111--1111',
      'n 536/22-1234',
      'n 536_221234',
      'n 4111_1112_1111_1111', // Luhn fails
      'n 41_11_11_11_11_11_11_11', // groups of two: a list
      'date 2023_05_07 and 2021/04/20',
      'x_4111_1111_1111_1111', // glued to an identifier
    ]) {
      expect(findPii(text), text).toEqual([]);
    }
  });

  it('generateText: the model receives each value redacted, with records of the spans', async () => {
    const prompt =
      'cards 4111_1111_1111_1111, 5500/0000/0000/0004, 4111 - 1111 - 1111 - 1111; ' +
      'SSNs 536--22--1234 and 536 - 22 - 1234.';
    const { sent, records } = await promptSentWithRecords(pii(), prompt);
    expect(sent).toBe(
      'cards [CREDIT_CARD], [CREDIT_CARD], [CREDIT_CARD]; SSNs [US_SSN] and [US_SSN].',
    );
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['CREDIT_CARD', 'US_SSN'],
          spans: [
            { type: 'CREDIT_CARD', start: 6, end: 25 },
            { type: 'CREDIT_CARD', start: 27, end: 46 },
            { type: 'CREDIT_CARD', start: 48, end: 73 },
            { type: 'US_SSN', start: 80, end: 93 },
            { type: 'US_SSN', start: 98, end: 113 },
          ],
        },
      },
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer =
      'Card 4111 - 1111 - 1111 - 1111 and 4111--1111--1111--1111, SSN 536 - 22 - 1234, ' +
      'old 4111/1111/1111/1111 or 536_22_1234.';
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(pii(), answer, chunkings);
    expect(generated).toBe(
      'Card [CREDIT_CARD] and [CREDIT_CARD], SSN [US_SSN], old [CREDIT_CARD] or [US_SSN].',
    );
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
