import { describe, expect, it } from 'vitest';
import { generatedText, streamedTextDeltas } from '../../../test/helpers/window';
import { guardrails } from '../../middleware/guardrails-middleware';
import type { PiiEntity } from './find-pii';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/**
 * Round 40 (issue 16): a name is a firm by words after it (`Kwame announced
 * a recall of its pickups`: `its` within 7 tokens; `Siemens said in a
 * filing`). Long words between them took those words past what window mode
 * holds back (128 characters with PERSON alone), so the stream released
 * `[PERSON]` where generate, reading on, wrote `[ORGANIZATION]` (or, with
 * PERSON alone, left the firm's name as it is). Now that word must end
 * within 127 characters of the name's start, one character after it read.
 */
const names = (text: string) =>
  findPii(text, { entities: ['PERSON', 'ORGANIZATION'] }).map(span => [
    span.type,
    text.slice(span.start, span.end),
  ]);

describe('the words after a name that make it a firm', () => {
  it('count up to 127 characters from the name: `its` ending at 127 makes a firm, at 128 not', () => {
    // "Kwame announced " (16) + a word + " of its" (7): `its` ends at 23 + the word's length.
    const at = (length: number) => `Kwame announced ${'q'.repeat(length)} of its pickups.`;
    expect(names(at(104))).toEqual([['ORGANIZATION', 'Kwame']]);
    expect(names(at(105))).toEqual([['PERSON', 'Kwame']]);
    expect(names('Kwame announced a recall of its pickups.')).toEqual([['ORGANIZATION', 'Kwame']]);
  });

  it('`said in a … filing` likewise: `filing` ending at 127 makes a firm, at 128 not', () => {
    // "Siemens said in a " (18) + a word + " filing" (7).
    const at = (length: number) => `Siemens said in a ${'q'.repeat(length)} filing, no more.`;
    expect(names(at(102))).toEqual([['ORGANIZATION', 'Siemens']]);
    expect(names(at(103))).not.toContainEqual(['ORGANIZATION', 'Siemens']);
  });

  const long = 'rindfleischetikettierungsueberwachungsaufgabenuebertragungsgesetz';
  const answer = `Kwame announced ${long} ${long} ${long} ${long} of its pickups. And more text follows here.`;
  const cases: [PiiEntity[], string][] = [
    [['PERSON', 'ORGANIZATION'], '[PERSON]'],
    [['PERSON'], '[PERSON]'],
  ];
  it.each(cases)(
    'stream in window mode == generate with %j, in deltas of 1, 7 and whole',
    async (entities, name) => {
      const guard = pii({ entities });
      const expected = await generatedText(guardrails({ output: [guard] }), answer);
      expect(expected).toBe(answer.replace('Kwame', name));
      const window = guardrails({ output: [guard], stream: { mode: 'window' } });
      for (const size of [1, 7, answer.length]) {
        const deltas: string[] = [];
        for (let at = 0; at < answer.length; at += size) deltas.push(answer.slice(at, at + size));
        expect(
          (await streamedTextDeltas(window, answer, deltas)).join(''),
          `deltas of ${size}`,
        ).toBe(expected);
      }
    },
  );
});
