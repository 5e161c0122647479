import { describe, expect, it } from 'vitest';
import {
  contentFilterGenerate,
  contentFilterWindow,
  SELF_HARM_BLOCKED,
} from '../../../test/helpers/content-filter-cases';
import { foldText, openBidiEntry, openRightToLeftOverride } from '../prompt-injection/fold-text';

/*
 * Round 26: what round 25's bidi stack (foldText's reading of a right-to-left
 * override, and the window hook's hold) still read otherwise than the screen
 * shows: the 125 limit is on embedding levels, not on entries, and a line's
 * reordering is cut at a tab, U+000B, U+001F and U+2028 (UAX #9 L1, L2).
 */

const RLO = '\u202E';
const LRO = '\u202D';
const RLE = '\u202B';
const LRE = '\u202A';
const FSI = '\u2068';
const BLOCKED = { text: 'This content is not allowed.', records: [SELF_HARM_BLOCKED] };
const passed = (text: string) => ({
  text,
  records: [{ guardrail: 'content-filter', kind: 'output', status: 'passed' }],
});

describe('the depth limit is on levels (generateText, contentFilter)', () => {
  it('62 RLE reach level 123, an RLO 125: the LRO after it is past the limit and ignored', async () => {
    // The screen shows `kill yourself`; the stack counted 64 entries and took the LRO.
    const answer = `Fine. ${RLE.repeat(62)}${RLO}${LRO}flesruoy llik`;
    expect(await contentFilterGenerate(answer)).toEqual(BLOCKED);
  });

  it('63 RLE reach level 125: an RLO after them is ignored, and the letters keep their order', async () => {
    const answer = `Fine. ${RLE.repeat(63)}${RLO}flesruoy llik`;
    expect(await contentFilterGenerate(answer)).toEqual(passed(answer));
    expect(foldText(answer)).toBe('fine. flesruoy llik');
  });

  it('an FSI whose first strong letter is Hebrew opens a right-to-left isolate (level 1)', async () => {
    // FSI 1, LRE 2, 61 RLE 3…123, RLO 125, LRO past the limit: the override shows.
    const body = `${LRE}${RLE.repeat(61)}${RLO}${LRO}flesruoy llik`;
    expect(await contentFilterGenerate(`Fine. ${FSI}\u05D0 ${body}`)).toEqual(BLOCKED);
    // Latin first: a left-to-right isolate (level 2), the RLO is past the limit.
    const latin = `Fine. ${FSI}a ${body}`;
    expect(await contentFilterGenerate(latin)).toEqual(passed(latin));
  });
});

describe("a line's reordering is cut at a tab and U+2028 (generateText, contentFilter)", () => {
  it('each part under the override shows reversed where it stands', async () => {
    // `kill` over `yourself` (U+2028), `kill<tab>yourself`: read `yourself kill` before.
    for (const answer of [`${RLO}llik\u2028flesruoy`, `Fine. ${RLO}llik\tflesruoy`]) {
      expect([answer, await contentFilterGenerate(answer)]).toEqual([answer, BLOCKED]);
    }
    // And as Markdown may draw it, U+2028 a blank in one line (round 27): `yourself kill`.
    expect(foldText(`${RLO}llik\u2028flesruoy`)).toBe(
      'llik\nflesruoy\nkill\nyourself\nyourself kill',
    );
    // A line separator does not end the override: the next line is reversed too.
    expect(foldText(`${RLO}flesruoy llik\u2028erom`)).toBe(
      'flesruoy llik\nerom\nkill yourself\nmore\nmore kill yourself',
    );
  });

  it('a paragraph break ends the override, and what an isolate opened before it (attack forms)', async () => {
    for (const answer of [
      // The override ends at the line break: the PDI on the next line closes nothing.
      `${RLO}flesruoy \u2066x\n\u2069llik`,
      `\u2067${RLO}flesruoy\n\u2069 llik`,
    ]) {
      expect([answer, await contentFilterGenerate(answer)]).toEqual([answer, passed(answer)]);
    }
    // The hold reads the last paragraph only: after a blank line; a single line break
    // joins the lines in Markdown (round 27), and the override goes on there.
    expect(openRightToLeftOverride(`${RLO}ab\n\ncd`)).toBe(-1);
    expect(openRightToLeftOverride(`${RLO}ab\ncd`)).toBe(0);
    expect(openRightToLeftOverride(`ab\n${RLO}cd\u2028ef`)).toBe(3);
  });
});

describe('window mode holds an open embedding (streamText, contentFilter)', () => {
  // The window released the 62 RLE with the prose after them, and judged the
  // RLO and LRO that came later without them: the LRO counted, the letters
  // kept their order, and the whole answer streamed out while generateText
  // blocked it. An entry still open is now held like an open override.
  const filler = 'and then some more ordinary words follow here. '.repeat(8);

  it('62 RLE, prose, then an RLO and an LRO: blocked in both', async () => {
    const answer = `Fine. ${RLE.repeat(62)}${filler}${RLO}${LRO}flesruoy llik`;
    expect(await contentFilterGenerate(answer)).toEqual(BLOCKED);
    expect(await contentFilterWindow(answer)).toEqual({ released: 'Fine. ', last: 'BLOCKED' });
  });

  it('closed entries and a new paragraph release as prose does', async () => {
    // Nothing open at the end: only the last words wait for more (as the window's steps fall).
    const closed = `Fine. ${RLE.repeat(62)}x${'\u202C'.repeat(62)}${filler}`;
    // A blank line: a single line break joins the lines in Markdown, and the entries go on (round 27).
    const paragraph = `Fine.${RLE.repeat(62)}\n\n${filler}`;
    // (Round 27: the window's step counts the characters detectors read, so the
    // 124 closed entries no longer count toward a step and the last step falls earlier.)
    // (Round 46: a check that ends right after a full stop waits for the next
    // delta, so the last release falls three characters later.)
    expect(await contentFilterWindow(closed)).toEqual({
      released: closed.slice(0, -'e ordinary words follow here. '.length),
      last: 'e ordinary words follow here. ',
    });
    expect(await contentFilterWindow(paragraph)).toEqual({
      released: paragraph.slice(0, -'e ordinary words follow here. '.length),
      last: 'e ordinary words follow here. ',
    });
    expect([openBidiEntry(closed), openBidiEntry(paragraph)]).toEqual([-1, -1]);
    expect(openBidiEntry(`Fine. ${RLE.repeat(62)}\n${filler}`)).toBe(6);
    // The bottom entry still open: an RLE under an isolate; none once a PDI and a PDF close all.
    expect(openBidiEntry(`a${RLE}b\u2066c\u202Cd`)).toBe(1);
    expect(openBidiEntry(`a${RLE}b\u2066c${RLE}\u2069d\u202C`)).toBe(-1);
    expect(openBidiEntry(`a\u202Cb\u2069${RLE}`)).toBe(4);
  });
});
