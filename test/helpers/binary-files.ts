/**
 * Small whole binary files built the way their writers build them (real
 * chunks, segments, entries and checksums), for tests that need a file a
 * provider parses as its format: a PNG, a JPEG, a zip, a PDF. Their data is
 * pseudo-random (what compressed pixels and archives read as), so their
 * bytes hold printable runs a `strings` reading would find.
 */
import { crc32, deflateRawSync, deflateSync } from 'node:zlib';
import { PDF_HEAD, pseudoRandomBytes } from './binary-heads';

const ascii = (text: string) => Array.from(text, character => character.charCodeAt(0));
const u32be = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u16le = (n: number) => [n & 0xff, n >>> 8];
const u32le = (n: number) => [...u16le(n & 0xffff), ...u16le(n >>> 16)];

/** One PNG chunk: its length, type, data and CRC. */
export function pngChunk(type: string, data: ArrayLike<number>): number[] {
  const body = Uint8Array.from([...ascii(type), ...Array.from(data)]);
  return [...u32be(data.length), ...body, ...u32be(crc32(body))];
}

/** A `width` x `height` RGB PNG of pseudo-random pixels, with `chunks` (already built) before IDAT. */
export function realPng(width = 16, height = 16, chunks: number[][] = []): Uint8Array {
  const rows: number[] = [];
  const pixels = pseudoRandomBytes(width * height * 3, 0x5eed);
  for (let y = 0; y < height; y++) {
    rows.push(0, ...pixels.subarray(y * width * 3, (y + 1) * width * 3));
  }
  return Uint8Array.from([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...pngChunk('IHDR', [...u32be(width), ...u32be(height), 8, 2, 0, 0, 0]),
    ...chunks.flat(),
    ...pngChunk('IDAT', deflateSync(Uint8Array.from(rows))),
    ...pngChunk('IEND', []),
  ]);
}

/** One JPEG marker segment: `FF marker`, its length (itself included), its data. */
export function jpegSegment(marker: number, data: ArrayLike<number>): number[] {
  const length = data.length + 2;
  return [0xff, marker, length >>> 8, length & 0xff, ...Array.from(data)];
}

/**
 * A baseline JPEG's structure: SOI, APP0 (JFIF), `segments`, a quantisation
 * table, a frame header, a Huffman table, a scan of pseudo-random entropy
 * data (every 0xFF stuffed with a 0), EOI. Not decodable to pixels, but
 * every segment is where a parser looks for it.
 */
export function realJpeg(segments: number[][] = [], scanLength = 2048): Uint8Array {
  const scan: number[] = [];
  for (const byte of pseudoRandomBytes(scanLength, 0x1abe1)) {
    scan.push(byte);
    if (byte === 0xff) scan.push(0);
  }
  return Uint8Array.from([
    0xff,
    0xd8,
    ...jpegSegment(0xe0, [...ascii('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segments.flat(),
    ...jpegSegment(0xdb, [0, ...Array.from({ length: 64 }, (_, i) => 1 + (i % 50))]),
    ...jpegSegment(0xc0, [8, 0, 16, 0, 16, 1, 1, 0x11, 0]),
    ...jpegSegment(0xc4, [
      0,
      ...[0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
      ...[...Array(12).keys()],
    ]),
    ...jpegSegment(0xda, [1, 1, 0, 0, 63, 0]),
    ...scan,
    0xff,
    0xd9,
  ]);
}

/** A zip entry: its name, its data, and whether it is stored (method 0) or deflated (method 8). */
export interface ZipEntry {
  name: string;
  data: Uint8Array;
  stored?: boolean;
}

/** Byte arrays and numbers' arrays joined (a large part is never spread into an array). */
export const joined = (parts: Array<ArrayLike<number>>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** A zip of `entries`: local headers and data, the central directory, its end record. */
export function realZip(entries: ZipEntry[]): Uint8Array {
  const local: Array<ArrayLike<number>> = [];
  let localLength = 0;
  const central: number[] = [];
  for (const { name, data, stored } of entries) {
    const packed = stored ? data : deflateRawSync(data);
    const nameBytes = ascii(name);
    const fields = [
      ...u16le(20),
      ...u16le(0),
      ...u16le(stored ? 0 : 8),
      ...u16le(0),
      ...u16le(0x21),
      ...u32le(crc32(data)),
      ...u32le(packed.length),
      ...u32le(data.length),
      ...u16le(nameBytes.length),
      ...u16le(0),
    ];
    const offset = localLength;
    local.push([0x50, 0x4b, 0x03, 0x04, ...fields, ...nameBytes], packed);
    localLength += 30 + nameBytes.length + packed.length;
    central.push(
      ...[0x50, 0x4b, 0x01, 0x02],
      ...u16le(20),
      ...fields,
      ...u16le(0),
      ...u16le(0),
      ...u16le(0),
      ...u32le(0),
      ...u32le(offset),
      ...nameBytes,
    );
  }
  return joined([
    ...local,
    central,
    [0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0],
    u16le(entries.length),
    u16le(entries.length),
    u32le(central.length),
    u32le(localLength),
    u16le(0),
  ]);
}

/**
 * A PDF of one page whose content stream is `content` deflated
 * (`/Filter /FlateDecode`), then a stream of pseudo-random data (an
 * image's, `/DCTDecode` unless `imageFilter` says otherwise).
 */
export function realPdf(
  content: string,
  image = pseudoRandomBytes(1024, 0xbeef),
  imageFilter = 'DCTDecode',
): Uint8Array {
  const flate = deflateSync(new TextEncoder().encode(content));
  return joined([
    PDF_HEAD,
    ascii('<< /Type /Catalog /Pages 2 0 R >>\nendobj\n'),
    ascii('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n'),
    ascii('3 0 obj\n<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>\nendobj\n'),
    ascii(`4 0 obj\n<< /Length ${flate.length} /Filter /FlateDecode >>\nstream\n`),
    flate,
    ascii('\nendstream\nendobj\n'),
    ascii(`5 0 obj\n<< /Length ${image.length} /Filter /${imageFilter} >>\nstream\n`),
    image,
    ascii('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
  ]);
}

/** GIF sub-blocks of `data` (255 bytes at most each), then the terminator. */
function subBlocks(data: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const block = Array.from(data).slice(at, at + 255);
    out.push(block.length, ...block);
  }
  return [...out, 0];
}

/** A GIF comment extension holding `text`. */
export const gifComment = (text: string): number[] => [
  0x21,
  0xfe,
  ...subBlocks(new TextEncoder().encode(text)),
];

/** A 1x1 GIF89a with a two-colour table, `extensions` before its image, then its trailer. */
export function realGif(extensions: number[][] = []): Uint8Array {
  return Uint8Array.from([
    ...ascii('GIF89a'),
    1,
    0,
    1,
    0,
    0x80,
    0,
    0,
    ...[0, 0, 0, 255, 255, 255],
    ...extensions.flat(),
    ...[0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0],
    2,
    ...subBlocks([0x4c, 0x01]),
    0x3b,
  ]);
}

/** A JPEG `APP1` Exif segment whose one tag, ImageDescription, is `text`. */
export function exifDescription(text: string): number[] {
  const value = [...new TextEncoder().encode(text), 0];
  const tiff = [
    ...ascii('II*\0'),
    ...u32le(8),
    ...u16le(1),
    ...[0x0e, 0x01],
    ...u16le(2),
    ...u32le(value.length),
    ...u32le(26),
    ...u32le(0),
    ...value,
  ];
  return jpegSegment(0xe1, [...ascii('Exif\0\0'), ...tiff]);
}
