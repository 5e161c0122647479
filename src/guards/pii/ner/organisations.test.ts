import { describe, expect, it } from 'vitest';
import { findNamedEntities } from './find-named-entities';

/** The spans of `text` as `TYPE:value` strings. */
function found(text: string): string[] {
  return findNamedEntities(text).map(span => `${span.type}:${text.slice(span.start, span.end)}`);
}

/**
 * Round 38 (issue 17 item 1): organisations, address parts and places that the
 * tagger read as people or places, and month names. Sentences written for
 * these tests, none from the dev split or a hand-written fixture; each case
 * read differently before the rule (noted).
 */
describe('organisation names by their words', () => {
  it.each<[string, string[]]>([
    // before: PERSON:Hartwell Trust
    ['He volunteers for the Hartwell Trust on weekends.', ['ORGANIZATION:Hartwell Trust']],
    // before: PERSON:Hudson Brothers
    ['He works at Hudson Brothers in Leeds.', ['ORGANIZATION:Hudson Brothers', 'LOCATION:Leeds']],
    // before: nothing
    ['She trained at the Royal Academy of Music.', ['ORGANIZATION:Royal Academy of Music']],
    // before: LOCATION:Manchester
    ['She studied at the University of Manchester.', ['ORGANIZATION:University of Manchester']],
    // before: PERSON:Banco Bilbao
    ['My pension is with Banco Bilbao in Spain.', ['ORGANIZATION:Banco Bilbao', 'LOCATION:Spain']],
    // before: PERSON:Kolar, ORGANIZATION:Associates Sp
    ['Kolar & Associates Sp. z o.o. sent the bill.', ['ORGANIZATION:Kolar & Associates Sp']],
    // Round 39, organisation words of other languages. Before: PERSON:Uppsala Universitet
    ['Uppsala Universitet admitted him.', ['ORGANIZATION:Uppsala Universitet']],
    // before: PERSON:Atlético Independiente
    ['Club Atlético Independiente won.', ['ORGANIZATION:Club Atlético Independiente']],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('needs a word besides the organisation word, and no street word', () => {
    expect(found('Foundation repairs are expensive.')).toEqual([]);
    expect(found('The hospital is on Hospital Road 12 now.')).not.toContainEqual(
      expect.stringMatching(/^ORGANIZATION/),
    );
  });
});

describe('organisations by their context', () => {
  it.each<[string, string[]]>([
    // before: PERSON:Patel only
    ['Patel joined Microsoft in 2019.', ['PERSON:Patel', 'ORGANIZATION:Microsoft']],
    // before: PERSON:Zentrovia (in no name list: looks like a firm)
    ['Zentrovia announced a second plant.', ['ORGANIZATION:Zentrovia']],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('keeps a first name a person before a company verb or after `joined`', () => {
    expect(found('Maria announced her retirement.')).toEqual(['PERSON:Maria']);
    expect(found('Later we joined Maria for lunch.')).toEqual(['PERSON:Maria']);
  });

  it('keeps a listed surname alone before a company verb a person (round 39; before: ORGANIZATION)', () => {
    expect(found('Garcia announced her retirement.')).toEqual(['PERSON:Garcia']);
    expect(found('Garcia announced a new product line.')).toEqual(['PERSON:Garcia']);
  });
});

/** One test per `[text, spans]` case: the spans of `text` are exactly `spans`. */
function readsEach(cases: Array<[string, string[]]>): void {
  it.each(cases)('%s', (text, expected) => expect(found(text)).toEqual(expected));
}

describe('names around particles and honorifics (round 39)', () => {
  readsEach([
    // before: PERSON:Frank, PERSON:Stein
    ['Frank von Stein called.', ['PERSON:Frank von Stein']],
    // before: PERSON:Maria, PERSON:Cruz
    ['Maria de la Cruz called.', ['PERSON:Maria de la Cruz']],
    // before: PERSON:Prof, PERSON:Adaeze Obi
    // Round 41: `Prof` again, by the second reading (the text read as redaction writes it:
    // `Prof. [PERSON] gave`, as window mode re-checks it). Over-redaction, the same in generate
    // and window mode; a name never hides behind a placeholder. Round 43: an honorific alone before
    // a masked placeholder is none (tagger.ts, `honorificBeforeName`).
    ['Prof. Adaeze Obi gave the talk.', ['PERSON:Adaeze Obi']],
  ]);
});

describe('firms named after people, by their context (round 39)', () => {
  readsEach([
    // before: PERSON:Henry Pratt in each
    ['Shares of Henry Pratt slid on Monday.', ['ORGANIZATION:Henry Pratt']],
    ['Henry Pratt said in a filing that revenue fell.', ['ORGANIZATION:Henry Pratt']],
    ['Henry Pratt cut its dividend.', ['ORGANIZATION:Henry Pratt']],
    ['Henry Pratt announced a review of its pricing.', ['ORGANIZATION:Henry Pratt']],
    // before: PERSON:Whitfield
    ["The lawyers met at Whitfield's office.", ['ORGANIZATION:Whitfield']],
    ["Whitfield's shareholders rejected the offer.", ['ORGANIZATION:Whitfield']],
    // before: PERSON:Pratt, PERSON:Whitfield
    ['Pratt & Whitfield built the bridge.', ['ORGANIZATION:Pratt & Whitfield']],
    // before: PERSON:Whitfield, PERSON:Co
    ['Whitfield & Co sold the estate.', ['ORGANIZATION:Whitfield & Co']],
    // before: PERSON:Whitfield
    ["She had surgery at Whitfield's Hospital.", ["ORGANIZATION:Whitfield's Hospital"]],
  ]);

  it("keeps the same names people where the context is a person's", () => {
    expect(found('Henry Pratt said in an interview that he was tired.')).toEqual([
      'PERSON:Henry Pratt',
    ]);
    expect(found('Henry Pratt cut his hair.')).toEqual(['PERSON:Henry Pratt']);
    // `its` after a noun that is not the name's verb refers to the noun.
    expect(found('Henry Pratt put the book back in its place.')).toEqual(['PERSON:Henry Pratt']);
    // A given name at `X's office` and two given names joined by `&` stay people.
    expect(found("We met at Maria's office.")).toEqual(['PERSON:Maria']);
    expect(found('Tom & Jerry is a cartoon.')).toEqual(['PERSON:Tom', 'PERSON:Jerry']);
    expect(found('Emeka & Rosa got married.')).toEqual(['PERSON:Emeka', 'PERSON:Rosa']);
  });
});

describe('coordinated full names', () => {
  it('reads two full names joined by `and` as people when one is tagged a person', () => {
    // before: ORGANIZATION:Arvid Lund
    expect(found('Zhou Xin and Arvid Lund run the lab.')).toEqual([
      'PERSON:Zhou Xin',
      'PERSON:Arvid Lund',
    ]);
  });
});

describe('address runs', () => {
  it.each<[string, string[]]>([
    // before: LOCATION:Via Roma, STREET_ADDRESS:12, 00100 Roma
    ['The store moved to Via Roma 12, 00100 Roma.', ['STREET_ADDRESS:Via Roma 12, 00100 Roma']],
    // before: STREET_ADDRESS:14 Acacia Avenue, …
    [
      'I live at 3/14 Acacia Avenue, Carlton VIC 3053.',
      ['STREET_ADDRESS:3/14 Acacia Avenue, Carlton VIC 3053'],
    ],
  ])('take the address tokens before the tagged address in its part: %s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it.each<[string, string[]]>([
    // before: PERSON:Carrer, PERSON:Balmes, PERSON:Barcelona
    [
      'Return address: Carrer de Balmes 120, 08008 Barcelona',
      ['STREET_ADDRESS:Carrer de Balmes 120, 08008 Barcelona'],
    ],
    // before: PERSON:Nishiki, LOCATION:Nagoya
    [
      'Ship to 3-7-2 Nishiki, Naka-ku, Nagoya 460-0003.',
      ['STREET_ADDRESS:3-7-2 Nishiki, Naka-ku, Nagoya 460-0003'],
    ],
    // before: PERSON:Orfèvres, LOCATION:Colmar
    [
      'Write to 4 rue des Orfèvres, 68000 Colmar.',
      ['STREET_ADDRESS:4 rue des Orfèvres, 68000 Colmar'],
    ],
  ])('make an address of the names and places of an address-shaped run: %s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('leave a name before an address and names with years alone', () => {
    expect(found('Contact: Declan Murray, 19 Birch Lane, Naperville, IL 60540')).toEqual([
      'PERSON:Declan Murray',
      'STREET_ADDRESS:19 Birch Lane, Naperville, IL 60540',
    ]);
    expect(found('Winners: Tomas Novak 2019, Lena Holm 2021.')).toEqual([
      'PERSON:Winners',
      'PERSON:Tomas Novak',
      'PERSON:Lena Holm',
    ]);
  });
});

describe('month names', () => {
  it('drops a month alone and keeps a name that starts with one', () => {
    // before: LOCATION:April, LOCATION:July
    expect(found('We meet in April and again in July.')).toEqual([]);
    expect(found('April Jennings signed the form.')).toEqual(['PERSON:April Jennings']);
  });
});

describe('places after a verb of travel', () => {
  it.each<[string, string[]]>([
    // before: PERSON:Charlotte
    ['She flew to Charlotte on Friday.', ['LOCATION:Charlotte']],
    // before: PERSON:Eugene
    ['He moved to Eugene last year.', ['LOCATION:Eugene']],
    // before: PERSON:Jackson, PERSON:Denver
    ['We flew from Jackson to Denver.', ['LOCATION:Jackson', 'LOCATION:Denver']],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('keeps a person after `to` with no journey', () => {
    expect(found('I wrote from Paris to Maria.')).toEqual(['LOCATION:Paris', 'PERSON:Maria']);
  });
});

describe('round 40: organisation words, `&` pairs with a common word, `its` after a given name', () => {
  it.each<[string, string[]]>([
    // before: PERSON:Ernst
    ['The accounts were audited by Ernst & Young last year.', ['ORGANIZATION:Ernst & Young']],
    // before: PERSON:Nwosu, PERSON:Daniels Solicitors
    ['Nwosu & Daniels Solicitors wrote back.', ['ORGANIZATION:Nwosu & Daniels Solicitors']],
    // before: PERSON:Tata Logistics
    ['Tata Logistics opened a depot.', ['ORGANIZATION:Tata Logistics']],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('keeps a heading of common words, a given name before `its` and `National Insurance` out', () => {
    expect(found('Billing & Revenue')).not.toContain('ORGANIZATION:Billing & Revenue');
    // before: ORGANIZATION:Maria
    expect(found('Maria sold the car for its full price.')).toEqual(['PERSON:Maria']);
    // A company verb still makes a given name a firm by its `its`.
    expect(found('Ford announced a recall of its pickups.')).toEqual(['ORGANIZATION:Ford']);
    expect(found('My National Insurance number is on the letter.')).toEqual([]);
  });

  // Round 40 hN: `United` as a club word cut a name that goes on after it (`ORGANIZATION:The
  // United`, leaving `Nations` shown; `ORGANIZATION:Universe United` out of `United Kingdom`).
  it('reads `United` as a club word only at the end of a name', () => {
    expect(found('The United Nations Commission met in May.')).not.toContain(
      'ORGANIZATION:The United',
    );
    expect(found('She was Miss Universe United Kingdom in 2005.')).not.toContain(
      'ORGANIZATION:Universe United',
    );
    expect(found('Leeds United FC won again.')).toEqual(['ORGANIZATION:Leeds United FC']);
    expect(found('Leeds United lost at home.')).toEqual(['ORGANIZATION:Leeds United']);
  });
});

// Round 41 (issue 17 item 1): a listed surname alone before a company verb stayed a person
// (`Siemens announced`); a business noun in what the verb reports makes it a firm.
describe('round 41: a one-word firm in the name lists by what its company verb reports', () => {
  it.each<[string, string[]]>([
    // before: PERSON:Siemens
    ['Siemens announced a recall of some trains.', ['ORGANIZATION:Siemens']],
    // before: PERSON:Dyson, LOCATION:Asia
    ['Dyson reported record sales in Asia.', ['ORGANIZATION:Dyson', 'LOCATION:Asia']],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('keeps people who announce, report or hire what people do', () => {
    expect(found('Garcia announced her retirement.')).toEqual(['PERSON:Garcia']);
    expect(found('Lopez reported the results to the board.')).toEqual(['PERSON:Lopez']);
    expect(found('Smith hired two new teachers.')).toEqual(['PERSON:Smith']);
    // A given name needs its `its` (round 40): no business noun makes it a firm.
    expect(found('Maria announced a new contract for the band.')).toEqual(['PERSON:Maria']);
  });

  it('reads the business noun only within 127 characters of the name, on its line', () => {
    const far = `Garcia announced ${'a very long and winding '.repeat(6)}contract.`;
    expect(found(far)).toEqual(['PERSON:Garcia']);
    expect(found('Garcia announced\nsales.')).toEqual(['PERSON:Garcia']);
  });
});

// Round 43 (issue 17): firms named by a generic business phrase after a proper word.
describe('round 43: firms named by a trade', () => {
  it.each<[string, string[]]>([
    // before: nothing (`Crescent` is a street word)
    [
      'Our flights were arranged by Crescent Travel Agency.',
      ['ORGANIZATION:Crescent Travel Agency'],
    ],
    // before: LOCATION:Ridgeway, ORGANIZATION:Heating Services
    [
      'The boiler was fixed by Ridgeway Heating Services.',
      ['ORGANIZATION:Ridgeway Heating Services'],
    ],
    // before: LOCATION:Green Valley Logistics
    ['Green Valley Logistics delivered the crates.', ['ORGANIZATION:Green Valley Logistics']],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('needs a proper word before a trade, and keeps other sentence-initial words out', () => {
    expect(found('Please contact Customer Services today.')).toEqual([]);
    expect(found('Contact Sales for a quote.')).toEqual([]);
    expect(found('Yesterday Harbor Logistics called.')).toEqual(['ORGANIZATION:Harbor Logistics']);
  });
});
