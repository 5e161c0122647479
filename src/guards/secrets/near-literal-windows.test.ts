import { describe, expect, it } from 'vitest';
import { literalFinder } from '../shared/anchored-scan';
import { findSecrets } from './find-secrets';

/**
 * Round 48 (measured, not kept): the near-printable and near-value literals
 * read in one pass over the union of both window lists, and `[` / `(`
 * ranked for the literal finder's `indexOf` streams. These pin what either
 * change had to keep: a keyed value's name found only in its value window,
 * and the config literals with `[` and `(` found at every occurrence.
 */
describe('keyed provider values in their value windows', () => {
  it('finds a keyed value whose name lies beyond the printable windows, only in a value window', () => {
    // The printable run (the value, 36 characters) reaches 13 characters back;
    // the key's literal sits further back, in the keyed value's window only.
    const text = 'note: SNYK_API_TOKEN = 4f9a8c2e-71b4-4d0a-9e6f-2c5b8a1d7e40 end';
    expect(findSecrets(text)).toEqual([{ type: 'SNYK_TOKEN', start: 23, end: 59 }]);
  });

  it('finds a printable-run token and a keyed value side by side', () => {
    const text =
      'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5 SNYK_API_TOKEN = 4f9a8c2e-71b4-4d0a-9e6f-2c5b8a1d7e40';
    expect(findSecrets(text)).toEqual([
      { type: 'GITHUB_TOKEN', start: 0, end: 40 },
      { type: 'SNYK_TOKEN', start: 58, end: 94 },
    ]);
  });
});

describe('literals with `[` and `(`', () => {
  it('are found at every occurrence, beside literals of letters only', () => {
    const finder = literalFinder(['[', 'define(', 'define (', 'auth']);
    const hits: Array<[number, number]> = [];
    finder.find('a[b] define( x define (auth[', (start, literal) => hits.push([start, literal]));
    expect(hits.sort((first, second) => first[0] - second[0])).toEqual([
      [1, 0],
      [5, 1],
      [15, 2],
      [23, 3],
      [27, 0],
    ]);
  });

  it('still anchor the config rules that need them', () => {
    expect(findSecrets("$cfg['password'] = 'Xq9Lm2Zr8Wq4';")).toEqual([
      { type: 'GENERIC_SECRET', start: 20, end: 32 },
    ]);
    expect(findSecrets("x [a] [b] define (  define('AUTH_KEY', 'Xq9Lm2Zr8Wq4Tb6');")).toEqual([
      { type: 'GENERIC_SECRET', start: 40, end: 55 },
    ]);
  });
});
