import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel } from '../../../test/helpers';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/**
 * A value whose parts are split by a blank other than a space (a tab, an
 * ogham space mark, a braille blank, a no-break or ideographic space) reads
 * to a model as the value: `pii` finds it as it finds the value split by
 * spaces (round 16: a tab, U+1680 and U+2800 hid cards, phones, IBANs and
 * SSNs). A line break still ends a number (docs/data-protection.md, the
 * separator table).
 */

const blanks: Array<[string, string]> = [
  ['tab', '\t'],
  ['ogham space mark', '\u1680'],
  ['braille blank', '\u2800'],
  ['no-break space', '\u00a0'],
  ['em space', '\u2003'],
  ['narrow no-break space', '\u202f'],
  ['medium mathematical space', '\u205f'],
  ['ideographic space', '\u3000'],
];

const lineBreaks: Array<[string, string]> = [
  ['LF', '\n'],
  ['CR LF', '\r\n'],
  ['VT', '\v'],
  ['FF', '\f'],
  ['NEL', '\u0085'],
  ['line separator', '\u2028'],
  ['paragraph separator', '\u2029'],
];

/** Each value as its parts, and the type `findPii` reports for it. */
const values: Array<[string, string[]]> = [
  ['CREDIT_CARD', ['4111', '1111', '1111', '1111']],
  ['PHONE_NUMBER', ['+1', '415', '555', '0132']],
  ['IBAN_CODE', ['GB82', 'WEST', '1234', '5698', '7654', '32']],
  ['US_SSN', ['536', '22', '1234']],
];

describe('values split by blanks', () => {
  for (const [blankName, blank] of blanks) {
    it(`finds each value split by a ${blankName}, the blanks inside its span`, () => {
      for (const [type, parts] of values) {
        const value = parts.join(blank);
        const text = `see ${value} here`;
        expect(findPii(text)).toEqual([{ type, start: 4, end: 4 + value.length }]);
      }
    });
  }

  for (const [breakName, lineBreak] of lineBreaks) {
    it(`reads a value split by ${breakName} as numbers on separate lines, not one value`, () => {
      for (const [, parts] of values) {
        expect(findPii(`see ${parts.join(lineBreak)} here`)).toEqual([]);
      }
    });
  }

  it('reads a table row of numbers joined by tabs as the same row joined by spaces', () => {
    const row = ['2019', '4111', '31', '7'];
    expect(findPii(row.join('\t'))).toEqual(findPii(row.join(' ')));
    expect(findPii(row.join('\t'))).toEqual([]);
  });
});

describe('values split by blanks, end to end', () => {
  const prompt =
    'card 4111\t1111\t1111\t1111, call +1\u1680415\u1680555\u16800132, ' +
    'IBAN GB82\u2800WEST\u28001234\u28005698\u28007654\u280032, SSN 536\t22\t1234.';

  it('generateText: the model receives each value redacted, blanks and all', async () => {
    const model = textModel('ok');
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: guardrails({ input: [pii()] }) }),
      prompt,
    });
    const sent = model.doGenerateCalls[0]!.prompt[0]!.content as Array<{ text: string }>;
    expect(sent[0]!.text).toBe(
      'card [CREDIT_CARD], call [PHONE_NUMBER], IBAN [IBAN_CODE], SSN [US_SSN].',
    );
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.records.map(({ durationMs: _, ...record }) => record)).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['CREDIT_CARD', 'PHONE_NUMBER', 'IBAN_CODE', 'US_SSN'],
          // Offsets into the prompt: each span takes in the blanks between the parts.
          spans: [
            { type: 'CREDIT_CARD', start: 5, end: 24 },
            { type: 'PHONE_NUMBER', start: 31, end: 46 },
            { type: 'IBAN_CODE', start: 53, end: 80 },
            { type: 'US_SSN', start: 86, end: 97 },
          ],
        },
      },
    ]);
  });

  for (const mode of ['hold', 'window'] as const) {
    it(`streamText (${mode}): an answer with a tab-split card and phone is redacted exactly`, async () => {
      // Cut between and inside the parts.
      const deltas = [
        'Your card 4111\t11',
        '11\t1111\t',
        '1111 and +1\u2800415',
        '\u2800555\u28000132.',
      ];
      const result = streamText({
        model: wrapLanguageModel({
          model: textModel(deltas),
          middleware: guardrails({ output: [pii()], stream: { mode } }),
        }),
        prompt: 'hi',
      });
      expect(await result.text).toBe('Your card [CREDIT_CARD] and [PHONE_NUMBER].');
    });
  }
});
