import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/**
 * Round 18: values a model reads as plainly as the forms found before.
 * Two blanks between the groups of a card, an SSN or an IBAN
 * (`4111  1111  1111  1111`) read as one; marks drawn on a digit
 * (`4̲1̲1̲1̲`, struck through) and the musical null notehead U+1D159 (drawn as
 * nothing) inside a number are dropped for finding, and the span covers
 * them in the source.
 */

const u = '\u0332'; // combining low line
const notehead = '\u{1D159}';

describe('two blanks between groups', () => {
  it('finds a card, an SSN and an IBAN with two spaces (or tabs) between groups', () => {
    const text =
      'card 4111  1111  1111  1111, ssn 536  22  1234, iban DE89  3704  0044  0532  0130  00, tab 5500\t\t0000\t\t0000\t\t0004.';
    expect(findPii(text)).toEqual([
      { type: 'CREDIT_CARD', start: 5, end: 27 },
      { type: 'US_SSN', start: 33, end: 46 },
      { type: 'IBAN_CODE', start: 53, end: 85 },
      { type: 'CREDIT_CARD', start: 91, end: 113 },
    ]);
  });

  it('needs two blanks throughout and no more groups after or before', () => {
    for (const text of [
      'n 4111  1111 1111  1111', // mixed
      'n 536  22 1234',
      'n 536  221234',
      'id 4111  1111  1111  1111  5678',
      'id 2024  4111  1111  1111  1111',
      'id 536  22  1234  77',
      'n 4111   1111   1111   1111', // three blanks: a gap
    ]) {
      expect(findPii(text), text).toEqual([]);
    }
  });

  it('generateText: the model receives each value redacted, with records of the spans', async () => {
    const prompt =
      'card 4111  1111  1111  1111, SSN 536  22  1234, IBAN GB82  WEST  1234  5698  7654  32.';
    const { sent, records } = await promptSentWithRecords(pii(), prompt);
    expect(sent).toBe('card [CREDIT_CARD], SSN [US_SSN], IBAN [IBAN_CODE].');
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['CREDIT_CARD', 'US_SSN', 'IBAN_CODE'],
          spans: [
            { type: 'CREDIT_CARD', start: 5, end: 27 },
            { type: 'US_SSN', start: 33, end: 46 },
            { type: 'IBAN_CODE', start: 53, end: 85 },
          ],
        },
      },
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer =
      'Card 4111  1111  1111  1111 then SSN 536  22  1234 and IBAN DE89  3704  0044  0532  0130  00 end';
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(pii(), answer, chunkings);
    expect(generated).toBe('Card [CREDIT_CARD] then SSN [US_SSN] and IBAN [IBAN_CODE] end');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});

describe('marks and blank symbols on digits', () => {
  it('finds numbers whose digits carry marks, variation selectors or U+1D159, source range redacted', () => {
    const underlined = [...'4111 1111 1111 1111'].map(c => c + u).join('');
    const struck = [...'5500000000000004'].map(c => `${c}\uFE0F\u0336`).join('');
    const text = `a ${underlined} b 4\uFE0E111111111111111 c 536${notehead}22${notehead}1234 d ${struck} e`;
    const spans = findPii(text);
    expect(spans.map(span => [span.type, text.slice(span.start, span.end)])).toEqual([
      ['CREDIT_CARD', underlined],
      ['CREDIT_CARD', '4\uFE0E111111111111111'],
      ['US_SSN', `536${notehead}22${notehead}1234`],
      ['CREDIT_CARD', struck],
    ]);
  });

  it('reads a keycap (an enclosing mark) as an emoji, not a digit: numbered headings stay', () => {
    const keycaps = [...'5500000000000004'].map(c => `${c}\uFE0F\u20E3`).join('');
    expect(
      findPii(`## 4\uFE0F\u20E3 Title 12 Deflation Strategy, ${keycaps}`, { entities: 'all' }),
    ).toEqual([]);
  });

  it('keeps marks that spell a letter of another script: no value is made of them', () => {
    expect(findPii('क्षत्रिय 4111 कि')).toEqual([]);
    expect(findPii(`version 1${u}.2${u}.3`)).toEqual([]);
  });

  it('generateText: the model receives the number redacted, record spans in the source', async () => {
    const underlined = [...'4111 1111 1111 1111'].map(c => c + u).join('');
    const prompt = `card ${underlined} ssn 536${notehead}22${notehead}1234.`;
    const { sent, records } = await promptSentWithRecords(pii(), prompt);
    expect(sent).toBe('card [CREDIT_CARD] ssn [US_SSN].');
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['CREDIT_CARD', 'US_SSN'],
          spans: [
            { type: 'CREDIT_CARD', start: 5, end: 5 + underlined.length },
            { type: 'US_SSN', start: 10 + underlined.length, end: 10 + underlined.length + 13 },
          ],
        },
      },
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const underlined = [...'4111 1111 1111 1111'].map(c => c + u).join('');
    const answer = `Card ${underlined} or 4\uFE0E111111111111111, SSN 536${notehead}22${notehead}1234 end`;
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(pii(), answer, chunkings);
    expect(generated).toBe('Card [CREDIT_CARD] or [CREDIT_CARD], SSN [US_SSN] end');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
