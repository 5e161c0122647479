import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPii } from '../find-pii-bundled';
import { btcBech32, btcLegacy, cryptoMatches, ethAddress } from './crypto';

/** `index:match` of each match, as `matchAll` over the whole text yields them. */
function fullScan(text: string, pattern: RegExp): string[] {
  return Array.from(text.matchAll(pattern), match => `${match.index}:${match[0]}`);
}

/** The same from the one pattern that finds all three. */
function anchoredScan(text: string): string[][] {
  return cryptoMatches(text).map(matches => matches.map(match => `${match.index}:${match[0]}`));
}

const base58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const bech32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const hex = '0123456789abcdefABCDEF';
const run = (alphabet: string, min: number, max: number) =>
  fc
    .array(fc.constantFrom(...alphabet.split('')), { minLength: min, maxLength: max })
    .map(chars => chars.join(''));

/** Address shapes of each kind (valid-looking and one short or long), prefixes alone, and what sits around them. */
const cryptoish = fc
  .array(
    fc.oneof(
      run(base58, 20, 40).map(body => `1${body}`),
      run(base58, 20, 40).map(body => `3${body}`),
      run(bech32, 5, 30).map(body => `bc1${body}`),
      run(bech32.toUpperCase(), 5, 30).map(body => `BC1${body}`),
      run(hex, 38, 42).map(body => `0x${body}`),
      fc.constantFrom(
        '1',
        '3',
        'x',
        '0',
        '0x',
        'bc1',
        'BC1',
        'bC1',
        'b',
        'c',
        '_',
        'l',
        'O',
        'I',
        ' ',
        '\n',
        '.',
        '-',
        ':',
        '/',
        'é',
      ),
    ),
    { maxLength: 12 },
  )
  .map(parts => parts.join(''));

describe('crypto addresses found by one pattern', () => {
  it('finds exactly the matches of the three patterns over the whole text', () => {
    fc.assert(
      fc.property(cryptoish, text => {
        expect(anchoredScan(text)).toEqual([
          fullScan(text, btcLegacy),
          fullScan(text, btcBech32),
          fullScan(text, ethAddress),
        ]);
      }),
      { numRuns: 3000, seed: 20 },
    );
  });

  it('finds the same where `1`, `3` and `x` are too many to visit one by one', () => {
    // Past one in 32 characters the pattern walks the text itself.
    fc.assert(
      fc.property(cryptoish, fc.constantFrom('4111 ', '1 3 x ', '0x1 '), (text, filler) => {
        const dense = `${filler.repeat(40)}${text} ${filler.repeat(40)}`;
        expect(anchoredScan(dense)).toEqual([
          fullScan(dense, btcLegacy),
          fullScan(dense, btcBech32),
          fullScan(dense, ethAddress),
        ]);
      }),
      { numRuns: 300, seed: 29 },
    );
  });

  it('reads addresses at the start, after a blank or mark, not inside a word', () => {
    const legacy = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
    const bech = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    const eth = '0x52908400098527886E0F7030069857D2E4169EE7';
    const text = `${legacy} a${legacy} (${bech}) x${bech} ${eth}, _${eth} 0x${eth}`;
    expect(anchoredScan(text)).toEqual([
      fullScan(text, btcLegacy),
      fullScan(text, btcBech32),
      fullScan(text, ethAddress),
    ]);
    expect(anchoredScan(text)).toEqual([[`0:${legacy}`], [`72:${bech}`], [`160:${eth}`]]);
    expect(findPii(text, { entities: ['CRYPTO'] })).toEqual([
      { type: 'CRYPTO', start: 0, end: legacy.length },
      { type: 'CRYPTO', start: 72, end: 72 + bech.length },
      { type: 'CRYPTO', start: 160, end: 160 + eth.length },
    ]);
  });
});
