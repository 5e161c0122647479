import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { pii } from '../pii';
import { findNamedEntities } from './find-named-entities';

/*
 * Round 47 review (hJ): a seeded fuzz of transcripts and chat lines among
 * long runs of capitalised names (organisations, cities, two-word names),
 * wider than hH's property test, found window mode redacting otherwise
 * than generateText. Both texts below differ the same way on the round's
 * base (cab602fa) and on r47-hH: not brought in by round 47, but in its
 * area (the NER window context). The tagger's reading of a word depends
 * on more of the line than the stream holds back or keeps as context.
 * The strings are written here, no data rows.
 *
 * Round 47 (hL): the first came from the blank reading of a typed
 * placeholder (`readNames`), which took a name right after `[PERSON]` across
 * a line break: window mode re-checks the released first line as redacted
 * (`data [PERSON] \n`), and the blank reading made the line-initial `Sam`
 * a name, where generate read `data Paris \nSam` (the name, no
 * placeholder) and did not. The blank reading now stays on the
 * placeholder's line. The second: round 48 (hD), see its comment.
 */

const capitals =
  '555-123-4567 International Business Machines International Business Machines data Paris \n' +
  'Sam we Sam Paris tell ingvild i will be late\n' +
  'San Francisco of ran we ran Microsoft Microsoft the Paris the Jonathan Livingston a San Francisco Jonathan Livingston ran\n';

const speakers =
  'Maria: ok see Google headquarters\n' +
  'thx mateo!! International Business Machines San Francisco San Francisco 555-123-4567 a ok the bob@example.org bob@example.org bob@ex\n' +
  'John: meet me in New York ran ok of San Francisco International Business Machines ok data Jonathan Livingston the 555-123-4567 ran data 555-123-4567 tell ingvild i will be late\n' +
  'John: ok see you at Google headquarters\n';

describe('round 47 review: NER window mode against generate on long capitalised lines', () => {
  // Generate keeps the first `Sam` of line 2; streamed in deltas of 5 it was redacted.
  it('a line-initial name after a line of organisations, deltas of 5', async () => {
    const guard = pii({ entities: ['PERSON'], action: 'redact' });
    const { generated, streamed } = await windowAndGenerateTexts(guard, capitals, [[5]]);
    expect(generated).toBe(
      '555-123-4567 International Business Machines International Business Machines data [PERSON] \n' +
        'Sam we [PERSON] tell ingvild i will be late\n' +
        '[PERSON] of ran we ran Microsoft Microsoft the Paris the [PERSON] a [PERSON] [PERSON] ran\n',
    );
    expect(streamed).toEqual([generated]);
  });

  it('a placeholder ending a line makes no name of the first word of the next', () => {
    const text = 'Machines data [PERSON] \nSam we Sam Paris tell ingvild i will be late\n';
    const found = findNamedEntities(text, ['PERSON']).map(span => text.slice(span.start, span.end));
    expect(found).toEqual(['Sam Paris']);
    // On its own line the name right after the placeholder is still read (round 41).
    const same = 'Machines data [PERSON] Sam we rang\n';
    expect(findNamedEntities(same, ['PERSON'])).toEqual([{ type: 'PERSON', start: 23, end: 26 }]);
  });

  // Generate keeps `New York`; streamed in deltas of 6, `York` was redacted as a person.
  // Round 47 (hL) traced it: the check over the released context
  // (`[PERSON]: ok see Google headquarters\n…`) read the typed placeholder
  // as a two-token name and tagged `ok` an ORGANIZATION, where generate read
  // `Maria: ok` and did not; the context came back changed, so the window
  // judged the pending text alone, which started at `York` (its `New `
  // already released), and `York` alone reads as a PERSON. Round 48 (hD):
  // a context that comes back changed is started again past the change
  // (window-processor `contextPastChange`), so the pending text keeps the
  // words before it (`meet me in New `) and `York` stays a place.
  it('a speaker line with a city, deltas of 6 (and 1, 7, 13, 50)', async () => {
    const guard = pii({ entities: ['PERSON', 'ORGANIZATION'], action: 'redact' });
    const { generated, streamed } = await windowAndGenerateTexts(guard, speakers, [
      [6],
      [1],
      [7],
      [13],
      [50],
    ]);
    expect(generated).toBe(
      '[PERSON]: ok see Google headquarters\n' +
        'thx [PERSON]!! International Business Machines San Francisco San Francisco 555-123-4567 a ok the bob@example.org bob@example.org bob@ex\n' +
        '[PERSON]: meet me in New York ran ok of San Francisco International Business Machines ok data [PERSON] the 555-123-4567 ran data 555-123-4567 tell ingvild i will be late\n' +
        '[PERSON]: ok see you at [ORGANIZATION] headquarters\n',
    );
    expect(streamed).toEqual([generated, generated, generated, generated, generated]);
  });
});
