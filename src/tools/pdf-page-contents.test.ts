import { describe, expect, it } from 'vitest';
import {
  catalog,
  cmapOf,
  glyphs,
  pages,
  pdfOf,
  shownHex,
  type0Font,
} from '../../test/helpers/pdf-fonts';
import { toolFileSent, toolOutputSent, userFileOutcome } from '../../test/helpers/tool-file';

/**
 * Round 29: a page's content streams (`/Contents [4 0 R 5 0 R]`) are drawn
 * as one stream; each was read on its own, so a card whose groups two
 * streams of one page drew on one line passed `pii`.
 */

const HALVES = ['card 4111 1111', '1111 1111'];
const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};
const codes = glyphs(`${HALVES.join('')}order 2024 shipped`);
/** The halves' content streams: on one line (`x` 72, then 190), or the second a line lower. */
const drawing = (halves: string[], shown: (text: string) => string, lower = 0) =>
  halves.map(
    (half, k) => `BT /F1 12 Tf ${72 + 118 * k} ${712 - lower * k} Td ${shown(half)} Tj ET`,
  );
/**
 * A one-page PDF whose page shows `streams` in order, `/F1` a Type0 font
 * with a ToUnicode map: `/Contents [5 0 R 6 0 R]`, or (`indirect`) a
 * reference to that array.
 */
function pagePdf(streams: string[], indirect = false): Uint8Array {
  const list = `[${streams.map((_, k) => `${7 + k} 0 R`).join(' ')}]`;
  return pdfOf([
    catalog,
    pages([3]),
    `<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 4 0 R >> >> /Contents ${indirect ? '5 0 R' : list} >>`,
    type0Font(6),
    list,
    { stream: cmapOf(codes) },
    ...streams.map(stream => ({ stream })),
  ]);
}
const layouts = (halves: string[], lower = 0): Array<[string, Uint8Array]> => [
  ['literal', pagePdf(drawing(halves, half => `(${half})`, lower))],
  [
    'literal, indirect array',
    pagePdf(
      drawing(halves, half => `(${half})`, lower),
      true,
    ),
  ],
  ['ToUnicode', pagePdf(drawing(halves, half => shownHex(half, codes), lower))],
  [
    'ToUnicode, indirect array',
    pagePdf(
      drawing(halves, half => shownHex(half, codes), lower),
      true,
    ),
  ],
];

describe("a page's content streams read as one", () => {
  it("a card drawn by two streams of one page withholds a tool's file (guardTools)", async () => {
    const passed: string[] = [];
    for (const [name, data] of layouts(HALVES)) {
      const sent = await toolOutputSent(data, 'application/pdf');
      if (JSON.stringify(sent) !== JSON.stringify(WITHHELD)) passed.push(name);
    }
    expect(passed).toEqual([]);
  });

  it("blocks a user's call, exact records", async () => {
    const { calls, records } = await userFileOutcome(layouts(HALVES)[2]![1], 'application/pdf');
    expect(calls).toBe(0);
    expect(records.map(r => [r.guardrail, r.status])).toEqual([
      ['pii', 'modified'],
      ['pii', 'blocked'],
    ]);
  });

  it('the halves on two lines, or no card, go on as they are', async () => {
    for (const [, data] of [...layouts(HALVES, 14), ...layouts(['order 2024', 'shipped'])]) {
      expect(await toolFileSent(data, 'application/pdf')).toEqual({
        mediaType: 'application/pdf',
        data,
      });
    }
  });
});
