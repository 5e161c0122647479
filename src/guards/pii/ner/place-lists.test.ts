import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { findPii } from '../find-pii-bundled';
import { pii } from '../pii';
import { findNamedEntities } from './find-named-entities';

const read = (text: string) =>
  findNamedEntities(text).map(span => [span.type, text.slice(span.start, span.end)]);

describe('items of a list of places (round 46, `placeListItems`)', () => {
  // c5bdb166 read Zaragoza an ORGANIZATION and Turin a PERSON; Santa Fe a PERSON; Toruń an
  // ORGANIZATION; Hamburg, Bremen and Kiel each a PERSON (no LOCATION in the list).
  it.each<[string, Array<[string, string]>]>([
    [
      'We have teams in Munich, Zaragoza and Turin.',
      [
        ['LOCATION', 'Munich'],
        ['LOCATION', 'Zaragoza'],
        ['LOCATION', 'Turin'],
      ],
    ],
    [
      'Prices in Buenos Aires or Santa Fe went up.',
      [
        ['LOCATION', 'Buenos Aires'],
        ['LOCATION', 'Santa Fe'],
      ],
    ],
    [
      'Our stores in Kraków, Gdansk and Toruń are closed.',
      // Gdansk is in no gazetteer: the tagger's ORGANIZATION stays.
      [
        ['LOCATION', 'Kraków'],
        ['ORGANIZATION', 'Gdansk'],
        ['LOCATION', 'Toruń'],
      ],
    ],
    [
      'They sailed through Hamburg, Bremen and Kiel.',
      [
        ['LOCATION', 'Hamburg'],
        ['LOCATION', 'Bremen'],
        ['LOCATION', 'Kiel'],
      ],
    ],
  ])('%s', (text, expected) => {
    expect(read(text)).toEqual(expected);
    expect(findPii(text, { entities: ['PERSON', 'ORGANIZATION'] })).toEqual(
      expected
        .filter(([type]) => type !== 'LOCATION')
        .map(([type, value]) => ({
          type,
          start: text.indexOf(value),
          end: text.indexOf(value) + value.length,
        })),
    );
  });

  it('people, a person beside a place, a list cut by a line break stay as the tagger read', () => {
    // Two names of a person are no multi-word place (`Maria Lopez`), whatever the gazetteer
    // says of each word alone.
    expect(read('I invited Maria Lopez and John Smith.')).toEqual([
      ['PERSON', 'Maria Lopez'],
      ['PERSON', 'John Smith'],
    ]);
    expect(read('The office in Lyon and Maria Lopez handle it.')).toEqual([
      ['LOCATION', 'Lyon'],
      ['PERSON', 'Maria Lopez'],
    ]);
    // `to` joins a journey's places only after a verb of travel (c5bdb166 read Santa Ana a
    // PERSON, Las Cruces an ORGANIZATION): a letter sent to Maria is none.
    expect(read('We moved from Fort Worth to Santa Ana.')).toEqual([
      ['LOCATION', 'Fort Worth'],
      ['LOCATION', 'Santa Ana'],
    ]);
    expect(read('She drove from Las Cruces to El Paso.')).toEqual([
      ['LOCATION', 'Las Cruces'],
      ['LOCATION', 'El Paso'],
    ]);
    expect(read('I wrote from Paris to Maria.')).toEqual([
      ['LOCATION', 'Paris'],
      ['PERSON', 'Maria'],
    ]);
    // An initial is no part of a multi-word place (the filter's false hit on `B. Dziworski`).
    expect(read('We worked with B. Dziworski, Lodz, Poland and Vienna.')).toEqual([
      ['PERSON', 'B. Dziworski'],
      ['ORGANIZATION', 'Lodz'],
      ['LOCATION', 'Poland'],
      ['LOCATION', 'Vienna'],
    ]);
    // No LOCATION and no place word before the list: people.
    expect(read('Paris and Maria went home.')).toEqual([
      ['PERSON', 'Paris'],
      ['PERSON', 'Maria'],
    ]);
    expect(read('Ask Georgia and Victoria about it.')).toEqual([
      ['PERSON', 'Georgia'],
      ['PERSON', 'Victoria'],
    ]);
    // `visited` before the list makes Lyon and Porto places; Gdansk, past the break, not.
    expect(read('We visited Lyon, Porto\nand Gdansk.')).toEqual([
      ['LOCATION', 'Lyon'],
      ['LOCATION', 'Porto'],
      ['PERSON', 'Gdansk'],
    ]);
  });
});

