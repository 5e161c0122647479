import { describe, expect, it } from 'vitest';
import { findPii } from '../find-pii-bundled';
import type { PhoneVerdicts, Resolved } from './finder';
import { cannotHoldValidNumber, digitsOf, matcherCandidateDigits, phoneFinder } from './phone';

// Round 47 (issue 17): the phone finder's reads of a run, made once per run
// and call (its digits, its shape), with the same findings.

describe('digitsOf', () => {
  it.each([
    ['', ''],
    ['415', '415'],
    ['(415) 555-0132', '4155550132'],
    ['  +44 (0)20 7946 0958', '4402079460958'],
    ['1998-1999', '19981999'],
    ['a1b2c3', '123'],
    ['--..//  ', ''],
    ['٤١٥ 12', '12'],
  ])('%j -> %j, as the global replace of \\D gives', (text, digits) => {
    expect(digitsOf(text)).toBe(digits);
    expect(digitsOf(text)).toBe(text.replace(/\D/g, ''));
  });
});

describe('cannotHoldValidNumber with the run digits kept', () => {
  it('answers as without them, and finds the digits once for every region', () => {
    const regions = ['US', 'GB', 'DE', 'FR', 'IL', 'IN', 'CA', 'BR', 'JP', 'CN'] as const;
    for (const run of ['(020) 7946-0958', '1998-1999', '011 683 4002', '0171 2345 678']) {
      const kept: { digits?: string } = {};
      const candidates = matcherCandidateDigits(run);
      const verdicts = regions.map(region => cannotHoldValidNumber(run, region, candidates, kept));
      expect(verdicts).toEqual(regions.map(region => cannotHoldValidNumber(run, region)));
      expect(kept).toEqual({ digits: run.replace(/\D/g, '') });
    }
  });
});

describe('the shape of a rejected run, judged once per call', () => {
  const options = (phoneVerdicts: PhoneVerdicts): Resolved => ({
    defaultRegion: 'US',
    phoneRegions: [],
    obfuscatedEmails: true,
    hasNhs: false,
    phoneVerdicts,
  });

  it('keeps the verdict under the run with a # and reads it at each place', () => {
    const text = 'Phone: 467 3395. Also 467 3395 and ring me on 467 3395; 1998-1999.';
    const verdicts: PhoneVerdicts = new Map();
    const found: Array<[number, number]> = [];
    phoneFinder.find(text, (start, end) => found.push([start, end]), options(verdicts));
    expect(found).toEqual([
      [7, 15],
      [46, 54],
    ]);
    expect([...verdicts.entries()]).toEqual([
      ['467 3395', []],
      ['#467 3395', [[0, 0]]],
      ['1998-1999', []],
      // written like a number (two groups of four), no phone word before it
      ['#1998-1999', [[0, 0]]],
    ]);
  });

  it('finds the same numbers through findPii', () => {
    const text = 'Phone: 467 3395. Also 467 3395 and ring me on 467 3395; 1998-1999.';
    expect(findPii(text, { entities: ['PHONE_NUMBER'] })).toEqual([
      { type: 'PHONE_NUMBER', start: 7, end: 15 },
      { type: 'PHONE_NUMBER', start: 46, end: 54 },
    ]);
  });
});
