/**
 * PDFs whose text is drawn with Type0 fonts (`/Encoding /Identity-H`: two
 * bytes a glyph's number), readable only through each font's `/ToUnicode`
 * CMap, for the tests of `src/tools/pdf-to-unicode.ts`: glyph numbers for a
 * text, the CMap mapping them back, the hex string showing the text, and a
 * PDF of numbered objects (streams compressed).
 */
import { deflateSync } from 'node:zlib';
import { joined } from './binary-files';

export const hex4 = (n: number) => n.toString(16).padStart(4, '0');

/** Glyph numbers for the characters of `text`: `base` and up, 3 apart, in order of first use. */
export function glyphs(text: string, base = 0x100): Map<string, number> {
  const codes = new Map<string, number>();
  for (const character of text)
    if (!codes.has(character)) codes.set(character, base + codes.size * 3);
  return codes;
}

/** A ToUnicode CMap for `codes` (the first character by a one-code range, the rest by bfchar), `extra` before its end. */
export function cmapOf(codes: Map<string, number>, extra = ''): string {
  const entries = [...codes];
  const [first, ...rest] = entries;
  const wide = (character: string) => hex4(character.charCodeAt(0));
  return [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CMapName /Adobe-Identity-UCS def /CMapType 2 def',
    '1 begincodespacerange <0000> <FFFF> endcodespacerange',
    `1 beginbfrange <${hex4(first![1])}> <${hex4(first![1])}> <${wide(first![0])}> endbfrange`,
    `${rest.length} beginbfchar`,
    ...rest.map(([character, code]) => `<${hex4(code)}> <${wide(character)}>`),
    'endbfchar',
    extra,
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
}

/** `text` as a hex string of its glyph numbers in `codes`: `<01000103…>`. */
export const shownHex = (text: string, codes: Map<string, number>) =>
  `<${[...text].map(character => hex4(codes.get(character)!)).join('')}>`;

/** A content stream drawing `hex` (a hex string) with font `font`. */
export const drawn = (hex: string, font = 'F1') => `BT /${font} 12 Tf 72 712 Td ${hex} Tj ET`;

/** A Type0 font dictionary whose ToUnicode map is object `map`. */
export const type0Font = (map: number) =>
  `<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Body /Encoding /Identity-H /ToUnicode ${map} 0 R >>`;

/** An object of {@link pdfOf}: a dictionary or other value, or a stream (compressed) with its dictionary's other entries. */
export type PdfObject = string | { stream: string; dictionary?: string };

/**
 * A PDF of `objects`, numbered from 1 in order (object 1 the catalog,
 * its `/Root`), each stream's data deflated (`/Filter /FlateDecode`).
 */
export function pdfOf(objects: readonly PdfObject[]): Uint8Array {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const latin1 = (text: string) => Uint8Array.from(text, character => character.charCodeAt(0));
  const parts: Uint8Array[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  for (const [k, object] of objects.entries()) {
    if (typeof object === 'string') {
      parts.push(latin1(`${k + 1} 0 obj\n${object}\nendobj\n`));
      continue;
    }
    const data = deflateSync(utf8(object.stream));
    parts.push(
      latin1(
        `${k + 1} 0 obj\n<< /Length ${data.length} /Filter /FlateDecode ${object.dictionary ?? ''}>>\nstream\n`,
      ),
      data,
      latin1('\nendstream\nendobj\n'),
    );
  }
  parts.push(latin1('trailer\n<< /Root 1 0 R >>\n%%EOF\n'));
  return joined(parts);
}

/** A PDF's catalog (object 1), its pages (object 2) and a page of them. */
export const catalog = '<< /Type /Catalog /Pages 2 0 R >>';
export const pages = (kids: number[]) =>
  `<< /Type /Pages /Kids [${kids.map(kid => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`;
/** A page (of `/Pages` 2) showing stream `contents` with `fonts` (a font dictionary's entries). */
export const page = (contents: number, fonts: string) =>
  `<< /Type /Page /Parent 2 0 R /Resources << /Font << ${fonts} >> >> /Contents ${contents} 0 R >>`;

/**
 * A one-page PDF whose content stream is `content`, font `/F1` a Type0
 * font whose ToUnicode map (object 6) is `cmap` (`cmapDictionary`: more
 * entries of its stream's dictionary), then `more` objects (7 on).
 */
export const onePagePdf = (
  content: string,
  cmap: string,
  cmapDictionary = '',
  more: PdfObject[] = [],
) =>
  pdfOf([
    catalog,
    pages([3]),
    page(4, '/F1 5 0 R'),
    { stream: content },
    type0Font(6),
    { stream: cmap, dictionary: cmapDictionary },
    ...more,
  ]);
