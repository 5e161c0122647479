import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { pii } from '../pii';

/*
 * Round 46 review (hJ) of the place-list rule (`placeListItems`, places.ts,
 * r46-hI): an item the tagger read as another type becomes a LOCATION when
 * another item of its list within reach is a LOCATION the tagger found. In
 * window mode the items released before are `[LOCATION]` placeholders in
 * the check's left context: masked, never a span, so no anchor and no link
 * of the list. `generateText` reads the raw items, anchors the last ones
 * and hides them; a stream in 30-character deltas released seven of them
 * raw (`Chad and Kenya or Jordan and Georgia, Victoria, Eugene or Sydney`).
 * At c5bdb166 and at main 70dab4f0 generate leaves those seven as they are
 * and every stream equals it. A fix reads a typed `[LOCATION]` placeholder
 * as a LOCATION item of the list (anchor and link), as the tagger reads
 * one as context since round 40: it needs the typed placeholders in the
 * span rules; not done in the review's time.
 */

const TEXT =
  'Routes through Kenya, Gdansk, Costa Rica, Chester, Chester or Costa Rica, Lausanne, Eugene, ' +
  'Orlando and Jordan and Lincoln, Chad or Santiago or Lincoln and Jackson and Adelaide or ' +
  'Madison or Chad and Chad and Kenya or Jordan and Georgia, Victoria, Eugene or Sydney, Chester.';

const GENERATED =
  'Routes through [LOCATION], Gdansk, [LOCATION], [LOCATION], [LOCATION] or [LOCATION], ' +
  '[PERSON], [PERSON], [PERSON] and [PERSON] and [LOCATION], [LOCATION] or [LOCATION] or ' +
  '[LOCATION] and [LOCATION] and [LOCATION] or [LOCATION] or [LOCATION] and [LOCATION] and ' +
  '[LOCATION] or [LOCATION] and [LOCATION], [PERSON], [PERSON] or [LOCATION], [PERSON].';

const guard = () => pii({ entities: ['PERSON', 'LOCATION'], action: 'redact' });

describe('a list of places in window mode', () => {
  it('generate hides every item of the list but Gdansk', async () => {
    const { generated } = await windowAndGenerateTexts(guard(), TEXT, []);
    expect(generated).toBe(GENERATED);
  });

  it.fails('a stream in 30-character deltas hides the same items', async () => {
    const { streamed } = await windowAndGenerateTexts(guard(), TEXT, [[30], [1], [7]]);
    expect(streamed).toEqual([GENERATED, GENERATED, GENERATED]);
  });
});
