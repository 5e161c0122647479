import { describe, expect, it } from 'vitest';
import { generatedText, streamedTextDeltas } from '../../../../test/helpers/window';
import { guardrails } from '../../../middleware/guardrails-middleware';
import { pii } from '../pii';
import { findNamedEntities, placeholderPattern } from './find-named-entities';
import { nerEntities } from './labels';

/**
 * Round 41 (issue 17 item 1): a caller's own redaction format (`pii`'s
 * `placeholder`) named no type, so the tagger read its placeholders as no
 * name, where round 40 reads `[PERSON]` as a name of its type. Window mode
 * re-checks released text with names already replaced, and a word's label
 * turns on the labels before it: beside `<name>` a firm on the next line was
 * read as a person, beside the name itself as a firm.
 */
const tail =
  ', \nSiemens announced plans rindfleischetikettierungsueberwachungsaufgabenuebertragungsgesetz a pneumonoultramicroscopicsilicovolcanoconiosis of its pickups.';

describe('a placeholder of a caller’s own format, given by type', () => {
  const spans = (placeholders: RegExp, name: string) => {
    const text = `Dear ${name}${tail}`;
    return findNamedEntities(text, nerEntities, placeholders).map(
      span => `${span.type}:${text.slice(span.start, span.end)}`,
    );
  };

  it('reads as a name of its type when one tagged type alone writes it', () => {
    const byType = placeholderPattern(
      new Map([
        ['PERSON', '<name>'],
        ['ORGANIZATION', '<firm>'],
        ['EMAIL_ADDRESS', '<mail>'],
      ]),
    );
    expect(spans(byType, 'Maria González')).toEqual([
      'PERSON:Maria González',
      'ORGANIZATION:Siemens',
    ]);
    // Before: PERSON:Siemens (the placeholder was no name).
    expect(spans(byType, '<name>')).toEqual(['ORGANIZATION:Siemens']);
  });

  it('stays no name when given as a list, when several types write it, or of an untagged type', () => {
    expect(spans(placeholderPattern(['<name>']), '<name>')).toEqual(['PERSON:Siemens']);
    const shared = placeholderPattern(
      new Map([
        ['PERSON', '***'],
        ['ORGANIZATION', '***'],
      ]),
    );
    expect(spans(shared, '***')).toEqual(['PERSON:Siemens']);
    const untagged = placeholderPattern(new Map([['EMAIL_ADDRESS', '<mail>']]));
    expect(spans(untagged, '<mail>')).toEqual(['PERSON:Siemens']);
  });
});

// ner-stream-property.test.ts with `placeholder: type => `<${type.toLowerCase()}>`` found these
// (seeds 1 and 2, PERSON alone; round 40's two cases in the default format): the first two
// failed before (window mode released `Ford` / `Siemens` differently), the third passed too.
const answers = [
  '🙂the Arsenal fans cheered Maria González🙂 \nFord cut rindfleischetikettierungsueberwachungsaufgabenuebertragungsgesetz a for its staff🙂 🙂Maria González plays for Arsenal.🙂 ✌🏿Maria González sold the flat at 10 Downing Street, London; its roof leaks.🙂 ',
  '🙂Dear Maria González, \nSiemens announced recall rindfleischetikettierungsueberwachungsaufgabenuebertragungsgesetz a pneumonoultramicroscopicsilicovolcanoconiosis of its pickups.🇳🇴 🇳🇴Call Maria González on +44 20 7946 0958 or mail maria@example.org🙂\n\n',
  `🙂Dear Maria González${tail}🇳🇴 Call Maria González now.\n`,
];

describe('window mode with a caller’s own format', () => {
  it.each(answers)('streams what generate returns, PERSON alone: %s', async answer => {
    const guard = pii({ entities: ['PERSON'], placeholder: type => `<${type.toLowerCase()}>` });
    const expected = await generatedText(guardrails({ output: [guard] }), answer);
    expect(expected).toContain('<person>');
    expect(expected).not.toContain('González');
    const window = guardrails({ output: [guard], stream: { mode: 'window' } });
    for (const size of [1, 5, answer.length]) {
      const points = Array.from(answer);
      const deltas: string[] = [];
      for (let at = 0; at < points.length; at += size)
        deltas.push(points.slice(at, at + size).join(''));
      const streamed = (await streamedTextDeltas(window, answer, deltas)).join('');
      expect(streamed, `deltas of ${size}`).toBe(expected);
    }
  });
});
