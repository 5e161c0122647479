import { describe, expect, it } from 'vitest';
import { findNamedEntities } from './find-named-entities';

/** The spans of `text` as `TYPE:value` strings. */
function found(text: string): string[] {
  return findNamedEntities(text).map(span => `${span.type}:${text.slice(span.start, span.end)}`);
}

/**
 * Round 40 (issue 17 item 1): sports teams by what teams do in a match report
 * (sports.ts). Sentences written for these tests, none from the dev split or a
 * hand-written fixture; each case read differently before the rule (noted).
 */
describe('sports teams', () => {
  it.each<[string, string[]]>([
    // before: PERSON:Arsenal, PERSON:Chelsea 2-0
    ['Arsenal beat Chelsea 2-0.', ['ORGANIZATION:Arsenal', 'ORGANIZATION:Chelsea']],
    // before: PERSON:Liverpool, PERSON:Everton
    ['Liverpool drew with Everton.', ['ORGANIZATION:Liverpool', 'ORGANIZATION:Everton']],
    // before: PERSON:Chelsea
    ['She plays for Chelsea.', ['ORGANIZATION:Chelsea']],
    // before: LOCATION:Seattle Seahawks
    ['He used to play for the Seattle Seahawks.', ['ORGANIZATION:Seattle Seahawks']],
    // before: PERSON:Sampdoria
    ['Sampdoria won the cup in the end.', ['ORGANIZATION:Sampdoria']],
    // before: PERSON:Leeds United (a club word ends the name)
    ['Leeds United lost at home.', ['ORGANIZATION:Leeds United']],
    // before: PERSON:Real Madrid
    ['Real Madrid signed a striker.', ['ORGANIZATION:Real Madrid']],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('keeps people and countries in the same frames', () => {
    expect(found('Nadal beat Federer in the final.')).toEqual(['PERSON:Nadal', 'PERSON:Federer']);
    expect(found('Anna Smith beat Chelsea.')).toEqual(['PERSON:Anna Smith', 'PERSON:Chelsea']);
    expect(found('Maria won the lottery.')).toEqual(['PERSON:Maria']);
    expect(found('Tom lost to Jerry.')).toEqual(['PERSON:Tom', 'PERSON:Jerry']);
    expect(found('Real Estate Agents')).toEqual([]);
  });

  // Round 40 hN: `supports X` made X a team after any subject, so a product's or a claim's
  // object was an organisation (`ORGANIZATION:JSON`, `ORGANIZATION:Trump`, found in review).
  it('takes `supports X` as a team only after a pronoun or a person', () => {
    expect(found('He supports Galatasaray like his father did.')).toEqual([
      'ORGANIZATION:Galatasaray',
    ]);
    expect(found('Ayse supports Galatasaray.')).toEqual([
      'PERSON:Ayse',
      'ORGANIZATION:Galatasaray',
    ]);
    expect(found('Our parser supports JSON and YAML.')).toEqual([]);
    expect(found('The new release supports Windows and Linux.')).toEqual([]);
    expect(found('Version 2 supports PostgreSQL.')).toEqual([]);
    expect(found('It supports TypeScript out of the box.')).toEqual([]);
  });

  // Round 40 hN: a shouted word taken for a place before a shouted word in `s`, or a place
  // before a function word, was a team (`ORGANIZATION:IMMORAL THIS`, `ORGANIZATION:Ω This`).
  it('joins a place only to a plural in title case that is no function word', () => {
    expect(found('THIS IS IMMORAL THIS IS A DREAM')).not.toContain('ORGANIZATION:IMMORAL THIS');
    expect(found('reply.\nΩ This is your answer')).not.toContain('ORGANIZATION:Ω This');
    expect(found('We saw the Detroit Lions play.')).toContain('ORGANIZATION:Detroit Lions');
    // A singular in `-ss`, `-us`, `-is` is no plural (`ORGANIZATION:Shawinigan Process` before).
    expect(found('In the Shawinigan Process, gas is made.')).not.toContain(
      'ORGANIZATION:Shawinigan Process',
    );
  });

  it('reads a long run of matches in linear time, each team once', () => {
    const text = 'Arsenal beat Chelsea beat Arsenal '.repeat(2000);
    const spans = findNamedEntities(text);
    expect(spans.length).toBeGreaterThan(3000);
    expect(spans.every(span => span.type === 'ORGANIZATION')).toBe(true);
    for (let index = 1; index < spans.length; index++)
      expect(spans[index]!.start).toBeGreaterThanOrEqual(spans[index - 1]!.end);
  });
});

// Round 41 (issue 17 item 1): two players, not teams, when the match is of one against one.
describe('round 41: a match of sets, frames or moves names no team', () => {
  it.each<[string, string[]]>([
    // before: ORGANIZATION:Seonkyoung, ORGANIZATION:Adam
    ['Seonkyoung beat Adam in the second set.', ['PERSON:Seonkyoung', 'PERSON:Adam']],
    // before: ORGANIZATION:Ronnie, ORGANIZATION:Judd
    ['Ronnie beat Judd in the deciding frame.', ['PERSON:Ronnie', 'PERSON:Judd']],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('keeps teams where the match has no such word', () => {
    expect(found('Arsenal beat Chelsea 2-0 on Sunday.')).toEqual([
      'ORGANIZATION:Arsenal',
      'ORGANIZATION:Chelsea',
    ]);
    expect(found('Feyenoord beat Ajax in the cup final.')).toEqual([
      'ORGANIZATION:Feyenoord',
      'ORGANIZATION:Ajax',
    ]);
    // Beyond six tokens after the second side: as before.
    expect(found('Feyenoord beat Ajax on a cold and rainy night, one set piece')).toContain(
      'ORGANIZATION:Feyenoord',
    );
  });
});

// Round 43 (issue 17): a match of one given name alone against another single word is of two
// players; a place that is no given name, a country or a name of two words keeps the clubs.
describe('round 43: a given name alone on one side of a match is a player', () => {
  it.each<[string, string[]]>([
    // before: ORGANIZATION:Kim, ORGANIZATION:Adam
    ['Kim beat Adam easily.', ['PERSON:Kim', 'PERSON:Adam']],
    // before: ORGANIZATION:Jonas, ORGANIZATION:Mateo
    ['Jonas defeated Mateo in the semi-final.', ['PERSON:Jonas', 'PERSON:Mateo']],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('keeps clubs named by a place, by no list or by two words', () => {
    expect(found('Arsenal beat Chelsea on Saturday.')).toEqual([
      'ORGANIZATION:Arsenal',
      'ORGANIZATION:Chelsea',
    ]);
    expect(found('Juventus beat Lazio.')).toEqual(['ORGANIZATION:Juventus', 'ORGANIZATION:Lazio']);
    expect(found('Aston Villa drew with Everton.')).toEqual([
      'ORGANIZATION:Aston Villa',
      'ORGANIZATION:Everton',
    ]);
  });

  it('reads two clubs named like given names as people (the trade, docs/pii-ner-model.md)', () => {
    expect(found('Barcelona beat Valencia 2-1.')).toEqual(['PERSON:Barcelona', 'PERSON:Valencia']);
  });
});
