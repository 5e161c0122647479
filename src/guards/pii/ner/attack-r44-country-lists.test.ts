import { describe, expect, it } from 'vitest';
import { findPii } from '../find-pii-bundled';

/*
 * Round 44, an attacker's read of round 43's country rule
 * (`countriesLeftOut`, `inPlaceContext` in places.ts): a country the tagger
 * read alone as a PERSON becomes a LOCATION in a place context, a list of
 * countries among them. But a country that is also a given name (`Chad`,
 * `Jordan`) is skipped before the context is read, so in
 * `We visited Chad, Peru and Mali.` with `entities: ['LOCATION']` Peru and
 * Mali are hidden and Chad goes out (the tagger's PERSON, kept); and a
 * bare list the tagger reads as organisations (`Kenya, Peru and Mali.`,
 * `… sent delegates`) hides Mali alone. On the PERSON side, a person
 * called Jordan is found by no reading in `Jordan said she would call me
 * back.` (round 43 fixed `Kenya said she`; Jordan, a given name, is left
 * to the tagger, which reads nothing there). Found at bbe5b0ee, and at
 * 8302f965 for each row: not a regression of round 43. Fixed in round 45
 * (places.ts): a list of two or more countries with a place context before
 * it, a state's noun after it, or two items that are no given name
 * (`placeLists`) makes each item a LOCATION, the given names and the
 * tagger's organisations among them; a country word with a verb of speech
 * and a personal pronoun after it (`personReading`) is a PERSON.
 */

const found = (text: string, entities: Array<'PERSON' | 'LOCATION'>) =>
  findPii(text, { entities }).map(span => [span.type, text.slice(span.start, span.end)]);

describe('countries in a list, LOCATION asked for', () => {
  it('a list after a travel verb, no given name in it: each a LOCATION (the baseline)', () => {
    expect(found('We visited Kenya, Peru and Mali.', ['LOCATION'])).toEqual([
      ['LOCATION', 'Kenya'],
      ['LOCATION', 'Peru'],
      ['LOCATION', 'Mali'],
    ]);
  });

  // At bbe5b0ee and f45bd334: [['LOCATION', 'Peru'], ['LOCATION', 'Mali']] (Chad the tagger's PERSON).
  it('a list after a travel verb that opens with a given name: each a LOCATION', () => {
    expect(found('We visited Chad, Peru and Mali.', ['LOCATION'])).toEqual([
      ['LOCATION', 'Chad'],
      ['LOCATION', 'Peru'],
      ['LOCATION', 'Mali'],
    ]);
  });

  // At bbe5b0ee and f45bd334: [['LOCATION', 'Mali']] for each (Kenya and Peru the tagger's
  // ORGANIZATION).
  it.each([
    ['a bare list', 'Kenya, Peru and Mali.'],
    ['a list before a verb', 'Kenya, Peru and Mali sent delegates.'],
  ])('%s: each country a LOCATION', (_, text) => {
    expect(found(text, ['LOCATION'])).toEqual([
      ['LOCATION', 'Kenya'],
      ['LOCATION', 'Peru'],
      ['LOCATION', 'Mali'],
    ]);
  });
});

describe('a person named as a country that is a given name, PERSON asked for', () => {
  it('a name the tagger knows beside the same cue: found (the baseline)', () => {
    expect(found('Maria said she would call me back.', ['PERSON'])).toEqual([['PERSON', 'Maria']]);
  });

  // At bbe5b0ee: [] (and at 8302f965 and f45bd334).
  it('Jordan said she would call me back: the name is found', () => {
    expect(found('Jordan said she would call me back.', ['PERSON'])).toEqual([
      ['PERSON', 'Jordan'],
    ]);
  });
});
