import { describe, expect, it } from 'vitest';
import { findPii } from '../find-pii-bundled';
import { findNamedEntities } from './find-named-entities';

/*
 * Round 43b, an attacker's read of round 43's trade heads (organisations.ts,
 * `tradeHeads`): a proper word before `Travel`, `Services`, `Plumbing`, …
 * makes a firm, and a given name or a surname of the name lists counted as
 * a proper word (`properWordIn`). A person's full name followed by a
 * capitalised trade word (`Sarah Connor Travel booked it.`, `Please ask
 * Maria Gonzalez Travel plans are fine.`) became one ORGANIZATION span:
 * `pii({ entities: ['PERSON'] })`, or any list without ORGANIZATION,
 * released the name the tagger read as a PERSON at 8302f965 (noted per
 * row). Found at cbae3de1; fixed by the lead in round 43 as suggested below
 * (a PERSON the tagger read inside a name of trade words alone keeps its
 * span when it ends before the trade words or opens with a given name;
 * `Andes Freight`, one span with no given name, stays the firm, fixture 3's
 * count unchanged). A fix by the words' flags alone fails, as the name lists are
 * noisy: they hold `Car` and `Park` as given names but neither `Brown` nor
 * `Jisoo`, so "no given name in a trade firm" drops the ninth fixture's
 * `Greenfield Car Hire` (blind; ORGANIZATION exact 14 -> 13, now seen for
 * this rule) and "two listed words, one a given name" misses `Oliver Brown
 * Services` and `Park Jisoo Travel`. Suggested: where a trade-only firm
 * overlaps the tagger's own PERSON span, keep the PERSON (a firm named after
 * its owner hidden as a person, the trade a redaction guard makes).
 */

function personsOnly(text: string): Array<[string, string]> {
  return findPii(text, { entities: ['PERSON'] }).map(span => [
    span.type,
    text.slice(span.start, span.end),
  ]);
}

describe('a full name before a capitalised trade word, PERSON asked for', () => {
  it.each<[string, Array<[string, string]>]>([
    // 8302f965: PERSON:Sarah Connor Travel; cbae3de1: ORGANIZATION, nothing with PERSON alone
    ['Sarah Connor Travel booked it.', [['PERSON', 'Sarah Connor Travel']]],
    // 8302f965: PERSON:Maria Gonzalez Travel; cbae3de1: ORGANIZATION
    ['Please ask Maria Gonzalez Travel plans are fine.', [['PERSON', 'Maria Gonzalez Travel']]],
    // 8302f965: PERSON:Park Jisoo Travel; cbae3de1: ORGANIZATION
    ['Park Jisoo Travel booked it.', [['PERSON', 'Park Jisoo Travel']]],
  ])('%s: the name is hidden as a PERSON', (text, expected) => {
    expect(personsOnly(text)).toEqual(expected);
  });

  // 8302f965: PERSON:Oliver (Brown in a firm); cbae3de1: ORGANIZATION:Oliver Brown Services; round
  // 43's fix: PERSON:Oliver again, `Brown Services` a firm, the surname released. Fixed in round 44
  // (organisations.ts, `ownerNameEnd`): a given name opening a trade name takes in the one or two
  // capitalised words before the trade words, and the spans inside the rest of the name are
  // dropped.
  it.each<[string, Array<[string, string]>]>([
    ['Ask Oliver Brown Services to call me.', [['PERSON', 'Oliver Brown']]],
    // bbe5b0ee: PERSON:Emma, ORGANIZATION:Stone Services (a second reading's firm)
    ['Ask Emma Stone Services to call me.', [['PERSON', 'Emma Stone']]],
  ])('%s: the whole name is hidden as a PERSON', (text, expected) => {
    expect(personsOnly(text)).toEqual(expected);
    expect(
      findNamedEntities(text).map(span => [span.type, text.slice(span.start, span.end)]),
    ).toEqual(expected);
  });

  it('a trade name opening with no given name, or with a head word, stays a firm', () => {
    const firms = (text: string) =>
      findNamedEntities(text).map(span => [span.type, text.slice(span.start, span.end)]);
    expect(firms('Andes Freight lost the crate.')).toEqual([['ORGANIZATION', 'Andes Freight']]);
    expect(firms('Call Oliver Brown Services Ltd today.')).toEqual([
      ['ORGANIZATION', 'Oliver Brown Services Ltd'],
    ]);
  });

  it('a firm named by a proper word that is no given name stays a firm (the baseline)', () => {
    const text = 'The boiler was fixed by Ridgeway Heating Services.';
    expect(
      findNamedEntities(text).map(span => [span.type, text.slice(span.start, span.end)]),
    ).toEqual([['ORGANIZATION', 'Ridgeway Heating Services']]);
    expect(personsOnly(text)).toEqual([]);
  });
});
