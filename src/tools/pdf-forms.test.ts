import { describe, expect, it } from 'vitest';
import {
  catalog,
  cmapOf,
  glyphs,
  type PdfObject,
  pages,
  pdfOf,
  shownHex,
  type0Font,
} from '../../test/helpers/pdf-fonts';
import { toolFileSent, toolOutputSent } from '../../test/helpers/tool-file';
import type { GuardrailEvent } from '../core/types';

/**
 * Round 32. A form XObject is read where a page draws it (`/Fm1 Do`), as a
 * viewer draws it: before, a form was read on its own, so a card split
 * between a page's line and the form it draws on that line passed `pii`.
 * And a stream many pages share is read whole once, its seams where each
 * page draws it: 500 pages sharing one 100 KB stream joined past the 8 MB
 * bound and failed closed.
 */

const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};
const FOUND_CARD =
  "the tool's model output was withheld: content part 0 (a file of type application/pdf): a guardrail changed the text read from it, a file that is not text, whose bytes are never rewritten; pii found CREDIT_CARD";
const unreadable = (why: string) =>
  `the tool's model output was withheld: content part 0 (a file of type application/pdf): a PDF file whose text could not be read: ${why}`;

/** What the model is sent for a PDF a guarded tool returns (redacting `pii`), and the last record's reason. */
async function sent(pdf: Uint8Array): Promise<[unknown, string | undefined]> {
  const events: GuardrailEvent[] = [];
  const output = await toolOutputSent(pdf, 'application/pdf', events);
  return [output, events.at(-1)?.record?.reason];
}
/** Whether a PDF a guarded tool returns goes on to the model as it came. */
const goesOn = async (pdf: Uint8Array) =>
  expect(await toolFileSent(pdf, 'application/pdf')).toEqual({
    mediaType: 'application/pdf',
    data: pdf,
  });

const form = (stream: string, more = '') => ({
  stream,
  dictionary: `/Type /XObject /Subtype /Form /BBox [0 0 612 792] ${more}`,
});
/** A one-page PDF: page 3 shows stream 4 with `resources`, then `more` objects (5 on). */
const pagePdf = (content: string, resources: string, more: PdfObject[]) =>
  pdfOf([
    catalog,
    pages([3]),
    `<< /Type /Page /Parent 2 0 R /Resources ${resources} /Contents 4 0 R >>`,
    { stream: content },
    ...more,
  ]);
const FM1 = '<< /XObject << /Fm1 5 0 R >> >>';

/** Ways a page and a form it draws show `first` and `second` on one line. */
function layouts(first: string, second: string): Array<[string, Uint8Array]> {
  const half1 = glyphs(first);
  const half2 = glyphs(second, 0x2000);
  return [
    [
      'Do inside the text object, the form showing on',
      pagePdf(`BT /F1 12 Tf 72 712 Td (${first}) Tj /Fm1 Do ET`, FM1, [form(`(${second}) Tj`)]),
    ],
    [
      'the form its own text object at the same height',
      pagePdf(`BT /F1 12 Tf 72 712 Td (${first}) Tj ET /Fm1 Do`, FM1, [
        form(`BT /F1 12 Tf 190 712 Td (${second}) Tj ET`),
      ]),
    ],
    [
      'the form placed by its /Matrix',
      pagePdf(`BT /F1 12 Tf 72 712 Td (${first}) Tj ET /Fm1 Do`, FM1, [
        form(`BT /F1 12 Tf (${second}) Tj ET`, '/Matrix [1 0 0 1 190 712] '),
      ]),
    ],
    [
      'XObjects through a resources object, a form drawing a form',
      pagePdf(`BT /F1 12 Tf 72 712 Td (${first}) Tj ET /Fm1 Do`, '6 0 R', [
        form('q /Inner Do Q', '/Resources << /XObject << /Inner 7 0 R >> >> '),
        '<< /XObject 8 0 R >>',
        form(`BT /F1 12 Tf 190 712 Td (${second}) Tj ET`),
        '<< /Fm1 5 0 R >>',
      ]),
    ],
    [
      "through ToUnicode maps, the form's fonts its own",
      pagePdf(
        `BT /F1 12 Tf 72 712 Td ${shownHex(first, half1)} Tj ET /Fm1 Do`,
        '<< /Font << /F1 6 0 R >> /XObject << /Fm1 5 0 R >> >>',
        [
          form(
            `BT /F1 12 Tf 190 712 Td ${shownHex(second, half2)} Tj ET`,
            '/Resources << /Font << /F1 8 0 R >> >> ',
          ),
          type0Font(7),
          { stream: cmapOf(half1) },
          type0Font(9),
          { stream: cmapOf(half2) },
        ],
      ),
    ],
  ];
}

