import { describe, expect, it } from 'vitest';
import { generatedText, streamedTextDeltas } from '../../../test/helpers/window';
import { guardrails } from '../../middleware/guardrails-middleware';
import { defaultPiiEntities, type PiiEntity } from './find-pii';
import { findNamedEntities } from './ner/find-named-entities';
import { pii } from './pii';

/**
 * Round 40 (issues 16/17): window mode re-checks released text with the names
 * in it already replaced by their placeholders. A word's label turns on the
 * labels of the two tokens before it, so the tagger reads a placeholder of a
 * tagged type (`[PERSON]`, `<ORGANIZATION_1>`) as a name of that type, not as
 * no name: the line after it is judged as generate judged it.
 */
const all = [
  ...new Set<PiiEntity>([
    'PERSON',
    'STREET_ADDRESS',
    'LOCATION',
    'ORGANIZATION',
    ...defaultPiiEntities,
  ]),
];
// The `PERSON`-alone answers are the ones seeds 1 and 2 of ner-stream-property.test.ts found
// (they failed before); the all-types ones, the first kind as docs/streaming.md writes it, passed
// before too and are kept as cases.
const cases: [string, PiiEntity[], string][] = [
  ['all types', all, 'Zoë Kowalczyk plays for Celtic.\n a\u0308Dear Priya Natarajan,'],
  [
    'all types, a mark apart',
    all,
    'Zoë Kowalczyk plays for Celtic.\n a\u0308 Dear Priya Natarajan,',
  ],
  [
    'all types, a mark after the line',
    all,
    'Zoë Kowalczyk plays for Celtic. a\u0308 \n a\u0308 Dear Priya Natarajan,',
  ],
  [
    'PERSON alone, a firm after a line',
    ['PERSON'],
    '🙂the Arsenal fans cheered Maria González🙂 \nFord cut rindfleischetikettierungsueberwachungsaufgabenuebertragungsgesetz a for its staff🙂 🙂Maria González plays for Arsenal.🙂 ✌🏿Maria González sold the flat at 10 Downing Street, London; its roof leaks.🙂 ',
  ],
  [
    'PERSON alone, a firm announced',
    ['PERSON'],
    '🙂Dear Maria González, \nSiemens announced recall rindfleischetikettierungsueberwachungsaufgabenuebertragungsgesetz a pneumonoultramicroscopicsilicovolcanoconiosis of its pickups.🇳🇴 🇳🇴Call Maria González on +44 20 7946 0958 or mail maria@example.org🙂\n\n',
  ],
];

describe('window mode reads an earlier name already redacted as a name of its type', () => {
  it.each(cases)(
    '%s: stream == generate in deltas of 1, 5 and whole',
    async (_, entities, answer) => {
      const guard = pii({ entities });
      const expected = await generatedText(guardrails({ output: [guard] }), answer);
      const window = guardrails({ output: [guard], stream: { mode: 'window' } });
      for (const size of [1, 5, answer.length]) {
        const deltas: string[] = [];
        const points = Array.from(answer);
        for (let at = 0; at < points.length; at += size)
          deltas.push(points.slice(at, at + size).join(''));
        const streamed = (await streamedTextDeltas(window, answer, deltas)).join('');
        expect(streamed, `deltas of ${size}; generate ${JSON.stringify(expected)}`).toBe(expected);
      }
    },
  );
});

describe('findNamedEntities reads a typed placeholder as a name of its type', () => {
  const tail =
    ', \nSiemens announced plans rindfleischetikettierungsueberwachungsaufgabenuebertragungsgesetz a pneumonoultramicroscopicsilicovolcanoconiosis of its pickups.';
  const spans = (name: string) =>
    findNamedEntities(`Dear ${name}${tail}`).map(span => [
      span.type,
      `Dear ${name}${tail}`.slice(span.start, span.end),
    ]);
  it('the firm on the next line is judged as beside the name, in both default formats', () => {
    expect(spans('Maria González')).toEqual([
      ['PERSON', 'Maria González'],
      ['ORGANIZATION', 'Siemens'],
    ]);
    expect(spans('[PERSON]')).toEqual([['ORGANIZATION', 'Siemens']]);
    expect(spans('<PERSON_1>')).toEqual([['ORGANIZATION', 'Siemens']]);
  });
  it('a placeholder of a type the tagger does not tag is still no name', () => {
    expect(spans('[NOTE]')).toEqual([['PERSON', 'Siemens']]);
  });
});
