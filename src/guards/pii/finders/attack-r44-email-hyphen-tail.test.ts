import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { findPii } from '../find-pii-bundled';
import { pii } from '../pii';

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
 * Round 45: a last label that is no top-level domain but starts with one a
 * `-` follows is cut before the `-` (`validDomainEnd` in email.ts); a
 * hyphen inside an earlier label (`my-site.com`) stays in the domain.
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

  // At bbe5b0ee (and f716bfc7): [] for the first three, `john@example.co` for the last.
  it.each([
    ['a word after the -', 'mail john@example.com-thanks now', 'john@example.com'],
    ['a short word after the -', 'mail jane@corp.io-or call', 'jane@corp.io'],
    ['a year after the -', 'mail john@example.com-2024 now', 'john@example.com'],
    ['two labels of suffix', 'mail john@example.co.uk-bye now', 'john@example.co.uk'],
    ['two words after the -', 'mail john@example.com-see-you now', 'john@example.com'],
    ['a word after the - and a dot', 'mail john@example.com-thanks.Bye', 'john@example.com'],
  ])('%s: the address is found', (_, text, address) => {
    expect(found(text)).toEqual([['EMAIL_ADDRESS', address]]);
  });

  it.each([
    ['a hyphen in the second-level label', 'mail bob@my-site.com now', 'bob@my-site.com'],
    ['a hyphen in a subdomain', 'mail bob@mail-1.my-site.co.uk now', 'bob@mail-1.my-site.co.uk'],
    ['a hyphenated domain a - word follows', 'mail bob@my-site.com-thanks', 'bob@my-site.com'],
  ])('%s: the hyphenated domain stays whole', (_, text, address) => {
    expect(found(text)).toEqual([['EMAIL_ADDRESS', address]]);
  });

  // The word after the `-` reaching an `@` is the next address's local part: no cut, one span.
  it.each([
    ['a plain local part', 'mail jane@x.io-bob@y.io now', 'jane@x.io-bob@y.io'],
    ['a local part with a _', 'mail jane@x.io-bob_smith@y.io now', 'jane@x.io-bob_smith@y.io'],
  ])('%s after the -: the two addresses are one span', (_, text, address) => {
    expect(found(text)).toEqual([['EMAIL_ADDRESS', address]]);
  });

  it.each([
    ['a last label that no top-level domain starts', 'mail john@example.zzz-thanks now'],
    ['a label that starts with a -', 'mail john@example.-com now'],
  ])('%s: no address', (_, text) => {
    expect(found(text)).toEqual([]);
  });

  it('pii() redacts the address and keeps the word in generate and window stream mode', async () => {
    const answer = 'Mail john@example.com-thanks or jane@corp.co.uk-2024 now.\nDone.';
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2], [40]];
    const { generated, streamed } = await windowAndGenerateTexts(pii(), answer, chunkings);
    expect(generated).toBe('Mail [EMAIL_ADDRESS]-thanks or [EMAIL_ADDRESS]-2024 now.\nDone.');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });

  it('window streaming ends as generate does at every cut of one text', async () => {
    const answer = 'Ask john@example.com-thanks now.';
    const cuts = Array.from({ length: answer.length - 1 }, (_, at) => [at + 1, answer.length]);
    const { generated, streamed } = await windowAndGenerateTexts(pii(), answer, cuts);
    expect(generated).toBe('Ask [EMAIL_ADDRESS]-thanks now.');
    expect(streamed).toEqual(cuts.map(() => generated));
  });
});
