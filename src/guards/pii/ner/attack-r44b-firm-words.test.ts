import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { findPii } from '../find-pii-bundled';
import { pii } from '../pii';
import { findNamedEntities } from './find-named-entities';

/*
 * Round 44b, an attacker's read of round 44's firm words (brands.ts, `companyWords`: 626 words of
 * `@cspell/dict-companies`). One word of the list that the tagger read alone as a PERSON becomes
 * an ORGANIZATION (`isBrand`), unless a person cue (`ask`, `tell`, …) or an honorific is right
 * before it. The list holds surnames (`Icahn`, `Pfizer`, `Fluor`, `Lorillard`, `Fresenius`,
 * `Daimler`, `Westinghouse`, …), so a person so named, read as a PERSON at bbe5b0ee, was released
 * by `pii({ entities: ['PERSON'] })` (or any list without ORGANIZATION) at e913f4a6.
 * Fixed here for the readings that say it is a person (brands.ts, `firmWordContext`, a few
 * lines): a singular role noun right before (`Our tenant Fresenius`) or a personal pronoun in
 * the six tokens after it in its sentence (`Pfizer told me her password`). Sentences written for
 * this test; bbe5b0ee's and e913f4a6's reads noted per row.
 */

function personsOnly(text: string): Array<[string, string]> {
  return findPii(text, { entities: ['PERSON'] }).map(span => [
    span.type,
    text.slice(span.start, span.end),
  ]);
}

function all(text: string): string[] {
  return findNamedEntities(text).map(span => `${span.type}:${text.slice(span.start, span.end)}`);
}

describe('a surname of the firm words, with a person reading in its sentence', () => {
  // The pronoun is read up to six tokens past the name: a stream cut at each delta (the
  // window holds what a rule may read ahead) ends as generate does.
  it.each<[string, string, string]>([
    // bbe5b0ee: PERSON:Pfizer; e913f4a6: ORGANIZATION:Pfizer, nothing with PERSON alone
    ['Pfizer told me her password.', 'Pfizer', '[PERSON] told me her password.'],
    // bbe5b0ee: PERSON:Fresenius; e913f4a6: ORGANIZATION:Fresenius
    ['Our tenant Fresenius paid late again.', 'Fresenius', 'Our tenant [PERSON] paid late again.'],
    // e913f4a6: ORGANIZATION:Fluor
    ['Fluor said he would pay.', 'Fluor', '[PERSON] said he would pay.'],
  ])('%s: hidden as a PERSON, streamed or not', async (text, name, redacted) => {
    expect(personsOnly(text)).toEqual([['PERSON', name]]);
    expect(all(text)).toEqual([`PERSON:${name}`]);
    const guard = pii({ entities: ['PERSON'], action: 'redact' });
    const cuts = [[1], [2], [3], [5], [7], [11], [1, 7, 3], [30]];
    const { generated, streamed } = await windowAndGenerateTexts(guard, text, cuts);
    expect([generated, ...new Set(streamed)]).toEqual([redacted, redacted]);
  });

  it('a firm word with no person reading is still the firm (round 44)', () => {
    expect(all('Iberdrola raised our electricity bill.')).toEqual(['ORGANIZATION:Iberdrola']);
    // A pronoun of the next sentence is not read.
    expect(all('Pfizer raised its prices. She was angry.')).toEqual(['ORGANIZATION:Pfizer']);
  });
});

describe('a surname of the firm words, nothing in its sentence but the name', () => {
  // Open (hE's / hK's lane, brands.ts): with no cue either way the override to ORGANIZATION
  // releases the surname when PERSON alone is asked for. At bbe5b0ee each was PERSON. Failing
  // closed here (a tagger PERSON becomes the firm only with a firm's context, as a country
  // becomes a place only in a place context: `countriesLeftOut`) would undo round 44's
  // `Iberdrola raised our electricity bill.`, so it is left to the rule's owner.
  it.fails.each<[string, string]>([
    ['Icahn called me about the loan.', 'Icahn'],
    ['Lorillard will sign the lease tomorrow.', 'Lorillard'],
    ['Contact: Fluor', 'Fluor'],
  ])('%s: hidden as a PERSON', (text, name) => {
    expect(personsOnly(text)).toEqual([['PERSON', name]]);
  });
});
