import { describe, expect, it } from 'vitest';
import { cut } from '../../test/helpers/index';
import { generatedText, streamedTextDeltas } from '../../test/helpers/window';
import type { Guardrail } from '../core/types';
import { contentFilter } from '../guards/content-filter/content-filter';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { guardrails } from './guardrails-middleware';

// Round 28 (issue 16): the secrets and pii hooks joined short letter groups
// to each other (`ab`, `WEST`), a piece of a key or an IBAN only beside a
// token with a digit or symbol. Prose with one invisible character between
// its letters reads, with those as blanks, as a chain of one-letter words
// (`t h e`), so window mode held back its whole bound (2,048 characters for
// secrets, about 800 for pii): one delta for an answer of a few hundred.
// And secrets took a letters-only piece after `AKIA` for a word: `AKIA ZQHM `
// went out before the rest of the key, which then streamed raw.

const middleware = (output: Guardrail[]) => guardrails({ output, stream: { mode: 'window' } });
const secretsOnly = () => [secrets({ action: 'redact' })];
const chain = () => [pii({ action: 'redact' }), secrets({ action: 'redact' }), contentFilter()];

const sentence =
  'The launch moved to Thursday because the venue was booked, and the team will share the new agenda tomorrow.';

describe('window mode: one invisible character between letters', () => {
  for (const [name, junk] of [
    ['ZWSP', '\u200b'],
    ['soft hyphen', '\u00ad'],
  ] as const) {
    it(`streams prose with a ${name} between every two characters, as generate returns it`, async () => {
      const answer = [...sentence].join(junk);
      expect(await generatedText(middleware(chain()), answer)).toBe(answer);
      for (const output of [secretsOnly, chain]) {
        const deltas = await streamedTextDeltas(middleware(output()), answer, cut(answer, [8]));
        expect(deltas.join('')).toBe(answer);
        // Before: one delta, the whole answer (held back to the window's bound).
        expect(deltas.map(delta => delta.replaceAll(junk, ''))).toEqual([
          'The launch moved to Th',
          'ursday because the venue w',
          'as booked, and the team will share th',
          'e new agenda tomorrow.',
        ]);
      }
    });
  }

  it('streams prose with a tag character between every two characters', async () => {
    const junk = '\u{E0041}';
    const answer = [...sentence].join(junk);
    const deltas = await streamedTextDeltas(middleware(chain()), answer, cut(answer, [8]));
    expect(deltas.join('')).toBe(answer);
    expect(deltas.map(delta => delta.replaceAll(junk, ''))).toEqual([
      'The launch moved to Thu',
      'rsday because the venue w',
      'as booked, and the team will share the n',
      'ew agenda tomorrow.',
    ]);
  });
});

describe('window mode: letters-only pieces of a key are held beside it', () => {
  const cases = [
    // An AWS key id in pieces, one of four capitals (`ZQHM`), and in full-width letters.
    'Here is the id: AKIA ZQHM 3M2K X9TN 4LPW and more words follow here.',
    'Here is the id: \uff21\uff2b\uff29\uff21 \uff3a\uff31\uff28\uff2d 3M2K X9TN 4LPW and more words follow here.',
  ];
  for (const answer of cases) {
    it(`redacts ${JSON.stringify(answer.slice(16, 30))}… whole at every delta size`, async () => {
      const expected = 'Here is the id: [AWS_ACCESS_KEY_ID] and more words follow here.';
      expect(await generatedText(middleware(secretsOnly()), answer)).toBe(expected);
      for (const size of [1, 4, 7]) {
        const deltas = await streamedTextDeltas(
          middleware(secretsOnly()),
          answer,
          cut(answer, [size]),
        );
        // Before: 'Here is the id: AKIA ZQHM ' went out, then the rest raw.
        // (Since round 46, in 7-character deltas the check at `here.` waits
        // for a delta that never comes: the end releases it with the words
        // before it.)
        const rest = 'id: [AWS_ACCESS_KEY_ID] and more words follow ';
        expect(deltas).toEqual(
          size === 7 ? ['Here is the ', `${rest}here.`] : ['Here is the ', rest, 'here.'],
        );
      }
    });
  }
});