describe('a form is read where it is drawn', () => {
  it('a card split between a page and the form it draws on that line withholds the file (guardTools)', async () => {
    const passed: string[] = [];
    for (const [name, pdf] of layouts('card 4111 1111', '1111 1111')) {
      const [output, reason] = await sent(pdf);
      if (JSON.stringify(output) !== JSON.stringify(WITHHELD)) passed.push(name);
      else if (reason !== FOUND_CARD) passed.push(`${name}: ${reason}`);
    }
    expect(passed).toEqual([]);
  });

  it('an e-mail address split so withholds the file', async () => {
    const [, pdf] = layouts('Contact jane.doe@', 'corp.io today')[0]!;
    const [output, reason] = await sent(pdf);
    expect(output).toEqual(WITHHELD);
    expect(reason).toBe(FOUND_CARD.replace('CREDIT_CARD', 'EMAIL_ADDRESS'));
  });

  it('the form on another line, or no card, goes on as it came', async () => {
    const lower = pagePdf(`BT /F1 12 Tf 72 712 Td (card 4111 1111) Tj ET /Fm1 Do`, FM1, [
      form('BT /F1 12 Tf 72 600 Td (1111 1111) Tj ET'),
    ]);
    for (const pdf of [lower, ...layouts('order 2024', 'shipped').map(([, data]) => data)]) {
      await goesOn(pdf);
    }
  });

  it('a form that draws itself, or forms 1,000 deep, fail closed', async () => {
    const itself = pagePdf('/Fm1 Do', FM1, [
      form('(a) Tj /Fm1 Do', '/Resources << /XObject << /Fm1 5 0 R >> >> '),
    ]);
    expect(await sent(itself)).toEqual([WITHHELD, unreadable('a PDF form that draws itself')]);
    // Form 5 + k draws form 6 + k, 1,000 deep.
    const deep = Array.from({ length: 1000 }, (_, k) =>
      form(`(f${k}) Tj /N Do`, `/Resources << /XObject << /N ${6 + k} 0 R >> >> `),
    );
    expect(await sent(pagePdf('/Fm1 Do', FM1, deep))).toEqual([
      WITHHELD,
      unreadable('a PDF whose forms draw forms more than 16 deep'),
    ]);
  });
});

describe('a stream many pages share is read whole once, its seams where each page draws it', () => {
  /** Report lines, about `bytes` long, on their own lines of a page. */
  const report = (bytes: number) => {
    const lines: string[] = [];
    for (let k = 0, size = 0; size < bytes; k++) {
      lines.push(
        `BT /F1 10 Tf 72 ${760 - (k % 60) * 12} Td (Item ${k} of the letterhead notes) Tj ET`,
      );
      size += lines.at(-1)!.length + 1;
    }
    return lines.join('\n');
  };
  /**
   * 500 pages, each showing stream 3 (100 KB, shared) then its own: the
   * shared stream's last line `tail`, page 300's own stream starting with
   * `own300` on that line.
   */
  const shared = (tail: string, own300: string) => {
    const objects: PdfObject[] = [catalog, pages([])];
    objects.push({ stream: `${report(100_000)}\nBT /F1 10 Tf 72 40 Td (${tail}) Tj ET` });
    const kids: number[] = [];
    for (let k = 1; k <= 500; k++) {
      kids.push(objects.length + 1);
      objects.push(`<< /Type /Page /Parent 2 0 R /Contents [3 0 R ${objects.length + 2} 0 R] >>`, {
        stream: `BT /F1 10 Tf 190 40 Td (${k === 300 ? own300 : `page ${k}`}) Tj ET`,
      });
    }
    objects[1] = pages(kids);
    return pdfOf(objects);
  };

  it('500 pages sharing one 100 KB stream go on as they came (they failed closed)', async () => {
    await goesOn(shared('order 2024', 'shipped'));
  });

  it("a card split between the shared stream's end and page 300's own stream withholds the file", async () => {
    expect(await sent(shared('card 4111 1111', '1111 1111'))).toEqual([WITHHELD, FOUND_CARD]);
  });

  it('a page showing one stream 100,000 times fails closed, as its bytes drawn again pass 8 MB', async () => {
    const pdf = pdfOf([
      catalog,
      pages([3]),
      `<< /Type /Page /Parent 2 0 R /Contents [${'4 0 R '.repeat(100_000)}] >>`,
      { stream: 'BT /F1 10 Tf 72 712 Td (a line of the page) Tj ET' },
    ]);
    expect(await sent(pdf)).toEqual([
      WITHHELD,
      unreadable(
        'a PDF whose forms and shared content streams, drawn where they are drawn, hold more than 8000000 bytes',
      ),
    ]);
  });
});
