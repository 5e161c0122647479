import { describe, expect, it } from 'vitest';
import { withoutTiming } from '../../test/helpers/index';
import {
  catalog,
  cmapOf,
  drawn,
  glyphs,
  page,
  pages,
  pdfOf,
  shownHex,
  type0Font,
} from '../../test/helpers/pdf-fonts';
import { toolFileSent, toolOutputSent } from '../../test/helpers/tool-file';
import type { GuardrailEvent } from '../core/types';

/**
 * Round 28. A content stream's fonts are its page's (`/Resources /Font`,
 * the page's own or its nearest `/Parent`'s) or its form's, as a viewer
 * resolves them; before, a font name was looked up across the whole file,
 * so two pages each naming `/F1` were each read through either's map, a
 * font written inline on one page through another page's, and nine pages
 * each with its own `/F1` failed closed (more than 8 maps a name).
 */

const CARD = 'card 4111 1111 1111 1111';
const FIGURES = 'Quarterly figures, as agreed';
const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};

describe("a content stream's fonts are its page's", () => {
  it("a card drawn with page 1's inline /F1 is read through its map, not page 2's /F1 (guardTools)", async () => {
    // Page 1 draws the card with an inline /F1 (map 7); page 2's /F1 is font 8 (map 9),
    // whose glyph numbers are others: read through it, page 1 showed nothing.
    const card = glyphs(`${CARD} on file`);
    const figures = glyphs(FIGURES, 0x2000);
    const pdf = (text: string) =>
      pdfOf([
        catalog,
        pages([3, 4]),
        page(5, `/F1 ${type0Font(7)}`),
        page(6, '/F1 8 0 R'),
        { stream: drawn(shownHex(text, card)) },
        { stream: drawn(shownHex(FIGURES, figures)) },
        { stream: cmapOf(card) },
        type0Font(9),
        { stream: cmapOf(figures) },
      ]);
    expect(await toolOutputSent(pdf(CARD), 'application/pdf')).toEqual(WITHHELD);
    const plain = pdf('card on file');
    expect(await toolFileSent(plain, 'application/pdf')).toEqual({
      mediaType: 'application/pdf',
      data: plain,
    });
  });

  it('nine pages each with its own /F1 are read, not failed closed; a card on the ninth withholds the file', async () => {
    const nine = (last: string) => {
      const objects: Array<Parameters<typeof pdfOf>[0][number]> = [catalog, pages([])];
      const kids: number[] = [];
      for (let k = 0; k < 9; k++) {
        const codes = glyphs(k === 8 ? last : FIGURES, 0x100 + k * 0x400);
        const at = objects.length + 1; // this page's number; its content, font and map follow
        kids.push(at);
        objects.push(
          page(at + 1, `/F1 ${at + 2} 0 R`),
          { stream: drawn(shownHex(k === 8 ? last : FIGURES, codes)) },
          type0Font(at + 3),
          { stream: cmapOf(codes) },
        );
      }
      objects[1] = pages(kids);
      return pdfOf(objects);
    };
    const plain = nine('Signed off by the board');
    expect(await toolFileSent(plain, 'application/pdf')).toEqual({
      mediaType: 'application/pdf',
      data: plain,
    });
    const events: GuardrailEvent[] = [];
    expect(await toolOutputSent(nine(CARD), 'application/pdf', events)).toEqual(WITHHELD);
    const call = { kind: 'tool_output', toolName: 'report', toolCallId: 'c1' };
    // The card is read from the ninth page's stream (the last piece) through its own map.
    expect(withoutTiming(events.map(event => event.record!))).toEqual([
      { guardrail: 'pii', status: 'passed', ...call },
      {
        guardrail: 'pii',
        status: 'modified',
        info: {
          types: ['CREDIT_CARD'],
          spans: [{ type: 'CREDIT_CARD', start: 5001, end: 5020 }],
        },
        ...call,
      },
      {
        guardrail: 'pii',
        status: 'error',
        reason:
          "the tool's model output was withheld: content part 0 (a file of type application/pdf): a guardrail changed the text read from it, a file that is not text, whose bytes are never rewritten; pii found CREDIT_CARD",
        ...call,
      },
    ]);
  });

  it("a page with no /Resources uses its parent's; a font object written twice is read through both maps", async () => {
    const card = glyphs(CARD);
    const other = glyphs('unrelated', 0x3000);
    // The page inherits /Pages' fonts; font 6 is written again (an
    // incremental update) naming another map: a viewer may take either.
    const pdf = pdfOf([
      catalog,
      '<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources << /Font << /F1 6 0 R >> >> >>',
      '<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>',
      { stream: drawn(shownHex(CARD, card)) },
      { stream: cmapOf(card) },
      type0Font(5),
      { stream: cmapOf(other) },
    ]);
    const updated = new Uint8Array([
      ...pdf,
      ...new TextEncoder().encode(`6 0 obj\n${type0Font(7)}\nendobj\n%%EOF\n`),
    ]);
    expect(await toolOutputSent(pdf, 'application/pdf')).toEqual(WITHHELD);
    expect(await toolOutputSent(updated, 'application/pdf')).toEqual(WITHHELD);
  });

  it('a font whose /ToUnicode and its reference are 8 KB apart across the 1 MB piece end is read (guardTools)', async () => {
    // Round 27 matched references in 1 MB pieces overlapping by 4 KB: the
    // two halves fell in different pieces and the map was never read.
    const card = glyphs(CARD);
    const pdf = (padding: number) =>
      pdfOf([
        catalog,
        pages([3]),
        page(6, '/F1 5 0 R'),
        `null %${'\0'.repeat(padding)}`,
        type0Font(7).replace('/ToUnicode', `/ToUnicode${' '.repeat(8192)}`),
        { stream: drawn(shownHex(CARD, card)) },
        { stream: cmapOf(card) },
      ]);
    const first = pdf(0);
    const key = new TextDecoder('latin1').decode(first).indexOf('/ToUnicode');
    // The first piece starts after the header line (8 bytes): its end falls in the spaces' middle.
    const split = pdf(8 + 1_048_576 - key - 10 - 4096);
    expect(
      new TextDecoder('latin1').decode(split).slice(8 + 1_048_576 - 4106, 8 + 1_048_576 - 4096),
    ).toBe('/ToUnicode');
    expect(await toolOutputSent(split, 'application/pdf')).toEqual(WITHHELD);
  });

  it("fonts reached through an indirect /Resources and /Font dictionary, and a form's own resources, are the ones read (guardTools)", async () => {
    const card = glyphs(CARD);
    const figures = glyphs(FIGURES, 0x2000);
    // Page 3: /Resources 8 0 R -> /Font 9 0 R -> /F1 10 0 R (map 11, the card's codes);
    // form 12, drawn by page 4, names its own /F1 (the card's map); page 4's /F1 is another font.
    const pdf = pdfOf([
      catalog,
      pages([3, 4]),
      '<< /Type /Page /Parent 2 0 R /Resources 8 0 R /Contents 5 0 R >>',
      `<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 6 0 R >> /XObject << /Fm1 12 0 R >> >> /Contents 7 0 R >>`,
      { stream: drawn(shownHex(CARD, card)) },
      type0Font(13),
      { stream: `${drawn(shownHex(FIGURES, figures))} /Fm1 Do` },
      '<< /Font 9 0 R >>',
      '<< /F1 10 0 R >>',
      type0Font(11),
      { stream: cmapOf(card) },
      {
        stream: drawn(shownHex(CARD, card)),
        dictionary: '/Type /XObject /Subtype /Form /Resources << /Font << /F1 10 0 R >> >> ',
      },
      { stream: cmapOf(figures) },
    ]);
    const events: GuardrailEvent[] = [];
    expect(await toolOutputSent(pdf, 'application/pdf', events)).toEqual(WITHHELD);
    expect(events.map(event => event.record?.info)).toEqual([
      undefined,
      // Two cards: page 3's stream, and the form's, each read through map 11 (round 32:
      // the form where page 4 draws it, after page 4's figures on its line).
      {
        types: ['CREDIT_CARD'],
        spans: [
          { type: 'CREDIT_CARD', start: 1510, end: 1529 },
          { type: 'CREDIT_CARD', start: 1564, end: 1583 },
        ],
      },
      undefined,
    ]);
  });
});
