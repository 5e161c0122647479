import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { pii } from '../pii';

/*
 * Round 47 review (hJ): a seeded fuzz of transcripts and chat lines among
 * long runs of capitalised names (organisations, cities, two-word names),
 * wider than hH's property test, found window mode redacting otherwise
 * than generateText. Both texts below differ the same way on the round's
 * base (cab602fa) and on r47-hH: not brought in by round 47, but in its
 * area (the NER window context). The tagger's reading of a word depends
 * on more of the line than the stream holds back or keeps as context.
 * Left open for the window code's owner; the strings are written here,
 * no data rows.
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
  // Generate keeps the first `Sam` of line 2; streamed in deltas of 5 it is redacted.
  it.fails('a line-initial name after a line of organisations, deltas of 5', async () => {
    const guard = pii({ entities: ['PERSON'], action: 'redact' });
    const { generated, streamed } = await windowAndGenerateTexts(guard, capitals, [[5]]);
    expect(generated).toBe(
      '555-123-4567 International Business Machines International Business Machines data [PERSON] \n' +
        'Sam we [PERSON] tell ingvild i will be late\n' +
        '[PERSON] of ran we ran Microsoft Microsoft the Paris the [PERSON] a [PERSON] [PERSON] ran\n',
    );
    expect(streamed).toEqual([generated]);
  });

  // Generate keeps `New York`; streamed in deltas of 6, `York` is redacted as a person.
  it.fails('a speaker line with a city, deltas of 6', async () => {
    const guard = pii({ entities: ['PERSON', 'ORGANIZATION'], action: 'redact' });
    const { generated, streamed } = await windowAndGenerateTexts(guard, speakers, [[6]]);
    expect(generated).toContain('[PERSON]: meet me in New York ran');
    expect(streamed).toEqual([generated]);
  });
});
