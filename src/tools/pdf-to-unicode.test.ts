import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cmapOf, glyphs, hex4 } from '../../test/helpers/pdf-fonts';
import {
  streamedFileOutcome,
  toolFileSent,
  toolOutputSent,
  userFileOutcome,
} from '../../test/helpers/tool-file';
import type { GuardrailEvent } from '../core/types';

/**
 * Round 26. A PDF's text drawn with a Type0 font (`/Encoding /Identity-H`:
 * each two bytes a glyph's number) is only readable through the font's
 * `/ToUnicode` CMap: `<01070103…> Tj` was read as latin-1 bytes, so a card
 * or an injection drawn so passed every guardrail. The maps are now read
 * (bounded, failing closed past their bounds) and the strings shown with
 * the font read through them.
 */

const CARD_TEXT = 'card 4111 1111 1111 1111';
const utf8 = (text: string) => new TextEncoder().encode(text);
const stream = (number: number, data: Uint8Array, dictionary = '') => [
  utf8(`${number} 0 obj\n<< /Length ${data.length} /Filter /FlateDecode ${dictionary}>>\nstream\n`),
  data,
  utf8('\nendstream\nendobj\n'),
];

/**
 * A one-page PDF showing `text` with font `/F1`, a Type0 font whose
 * ToUnicode CMap (`cmap`) maps each glyph number back, its content and map
 * compressed; with `objectStream` the font's dictionaries are in a
 * compressed object stream, as PDF 1.5 writers put them.
 */
function type0Pdf(
  text: string,
  options: { cmap?: string; objectStream?: boolean; inline?: boolean } = {},
) {
  const codes = glyphs(text);
  const shown = [...text].map(character => hex4(codes.get(character)!)).join('');
  const content = deflateSync(utf8(`BT /F1 12 Tf 72 712 Td <${shown}> Tj ET`));
  const cmap = deflateSync(utf8(options.cmap ?? cmapOf(codes)));
  const font =
    '<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Body /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>';
  const descendant = '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+Body >>';
  // With `inline`, the font's dictionary is written in the page's resources.
  const page = `<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 ${options.inline ? font : '5 0 R'} >> >> /Contents 4 0 R >>`;
  const parts: Uint8Array[] = [
    utf8('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n'),
    utf8('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n'),
    utf8('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n'),
  ];
  if (options.objectStream) {
    const objects = [page, font, descendant];
    let offsets = '';
    let body = '';
    for (const [k, object] of objects.entries()) {
      offsets += `${[3, 5, 6][k]} ${body.length} `;
      body += `${object}\n`;
    }
    const packed = deflateSync(utf8(offsets + body));
    parts.push(...stream(8, packed, `/Type /ObjStm /N 3 /First ${offsets.length} `));
  } else {
    parts.push(
      utf8(`3 0 obj\n${page}\nendobj\n5 0 obj\n${font}\nendobj\n6 0 obj\n${descendant}\nendobj\n`),
    );
  }
  parts.push(
    ...stream(4, content),
    ...stream(7, cmap),
    utf8('trailer\n<< /Root 1 0 R >>\n%%EOF\n'),
  );
  return Uint8Array.from(parts.flatMap(part => Array.from(part)));
}

const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};

describe("a Type0 font's text is read through its ToUnicode map", () => {
  it("a card drawn so withholds a tool's file (guardTools); the same PDF without it goes on", async () => {
    expect(await toolOutputSent(type0Pdf(CARD_TEXT), 'application/pdf')).toEqual(WITHHELD);
    expect(
      await toolOutputSent(type0Pdf(CARD_TEXT, { objectStream: true }), 'application/pdf'),
    ).toEqual(WITHHELD);
    expect(await toolOutputSent(type0Pdf(CARD_TEXT, { inline: true }), 'application/pdf')).toEqual(
      WITHHELD,
    );
    const plain = type0Pdf('Quarterly figures, as agreed');
    expect(await toolFileSent(plain, 'application/pdf')).toEqual({
      mediaType: 'application/pdf',
      data: plain,
    });
  });

  it("a card drawn so blocks a user's call (generateText)", async () => {
    const { calls, records } = await userFileOutcome(type0Pdf(CARD_TEXT), 'application/pdf');
    expect(calls).toBe(0);
    // The card is in the last piece read: the content stream through its font's map.
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['CREDIT_CARD'],
          spans: [{ type: 'CREDIT_CARD', start: 763, end: 782 }],
        },
        part: 'file',
      },
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'blocked',
        reason:
          'modified the text read from a file of message 0 that is not text, whose bytes are never rewritten: blocked instead',
        part: 'file',
      },
    ]);
  });

  it('ranges are read as ranges; overlapping ones past 65,536 codes fail closed (guardTools)', async () => {
    // Round 27: each range was spelled out into a map, 0.4 to 1 s for the
    // 262,144 codes the bound allows; apart ranges are now looked up as they are.
    const apart = '1 beginbfrange <8000> <FFFF> <0041> endbfrange';
    const carded = type0Pdf(CARD_TEXT, { cmap: cmapOf(glyphs(CARD_TEXT), apart) });
    expect(await toolOutputSent(carded, 'application/pdf')).toEqual(WITHHELD);
    const overlapping = Array.from(
      { length: 2 },
      () => '1 beginbfrange <0000> <FFFF> <0041> endbfrange',
    );
    const figures = 'Quarterly figures';
    const spelled = type0Pdf(figures, { cmap: cmapOf(glyphs(figures), overlapping.join('\n')) });
    const events: GuardrailEvent[] = [];
    expect(await toolOutputSent(spelled, 'application/pdf', events)).toEqual(WITHHELD);
    expect(events.map(event => event.record?.reason)).toEqual([
      undefined,
      "the tool's model output was withheld: content part 0 (a file of type application/pdf): a PDF file whose text could not be read: a PDF ToUnicode map whose overlapping ranges hold more than 65536 codes",
    ]);
  });

  it('a generated PDF whose maps pass their bounds is withheld unread (streamText)', async () => {
    const codes = glyphs('Quarterly figures');
    const huge = Array.from({ length: 5 }, () => '1 beginbfrange <0000> <FFFF> <0041> endbfrange');
    expect(
      await streamedFileOutcome(
        type0Pdf('Quarterly figures', { cmap: cmapOf(codes, huge.join('\n')) }),
        'application/pdf',
      ),
    ).toEqual({
      files: [],
      records: [
        {
          guardrail: 'output-unreadable',
          kind: 'output',
          status: 'error',
          reason:
            'file 0 of the response was withheld unjudged: a PDF file whose text could not be read: a PDF whose ToUnicode maps hold more than 262144 codes',
          part: 'file',
        },
      ],
    });
  });
});
