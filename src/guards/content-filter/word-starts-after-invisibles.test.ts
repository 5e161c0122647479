import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { cut } from '../../../test/helpers';
import { generatedText, streamedTextDeltas } from '../../../test/helpers/window';
import type { Guardrail } from '../../core/types';
import { guardrails } from '../../middleware/guardrails-middleware';
import { pii } from '../pii/pii';
import { contentFilter } from './content-filter';

/**
 * Round 38: with an invisible character after each blank (U+200B, a soft
 * hyphen, a tag, a word joiner) the window found no word start in what it
 * had released, and began the left context of a check inside a word: with
 * `pii` making it check often, a context starting at `shit` of `bullshit`
 * blocked a stream that generate passes. `isWordStart` now reads through
 * invisible characters, as the matcher does.
 */

const middleware = (output: Guardrail[]) =>
  guardrails({ output, stream: { mode: 'window' }, blockedMessage: 'BLOCKED' });
const piiAndFilter = middleware([pii(), contentFilter()]);
const filterOnly = middleware([contentFilter()]);

const WORDS =
  'mail jane@corp.io call 555-0100 bullshit skill yourself askill the day lake mill and so on with it at 4111 1111 1111 1111 kill time'.split(
    ' ',
  );
const JUNK = ['\u200b', '\u2060', '\u{E0020}', '\u00ad'];

/** `words` joined by a blank and `junk`, ending with a full stop. */
const answerOf = (words: readonly string[], junk: string) =>
  `${words.join(' ').split(' ').join(` ${junk}`)}.`;

/** The text a stream gives the app: the deltas joined, or `BLOCKED` when it ends blocked. */
async function streamedOutcome(mw: ReturnType<typeof middleware>, answer: string, sizes: number[]) {
  const deltas = await streamedTextDeltas(mw, answer, cut(answer, sizes));
  return deltas.at(-1) === 'BLOCKED' ? 'BLOCKED' : deltas.join('');
}

describe('contentFilter in window mode: invisible characters after each blank', () => {
  it('a check whose context began inside `bullshit` blocked; the stream now gives what generate gives', async () => {
    // Found by the property below (seed 5): a soft hyphen after each blank.
    const words =
      'and with jane@corp.io call and and and with lake mail so time call 555-0100 the 1111 kill 1111 mill mail 4111 askill 1111 it jane@corp.io on 1111 time lake jane@corp.io it so 4111 bullshit on the on so day 555-0100 day day bullshit askill day 4111 mill skill skill'.split(
        ' ',
      );
    const answer = answerOf(words, '\u00ad');
    const generated = await generatedText(piiAndFilter, answer);
    expect(generated).toBe(
      // The first number follows `call`; the second has no context word.
      answer.replaceAll('jane@corp.io', '[EMAIL_ADDRESS]').replace('555-0100', '[PHONE_NUMBER]'),
    );
    const sizes = [9, 4, 10, 6, 2, 7, 11, 2, 9, 7, 9, 7, 5, 11, 6, 3];
    expect(await streamedOutcome(piiAndFilter, answer, sizes)).toBe(generated);
  });

  it('stream == generate on random texts with invisibles after blanks, any chunking (property)', async () => {
    const next = seededRandom(3838);
    const mismatches: string[] = [];
    let blocked = 0;
    for (let round = 0; round < 24; round++) {
      const junk = JUNK[Math.floor(next() * JUNK.length)]!;
      const count = 20 + Math.floor(next() * 30);
      const words = Array.from({ length: count }, () => WORDS[Math.floor(next() * WORDS.length)]!);
      const answer = answerOf(words, junk);
      for (const mw of [piiAndFilter, filterOnly]) {
        const generated = await generatedText(mw, answer);
        if (generated === 'BLOCKED') blocked++;
        for (let chunking = 0; chunking < 4; chunking++) {
          const sizes =
            chunking === 0 ? [1] : Array.from({ length: 16 }, () => 1 + Math.floor(next() * 12));
          const streamed = await streamedOutcome(mw, answer, sizes);
          if (streamed !== generated) mismatches.push(`${round} ${sizes.join(',')}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    // Both verdicts are exercised: texts holding `kill yourself` are blocked, the others pass.
    expect(blocked).toBeGreaterThan(0);
    expect(blocked).toBeLessThan(48);
  });
});
