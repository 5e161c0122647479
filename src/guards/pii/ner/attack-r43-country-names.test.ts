import { describe, expect, it } from 'vitest';
import { findPii } from '../find-pii-bundled';
import { scanText, WordTable } from './features';
import { findNamedEntities } from './find-named-entities';
import { nerEntities } from './labels';
import { nerModel } from './model/ner-model';
import { decodeNerModel } from './ner-model';
import { spansOfLabels } from './tagger';

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
 *
 * Fixed in round 43 (places.ts, `inPlaceContext`): a country the tagger read
 * alone as a PERSON becomes a LOCATION only with a place context; else it
 * stays the PERSON the tagger read.
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

  it.each(asPerson)('%s: the name is found as a PERSON', (text, name) => {
    expect(
      findPii(text, { entities: ['PERSON'] }).map(span => [
        span.type,
        text.slice(span.start, span.end),
      ]),
    ).toEqual([['PERSON', name]]);
  });
});

describe('a country the tagger read alone as a PERSON (round 43: a place only in a place context)', () => {
  const gazetteers = decodeNerModel(nerModel).gazetteers;
  /** The spans of `text` with its token `name` labelled a one-word PERSON by the tagger. */
  const withPerson = (text: string, name: string) => {
    const scanned = scanText(text, gazetteers, new WordTable(gazetteers));
    const labels = new Uint8Array(scanned.count);
    const index = Array.from(scanned.start).findIndex(
      (start, token) => text.slice(start, scanned.end[token]) === name,
    );
    expect(index).toBeGreaterThanOrEqual(0);
    labels[index] = 1 + 2 * nerEntities.indexOf('PERSON');
    return spansOfLabels(text, scanned, labels).map(
      span => `${span.type}:${text.slice(span.start, span.end)}`,
    );
  };

  it.each<[string, string]>([
    // A place word right before it.
    ['She grew up in Kenya', 'Kenya'],
    ['We visited Kenya last year', 'Kenya'],
    ['Storms moved across Kenya', 'Kenya'],
    // `to` / `from` after a journey word or a verb of travel (round 42's own case).
    ['We moved here from Tunisia', 'Tunisia'],
    ['She went back to Kenya', 'Kenya'],
    ['a flight to Jamaica', 'Jamaica'],
    // An item of a list of countries, before or after another.
    ['offices in Spain, Kenya and Peru', 'Kenya'],
    ['Kenya, Uganda and Tanzania', 'Kenya'],
    // An address's last line: the country, then a postcode ending the line.
    ['Nairobi\nKenya 00100\nthanks', 'Kenya'],
  ])('%s: %s is a place', (text, name) => {
    expect(withPerson(text, name)).toContain(`LOCATION:${name}`);
  });

  it.each<[string, string]>([
    ['Kenya said she would call me back', 'Kenya'],
    ['Hi Kenya, thanks for the files', 'Kenya'],
    ['I talked to Kenya yesterday', 'Kenya'],
    ['a message from Kenya today', 'Kenya'],
    ['Thanks, Jamaica! See you soon', 'Jamaica'],
    ['Kenya is on the call', 'Kenya'],
    // A list word beside it, but no country on the other side.
    ['Sam and Kenya', 'Kenya'],
    ['Thanks, Kenya', 'Kenya'],
    // A phone number after it is no postcode; nor is a number in mid-line.
    ['Kenya 555-0100', 'Kenya'],
    ['Kenya 0712345678', 'Kenya'],
    ['Kenya 2024 was fun', 'Kenya'],
    // The place word on the line before is no context.
    ['We met in\nKenya said hi', 'Kenya'],
  ])('%s: %s stays the PERSON the tagger read', (text, name) => {
    expect(withPerson(text, name)).toContain(`PERSON:${name}`);
  });
});
