import { describe, expect, it } from 'vitest';
import { findPii } from '../find-pii-bundled';
import { findNamedEntities } from './find-named-entities';

/*
 * Round 43, an attacker's read of round 42's country rule
 * (`countriesLeftOut`, places.ts): one capitalised word that is a
 * country's English name and not flagged a given name becomes a LOCATION,
 * "the span's type when the tagger read it alone as a PERSON". A person
 * called Kenya (or Jamaica), whom the tagger found as a PERSON at fc226bfe,
 * is now a place: `pii({ entities: ['PERSON'] })`, or any list without
 * LOCATION, releases the name where round 41 redacted it, even beside
 * `said she` or after `Hi`. Found at 8302f965 (PERSON at fc226bfe for each
 * row below, none now). The fix is in places.ts (hE's lane this round):
 * a PERSON the tagger read stays a person, or the rule wants a place
 * context (`to`, `in`, `from`) before it turns one.
 */

const asPerson: Array<[string, string]> = [
  ['Thanks, Kenya! See you soon.', 'Kenya'],
  ['Kenya said she would call me back.', 'Kenya'],
  ['I asked Kenya to call me back.', 'Kenya'],
  ['Hi Kenya, thanks for the files.', 'Kenya'],
  ['Kenya called me at 555-0100.', 'Kenya'],
  ['Thanks, Jamaica! See you soon.', 'Jamaica'],
];

describe('a person named as a country, PERSON asked for', () => {
  // The rule's own cases stay places (the baseline: a country where a place is meant).
  it('a country after a travel word is a LOCATION', () => {
    const text = 'We are travelling to Kenya next week.';
    expect(
      findNamedEntities(text, ['PERSON', 'LOCATION']).map(span => [
        span.type,
        text.slice(span.start, span.end),
      ]),
    ).toEqual([['LOCATION', 'Kenya']]);
  });

  it.fails.each(asPerson)('%s: the name is found as a PERSON', (text, name) => {
    expect(
      findPii(text, { entities: ['PERSON'] }).map(span => [
        span.type,
        text.slice(span.start, span.end),
      ]),
    ).toEqual([['PERSON', name]]);
  });
});
