import { describe, expect, it } from 'vitest';
import { expectInputRedacted, expectWindowAsGenerate } from '../../../test/helpers/redacted-input';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/**
 * Round 24. The normaliser reads through invisible characters and (round 23)
 * code points that stand for no character, so one between a word and a
 * value glued the value to the word, and a value glued to letters is none:
 * `cc\u200B4111 1111 1111 1111`, `ssn\uFFFD536-22-1234`, `ip\uD80010.1.2.3`,
 * `tel\u00AD+1 415 555 0132` reached the model whole, though a model reads
 * the character between as a break (and a renderer draws U+FFFD and a lone
 * surrogate as a box). Such a text is also read with each invisible
 * character beside a letter as a blank; what that reading finds apart from
 * the first reading's values is found too.
 */
const PROMPT =
  'cc\u200B4111 1111 1111 1111 and ssn\uFFFD536-22-1234, ip\uD80010.1.2.3 and tel\u00AD+1 415 555 0132; 5500 0000 0000 0004\u2060x and cc\u200B4111\u200B1111\u200B1111\u200B1111.';
const REDACTED =
  'cc\u200B[CREDIT_CARD] and ssn\uFFFD[US_SSN], ip\uD800[IP_ADDRESS] and tel\u00AD[PHONE_NUMBER]; [CREDIT_CARD]\u2060x and cc\u200B[CREDIT_CARD].';

describe('an invisible character between a word and a value', () => {
  it('generateText: the model receives the values redacted, the characters beside them kept', async () => {
    await expectInputRedacted(pii, PROMPT, REDACTED, [
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['CREDIT_CARD', 'US_SSN', 'IP_ADDRESS', 'PHONE_NUMBER'],
          spans: [
            { type: 'CREDIT_CARD', start: 3, end: 22 },
            { type: 'US_SSN', start: 31, end: 42 },
            { type: 'IP_ADDRESS', start: 47, end: 55 },
            { type: 'PHONE_NUMBER', start: 64, end: 79 },
            { type: 'CREDIT_CARD', start: 81, end: 100 },
            { type: 'CREDIT_CARD', start: 110, end: 129 },
          ],
        },
      },
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    await expectWindowAsGenerate(pii, PROMPT, REDACTED);
  });

  it('values with invisible characters inside are still read whole; words split so find nothing', () => {
    const text =
      'mail jane\u200B.doe@corp.io, card 4111 11\u200B11 1111 1111, infor\u00ADmation on 2024-05-01, \u0645\u06CC\u200C\u0634\u0648\u062F 12';
    expect(findPii(text).map(span => [span.type, text.slice(span.start, span.end)])).toEqual([
      ['EMAIL_ADDRESS', 'jane\u200B.doe@corp.io'],
      ['CREDIT_CARD', '4111 11\u200B11 1111 1111'],
    ]);
  });
});
