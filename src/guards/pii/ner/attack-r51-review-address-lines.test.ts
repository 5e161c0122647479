import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { pii } from '../pii';

/*
 * Round 51 review (hH) of r51-hE (issue 16, address runs cut at line
 * breaks instead of a 160-character count). hE's line rule lets an
 * address's I label cross a line break only from a line of at most 64
 * characters. A chat message that gives an address after a sentence on
 * the same line ("... my home address, which is: 14 Oak Avenue" and the
 * postcode on the next line) has a first line longer than that, so the
 * address stops at the break, and the pieces left are read as other
 * names or as nothing: the house number and half the postcode show.
 *
 * At the base (e3931c8e) each address below is redacted whole, in generate
 * and in window mode. On r51-hE at 9ff322ad and 5e648b70 both failed:
 *   observed `which is: 14 [PERSON] 3HN\n[LOCATION]` (`14` and `3HN` shown),
 *   observed `[ORGANIZATION], [STREET_ADDRESS]\n[ORGANIZATION] 1J9, [LOCATION]`
 *   (`1J9` shown).
 * hE's 459414b6 (the line rule reads only the address's part of the line)
 * fixed both; at f6e9ea85 they pass, as do five addresses whose own first
 * line is longer than 64 characters (same output as the base). Kept as a
 * guard on the line rule.
 */
const guard = () =>
  pii({ entities: ['PERSON', 'STREET_ADDRESS', 'LOCATION', 'ORGANIZATION'], action: 'redact' });

async function redacted(text: string) {
  const { generated, streamed } = await windowAndGenerateTexts(guard(), text, [[1], [3, 11, 1]]);
  return { generated, streamed };
}

describe('attack r51 review: an address after a long first line (r51-hE)', () => {
  it('a home address given after a sentence on the same line is redacted whole', async () => {
    const text =
      'Please send the replacement part to my home address, which is: 14 Oak Avenue\nLeeds LS6 3HN\nUnited Kingdom';
    const { generated, streamed } = await redacted(text);
    expect(generated).toBe(
      'Please send the replacement part to my home address, which is: [STREET_ADDRESS]',
    );
    expect(streamed).toEqual([generated, generated]);
  }, 60_000);

  it("an invoice address after the firm's name on a long line is redacted whole", async () => {
    const text =
      'The invoice should be addressed to our finance team at Grant & Hale Architects, 90 King Street West\nToronto, ON M5H 1J9, Canada';
    const { generated, streamed } = await redacted(text);
    expect(generated).toBe(
      'The invoice should be addressed to our finance team at [ORGANIZATION], [STREET_ADDRESS]',
    );
    expect(streamed).toEqual([generated, generated]);
  }, 60_000);
});
