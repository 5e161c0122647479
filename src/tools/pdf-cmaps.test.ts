import { describe, expect, it } from 'vitest';
import { cmapOf, drawn, glyphs, hex4, onePagePdf, shownHex } from '../../test/helpers/pdf-fonts';
import { toolOutputSent } from '../../test/helpers/tool-file';
import type { GuardrailEvent } from '../core/types';

/**
 * Round 28. ToUnicode CMaps a viewer reads otherwise than round 27 did: a
 * codespace whose width is not its entries' (1 byte, entries of 2), 1- and
 * 2-byte codes in one map, and a map that takes another's entries
 * (`usecmap`, `/UseCMap 9 0 R`).
 */

const CARD = 'card 4111 1111 1111 1111';
const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};
const CODESPACE = '1 begincodespacerange <0000> <FFFF> endcodespacerange';

describe('ToUnicode CMaps read as a viewer reads them', () => {
  it("a codespace of 1 byte with 2-byte entries reads the font's 2-byte codes (guardTools)", async () => {
    const codes = glyphs(CARD);
    const cmap = cmapOf(codes).replace(
      CODESPACE,
      '1 begincodespacerange <00> <FF> endcodespacerange',
    );
    expect(
      await toolOutputSent(onePagePdf(drawn(shownHex(CARD, codes)), cmap), 'application/pdf'),
    ).toEqual(WITHHELD);
  });

  it('1- and 2-byte codes in one map are read by their codespace ranges (guardTools)', async () => {
    // Spaces are 1-byte codes (<20>), every other character a 2-byte code (<81xx>).
    const codes = glyphs(CARD.replaceAll(' ', ''), 0x8100);
    const cmap = [
      '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
      '2 begincodespacerange <00> <7F> <8000> <FFFF> endcodespacerange',
      `${codes.size + 1} beginbfchar`,
      '<20> <0020>',
      ...[...codes].map(
        ([character, code]) => `<${hex4(code)}> <${hex4(character.charCodeAt(0))}>`,
      ),
      'endbfchar endcmap end end',
    ].join('\n');
    const shown = `<${[...CARD].map(character => (character === ' ' ? '20' : hex4(codes.get(character)!))).join('')}>`;
    expect(await toolOutputSent(onePagePdf(drawn(shown), cmap), 'application/pdf')).toEqual(
      WITHHELD,
    );
  });

  it("a map's /UseCMap entries are read; usecmap of a CMap not in the file fails closed (guardTools)", async () => {
    const codes = glyphs(CARD);
    const shown = drawn(shownHex(CARD, codes));
    // Map 6 holds one entry and takes the rest from map 7.
    const base = cmapOf(codes);
    const own = `/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/Base usecmap\n${CODESPACE}\n1 beginbfchar <FFFF> <0020> endbfchar\nendcmap end end`;
    expect(
      await toolOutputSent(
        onePagePdf(shown, own, '/UseCMap 7 0 R ', [{ stream: base }]),
        'application/pdf',
      ),
    ).toEqual(WITHHELD);
    const events: GuardrailEvent[] = [];
    expect(await toolOutputSent(onePagePdf(shown, own), 'application/pdf', events)).toEqual(
      WITHHELD,
    );
    expect(events.map(event => event.record?.reason)).toEqual([
      undefined,
      "the tool's model output was withheld: content part 0 (a file of type application/pdf): a PDF file whose text could not be read: a PDF ToUnicode map that uses a CMap this reader does not have",
    ]);
  });
});
