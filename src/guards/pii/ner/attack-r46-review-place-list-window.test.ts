import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { pii } from '../pii';

/*
 * Round 46 review (hJ) of the place-list rule (`placeListItems`, places.ts,
 * r46-hI): an item the tagger read as another type becomes a LOCATION when
 * another item of its list within reach is a LOCATION the tagger found.
 * `generateText` (r46-hI) hides every item of the list below but `Gdansk`;
 * a stream in 30-character deltas released seven of them raw (`Chad and
 * Kenya or Jordan and Georgia, Victoria, Eugene or Sydney`). At c5bdb166
 * and at main 70dab4f0 generate leaves those seven and streams equal it.
 *
 * How (traced through the checks): a check that re-reads the released
 * context reads `[LOCATION], Gdansk, [LOCATION]` and hides `Gdansk` as a
 * PERSON (pii's redaction is not idempotent there, at c5bdb166 too: second
 * test), so the context no longer comes back unchanged and the last check
 * reads `or Lincoln and Jackson … Chester.` alone: no LOCATION anchor in
 * reach, and the list's last items pass raw. Reading `[LOCATION]`
 * placeholders as anchors in `placeListItems` (tried) does not help: the
 * check has none. The fix is the idempotency (the second reading of
 * `tagNamedEntities` should find `Gdansk` where the re-check does), or an
 * anchor the window keeps; not done in the review's time.
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

describe('redaction of a list of places', () => {
  // At c5bdb166 too (there the first pass gives `[LOCATION], Gdansk, [PERSON], [PERSON]`).
  it.fails('a second pass changes nothing', async () => {
    const guard = pii({ entities: ['PERSON', 'LOCATION'], action: 'redact' });
    const once = 'Routes through [LOCATION], Gdansk, [LOCATION], [LOCATION].';
    const first = await guard.check('Routes through Kenya, Gdansk, Costa Rica, Chester.', {
      stage: 'output',
    } as never);
    expect(first).toMatchObject({ action: 'modify', content: once });
    expect(await guard.check(once, { stage: 'output' } as never)).toMatchObject({
      action: 'allow',
    });
  });
});
