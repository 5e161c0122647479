import { describe, expect, it } from 'vitest';
import { cut } from '../../test/helpers/index';
import { generatedText, streamedTextDeltas } from '../../test/helpers/window';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

// Round 28 (issue 16): the released text each window check sees before the
// pending text (48 characters, for what detectors read left of a match)
// was counted in code units. With junk between its characters, 48 units
// held a few characters a detector reads: a phone number's context word
// (`Phone`) was left out of the check that saw the number, which streamed
// raw where generate redacts it. It is counted in characters read now, as
// the window's step is (round 27).

const middleware = () =>
  guardrails({ output: [pii({ action: 'redact' })], stream: { mode: 'window' } });

/** `text` with `junk` after each of its characters. */
const withJunk = (text: string, junk: string) => [...text].map(char => char + junk).join('');

describe('window mode: the left context counts the characters detectors read', () => {
  for (const [name, junk] of [
    ['soft hyphens', '\u00ad'.repeat(12)],
    ['zero-width spaces', '\u200b'.repeat(12)],
  ] as const) {
    it(`redacts a phone number whose context word is ${name} away, as generate does`, async () => {
      const answer = `Thanks for the question about the venue.  Phone${withJunk(' number is', junk)} 9472 7916 any time after lunch, thanks.`;
      const expected = answer.replace('9472 7916', '[PHONE_NUMBER]');
      expect(await generatedText(middleware(), answer)).toBe(expected);
      for (const size of [1, 4, 8]) {
        const deltas = await streamedTextDeltas(middleware(), answer, cut(answer, [size]));
        expect(deltas.join('')).toBe(expected);
        // Before: '… is 9472 7916 any time after lunch, ' went out raw.
        expect(deltas.map(delta => delta.replaceAll(junk[0]!, ''))).toEqual([
          'Thanks for the question about ',
          'the venue.  Phone number ',
          'is [PHONE_NUMBER] any time after lunch, ',
          'thanks.',
        ]);
      }
    });
  }
});
