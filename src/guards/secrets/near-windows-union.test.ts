import { describe, expect, it } from 'vitest';
import { findSecrets } from './find-secrets';
import { windowsUnion } from './provider-scan';

/**
 * Round 48: the literals of the rules near printable runs and of those near
 * keyed values are found in one read of the union of both kinds of windows
 * (one `findWithin` each read a value's characters twice before).
 */
describe('windowsUnion', () => {
  it('merges two window lists in text order, joining windows that overlap or meet', () => {
    expect(windowsUnion([0, 5, 10, 20], [3, 8, 20, 25, 30, 31])).toEqual([0, 8, 10, 25, 30, 31]);
    expect(windowsUnion([40, 50], [0, 10, 12, 14])).toEqual([0, 10, 12, 14, 40, 50]);
    expect(windowsUnion([5, 9], [6, 7])).toEqual([5, 9]);
  });

  it('keeps either list whole when the other is empty', () => {
    expect(windowsUnion([], [2, 4, 6, 8])).toEqual([2, 4, 6, 8]);
    expect(windowsUnion([2, 4], [])).toEqual([2, 4]);
    expect(windowsUnion([], [])).toEqual([]);
  });
});

describe('keyed provider values in the union of the windows', () => {
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
