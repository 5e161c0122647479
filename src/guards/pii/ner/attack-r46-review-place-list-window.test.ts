import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { pii } from '../pii';
import { findNamedEntities } from './find-named-entities';

/*
 * Round 46 review (hJ) of the place-list rule (`placeListItems`, places.ts,
 * r46-hI): an item the tagger read as another type became a LOCATION when
 * another item of its list within reach was a LOCATION the tagger found.
 * `generateText` hid every item of the list below but `Gdansk`; a stream in
 * 30-character deltas released seven of them raw (`Chad and Kenya or Jordan
 * and Georgia, Victoria, Eugene or Sydney`).
 *
 * How (traced through the checks, r46-hN): the check that re-read the
 * released context `[LOCATION], Gdansk, [LOCATION]` hid `Gdansk` as a
 * PERSON (`readNames` read the chunk with the placeholders as blanks too,
 * and took that reading's PERSON right after a placeholder where the plain
 * reading had an ORGANIZATION: second test; now not after a `[LOCATION]`
 * and a `,`, `&` or `/`), the context
 * came back changed, window mode
 * dropped it, and the last check read `Lincoln and Jackson … Chester.`
 * alone: no anchor. With the context kept, the anchors before an item are
 * `[LOCATION]` placeholders, no span, and the characters between differ
 * from the raw text's, so an anchor within 128 characters before an item
 * could not be read as generate read it. Now (r46-hN) an anchor before an
 * item is the item right before it in its list (`itemsAfterPlaces`: a
 * LOCATION, found or made so, or a `[LOCATION]` placeholder, one item that
 * is no place between allowed); an anchor after it is read as before.
 * Generate now reads the last item, `Chester`, a LOCATION (right after
 * `Sydney`; r46-hI read it a PERSON); the rest as r46-hI read them.
 */

const TEXT =
  'Routes through Kenya, Gdansk, Costa Rica, Chester, Chester or Costa Rica, Lausanne, Eugene, ' +
  'Orlando and Jordan and Lincoln, Chad or Santiago or Lincoln and Jackson and Adelaide or ' +
  'Madison or Chad and Chad and Kenya or Jordan and Georgia, Victoria, Eugene or Sydney, Chester.';

const GENERATED =
  'Routes through [LOCATION], Gdansk, [LOCATION], [LOCATION], [LOCATION] or [LOCATION], ' +
  '[PERSON], [PERSON], [PERSON] and [PERSON] and [LOCATION], [LOCATION] or [LOCATION] or ' +
  '[LOCATION] and [LOCATION] and [LOCATION] or [LOCATION] or [LOCATION] and [LOCATION] and ' +
  '[LOCATION] or [LOCATION] and [LOCATION], [PERSON], [PERSON] or [LOCATION], [LOCATION].';

const guard = () => pii({ entities: ['PERSON', 'LOCATION'], action: 'redact' });

describe('a list of places in window mode', () => {
  it('generate hides every item of the list but Gdansk', async () => {
    const { generated } = await windowAndGenerateTexts(guard(), TEXT, []);
    expect(generated).toBe(GENERATED);
  });

  it('a stream in 30-character deltas hides the same items', async () => {
    const { streamed } = await windowAndGenerateTexts(guard(), TEXT, [
      [30],
      [1],
      [7],
      [TEXT.length],
    ]);
    expect(streamed).toEqual([GENERATED, GENERATED, GENERATED, GENERATED]);
  });

  it('with LOCATION alone or PERSON alone, streams read the list as generate does', async () => {
    for (const entities of [['LOCATION'], ['PERSON']] as const) {
      const { generated, streamed } = await windowAndGenerateTexts(
        pii({ entities: [...entities], action: 'redact' }),
        TEXT,
        [[30], [1], [7], [3, 11]],
      );
      expect(streamed).toEqual([generated, generated, generated, generated]);
    }
  });
});

describe('redaction of a list of places', () => {
  // At c5bdb166 too (there the first pass gives `[LOCATION], Gdansk, [PERSON], [PERSON]`).
  it('a second pass changes nothing', async () => {
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

  it('a second pass over the whole list changes nothing', async () => {
    const guard = pii({ entities: ['PERSON', 'LOCATION'], action: 'redact' });
    expect(await guard.check(GENERATED, { stage: 'output' } as never)).toMatchObject({
      action: 'allow',
    });
  });
});

describe('a person named like a place after a `[LOCATION]` the text wrote (left, r46-hN)', () => {
  // The reading with placeholders as blanks read `Lincoln` a PERSON, the plain one a LOCATION;
  // 3d9d92a7 took the PERSON (round 41). Now, right after a LOCATION placeholder and a comma,
  // the plain reading's type stands, so PERSON alone leaves the name (6 of 144 probes of one-
  // word place names in such frames; no two-word name lost). Hiding it again would hide
  // `Gdansk` in a redacted list, which generate leaves, and split streams from generate.
  it.fails('PERSON alone still finds `Lincoln` in `Thanks [LOCATION], Lincoln will call.`', () => {
    const text = 'Thanks [LOCATION], Lincoln will call.';
    expect(
      findNamedEntities(text, ['PERSON']).map(span => text.slice(span.start, span.end)),
    ).toEqual(['Lincoln']);
  });
});
