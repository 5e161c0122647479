import { describe, expect, it } from 'vitest';
import { findNamedEntities } from './find-named-entities';

/**
 * Round 48 (hC, issue 17, speed): a cut tried (commit 51b51456, not
 * shipped: its cachegrind ratio missed the keep rule, docs/pii-ner-model.md)
 * read a word's class from a mask per word id (`WordClasses`) instead of a
 * set per token in `cueOf` (the cues of lower-case names, `its`/`it's` a
 * class of their own, the chat line asked only for a cue that needs it),
 * `countriesAlone` (`countryWords`) and `firmWordsLeftOutside`
 * (`companyWords`). These pin the spans those rules give, exactly: the
 * `its`, country and firm cases each failed on a copy of that cut with its
 * class left out of the masks, so a later cut of the same kind that drops
 * a class fails here.
 */
describe('ner span rules by word-class masks (round 48, hC)', () => {
  it('reads `its X here` as a name (the `its` cue class)', () => {
    expect(findNamedEntities('hey its marta here, pls resend it')).toEqual([
      { type: 'PERSON', start: 8, end: 13 },
    ]);
    expect(findNamedEntities("it's mateo here, open up")).toEqual([
      { type: 'PERSON', start: 5, end: 10 },
    ]);
  });

  it('keeps the chat-line cues (`omg`, `and`) asked after the class test', () => {
    expect(findNamedEntities('omg mateus just called\nok so farhan and leila are here')).toEqual([
      { type: 'PERSON', start: 4, end: 10 },
      { type: 'PERSON', start: 29, end: 35 },
      { type: 'PERSON', start: 40, end: 45 },
    ]);
  });

  it('types countries standing alone by the country class', () => {
    expect(findNamedEntities('The choir toured Chile, Peru and Bolivia last spring.')).toEqual([
      { type: 'LOCATION', start: 17, end: 22 },
      { type: 'LOCATION', start: 24, end: 28 },
      { type: 'LOCATION', start: 33, end: 40 },
    ]);
    expect(findNamedEntities('Mali, Niger and Chad signed the pact.')).toEqual([
      { type: 'ORGANIZATION', start: 0, end: 11 },
      { type: 'LOCATION', start: 16, end: 20 },
    ]);
  });

  it('finds a firm word left outside by the company class', () => {
    expect(findNamedEntities('Tencent hired a new chief.')).toEqual([
      { type: 'ORGANIZATION', start: 0, end: 7 },
    ]);
  });
});
