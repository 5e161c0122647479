import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../test/helpers';
import { pii } from '../guards/pii/pii';

/*
 * Round 48, second review (hQ), found on main (abb021b0; older than the
 * round's branches): a list of e-mail addresses, one per line, the kind of
 * answer an assistant writes for "list the contacts", is never released in
 * window mode. `piiPotentialStart` is `withinLast(maxMatchLength, …)`
 * (src/guards/shared/potential-start.ts `withinLast`): on a text that is one
 * chain of joinable tokens it returns the start of the last
 * `maxMatchLength` characters, inside an address; the window's
 * `releaseAtCut` then judges the text up to that cut alone, the cut address
 * is redacted differently than in the whole, and nothing is released. The
 * whole list is held (60 addresses: one delta at the end) and past
 * `MIN_HOLD_BOUND` (16,384 characters) the stream blocks, where generate
 * redacts each address.
 */
const list = (count: number) =>
  Array.from({ length: count }, (_, index) => `user${index}@example.com`).join('\n');
const redacted = (count: number) => Array(count).fill('[EMAIL_ADDRESS]').join('\n');

describe('round 48 review 2: a list of e-mail addresses in window mode', () => {
  const guard = () => pii({ entities: ['EMAIL_ADDRESS'], action: 'redact' });

  it('a short list streams as generate (held whole, released at the end)', async () => {
    const { generated, streamed } = await windowAndGenerateTexts(guard(), list(60), [[20]]);
    expect(generated).toBe(redacted(60));
    expect(streamed).toEqual([redacted(60)]);
  });

  // Open: 1,600 addresses (about 29,000 characters) stream as "Sorry, I
  // can't help with that." (the hold bound's block, heldBack 31,500) where
  // generate redacts each address. Fail-closed, no value released, but
  // ordinary output blocked and the stream differs from generate.
  it.fails('a long list streams as generate', async () => {
    const { streamed } = await windowAndGenerateTexts(guard(), list(1600), [[100]]);
    expect(streamed).toEqual([redacted(1600)]);
  });

  it('generate redacts each address of the long list (so the open test fails on the stream alone)', async () => {
    const { generated } = await windowAndGenerateTexts(guard(), list(1600), []);
    expect(generated).toBe(redacted(1600));
  });
});
