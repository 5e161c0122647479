import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { findPii } from '../find-pii-bundled';
import { pii } from '../pii';

/*
 * Round 45 review (hJ): round 45 cuts an e-mail domain before a `-` that
 * joins a word to its top-level domain (`jane@example.com-thanks`), unless
 * what follows is the local part of a next address (`jane@x.io-bob@y.io`:
 * one span). That test read up to 64 characters after the domain run, but
 * the next address's local part is read from the first domain's start
 * (`x.io-bbb…`), and one of more than 64 characters is no address: with 60
 * letters after the `-`, neither address was found, in both modes (as at
 * f45bd334, before the cut). Now a local part that follows counts only when
 * the next address can have it (64 characters from the domain's start), so
 * the first address is cut and found (email.ts, `localPartFollows`).
 */

const found = (text: string) =>
  findPii(text, { entities: ['EMAIL_ADDRESS'] }).map(span => text.slice(span.start, span.end));

// "x.io-" (5) + letters: the next address's local part, read from the first domain's start.
const glued = (letters: number) => `Write to jane@x.io-${'b'.repeat(letters)}@y.io now`;

describe('an address a `-` glues to the local part of the next one', () => {
  it('a short local part after the `-`: one span over both (round 45, kept)', () => {
    expect(found('Write to jane@x.io-bob_smith@y.io now')).toEqual(['jane@x.io-bob_smith@y.io']);
  });

  it('59 letters (a local part of 64): both hidden as one span, as a short one', () => {
    expect(found(glued(59))).toEqual([`jane@x.io-${'b'.repeat(59)}@y.io`]);
  });

  it('60 letters (a local part of 65): the first address is found, cut before the `-`', () => {
    expect(found(glued(60))).toEqual(['jane@x.io', `-${'b'.repeat(60)}@y.io`]);
  });

  it('64 letters: the first address is found (the next one has a local part of 65)', () => {
    expect(found(glued(64))).toEqual(['jane@x.io']);
  });

  it('stream in window mode == generate, both addresses hidden', async () => {
    const guard = pii({ entities: ['EMAIL_ADDRESS'], action: 'redact' });
    const { generated, streamed } = await windowAndGenerateTexts(guard, glued(60), [
      [1],
      [7],
      [30],
    ]);
    expect(generated).toBe('Write to [EMAIL_ADDRESS][EMAIL_ADDRESS] now');
    for (const stream of streamed) expect(stream).toBe(generated);
  });
});
