import { describe, expect, it } from 'vitest';
import { findPii } from '../find-pii-bundled';

/*
 * Round 44b, an attacker's read of round 44's `countryModified` (places.ts, `inPlaceContext`): a
 * country right before a lower-case role noun is a place (`the Uganda coach`), and a tagger's
 * PERSON span on it becomes a LOCATION (`countriesLeftOut`). A person cue right before the name
 * is not read there, so a person called Kenya addressed by a cue and followed by a role noun
 * that starts the next phrase (`Ask Kenya teacher meetings are on Friday.`: PERSON:Kenya at
 * bbe5b0ee) is a LOCATION at e913f4a6, released by `pii({ entities: ['PERSON'] })`.
 * `Dear Kenya friend, …` was a LOCATION at bbe5b0ee already (another place rule), noted so.
 * Fixed in round 45 (places.ts, `personReading`): a person cue right before the country (`ask`,
 * `tell`, `dear`, `hi`, `thanks`, …) makes it a PERSON whatever the tagger read, unless a noun of
 * a state's body follows (`I asked Kenya team to wait` stays a place; a role noun such as
 * `teacher` or `friend` no longer makes a place after a cue).
 */

function personsOnly(text: string): Array<[string, string]> {
  return findPii(text, { entities: ['PERSON'] }).map(span => [
    span.type,
    text.slice(span.start, span.end),
  ]);
}

describe('a person named like a country, after a person cue, before a role noun', () => {
  it.each<[string]>([
    // bbe5b0ee: PERSON:Kenya; e913f4a6 and f45bd334: LOCATION:Kenya
    ['Ask Kenya teacher meetings are on Friday.'],
    // bbe5b0ee, e913f4a6 and f45bd334: LOCATION:Kenya
    ['Dear Kenya friend, I miss you.'],
  ])('%s: hidden as a PERSON', text => {
    expect(personsOnly(text)).toEqual([['PERSON', 'Kenya']]);
  });

  it('the cue alone, or a vocative comma, keeps the person (as at bbe5b0ee)', () => {
    expect(personsOnly('Hi Kenya, team lunch is at noon.')).toEqual([['PERSON', 'Kenya']]);
    expect(personsOnly('Kenya said she would coach the kids.')).toEqual([['PERSON', 'Kenya']]);
  });
});
