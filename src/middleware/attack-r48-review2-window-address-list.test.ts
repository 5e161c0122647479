import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { piiPotentialStart } from '../guards/pii/potential-start';

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
 *
 * Fixed in round 48 (hR): `trailingChainStart` takes a `lineEnd` class, and
 * pii's hook names a whole address (`jane@corp.io`) or a placeholder
 * (`[EMAIL_ADDRESS]`, what the hooks read of the redacted text) as one: a
 * line break beside one ends the chain unless the other side is a marker
 * (an obfuscated address reads across line breaks), so each finished line
 * is released.
 */
const list = (count: number) =>
  Array.from({ length: count }, (_, index) => `user${index}@example.com`).join('\n');
const redacted = (count: number) => Array(count).fill('[EMAIL_ADDRESS]').join('\n');

describe('round 48 review 2: a list of e-mail addresses in window mode', () => {
  const guard = () => pii({ entities: ['EMAIL_ADDRESS'], action: 'redact' });

  it('a short list streams as generate', async () => {
    const { generated, streamed } = await windowAndGenerateTexts(guard(), list(60), [[20]]);
    expect(generated).toBe(redacted(60));
    expect(streamed).toEqual([redacted(60)]);
  });

  // Before round 48 (hR): 1,600 addresses (about 29,000 characters)
  // streamed as "Sorry, I can't help with that." (the hold bound's block,
  // heldBack 31,500) where generate redacts each address.
  it('a long list streams as generate', async () => {
    const { streamed } = await windowAndGenerateTexts(guard(), list(1600), [[100]]);
    expect(streamed).toEqual([redacted(1600)]);
  });

  it('generate redacts each address of the long list (so the open test fails on the stream alone)', async () => {
    const { generated } = await windowAndGenerateTexts(guard(), list(1600), []);
    expect(generated).toBe(redacted(1600));
  });

  it('the hook ends the chain at a line break beside a whole address or placeholder, not beside a marker', () => {
    const start = piiPotentialStart({ entities: ['EMAIL_ADDRESS', 'PHONE_NUMBER'] })!;
    const texts = [
      'ann@corp.io\nbob@exa',
      '[EMAIL_ADDRESS]\n[EMAIL_ADDRESS]\nbob',
      'ann@corp.io\n415 555 01',
      'ann@corp.io 415 555 01',
      'ann@corp.io\n[a',
      'ann@corp.io\nbob [at]\ncorp',
      'bob\n[AT]\ncorp',
    ];
    expect(texts.map(text => start(text))).toEqual([12, 32, 12, 0, 0, 12, 0]);
  });

  it('addresses written across line breaks and phones between addresses stream as generate', async () => {
    const guard2 = () => pii({ entities: ['EMAIL_ADDRESS', 'PHONE_NUMBER'], action: 'redact' });
    const answers = [
      'Contacts:\nann@corp.io\nbob\n[at]\ncorp\n[dot]\nio\ncy@corp.io done',
      'ann@corp.io\nbob [at]\ncorp.io\ncy@corp.io',
      'ann@corp.io\n+1 415 555 0132\ncy@corp.io\n(415) 555-0133 ok',
    ];
    const expected = [
      'Contacts:\n[EMAIL_ADDRESS]\n[EMAIL_ADDRESS]\n[EMAIL_ADDRESS] done',
      '[EMAIL_ADDRESS]\n[EMAIL_ADDRESS]\n[EMAIL_ADDRESS]',
      '[EMAIL_ADDRESS]\n[PHONE_NUMBER]\n[EMAIL_ADDRESS]\n[PHONE_NUMBER] ok',
    ];
    for (const [index, answer] of answers.entries()) {
      const { generated, streamed } = await windowAndGenerateTexts(guard2(), answer, [[1], [7, 3]]);
      expect(generated).toBe(expected[index]);
      expect(streamed).toEqual([expected[index], expected[index]]);
    }
  });
});
