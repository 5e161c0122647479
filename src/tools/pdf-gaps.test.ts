import { describe, expect, it } from 'vitest';
import { catalog, type PdfObject, pages, pdfOf } from '../../test/helpers/pdf-fonts';
import { formatPieces, readerOf } from './binary-formats';

/**
 * Round 34: gaps in the PDF walk found in review (issue 17's round).
 */

/** The texts the walk reads from `pdf` (each piece as latin-1), or why it fails closed. */
function walked(pdf: Uint8Array): string[] | string {
  const found = formatPieces(pdf.subarray(0, 1024), readerOf(pdf), {
    read: piece => (typeof piece === 'string' ? piece : new TextDecoder('latin1').decode(piece)),
  });
  if (found === undefined) return 'no format';
  return found.texts ?? found.unreadable;
}
/** The texts `walked` reads that hold `value`. */
const holding = (pdf: Uint8Array, value: string) => {
  const texts = walked(pdf);
  return typeof texts === 'string' ? texts : texts.filter(text => text.includes(value));
};

const CARD = '4111 1111 1111 1111';
const page = (contents: string) => `<< /Type /Page /Parent 2 0 R /Contents ${contents} >>`;

describe('a keyword across the seam of two 64 KB chunks of the file', () => {
  /** A one-page PDF whose page stream's `keyword` (`stream`, `endstream`) starts `before` bytes before offset 65,536. */
  const straddling = (keyword: string, before: number) => {
    const build = (padding: number) =>
      pdfOf([
        catalog,
        pages([3]),
        page('4 0 R'),
        `(${'x'.repeat(padding)})`,
        { stream: `BT /F1 12 Tf 72 712 Td (card ${CARD}) Tj ET` },
      ]);
    const at = (pdf: Uint8Array) =>
      new TextDecoder('latin1').decode(pdf).indexOf(`\n${keyword}\n`, 40_000) + 1;
    const first = build(65_000);
    const pdf = build(65_000 + 65_536 - before - at(first));
    expect(at(pdf)).toBe(65_536 - before);
    return pdf;
  };

  it.each([
    ['stream', 1],
    ['stream', 5],
    ['endstream', 1],
    ['endstream', 8],
  ])('`%s` starting %i bytes before the seam: the stream is read', (keyword, before) => {
    // The page is object 3 and the stream object 5: `/Contents 4 0 R` names the padding, so the stream is read on its own.
    expect(holding(straddling(keyword, before), CARD)).toEqual([`card ${CARD}`]);
  });
});

describe("a form field's value given by reference", () => {
  /** A PDF whose one field (object 4, a page's annotation) has `/V value`, then `more` objects (5 on). */
  const withField = (value: string, more: PdfObject[]) =>
    pdfOf([
      '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] >> >>',
      pages([3]),
      '<< /Type /Page /Parent 2 0 R /Annots [4 0 R] >>',
      `<< /FT /Tx /T (card) /V ${value} /Subtype /Widget /Rect [0 0 100 20] >>`,
      ...more,
    ]);

  it('a text stream (`/V 5 0 R`, compressed) is read as its text', () => {
    expect(holding(withField('5 0 R', [{ stream: `card ${CARD}` }]), CARD)).toEqual([
      `card ${CARD}`,
    ]);
  });

  it('a UTF-16 text stream is read as its text', () => {
    const utf16 = `\u00fe\u00ff${[...`card ${CARD}`].map(character => `\0${character}`).join('')}`;
    const pdf = withField('5 0 R', [`<< /Length ${utf16.length} >>\nstream\n${utf16}\nendstream`]);
    expect(holding(pdf, CARD)).toEqual([`card ${CARD}`]);
  });
});

/** `objects` packed into one compressed object stream (`/Type /ObjStm`). */
function objectStream(objects: Array<[number, string]>): PdfObject {
  let header = '';
  let body = '';
  for (const [number, object] of objects) {
    header += `${number} ${body.length} `;
    body += `${object}\n`;
  }
  return {
    stream: header + body,
    dictionary: `/Type /ObjStm /N ${objects.length} /First ${header.length}`,
  };
}

describe('the objects of a compressed object stream', () => {
  const inObjectStream = (objects: Array<[number, string]>) =>
    pdfOf([
      '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R] >> >>',
      pages([3]),
      '<< /Type /Page /Parent 2 0 R /Annots [5 0 R] >>',
      objectStream(objects),
    ]);
  const field = (value: string) =>
    `<< /FT /Tx /T (card) /V ${value} /Subtype /Widget /Rect [0 0 100 20] >>`;

  it("a field's value written in its dictionary is read", () => {
    const texts = holding(inObjectStream([[5, field(`(card ${CARD})`)]]), CARD);
    // The objects as written, and their strings (the field's name, then its value).
    expect(texts).toEqual([`5 0 ${field(`(card ${CARD})`)}\n`, `card\ncard ${CARD}`]);
  });

  it("a field's value by reference to a string object of the stream is read", () => {
    const texts = holding(
      inObjectStream([
        [5, field('6 0 R')],
        [6, `<FEFF${hexUtf16(`card ${CARD}`)}>`],
      ]),
      CARD,
    );
    expect(texts).toEqual([`card\ncard ${CARD}`]);
  });

  it('a document title in UTF-16 is read as its text', () => {
    const pdf = pdfOf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      pages([]),
      objectStream([[4, `<< /Title <FEFF${hexUtf16(`card ${CARD}`)}> >>`]]),
    ]);
    expect(holding(pdf, CARD)).toEqual([`card ${CARD}`]);
  });
});

/** `text`'s UTF-16BE code units in hexadecimal. */
const hexUtf16 = (text: string) =>
  [...text].map(character => character.charCodeAt(0).toString(16).padStart(4, '0')).join('');
