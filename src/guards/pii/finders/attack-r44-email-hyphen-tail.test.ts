import { describe, expect, it } from 'vitest';
import { findPii } from '../find-pii-bundled';

/*
 * Round 44, an attacker's read of round 43's e-mail domain cut
 * (`gluedKeyInDomain`): the finder cuts a domain where a glued key starts
 * and drops a last label a dot joins on (`x@example.com.Thanks`), but a
 * word a `-` joins to the top-level domain (`john@example.com-thanks`,
 * `jane@corp.io-or`, a year `-2024`) makes the last label `com-thanks`, no
 * top-level domain, and the address is released whole; with two labels of
 * suffix the finder keeps `john@example.co` and releases `.uk`. Found at
 * bbe5b0ee and 8302f965. The fix is in the e-mail finder
 * (src/guards/pii/finders/email.ts, hB's lane this round): it.fails.
 * Round 44's glued-keys fix covers the case where a key follows the `-`.
 */

const found = (text: string) =>
  findPii(text).map(span => [span.type, text.slice(span.start, span.end)]);

describe('an e-mail address a - joins a word to', () => {
  it.each([
    ['a word after a dot', 'mail john@example.com.Thanks now', 'john@example.com'],
    ['a blank after the -', 'mail john@example.com- thanks', 'john@example.com'],
  ])('%s: the address is found (the baseline)', (_, text, address) => {
    expect(found(text)).toEqual([['EMAIL_ADDRESS', address]]);
  });

  // At bbe5b0ee: [] for the first three, `john@example.co` for the last.
  it.fails.each([
    ['a word after the -', 'mail john@example.com-thanks now', 'john@example.com'],
    ['a short word after the -', 'mail jane@corp.io-or call', 'jane@corp.io'],
    ['a year after the -', 'mail john@example.com-2024 now', 'john@example.com'],
    ['two labels of suffix', 'mail john@example.co.uk-bye now', 'john@example.co.uk'],
  ])('%s: the address is found', (_, text, address) => {
    expect(found(text)).toEqual([['EMAIL_ADDRESS', address]]);
  });
});
