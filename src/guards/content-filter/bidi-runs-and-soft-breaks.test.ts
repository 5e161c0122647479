import { describe, expect, it } from 'vitest';
import {
  contentFilterGenerate,
  contentFilterWindow,
  SELF_HARM_BLOCKED,
} from '../../../test/helpers/content-filter-cases';
import { foldText } from '../prompt-injection/fold-text';

/*
 * Round 27: what round 26's reading of a right-to-left override still read
 * otherwise than the screen shows. An isolate (or an LRO, or a PDF and a
 * new RLO) inside the override cut it into stretches reversed apart, while
 * rule L2 reverses the whole run around it; and a single line break, which
 * Markdown draws as a space, ended it.
 */

const RLO = '\u202E';
const BLOCKED = { text: 'This content is not allowed.', records: [SELF_HARM_BLOCKED] };
const passed = (text: string) => ({
  text,
  records: [{ guardrail: 'content-filter', kind: 'output', status: 'passed' }],
});
const prose = 'Fine words, kind words. '.repeat(6);

describe('an isolate inside an override stands where the reversal puts it (generateText)', () => {
  it('LRI, RLI, FSI, an LRO or a closed and reopened override: the screen shows `kill yourself`', async () => {
    for (const inside of ['\u2066\u2069', '\u2067\u2069', '\u2068\u2069', '\u202D\u202C']) {
      const answer = `Fine. ${RLO}flesruoy ${inside} llik`;
      expect([answer, await contentFilterGenerate(answer)]).toEqual([answer, BLOCKED]);
    }
    // A PDF and a new RLO with nothing shown between: one run.
    const reopened = `Fine. ${RLO}flesruoy\u202C${RLO} llik`;
    expect(await contentFilterGenerate(reopened)).toEqual(BLOCKED);
    // What the isolate holds keeps its order, between the reversed words.
    expect(foldText(`${RLO}flesruoy \u2066not\u2069 llik`)).toBe(
      'flesruoy not llik\nkill not yourself',
    );
    // A word shown at the paragraph's level between two overrides ends the run.
    const apart = `${RLO}flesruoy\u202C and ${RLO}llik`;
    expect(await contentFilterGenerate(apart)).toEqual(passed(apart));
  });

  it('in a window stream nothing of it goes out before it is judged', async () => {
    const answer = `${prose}${RLO}flesruoy \u2066\u2069 llik, then more words.`;
    const { released, last } = await contentFilterWindow(answer);
    expect(last).toBe('BLOCKED');
    expect(released.length).toBeLessThanOrEqual(answer.indexOf(RLO));
  });
});

describe('a Markdown soft break does not end the override (generateText, streamText)', () => {
  it('LF, CRLF, CR, U+2028 and a tab between two lines: read as one line too', async () => {
    for (const between of ['\n', '\r\n', '\r', '\u2028', '\t', ' \n\t']) {
      const answer = `Fine. ${RLO}flesruoy${between}llik`;
      expect([answer, await contentFilterGenerate(answer)]).toEqual([answer, BLOCKED]);
    }
    // The terminal's reading stays: `yourself` over an unreversed `llik`.
    expect(foldText(`${RLO}flesruoy\nllik`)).toBe('flesruoy\nllik\nyourself\nkill yourself');
  });

  it('a blank line ends the Markdown paragraph, and the override with it', async () => {
    for (const answer of [`${RLO}flesruoy\n\nllik`, `${RLO}flesruoy\n \t\nllik`]) {
      expect([answer, await contentFilterGenerate(answer)]).toEqual([answer, passed(answer)]);
    }
  });

  it('a window holds the override across a single line break', async () => {
    const answer = `${prose}${RLO}flesruoy\nllik, then more words.`;
    const { released, last } = await contentFilterWindow(answer);
    expect(last).toBe('BLOCKED');
    expect(released.length).toBeLessThanOrEqual(answer.indexOf(RLO));
  });
});

// Round 28: a blockquote's `>` markers on a line that goes on its paragraph
// are not shown (`> a` then `> b` is one paragraph, `a b`), and a line that
// starts a block (a heading, a list item, a fence, a rule) ends the one before.
describe('Markdown blockquotes and block starts around an override (generateText, streamText)', () => {
  it('lines of one blockquote paragraph are read as one line, markers unread', async () => {
    for (const answer of [
      `> ${RLO}flesruoy\n> llik`,
      `>${RLO}flesruoy\n>llik`,
      `> > ${RLO}flesruoy\n> > llik`,
      `> ${RLO}flesruoy\nllik`,
    ]) {
      // Before, the markers were read inside the override: `kill > yourself`.
      expect([answer, await contentFilterGenerate(answer)]).toEqual([answer, BLOCKED]);
    }
    expect(foldText(`> ${RLO}flesruoy\n> llik`)).toBe(
      '> flesruoy\n> llik\nyourself\nkill yourself',
    );
  });

  it('a line that starts a block, or a quote of another depth, is no soft break', () => {
    for (const start of ['- ', '* ', '+ ', '# ', '1. ', '1) ', '> ', '```']) {
      expect(foldText(`${RLO}flesruoy\n${start}llik`), start).toBe(
        `flesruoy\n${foldText(`${start}llik`)}\nyourself`,
      );
    }
    // A list item's number other than 1 goes on the paragraph, as CommonMark reads it.
    expect(foldText(`${RLO}flesruoy\n2. llik`)).toBe(
      'flesruoy\n2. llik\nyourself\nkill .2 yourself',
    );
  });

  it('a window holds the override across a quote line', async () => {
    const answer = `${prose}\n> ${RLO}flesruoy\n> llik, then more words.`;
    const { released, last } = await contentFilterWindow(answer);
    expect(last).toBe('BLOCKED');
    expect(released.length).toBeLessThanOrEqual(answer.indexOf(RLO));
  });
});