describe('a long list of places, streamed (round 46, `listBehind`, `listAhead`)', () => {
  // One LOCATION the tagger found (`Munich`, after `in`) then thirty one-word places: an item
  // is a place by the list rule only when a LOCATION of its list lies within 128 characters
  // before its start or 127 after it, so a stream cut anywhere reads it as generate does.
  const towns = Array.from({ length: 30 }, (_, index) => ['Zaragoza', 'Turin', 'Toruń'][index % 3]);
  const text = `We have teams in Munich, ${towns.join(', ')}.`;

  it('reads the list as generate does, a stream cut anywhere', async () => {
    const guard = pii({ entities: ['PERSON', 'LOCATION', 'ORGANIZATION'], action: 'redact' });
    const cuts = [[1], [7], [3, 11], [40], [text.length]];
    const result = await windowAndGenerateTexts(guard, text, cuts);
    expect([...new Set(result.streamed)]).toEqual([result.generated]);
  });
});

describe('lists of places still missed (round 46)', () => {
  // No LOCATION of the tagger's in the list and no place word before it: each item stays the
  // tagger's PERSON. `lent … to` is said of people as well; not fixed in time.
  it.fails('a list of cities after `lent paintings to`', () => {
    expect(read('We lent paintings to Madrid, Toledo and Bilbao.')).toEqual([
      ['LOCATION', 'Madrid'],
      ['LOCATION', 'Toledo'],
      ['LOCATION', 'Bilbao'],
    ]);
  });

  // The tagger's span runs over the joining word (`Sierra Leone and`): the rule retypes whole
  // spans only, it does not cut them.
  it.fails('a two-word country the tagger ran into `and`', () => {
    expect(read('Volunteers came from Sierra Leone and Burkina Faso.')).toEqual([
      ['LOCATION', 'Sierra Leone'],
      ['LOCATION', 'Burkina Faso'],
    ]);
  });
});

describe('items after a place, and placeholders as items (round 46 review, `itemsAfterPlaces`)', () => {
  const asked = (text: string) =>
    findNamedEntities(text, ['PERSON', 'LOCATION']).map(span => [
      span.type,
      text.slice(span.start, span.end),
    ]);

  it('an item right after a `[LOCATION]` placeholder is a place; one before it is not', () => {
    // 3d9d92a7 read each a PERSON: a placeholder was no item, and no anchor.
    expect(asked('We sailed past [LOCATION], Bremen and Kiel.')).toEqual([
      ['LOCATION', 'Bremen'],
      ['LOCATION', 'Kiel'],
    ]);
    expect(asked('Madison or [LOCATION] and Jackson and Adelaide.')).toEqual([
      ['PERSON', 'Madison'],
      ['LOCATION', 'Jackson'],
      ['LOCATION', 'Adelaide'],
    ]);
  });

  it('a redacted list read again with PERSON and LOCATION asked hides nothing more', () => {
    // 3d9d92a7 hid `Gdansk` as a PERSON: the reading with the placeholders as blanks read one
    // where the plain reading read an ORGANIZATION.
    expect(asked('Routes through [LOCATION], Gdansk, [LOCATION], [LOCATION].')).toEqual([]);
    // Only in a list after a LOCATION placeholder: a name after a placeholder the text wrote
    // is still found with PERSON alone (round 41; a first version of this fix lost it).
    const person = (text: string) =>
      findNamedEntities(text, ['PERSON']).map(span => text.slice(span.start, span.end));
    expect(person('[PERSON] Olu Adeyemi called.')).toEqual(['Olu Adeyemi']);
    expect(person('[ORGANIZATION], Kenya said hi.')).toEqual(['Kenya']);
  });

  it('lists with an item that is no place stream as generate reads them', async () => {
    const texts = [
      'Routes through Kenya, Gdansk, Eugene or Chester and Lincoln, Maria Lopez, Jackson.',
      'Madison and Lincoln or Costa Rica, Acme Corp, Orlando and Adelaide, Victoria or Sydney.',
      `Offices in Lyon, ${Array.from({ length: 12 }, () => 'Eugene, Chester').join(', ')}.`,
    ];
    for (const entities of [['PERSON', 'LOCATION'], ['LOCATION'], ['PERSON']] as const)
      for (const text of texts) {
        const guard = pii({ entities: [...entities], action: 'redact' });
        const result = await windowAndGenerateTexts(guard, text, [[1], [7], [30], [3, 11]]);
        expect(result.streamed).toEqual(Array(4).fill(result.generated));
      }
  });
});
