import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { findPii } from '../find-pii-bundled';
import { pii } from '../pii';
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

/** The spans `findPii` returns for `text` with only `entities` asked for, as [type, value]. */
const hidden = (text: string, entities: Array<'PERSON' | 'LOCATION'>) =>
  findPii(text, { entities }).map(span => [span.type, text.slice(span.start, span.end)]);

describe('a list of countries with a place reading (round 45, `placeLists`)', () => {
  // f45bd334 read Laos alone as a LOCATION, Chile (a common word) in no span; Kenya an
  // ORGANIZATION and Uganda an address; Jordan and Georgia after `in` as now.
  it.each<[string, Array<[string, string]>]>([
    [
      'We cycled across Laos and Chile.',
      [
        ['LOCATION', 'Laos'],
        ['LOCATION', 'Chile'],
      ],
    ],
    [
      'Kenya and Uganda officials met.',
      [
        ['LOCATION', 'Kenya'],
        ['LOCATION', 'Uganda'],
      ],
    ],
    [
      'She has lived in Jordan or Georgia.',
      [
        ['LOCATION', 'Jordan'],
        ['LOCATION', 'Georgia'],
      ],
    ],
  ])('%s: each item a LOCATION', (text, expected) => {
    expect(read(text)).toEqual(expected);
  });

  it('given names with no place reading, or a list cut by a line break, are not made places', () => {
    // Two given names, or one given name and one country: no list of places (as at f45bd334).
    expect(hidden('Jordan and Chad went home.', ['LOCATION'])).toEqual([]);
    expect(hidden('Georgia and Kenya are my best friends.', ['LOCATION'])).toEqual([]);
    // The items are joined on one line only: Chad, before the break, is the tagger's PERSON.
    expect(read('We visited Chad,\nPeru and Mali.')).toEqual([
      ['PERSON', 'Chad'],
      ['LOCATION', 'Peru'],
      ['LOCATION', 'Mali'],
    ]);
  });
});

describe('a long list of countries, streamed (round 45, `listBehind`, `listAhead`)', () => {
  // Given names (no place reading alone) before two countries that make the list one of places:
  // an item is a place only when those two end within 127 characters after its start, so a
  // stream cut anywhere (window mode holds back 128 with LOCATION alone) reads it as generate.
  const names = Array.from({ length: 24 }, (_, index) => ['Jordan', 'Georgia', 'Chad'][index % 3]);
  const text = `${names.join(', ')}, Kenya and Peru sent delegates.`;

  it('reads the items near the countries as places, the far ones not, streamed or not', async () => {
    // Peru ends at 198: an item is a place when it starts at 198 - 127 = 71 or later, the
    // eleventh name (77) on; the tenth starts at 69.
    expect(text.indexOf('Peru') + 4).toBe(198);
    const places = findPii(text, { entities: ['LOCATION'] }).map(span => span.start);
    expect(places).toHaveLength(16);
    expect(places[0]).toBe(77);
    const guard = pii({ entities: ['LOCATION'], action: 'redact' });
    const cuts = [[1], [7], [3, 11], [40], [text.length]];
    const { generated, streamed } = await windowAndGenerateTexts(guard, text, cuts);
    expect(generated).toBe(
      `${names.slice(0, 10).join(', ')}, ${names
        .slice(10)
        .map(() => '[LOCATION]')
        .join(', ')}, [LOCATION] and [LOCATION] sent delegates.`,
    );
    expect([...new Set(streamed)]).toEqual([generated]);
  });
});

describe('a country word with a person reading (round 45, `personReading`)', () => {
  // f45bd334: nothing for the first two, LOCATION:Mali, LOCATION:India, nothing for Georgia.
  it.each<[string, string]>([
    ['Jordan said that she would come.', 'Jordan'],
    ['Jordan told me about it.', 'Jordan'],
    ['Mali said she would call me back.', 'Mali'],
    ['Dear India, thank you.', 'India'],
    ['Thanks Georgia!', 'Georgia'],
  ])('%s: a PERSON', (text, name) => {
    expect(read(text)).toEqual([['PERSON', name]]);
    expect(hidden(text, ['PERSON'])).toEqual([['PERSON', name]]);
  });

  it('a state says `it` or `they`; a noun of a state after a cue keeps the place', () => {
    expect(read('Jordan said it would close the border.')).toEqual([]);
    expect(read('Jordan said they would close the border.')).toEqual([]);
    expect(read('I asked Kenya team to wait')).toEqual([['LOCATION', 'Kenya']]);
  });
});
