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

  // Round 35: a value the walk cannot find was read as no value.
  it('a reference to an object the file does not hold fails closed', () => {
    expect(walked(withField('12 0 R', []))).toBe(
      'a PDF form field whose value names an object the file does not hold',
    );
  });

  it.each([
    ['a number', '4111111111111111'],
    ['a name', '/card#204111'],
    ['a keyword', 'null'],
  ])('a reference to %s (no text) fails closed', (_, object) => {
    expect(walked(withField('5 0 R', [object]))).toBe(
      'a PDF form field whose value is neither text nor a dictionary or array',
    );
  });

  it('references that lead back to themselves fail closed', () => {
    expect(walked(withField('5 0 R', ['6 0 R', '7 0 R', '5 0 R']))).toBe(
      'a PDF form field whose value is a chain of references that leads back into itself',
    );
  });

  it('a chain of references to a text stream is read as its text', () => {
    const pdf = withField('5 0 R', ['6 0 R', { stream: `card ${CARD}` }]);
    expect(holding(pdf, CARD)).toEqual([`card ${CARD}`]);
  });

  it('a reference to a string object is read', () => {
    // The file's bytes outside streams, then their strings (the field's name, then its value).
    expect(holding(withField('5 0 R', [`(card ${CARD})`]), CARD).at(-1)).toBe(`card\ncard ${CARD}`);
  });

  it("a signature field's value, a dictionary, is read where it is written", () => {
    const signature = `<< /Type /Sig /Filter /Adobe.PPKLite /Name (card ${CARD}) >>`;
    expect(holding(withField('5 0 R', [signature]), CARD).at(-1)).toBe(`card\ncard ${CARD}`);
  });

  it('the last object written under a number is the one read (an incremental update)', () => {
    // Object 5 written as a string, then again as a number: the number is the value.
    expect(walked(withField('5 0 R', [`(card)`, '5 0 obj\n42\nendobj']))).toBe(
      'a PDF form field whose value is neither text nor a dictionary or array',
    );
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

describe('a value split at the seam of a stream many pages share, behind padding in it', () => {
  /** Report lines, about `bytes` long, on their own lines of a page. */
  const report = (bytes: number) => {
    const lines: string[] = [];
    for (let k = 0, size = 0; size < bytes; k++) {
      lines.push(`BT /F1 10 Tf 72 ${760 - (k % 60) * 12} Td (Item ${k} of the notes) Tj ET`);
      size += lines.at(-1)!.length + 1;
    }
    return lines.join('\n');
  };
  /**
   * 20 pages, each showing its own stream and stream 3 (shared, 20 KB; `after`: the shared one
   * second), page 12's own stream showing `own` on the line the shared one shows `shared` on.
   */
  const sharing = (shared: string, own: string, after: boolean) => {
    const objects: PdfObject[] = [catalog, pages([]), { stream: shared }];
    const kids: number[] = [];
    for (let k = 1; k <= 20; k++) {
      const next = objects.length + 2;
      kids.push(objects.length + 1);
      const contents = after ? `[${next} 0 R 3 0 R]` : `[3 0 R ${next} 0 R]`;
      objects.push(`<< /Type /Page /Parent 2 0 R /Contents ${contents} >>`, {
        stream: k === 12 ? own : `BT /F1 10 Tf 72 40 Td (page ${k}) Tj ET`,
      });
    }
    objects[1] = pages(kids);
    return pdfOf(objects);
  };
  const paddings: Array<[string, string]> = [
    ['3 KB of blanks', ' '.repeat(3_000)],
    ['a 3 KB comment', `%${'x'.repeat(3_000)}\n`],
    ['3 KB of path operators', '0 0 m 100 0 l S\n'.repeat(200)],
    ['3 KB of q Q', 'q Q '.repeat(800)],
  ];

  it.each(paddings)(
    '%s before its first string: read joined with the page before it',
    (_, padding) => {
      const pdf = sharing(
        `${padding}BT /F1 10 Tf 190 40 Td (1111 1111) Tj ET\n${report(20_000)}`,
        'BT /F1 10 Tf 72 40 Td (card 4111 1111) Tj ET',
        true,
      );
      // Page 12 drawn: its line and the shared stream's head joined, a cut, its tail's last line.
      expect(holding(pdf, CARD)).toEqual([`card ${CARD}\nItem 379 of the notes`]);
    },
  );

  it.each(paddings)(
    '%s after its last string: read joined with the page after it',
    (_, padding) => {
      const pdf = sharing(
        `${report(20_000)}\nBT /F1 10 Tf 72 40 Td (card 4111 1111) Tj ET\n${padding}`,
        'BT /F1 10 Tf 190 40 Td (1111 1111) Tj ET',
        false,
      );
      expect(holding(pdf, CARD)).toEqual([`Item 0 of the notes\ncard ${CARD}`]);
    },
  );
});

describe('the bytes a shared stream draws again stay bounded', () => {
  /** 500 pages each showing stream 3 then their own. */
  const fiveHundred = (shared: string) => {
    const objects: PdfObject[] = [catalog, pages([]), { stream: shared }];
    const kids: number[] = [];
    for (let k = 1; k <= 500; k++) {
      kids.push(objects.length + 1);
      objects.push(`<< /Type /Page /Parent 2 0 R /Contents [3 0 R ${objects.length + 2} 0 R] >>`, {
        stream: `BT /F1 10 Tf 190 40 Td (page ${k}) Tj ET`,
      });
    }
    objects[1] = pages(kids);
    return pdfOf(objects);
  };
  const text = 'BT /F1 10 Tf 72 40 Td (Letterhead) Tj ET';

  it('50 KB of path operators (a drawn logo) before the text of a shared stream: read, the padding not drawn again', () => {
    const pdf = fiveHundred(`${'0 0 m 100 0 l 50 80 l h f\n'.repeat(2_000)}${text}`);
    // Page 1 draws it whole; the other 499 its text only, each joined with the page's own line.
    expect(holding(pdf, 'page 499')).toEqual(['Letterhead page 499']);
    expect(holding(pdf, 'page 500')).toEqual(['Letterhead page 500']);
  });

  it('1 MB of q Q before the first string, drawn again on 499 pages: fails closed', () => {
    expect(walked(fiveHundred(`${'q Q '.repeat(250_000)}${text}`))).toBe(
      'a PDF whose forms and shared content streams, drawn where they are drawn, hold more than 8000000 bytes',
    );
  });
});
