import { describe, expect, it } from 'vitest';
import { findPii } from '../find-pii-bundled';
import { findNamedEntities } from './find-named-entities';

const read = (text: string) =>
  findNamedEntities(text).map(span => [span.type, text.slice(span.start, span.end)]);

describe('a country before a lower-case noun it modifies (round 44, `inPlaceContext`)', () => {
  // bbe5b0ee read each country as a PERSON (the tagger's reading, no place context before it).
  it.each<[string, Array<[string, string]>]>([
    ['Uganda coach resigned.', [['LOCATION', 'Uganda']]],
    ['Peru captain scored.', [['LOCATION', 'Peru']]],
    ['Ghana government bans plastic bags.', [['LOCATION', 'Ghana']]],
    ['I asked Kenya team to wait', [['LOCATION', 'Kenya']]],
    [
      'Kenya coach Ochieng spoke.',
      [
        ['LOCATION', 'Kenya'],
        ['PERSON', 'Ochieng'],
      ],
    ],
  ])('%s: the country is a LOCATION', (text, expected) => {
    expect(read(text)).toEqual(expected);
    expect(findPii(text, { entities: ['PERSON'] }).map(s => text.slice(s.start, s.end))).toEqual(
      expected.filter(([type]) => type === 'PERSON').map(([, value]) => value),
    );
  });

  it('a person named as a country keeps the PERSON with a capitalised or no noun after it', () => {
    expect(read('Hi Kenya, the coach is here.')).toEqual([['PERSON', 'Kenya']]);
    expect(read('Kenya said she would call me back.')).toEqual([['PERSON', 'Kenya']]);
    expect(read("Kenya's coach called.")).toEqual([['PERSON', 'Kenya']]);
  });
});
