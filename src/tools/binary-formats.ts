import { INFLATE_OVER, inflate } from './inflate';
import { type DrawnStream, FormsUnreadable, formMatrix, PdfDrawings } from './pdf-forms';
import {
  bothReadings,
  type Drawing,
  isDelimiter,
  MAX_TO_UNICODE_CODES,
  type Matrix,
  moveGap,
  ObjectReferences,
  OTHER_OBJECT,
  PdfFonts,
  PdfIndex,
  parseToUnicode,
  pdfString,
  Redraws,
  ReferenceReader,
  readObjectStream,
  ScopeCursor,
  ShownLines,
  STREAM_OBJECT,
  shownThroughMaps,
  type ToUnicode,
  ToUnicodeUnreadable,
} from './pdf-to-unicode';

/**
 * Which binary formats a file's bytes open: a signature, and the structure
 * its format puts right behind it. A client writes a file's bytes, so a
 * signature alone proves nothing: `\x89PNG\r\n\x1a\n` or `%PDF-1.7\n`
 * before plain text kept that text from every guardrail (round 22). A file
 * that opens a format here is one a provider parses as that format (an
 * image, audio, a PDF, an archive): no guardrail reads it, and
 * `unreadableFiles` decides whether it passes. Every check reads a few
 * bytes at fixed places (a PDF's first 1,024 at most): constant time.
 */

/** Files shorter than this agree with a format as far as their bytes go (a truncated head). */
const SHORT_FILE = 32;
/** How far into a PDF its first object may start (after the header and comment lines). */
const PDF_HEAD = 1024;

/** The bytes of a file's head, read as a format's fields; `undefined` past the end. */
class Head {
  constructor(readonly bytes: Uint8Array) {}
  at(index: number): number | undefined {
    return index < this.bytes.length ? this.bytes[index] : undefined;
  }
  u16le(index: number): number | undefined {
    if (index + 2 > this.bytes.length) return undefined;
    return this.bytes[index]! | (this.bytes[index + 1]! << 8);
  }
  u16be(index: number): number | undefined {
    if (index + 2 > this.bytes.length) return undefined;
    return (this.bytes[index]! << 8) | this.bytes[index + 1]!;
  }
  u32le(index: number): number | undefined {
    if (index + 4 > this.bytes.length) return undefined;
    return (this.u16le(index)! + this.u16le(index + 2)! * 0x10000) >>> 0;
  }
  u32be(index: number): number | undefined {
    if (index + 4 > this.bytes.length) return undefined;
    return (this.u16be(index)! * 0x10000 + this.u16be(index + 2)!) >>> 0;
  }
  /** Whether the bytes at `index` are `expected` (`undefined` when the file ends first). */
  has(index: number, expected: readonly number[]): boolean | undefined {
    for (let k = 0; k < expected.length; k++) {
      const byte = this.at(index + k);
      if (byte === undefined) return undefined;
      if (byte !== expected[k]) return false;
    }
    return true;
  }
  /** Whether the `length` bytes at `index` are letters, digits or spaces (a four-character code). */
  isCode(index: number, length = 4): boolean | undefined {
    for (let k = 0; k < length; k++) {
      const byte = this.at(index + k);
      if (byte === undefined) return undefined;
      const letterOrDigit =
        (byte >= 0x30 && byte <= 0x39) ||
        (byte >= 0x41 && byte <= 0x5a) ||
        (byte >= 0x61 && byte <= 0x7a);
      if (!letterOrDigit && byte !== 0x20) return false;
    }
    return true;
  }
}

const ascii = (text: string) => Array.from(text, character => character.charCodeAt(0));

/** `undefined` (ran out of bytes) if any is, else whether all hold. */
function all(...checks: Array<boolean | undefined>): boolean | undefined {
  let unknown = false;
  for (const check of checks) {
    if (check === false) return false;
    if (check === undefined) unknown = true;
  }
  return unknown ? undefined : true;
}

const within = (value: number | undefined, low: number, high: number) =>
  value === undefined ? undefined : value >= low && value <= high;

/** A binary format: its signature (at `offset`) and the structure right behind it. */
interface Format {
  signature: readonly number[];
  offset?: number;
  /** Whether the head holds the format's structure; `undefined`: the bytes ended first. */
  structure(head: Head): boolean | undefined;
  /**
   * Walks the whole file for the bytes whose text a reader may take
   * ({@link formatPieces}); without it every byte is the format's.
   */
  walk?(file: ByteReader, walk: Walk): void;
}

/** A PDF's header line (`%PDF-1.7`), comment lines, then its first object (`1 0 obj`). */
function pdfStructure(head: Head): boolean | undefined {
  const { bytes } = head;
  const end = Math.min(bytes.length, PDF_HEAD);
  const isDigit = (i: number) => i < end && bytes[i]! >= 0x30 && bytes[i]! <= 0x39;
  const isBlank = (i: number) =>
    i < end && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d);
  const ran = () => (bytes.length <= PDF_HEAD ? undefined : false);
  let i = 5;
  if (i + 3 > end) return ran();
  if (!isDigit(i) || bytes[i + 1] !== 0x2e || !isDigit(i + 2)) return false;
  i += 3;
  // The header line's end, then blank and comment lines (the binary marker `%âãÏÓ`).
  for (;;) {
    while (i < end && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
    while (isBlank(i)) i++;
    if (i >= end) return ran();
    if (bytes[i] !== 0x25) break;
  }
  // `<number> <generation> obj`
  const digitsAt = (start: number) => {
    let k = start;
    while (isDigit(k)) k++;
    return k > start ? k : -1;
  };
  let k = digitsAt(i);
  if (k < 0 || !isBlank(k)) return k >= end ? ran() : false;
  while (isBlank(k)) k++;
  k = digitsAt(k);
  if (k < 0 || !isBlank(k)) return k >= end ? ran() : false;
  while (isBlank(k)) k++;
  return head.has(k, ascii('obj')) ?? ran();
}

/**
 * A GIF's first block after its screen descriptor and colour table: an
 * extension with a label GIF defines, an image descriptor followed by its
 * LZW code size (2 to 12), or the trailer at the end of the file.
 */
function gifStructure(head: Head): boolean | undefined {
  const packed = head.at(10);
  if (packed === undefined) return undefined;
  const at = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
  const block = head.at(at);
  if (block === undefined) return undefined;
  if (block === 0x21) {
    const label = head.at(at + 1);
    return label === undefined ? undefined : [0x01, 0xf9, 0xfe, 0xff].includes(label);
  }
  if (block === 0x2c) {
    const local = head.at(at + 9);
    if (local === undefined) return undefined;
    return within(head.at(at + 10 + (local & 0x80 ? 3 * 2 ** ((local & 7) + 1) : 0)), 2, 12);
  }
  return block === 0x3b && at + 1 === head.bytes.length;
}

/** A RIFF form type, then its first chunk: a code, and a size that ends the file or leads to another chunk. */
function riffStructure(head: Head): boolean | undefined {
  const size = head.u32le(16);
  const codes = all(head.isCode(8), head.isCode(12));
  if (codes !== true || size === undefined) return codes === false ? false : undefined;
  const next = 20 + size + (size & 1);
  if (next === head.bytes.length || next - 1 === head.bytes.length) return true;
  return next < head.bytes.length ? head.isCode(next) : undefined;
}

/** The formats {@link opensBinaryFormat} knows, each with its structure check. */
const FORMATS: readonly Format[] = [
  // PNG: the IHDR chunk (13 bytes) comes first.
  {
    signature: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    structure: head => all(head.has(8, [0, 0, 0, 13]), head.has(12, ascii('IHDR'))),
    walk: pngWalk,
  },
  // JPEG: a marker segment (APPn, DQT, SOFn, DHT, COM...) whose length leads to the next marker.
  {
    signature: [0xff, 0xd8, 0xff],
    structure: head => {
      const marker = head.at(3);
      const length = head.u16be(4);
      if (marker === undefined || length === undefined) return undefined;
      if (marker < 0xc0 || (marker >= 0xd0 && marker <= 0xd9) || marker === 0xff || length < 2) {
        return false;
      }
      const next = head.at(4 + length);
      return next === undefined ? undefined : next === 0xff;
    },
    walk: jpegWalk,
  },
  // GIF: the logical screen descriptor, its colour table, then a block that reads as one.
  ...['GIF87a', 'GIF89a'].map(
    (signature): Format => ({
      signature: ascii(signature),
      structure: gifStructure,
      walk: gifWalk,
    }),
  ),
  // RIFF (WebP, WAV, AVI): a form type, then a chunk whose size leads to the end or another chunk.
  { signature: ascii('RIFF'), structure: riffStructure },
  // TIFF: the first directory's offset, past the header.
  {
    signature: [0x49, 0x49, 0x2a, 0x00],
    structure: head => within(head.u32le(4), 8, 0xffffffff),
  },
  {
    signature: [0x4d, 0x4d, 0x00, 0x2a],
    structure: head => within(head.u32be(4), 8, 0xffffffff),
  },
  // ICO: an image count, then an entry whose reserved byte is 0 and planes 0 or 1.
  {
    signature: [0x00, 0x00, 0x01, 0x00],
    structure: head =>
      all(within(head.u16le(4), 1, 256), head.has(9, [0]), within(head.u16le(10), 0, 1)),
  },
  // Matroska / WebM: the EBML header's size, then one of its elements (0x42..).
  {
    signature: [0x1a, 0x45, 0xdf, 0xa3],
    structure: head => {
      const size = head.at(4);
      if (size === undefined) return undefined;
      if (size === 0) return false;
      const element = head.at(4 + Math.clz32(size) - 23);
      return element === undefined ? undefined : element === 0x42;
    },
  },
  // Ogg: stream structure version 0, header type flags.
  { signature: ascii('OggS'), structure: head => all(head.has(4, [0]), within(head.at(5), 0, 7)) },
  // FLAC: the STREAMINFO block (34 bytes) first.
  {
    signature: ascii('fLaC'),
    structure: head => {
      const type = head.at(4);
      return all(type === undefined ? undefined : (type & 0x7f) === 0, head.has(5, [0, 0, 34]));
    },
  },
  // ID3v2: a version, then a syncsafe size (7 bits a byte).
  {
    signature: ascii('ID3'),
    structure: head =>
      all(
        within(head.at(3), 2, 4),
        within(head.at(4), 0, 0xfe),
        ...[6, 7, 8, 9].map(i => within(head.at(i), 0, 0x7f)),
      ),
  },
  // PDF: the header, then its first object.
  { signature: ascii('%PDF-'), structure: pdfStructure, walk: pdfWalk },
  // Zip (Office, EPUB, JAR...): a local file header's version and compression method.
  {
    signature: [0x50, 0x4b, 0x03, 0x04],
    structure: head => {
      const method = head.u16le(8);
      return all(
        within(head.at(4), 0, 99),
        method === undefined
          ? undefined
          : [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 14, 18, 19, 93, 94, 95, 96, 97, 98, 99].includes(
              method,
            ),
      );
    },
    walk: zipWalk,
  },
  // An empty zip (its end record: disk numbers 0), a spanned one (a local header next).
  {
    signature: [0x50, 0x4b, 0x05, 0x06],
    structure: head => head.has(4, [0, 0, 0, 0]),
    walk: zipWalk,
  },
  { signature: [0x50, 0x4b, 0x07, 0x08], structure: head => head.has(4, [0x50, 0x4b, 0x03, 0x04]) },
  // gzip: deflate, reserved flags 0.
  {
    signature: [0x1f, 0x8b],
    structure: head => {
      const flags = head.at(3);
      return all(head.has(2, [8]), flags === undefined ? undefined : (flags & 0xe0) === 0);
    },
  },
  // bzip2: a block size digit, then a block's or the end's magic number.
  {
    signature: ascii('BZh'),
    structure: head => {
      const block = head.has(4, [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]);
      const end = head.has(4, [0x17, 0x72, 0x45, 0x38, 0x50, 0x90]);
      return all(within(head.at(3), 0x31, 0x39), block || end || (block ?? end));
    },
  },
  // xz: stream flags (a null byte, then the check type).
  {
    signature: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00],
    structure: head => all(head.has(6, [0]), within(head.at(7), 0, 0x0f)),
  },
  // 7z: major version 0.
  {
    signature: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c],
    structure: head => all(head.has(6, [0]), within(head.at(7), 0, 4)),
  },
  // Zstandard: the frame header descriptor's reserved bit clear.
  {
    signature: [0x28, 0xb5, 0x2f, 0xfd],
    structure: head => {
      const descriptor = head.at(4);
      return descriptor === undefined ? undefined : (descriptor & 0x08) === 0;
    },
  },
  // RAR 4 or 5.
  {
    signature: ascii('Rar!\x1a\x07'),
    structure: head => {
      const version = head.at(6);
      if (version === undefined) return undefined;
      return version === 0 || (version === 1 ? head.has(7, [0]) : false);
    },
  },
  // ELF: 32 or 64 bits, either byte order, version 1.
  {
    signature: [0x7f, 0x45, 0x4c, 0x46],
    structure: head => all(within(head.at(4), 1, 2), within(head.at(5), 1, 2), head.has(6, [1])),
  },
  // PE: the DOS header points to the PE signature.
  {
    signature: ascii('MZ'),
    structure: head => {
      const pe = head.u32le(0x3c);
      if (pe === undefined) return undefined;
      return pe >= 0x40 && pe < 4096 ? head.has(pe, [0x50, 0x45, 0, 0]) : false;
    },
  },
  // Mach-O: a file type (object, executable, library...).
  ...[
    [0xcf, 0xfa, 0xed, 0xfe],
    [0xce, 0xfa, 0xed, 0xfe],
  ].map((signature): Format => ({ signature, structure: head => within(head.u32le(12), 1, 15) })),
  ...[
    [0xfe, 0xed, 0xfa, 0xcf],
    [0xfe, 0xed, 0xfa, 0xce],
  ].map((signature): Format => ({ signature, structure: head => within(head.u32be(12), 1, 15) })),
  // A universal Mach-O (its architecture count) or a Java class (its major version).
  {
    signature: [0xca, 0xfe, 0xba, 0xbe],
    structure: head => {
      const count = within(head.u32be(4), 1, 30);
      const major = within(head.u16be(6), 45, 100);
      return count || major || (count ?? major);
    },
  },
  // WebAssembly: version 1.
  { signature: [0x00, 0x61, 0x73, 0x6d], structure: head => head.has(4, [1, 0, 0, 0]) },
  // SQLite: a page size, and the fixed payload fractions 64, 32, 32.
  {
    signature: ascii('SQLite format 3\0'),
    structure: head => {
      const page = head.u16be(16);
      return all(
        page === undefined ? undefined : page === 1 || (page >= 512 && (page & (page - 1)) === 0),
        head.has(21, [64, 32, 32]),
      );
    },
  },
  // OLE (legacy Office): the byte order mark and a sector size of 512 or 4,096.
  {
    signature: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    structure: head => {
      const shift = head.u16le(30);
      return all(
        head.has(28, [0xfe, 0xff]),
        shift === undefined ? undefined : shift === 9 || shift === 12,
      );
    },
  },
  // ISO media (MP4, MOV, M4A, HEIC, AVIF, 3GP): an `ftyp` box's size and major brand.
  {
    signature: ascii('ftyp'),
    offset: 4,
    structure: head => all(within(head.u32be(0), 8, 4096), head.isCode(8)),
  },
];

/** Bit rates (kbit/s) by index: MPEG-1 layers I, II, III; MPEG-2 and 2.5 layer I, layers II and III. */
const BIT_RATES = [
  [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
];
/** Sampling rates (Hz) by index: MPEG-1, MPEG-2, MPEG-2.5. */
const SAMPLING_RATES = [
  [44100, 48000, 32000],
  [22050, 24000, 16000],
  [11025, 12000, 8000],
];

/** The length of the MPEG audio (MP3) or ADTS (AAC) frame at the head; 0 when it is none. */
function mpegFrameLength(head: Head): number | undefined {
  const [b0, b1, b2, b3, b4, b5] = [0, 1, 2, 3, 4, 5].map(i => head.at(i));
  if (b0 !== 0xff || b1 === undefined || (b1 & 0xe0) !== 0xe0) return 0;
  if (b2 === undefined) return undefined;
  const layer = (b1 >> 1) & 3;
  if (layer === 0) {
    // ADTS: 12 sync bits, a sampling frequency index below 13, a 13-bit frame length.
    if ((b1 & 0xf6) !== 0xf0 || ((b2 >> 2) & 0xf) >= 13) return 0;
    if (b3 === undefined || b4 === undefined || b5 === undefined) return undefined;
    const length = ((b3 & 3) << 11) | (b4 << 3) | (b5 >> 5);
    return length >= 7 ? length : 0;
  }
  const version = (b1 >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5, 1: reserved
  const rateIndex = b2 >> 4;
  const samplingIndex = (b2 >> 2) & 3;
  if (version === 1 || rateIndex === 0 || rateIndex === 15 || samplingIndex === 3) return 0;
  const mpeg1 = version === 3;
  const table = mpeg1 ? 3 - layer : layer === 3 ? 3 : 4;
  const bitRate = BIT_RATES[table]![rateIndex]! * 1000;
  const samplingRate = SAMPLING_RATES[mpeg1 ? 0 : version === 2 ? 1 : 2]![samplingIndex]!;
  const padding = (b2 >> 1) & 1;
  if (layer === 3) return (Math.floor((12 * bitRate) / samplingRate) + padding) * 4;
  const perFrame = layer === 1 && !mpeg1 ? 72 : 144;
  return Math.floor((perFrame * bitRate) / samplingRate) + padding;
}

/**
 * An MPEG audio (MP3) or ADTS (AAC) stream with no tag before it: a frame
 * header whose length leads to the next frame's sync bits (three bytes of
 * a frame header alone say nothing).
 */
function mpegFrames(head: Head): boolean | undefined {
  const length = mpegFrameLength(head);
  if (length === undefined || length === 0) return length === undefined ? undefined : false;
  const sync = head.at(length);
  const next = head.at(length + 1);
  if (sync === undefined || next === undefined) return undefined;
  return sync === 0xff && (next & 0xe0) === 0xe0;
}

/**
 * Whether `bytes` (a file's, or the first bytes of a long one) open a
 * binary format a provider parses: images (PNG, JPEG, GIF, WebP, TIFF,
 * ICO, HEIC/AVIF), audio and video (ISO media, Matroska/WebM, Ogg, FLAC,
 * MP3, AAC, WAV, AVI), PDF, archives and compressed data (zip and the
 * Office, EPUB and JAR files built on it, gzip, bzip2, xz, 7z, zstd, rar),
 * executables and bytecode (ELF, PE, Mach-O, WebAssembly, Java class),
 * SQLite, OLE (legacy Office). Each needs its signature and the structure
 * its format puts right behind it (a PNG's IHDR chunk, a PDF's first
 * object after its header, a zip's compression method, a PE header where
 * the DOS header points): a signature with other bytes behind it is no
 * format. A file shorter than 32 bytes agrees as far as its bytes go.
 */
export function opensBinaryFormat(bytes: Uint8Array): boolean {
  return openedFormat(bytes) !== undefined;
}

/**
 * Whether `bytes` open a binary format ({@link opensBinaryFormat}) every
 * byte of which is the format's: any but a PNG, a JPEG, a GIF, a zip or a
 * PDF, whose structure is walked for the text it carries ({@link formatPieces}).
 */
export function opensWholeBinaryFormat(bytes: Uint8Array): boolean {
  const format = openedFormat(bytes);
  return format !== undefined && format.walk === undefined;
}

/** MPEG audio or ADTS frames: a format of no signature, every byte its own. */
const MPEG_FRAMES: Format = { signature: [], structure: mpegFrames };

/** The format `bytes` open ({@link opensBinaryFormat}), or `undefined`. */
function openedFormat(bytes: Uint8Array): Format | undefined {
  const head = new Head(bytes);
  const short = bytes.length < SHORT_FILE;
  for (const format of FORMATS) {
    const signature = head.has(format.offset ?? 0, format.signature);
    if (signature === false || (signature === undefined && !short)) continue;
    if (signature === undefined) return format;
    const structure = format.structure(head);
    if (structure === true || (structure === undefined && short)) return format;
  }
  const frames = mpegFrames(head);
  return frames === true || (frames === undefined && short) ? MPEG_FRAMES : undefined;
}

/** A file's bytes read a range at a time (a \`Uint8Array\`, or base64 decoded where asked). */
export interface ByteReader {
  readonly length: number;
  /** The bytes of `[start, end)`, within `[0, length]`. */
  read(start: number, end: number): Uint8Array;
}

/** How many bytes a walk that reads a byte at a time ({@link FileBytes}) reads of its file at once. */
const WALK_CHUNK = 65_536;

/**
 * A file's bytes for a walk that reads a byte at a time or searches (a
 * JPEG's segments and scans, a GIF's blocks): read {@link WALK_CHUNK} bytes
 * at a time through {@link ByteReader.read}, the last chunk kept (round 29:
 * base64 was decoded whole by one `atob` at the walk's first byte, a 10 MB
 * file before any limit applied, and a JPEG stored in a zip decoded the
 * whole zip). Each byte is read once for a walk that goes forward.
 */
class FileBytes {
  private start = 0;
  private bytes: Uint8Array = new Uint8Array(0);
  readonly length: number;
  constructor(private readonly file: ByteReader) {
    this.length = file.length;
  }
  /** The chunk that holds `index` (within `[0, length)`), read if it is not the last one. */
  private chunk(index: number): void {
    if (index >= this.start && index < this.start + this.bytes.length) return;
    this.start = index - (index % WALK_CHUNK);
    this.bytes = this.file.read(this.start, Math.min(this.length, this.start + WALK_CHUNK));
  }
  at(index: number): number {
    this.chunk(index);
    return this.bytes[index - this.start]!;
  }
  /** Where `byte` is first from `from`, or -1. */
  indexOf(byte: number, from: number): number {
    for (let at = from; at < this.length; at = this.start + this.bytes.length) {
      this.chunk(at);
      const found = this.bytes.indexOf(byte, at - this.start);
      if (found >= 0) return this.start + found;
    }
    return -1;
  }
}

/**
 * How many bytes the compressed parts of one file may inflate to, together
 * (a PNG's `zTXt`, a PDF's streams, a zip's entries): past it the file is
 * not read (a zip bomb fails closed after 8 MB of output).
 */
export const MAX_INFLATED_BYTES = 8_000_000;
/** How deep files inside files are walked (a PNG in a zip in a PDF stream). */
const MAX_DEPTH = 3;

/** What walking a file's structure found ({@link formatPieces}). */
export type FormatPieces =
  | {
      /** The text of each piece read (bytes read by the text rules, or text already read: a PDF stream's strings). */
      texts: string[];
      /** The texts passed the caller's limit ({@link WalkText.over}): the walk stopped there. */
      over?: true;
      unreadable?: undefined;
    }
  | {
      /** Why a part that may hold text could not be read (no value of it): the file fails closed. */
      unreadable: string;
      texts?: undefined;
    };

/** How a walk reads its pieces as they are found, and when it stops ({@link formatPieces}). */
export interface WalkText {
  /** A piece's text (`undefined`: none). */
  read(piece: Uint8Array | string): string | undefined;
  /** Whether the texts read so far, `characters` long together, are past the caller's limit: the walk stops. */
  over?(characters: number): boolean;
}

/** The pieces a walk found, each read to text as it is found ({@link WalkText}). */
class WalkPieces {
  readonly texts: string[] = [];
  private characters = 0;
  constructor(private readonly reader: WalkText) {}
  push(piece: Uint8Array | string): void {
    if (piece.length === 0) return;
    const text = this.reader.read(piece);
    if (text === undefined) return;
    this.texts.push(text);
    this.characters += text.length;
    if (this.reader.over?.(this.characters)) throw new TextOver();
  }
}

/** One walk of one file: the pieces found so far, the inflate budget, the depth. */
interface Walk {
  pieces: WalkPieces;
  budget: { left: number };
  depth: number;
}

/** Thrown inside a walk when its texts pass the caller's limit ({@link WalkText.over}). */
class TextOver extends Error {}

/** Thrown inside a walk for a part that may hold text and cannot be read. */
class Unwalkable extends Error {}

/**
 * The bytes of a file that opens a binary format ({@link opensBinaryFormat},
 * told from `head`, its first bytes) whose text a reader may take: round 23
 * read the bytes outside a PNG's chunks and a PDF's filtered streams; round
 * 24 reads the text-bearing parts inside the structure too, as a reader of
 * the format shows them (`card 4111 1111 1111 1111` in a PNG `tEXt` chunk, a
 * JPEG comment or a PDF's compressed page reached the model unread):
 * - PNG: each `tEXt`, `zTXt` and `iTXt` chunk (keyword, language, text;
 *   compressed text inflated), and the bytes after IEND or from where the
 *   chunks stop being chunks;
 * - JPEG: each comment (`COM`) and application segment (`APP0`–`APP15`:
 *   Exif strings, XMP, ICC names), and the bytes after EOI or from where the
 *   segments stop being segments (the scans' entropy-coded data is not read);
 * - GIF: each comment, plain-text and application extension's data (its
 *   sub-blocks joined), and the bytes after the trailer or from where the
 *   blocks stop being blocks;
 * - zip: each entry's names and comments, its stored or deflated data, the
 *   archive comment, and the bytes no entry or directory holds;
 * - PDF: all but its header line and the bodies of filtered streams, and
 *   each `/FlateDecode` stream's body inflated (a `/DCTDecode` one walked as
 *   the JPEG it is; `/JPXDecode`, `/JBIG2Decode`, `/CCITTFaxDecode` images
 *   not read); round 25: an XMP metadata stream as its XML, and outside
 *   filtered streams each hex string and escaped literal string decoded
 *   too (`/Title <FEFF…>`, `<3431…> Tj` in an uncompressed page).
 * A part that is itself a file of a walked format is walked (to depth 3);
 * one of another format is not read. Compressed parts inflate to at most
 * {@link MAX_INFLATED_BYTES} together. `unreadable` (fail closed) for a part
 * that may hold text and cannot be read: compressed data that is no deflate
 * stream or inflates past the budget, a zip entry that is encrypted or
 * compressed with another method, a zip whose directory cannot be found, a
 * PDF stream with another filter (`/ASCII85Decode`, `/LZWDecode`, a chain).
 * `undefined`: the bytes open no format, or one whose every byte is the
 * format's (audio, video, executables...). Linear in the file and what it
 * inflates to; a PNG's chunks are read by their headers (8 bytes a chunk).
 */
export function formatPieces(
  head: Uint8Array,
  file: ByteReader,
  reader: WalkText,
): FormatPieces | undefined {
  const format = openedFormat(head);
  if (format?.walk === undefined) return undefined;
  const walk: Walk = {
    pieces: new WalkPieces(reader),
    budget: { left: MAX_INFLATED_BYTES },
    depth: 0,
  };
  try {
    format.walk(file, walk);
  } catch (error) {
    if (error instanceof Unwalkable) return { unreadable: error.message };
    if (error instanceof TextOver) return { texts: walk.pieces.texts, over: true };
    throw error;
  }
  return { texts: walk.pieces.texts };
}

/** `bytes` as a {@link ByteReader}. */
export const readerOf = (bytes: Uint8Array): ByteReader => ({
  length: bytes.length,
  read: (start, end) => bytes.subarray(start, end),
});

/** How many bytes of a long run of a file's bytes (a zip's stored entry, the bytes after a PNG's end) are read as one piece. */
const RAW_PIECE = 1_048_576;
/** How far the pieces of one run overlap: a value cut between two is read whole in one (round 27). */
const RAW_OVERLAP = 4096;

/**
 * The bytes `[start, end)` of `file` as pieces of at most {@link RAW_PIECE}
 * bytes and the {@link RAW_OVERLAP} after them (round 27: a 7 MB entry was
 * one piece, decoded whole before the walk's text was known to be past
 * its limit).
 */
function pushRange(file: ByteReader, start: number, end: number, walk: Walk): void {
  for (let at = start; at < end; at += RAW_PIECE) {
    walk.pieces.push(file.read(at, Math.min(end, at + RAW_PIECE + RAW_OVERLAP)));
  }
}

/** The bytes `[start, end)` of `file` as a {@link ByteReader} of their own (read from `file` as asked). */
function rangeReader(file: ByteReader, start: number, end: number): ByteReader {
  return {
    length: end - start,
    read: (from, to) => file.read(start + from, start + Math.min(to, end - start)),
  };
}

/**
 * A part of a file as the pieces it gives: walked when it is a file of a
 * walked format itself, nothing when it opens another format, else itself.
 * A part given as a {@link ByteReader} is read only as far as its walk
 * reads it (a JPEG stored in a zip: its segments' headers, not its scans).
 */
function partPieces(part: Uint8Array | ByteReader, walk: Walk): void {
  const file = part instanceof Uint8Array ? readerOf(part) : part;
  if (file.length === 0) return;
  const format = openedFormat(file.read(0, Math.min(file.length, 4096)));
  if (format === undefined) {
    pushRange(file, 0, file.length, walk);
    return;
  }
  if (format.walk === undefined || walk.depth + 1 >= MAX_DEPTH) return;
  walk.depth++;
  format.walk(file, walk);
  walk.depth--;
}

/**
 * How many compressed bytes may inflate to no more than `left` bytes: zlib
 * stores data it cannot compress in blocks of 5 bytes of header a 16 KB or
 * more, so a longer part of real deflate data inflates past `left`.
 */
const mostCompressed = (left: number) => left + Math.ceil(left / 1000) + 1024;

/** The bytes `[start, end)` of `file` inflated ({@link inflated}); past the budget's reach not read at all. */
function inflatedRange(
  file: ByteReader,
  start: number,
  end: number,
  zlib: boolean,
  walk: Walk,
): Uint8Array {
  if (end - start > mostCompressed(walk.budget.left)) {
    throw new Unwalkable(`compressed parts that inflate to more than ${MAX_INFLATED_BYTES} bytes`);
  }
  return inflated(file.read(start, end), zlib, walk);
}

/** `data` inflated (zlib, or raw deflate), within the walk's budget; else the walk fails closed. */
function inflated(data: Uint8Array, zlib: boolean, walk: Walk): Uint8Array {
  const out = inflate(data, zlib, walk.budget.left);
  if (out === INFLATE_OVER) {
    throw new Unwalkable(`compressed parts that inflate to more than ${MAX_INFLATED_BYTES} bytes`);
  }
  if (out === undefined) throw new Unwalkable('a compressed part that is no deflate data');
  walk.budget.left -= out.length;
  return out;
}

/** Whether 4 bytes are ASCII letters (a PNG chunk type). */
const isChunkType = (bytes: Uint8Array, at: number) => {
  for (let k = at; k < at + 4; k++) {
    const letter = bytes[k]! | 0x20;
    if (letter < 0x61 || letter > 0x7a) return false;
  }
  return true;
};

/** `bytes` cut at its first NUL: what comes before it, and the place after it (`-1`: none). */
function beforeNul(bytes: Uint8Array, from = 0): [Uint8Array, number] {
  const nul = bytes.indexOf(0, from);
  return nul < 0 ? [bytes.subarray(from), -1] : [bytes.subarray(from, nul), nul + 1];
}

/** A PNG text chunk's pieces: `tEXt` keyword and text; `zTXt` keyword and inflated text; `iTXt` all of its fields. */
function pngTextChunk(type: string, data: Uint8Array, walk: Walk): void {
  const [keyword, after] = beforeNul(data);
  walk.pieces.push(keyword);
  if (after < 0) return;
  if (type === 'tEXt') walk.pieces.push(data.subarray(after));
  else if (type === 'zTXt') {
    if (data[after] !== 0)
      throw new Unwalkable('a PNG zTXt chunk of an unknown compression method');
    partPieces(inflated(data.subarray(after + 1), true, walk), walk);
  } else {
    // iTXt: compression flag and method, language tag, translated keyword, text.
    const compressed = data[after];
    const [language, translatedAt] = beforeNul(data, after + 2);
    walk.pieces.push(language);
    if (translatedAt < 0) return;
    const [translated, textAt] = beforeNul(data, translatedAt);
    walk.pieces.push(translated);
    if (textAt < 0) return;
    const text = data.subarray(textAt);
    if (compressed === 0) walk.pieces.push(text);
    else if (data[after + 1] !== 0) {
      throw new Unwalkable('a PNG iTXt chunk of an unknown compression method');
    } else walk.pieces.push(inflated(text, true, walk));
  }
}

/** {@link formatPieces} for a PNG: its text chunks, and what follows IEND or where its chunks stop. */
function pngWalk(file: ByteReader, walk: Walk): void {
  const { length } = file;
  let at = 8;
  while (at + 12 <= length) {
    const header = file.read(at, at + 8);
    const size =
      (header[0]! * 0x1000000 + (header[1]! << 16) + (header[2]! << 8) + header[3]!) >>> 0;
    // The PNG specification's limit on a chunk's length is 2^31 - 1.
    if (size > 0x7fffffff || !isChunkType(header, 4) || at + 12 + size > length) break;
    const type = String.fromCharCode(header[4]!, header[5]!, header[6]!, header[7]!);
    if (type === 'tEXt' || type === 'zTXt' || type === 'iTXt') {
      pngTextChunk(type, file.read(at + 8, at + 8 + size), walk);
    }
    at += 12 + size;
    if (type === 'IEND') break;
  }
  if (at < length) pushRange(file, at, length, walk);
}

/** {@link formatPieces} for a JPEG: comments and application segments, and what follows EOI or where segments stop. */
function jpegWalk(file: ByteReader, walk: Walk): void {
  // Read by its segments' headers, comments and application segments, and a
  // search for 0xFF through the scans (round 25: the whole file was decoded
  // first, 10 ms a call for a 3 MB JPEG as base64).
  const { length } = file;
  const bytes = new FileBytes(file);
  const byte = (index: number) => bytes.at(index);
  let at = 2;
  while (at + 2 <= length) {
    if (byte(at) !== 0xff) break;
    const marker = byte(at + 1);
    if (marker === 0xff) {
      at++; // a fill byte
      continue;
    }
    if (marker === 0xd9) {
      at += 2; // EOI
      break;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (at + 4 > length) break;
    const size = (byte(at + 2) << 8) | byte(at + 3);
    if (size < 2 || at + 2 + size > length) break;
    if (marker === 0xfe || (marker >= 0xe0 && marker <= 0xef)) {
      partPieces(file.read(at + 4, at + 2 + size), walk);
    }
    at += 2 + size;
    if (marker === 0xda) {
      // Entropy-coded data up to the next marker (0xFF then neither 0 nor a restart marker).
      for (;;) {
        const next = bytes.indexOf(0xff, at);
        if (next < 0 || next + 1 >= length) {
          at = length;
          break;
        }
        const after = byte(next + 1);
        if (after === 0 || (after >= 0xd0 && after <= 0xd7) || after === 0xff) {
          at = next + (after === 0xff ? 1 : 2);
          continue;
        }
        at = next;
        break;
      }
    }
  }
  if (at < length) pushRange(file, at, length, walk);
}

/** {@link formatPieces} for a GIF: comment, plain-text and application extensions, and what follows its trailer. */
function gifWalk(file: ByteReader, walk: Walk): void {
  // Read by its blocks' sizes (round 25: decoded whole first); the image data's sub-blocks skipped.
  const { length } = file;
  const bytes = new FileBytes(file);
  const byte = (index: number) => bytes.at(index);
  const table = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
  let at = 13 + table(length > 10 ? byte(10) : 0);
  /** The data of the sub-blocks at `at`, joined; `undefined` when they run past the file. */
  const subBlocks = (keep: boolean): Uint8Array | undefined => {
    const parts: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      if (at >= length) return undefined;
      const size = byte(at++);
      if (size === 0) break;
      if (at + size > length) return undefined;
      if (keep) parts.push(file.read(at, at + size));
      total += size;
      at += size;
    }
    const joined = new Uint8Array(keep ? total : 0);
    let offset = 0;
    for (const part of parts) {
      joined.set(part, offset);
      offset += part.length;
    }
    return joined;
  };
  while (at < length) {
    const start = at;
    const block = byte(at);
    if (block === 0x3b) {
      at++;
      break;
    }
    let ok = false;
    if (block === 0x21 && at + 1 < length) {
      const label = byte(at + 1);
      at += 2;
      const data = subBlocks(label === 0xfe || label === 0x01 || label === 0xff);
      if (data !== undefined) {
        if (label === 0xfe || label === 0x01 || label === 0xff) partPieces(data, walk);
        ok = true;
      }
    } else if (block === 0x2c && at + 10 < length) {
      at += 10 + table(byte(at + 9)) + 1;
      ok = subBlocks(false) !== undefined;
    }
    if (!ok) {
      at = start;
      break;
    }
  }
  if (at < length) pushRange(file, at, length, walk);
}

/**
 * {@link formatPieces} for a zip: names, comments, stored and deflated
 * entries, and the bytes no record holds. Read a range at a time (round
 * 27: the whole file was decoded first, a 10 MB base64 zip decoded before
 * any limit applied): its end record's tail, its directory, each local
 * header in the order of their places, then each entry's data and the
 * bytes between; a deflated entry longer than the inflate budget's reach
 * fails closed unread, a stored one is walked as far as its format is.
 */
function zipWalk(file: ByteReader, walk: Walk): void {
  const { length } = file;
  const u16 = (bytes: Uint8Array, i: number) => bytes[i]! | (bytes[i + 1]! << 8);
  const u32 = (bytes: Uint8Array, i: number) => (u16(bytes, i) + u16(bytes, i + 2) * 0x10000) >>> 0;
  const isSignature = (bytes: Uint8Array, i: number, third: number, fourth: number) =>
    i + 4 <= bytes.length &&
    bytes[i] === 0x50 &&
    bytes[i + 1] === 0x4b &&
    bytes[i + 2] === third &&
    bytes[i + 3] === fourth;
  const noDirectory = () => new Unwalkable('no zip directory where its end record points');
  // The end of central directory record: within the last 22 + 65,535 bytes.
  const tailStart = Math.max(0, length - 22 - 0xffff);
  const tail = file.read(tailStart, length);
  let endAt = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (isSignature(tail, i, 5, 6)) {
      endAt = i;
      break;
    }
  }
  if (endAt < 0) throw noDirectory();
  const end = tailStart + endAt;
  const count = u16(tail, endAt + 10);
  const directory = u32(tail, endAt + 16);
  const commentLength = u16(tail, endAt + 20);
  if (end + 22 + commentLength > length || directory > end) throw noDirectory();
  walk.pieces.push(tail.subarray(endAt + 22, endAt + 22 + commentLength));
  // What the records hold, as [start, end) pairs: the rest is read as it is.
  const held: Array<[number, number]> = [[directory, end + 22 + commentLength]];
  // Each entry's data, read once all are known not to overlap (round 26: a
  // directory of 65,535 records naming one stored entry read it 65,535 times,
  // a 5 MB file read as 300 GB of text).
  const records: Array<[local: number, method: number, flags: number, packed: number]> = [];
  const listing = file.read(directory, end);
  let at = 0;
  for (let entry = 0; entry < count; entry++) {
    if (!isSignature(listing, at, 1, 2) || at + 46 > listing.length) throw noDirectory();
    const nameLength = u16(listing, at + 28);
    const next = at + 46 + nameLength + u16(listing, at + 30) + u16(listing, at + 32);
    if (next > listing.length) throw noDirectory();
    walk.pieces.push(listing.subarray(at + 46, at + 46 + nameLength));
    walk.pieces.push(listing.subarray(next - u16(listing, at + 32), next));
    records.push([
      u32(listing, at + 42),
      u16(listing, at + 10),
      u16(listing, at + 8),
      u32(listing, at + 20),
    ]);
    at = next;
  }
  // The local headers in the order of their places (each read once, near the last).
  const entries: Array<[method: number, flags: number, data: number, packed: number]> = [];
  for (const [local, method, flags, packed] of [...records].sort((a, b) => a[0] - b[0])) {
    const header = local + 30 <= length ? file.read(local, local + 30) : undefined;
    if (header === undefined || !isSignature(header, 0, 3, 4)) {
      throw new Unwalkable('a zip entry whose local header is not where its directory points');
    }
    const localName = local + 30;
    const data = localName + u16(header, 26) + u16(header, 28);
    if (data + packed > length) throw new Unwalkable('a zip entry that runs past the file');
    walk.pieces.push(file.read(localName, localName + u16(header, 26)));
    held.push([local, data + packed]);
    if (packed > 0) entries.push([method, flags, data, packed]);
  }
  held.sort((a, b) => a[0] - b[0]);
  for (let k = 1; k < held.length; k++) {
    if (held[k]![0] < held[k - 1]![1]) throw new Unwalkable('a zip whose entries overlap');
  }
  for (const [method, flags, data, packed] of entries) {
    if (flags & 1) throw new Unwalkable('an encrypted zip entry');
    if (method === 0) partPieces(rangeReader(file, data, data + packed), walk);
    else if (method === 8) partPieces(inflatedRange(file, data, data + packed, false, walk), walk);
    else throw new Unwalkable(`a zip entry compressed with method ${method}`);
  }
  let from = 0;
  for (const [start, stop] of held) {
    if (start > from) pushRange(file, from, start, walk);
    from = stop;
  }
  if (from < length) pushRange(file, from, length, walk);
}

/** Image filters whose data is no text (a `/DCTDecode` stream is a JPEG, walked as one). */
const IMAGE_FILTERS = new Set(['JPXDecode', 'JBIG2Decode', 'CCITTFaxDecode', 'CCF']);

/** How many bytes of a PDF {@link LatinChunks} decodes at a time. */
const PDF_CHUNK = 65_536;
/** How far before its `stream` keyword a stream's object header (`5 0 obj`) is looked for. */
const PDF_DICTIONARY = 65_536;
/** How many bytes outside a PDF's filtered streams are read as one piece ({@link RAW_PIECE}). */
const PDF_RAW_PIECE = RAW_PIECE;
const PDF_RAW_OVERLAP = RAW_OVERLAP;

/** A file's bytes read as latin-1 (one character a byte) a chunk at a time, the last two chunks kept. */
class LatinChunks {
  private readonly chunks = new Map<number, string>();
  constructor(private readonly file: ByteReader) {}
  private chunk(index: number): string {
    let chunk = this.chunks.get(index);
    if (chunk === undefined) {
      if (this.chunks.size >= 2) this.chunks.delete(this.chunks.keys().next().value!);
      const start = index * PDF_CHUNK;
      chunk = latin1(this.file.read(start, Math.min(this.file.length, start + PDF_CHUNK)));
      this.chunks.set(index, chunk);
    }
    return chunk;
  }
  /** The character code at `index` (NaN past the end). */
  code(index: number): number {
    if (index < 0 || index >= this.file.length) return Number.NaN;
    return this.chunk(Math.floor(index / PDF_CHUNK)).charCodeAt(index % PDF_CHUNK);
  }
  /**
   * Where `needle` is first from `from`, starting before `stop`, or -1.
   * Searched in the chunk itself, then across its seam in a string of
   * twice the needle's length (round 34: the chunk and the next one's head
   * were joined for every search, a 64 KB copy each: a PDF of 10,000 tiny
   * streams, searched three times a stream, spent most of its time there).
   */
  indexOf(needle: string, from: number, stop = this.file.length): number {
    const { length } = this.file;
    for (let index = Math.floor(from / PDF_CHUNK); index * PDF_CHUNK < stop; index++) {
      const base = index * PDF_CHUNK;
      const chunk = this.chunk(index);
      const start = Math.max(0, from - base);
      let found = chunk.indexOf(needle, start);
      if (found < 0 && base + PDF_CHUNK < length) {
        const seam = Math.max(start, chunk.length - needle.length + 1);
        const across = chunk.slice(seam) + this.chunk(index + 1).slice(0, needle.length - 1);
        const at = across.indexOf(needle);
        if (at >= 0) found = seam + at;
      }
      if (found >= 0) return base + found < stop ? base + found : -1;
    }
    return -1;
  }
  /** The text of `[start, end)`. */
  slice(start: number, end: number): string {
    return latin1(this.file.read(start, end));
  }
}

/** One decoder of each kind for every read (round 34: one was made per call, five per tiny stream). */
const LATIN1 = new TextDecoder('latin1');
const UTF16BE = new TextDecoder('utf-16be');
const latin1 = (bytes: Uint8Array) => LATIN1.decode(bytes);

/**
 * {@link formatPieces} for a PDF: all but its header line and the bodies
 * of filtered streams, and each filtered body as its filter gives it. The
 * bytes are read as latin-1 (one character a byte, so places are the same)
 * 64 KB at a time and searched with the string's own search; each
 * stream's dictionary is looked for between the last `obj` before its
 * `stream` and that keyword (at most 64 KB before it, else the PDF fails
 * closed), after the previous stream's end, so no byte is searched twice.
 * A stream with no `endstream` runs to the end of the file and is read
 * (what it holds is not known to be data). Round 27: read a range at a
 * time, never whole (a 10 MB base64 PDF was decoded whole before any
 * limit applied): the bytes outside filtered streams in pieces of 1 MB
 * (overlapping by 4 KB), a `/FlateDecode` body longer than the inflate
 * budget's reach fails closed unread, an image's body is not decoded.
 */
function pdfWalk(file: ByteReader, walk: Walk): void {
  const { length } = file;
  const text = new LatinChunks(file);
  // The header line (`%PDF-1.7`) is the format's.
  let from = 5;
  while (from < length && text.code(from) !== 0x0a && text.code(from) !== 0x0d) from++;
  let after = 0; // where the previous stream's body ended
  /** CMap streams' texts by object number, the streams that may show text, object streams (round 26). */
  const cmaps = new Map<number, Cmap>();
  const contents: Content[] = [];
  const objectStreams: Array<[string, string]> = [];
  const references = new ObjectReferences();
  const reader = new ReferenceReader(references);
  /**
   * A stream's data as it reads (`own`: its object's header and dictionary;
   * `raw`: not filtered, its strings read with the bytes around it), kept
   * to be drawn and for the ToUnicode reading.
   */
  const keep = (own: string, number: number, data: Uint8Array, raw: boolean) => {
    if (/\/Type\s*\/ObjStm\b/.test(own)) {
      objectStreams.push([own, latin1(data)]);
      // Its objects read as the bytes outside streams are (round 34: since round 26
      // only their references were: a field's `/V (4111 …)` in one passed).
      rawPdfPieces(data, walk);
      return;
    }
    contents.push({ number, bytes: data, raw, matrix: formMatrix(own) });
    // Decoded only when it is a map (round 32: every stream was decoded to be asked).
    if (number >= 0 && holdsToUnicodeMap(data)) {
      const use = /\/UseCMap\s+(\d{1,10})\s+\d{1,5}\s+R\b/.exec(own);
      cmaps.set(number, { text: latin1(data), ...(use && { use: Number(use[1]) }) });
    }
  };
  /** The bytes `[start, end)` outside filtered streams: read in pieces, their font references collected. */
  const raw = (start: number, end: number, readTo = end) => {
    for (let at = start; at < end; at += PDF_RAW_PIECE) {
      const bytes = file.read(at, Math.min(readTo, at + PDF_RAW_PIECE + PDF_RAW_OVERLAP));
      rawPdfPieces(bytes, walk);
      // The piece without its overlap: the reader reads on from there.
      reader.feed(latin1(bytes.subarray(0, Math.min(end - at, PDF_RAW_PIECE))));
    }
  };
  /**
   * The next `stream` keyword from `start`, searched a piece at a time: the
   * bytes passed (no filtered stream's) are read as they are passed, so a
   * walk whose text is past its limit stops there.
   */
  const nextStream = (start: number) => {
    for (let at = start; at < length; at += PDF_RAW_PIECE) {
      const found = text.indexOf('stream', at, Math.min(length, at + PDF_RAW_PIECE));
      if (found >= 0) return found;
      const passed = Math.min(length, at + PDF_RAW_PIECE);
      while (from + PDF_RAW_PIECE + PDF_RAW_OVERLAP <= passed) {
        raw(from, from + PDF_RAW_PIECE, from + PDF_RAW_PIECE + PDF_RAW_OVERLAP);
        from += PDF_RAW_PIECE;
      }
    }
    return -1;
  };
  for (let at = nextStream(0); at >= 0; at = nextStream(at + 1)) {
    // `endstream`, or a word that ends in `stream` (`/Substream`): no stream's start.
    if (at > 0 && isWordCode(text.code(at - 1))) continue;
    let body = at + 6;
    if (text.code(body) === 0x0d) body++;
    if (text.code(body) !== 0x0a && text.code(body - 1) !== 0x0d) continue;
    if (text.code(body) === 0x0a) body++;
    const end = text.indexOf('endstream', body);
    if (end < 0) break;
    const lookFrom = Math.max(after, at - PDF_DICTIONARY);
    const dictionary = text.slice(lookFrom, at);
    const object = dictionary.lastIndexOf('obj');
    if (object < 0 && lookFrom > after) {
      throw new Unwalkable(
        `a PDF stream whose object starts more than ${PDF_DICTIONARY} bytes before it`,
      );
    }
    const filter = object < 0 ? -1 : dictionary.indexOf('/Filter', object);
    const own = object < 0 ? '' : dictionary.slice(object);
    // The object's number (`5 0 obj`), for the fonts that name it as their ToUnicode map.
    const header = /(?<!\d)(\d{1,10})\s+\d{1,5}\s+$/.exec(
      dictionary.slice(Math.max(0, object - 24), Math.max(0, object)),
    );
    const number = header ? Number(header[1]) : -1;
    if (filter < 0) {
      // Kept whole for its fonts' maps: counted to the inflate budget (a PDF of raw streams too).
      if (end - body > walk.budget.left) {
        throw new Unwalkable(`a PDF whose streams hold more than ${MAX_INFLATED_BYTES} bytes`);
      }
      walk.budget.left -= end - body;
      keep(own, number, file.read(body, end), true);
    }
    if (filter >= 0) {
      if (body > from) raw(from, body);
      from = end;
      const filters = /^\/Filter\s*(?:\[([^\]]*)\]|(\/[A-Za-z0-9]+))/.exec(
        dictionary.slice(filter),
      );
      const list = (filters?.[1] ?? filters?.[2] ?? '').match(/[A-Za-z0-9]+/g) ?? [];
      if (list.length === 1 && (list[0] === 'FlateDecode' || list[0] === 'Fl')) {
        const content = inflatedRange(file, body, end, true, walk);
        // An attached file is read as a file, XMP metadata (XML) as its text (round 25:
        // read for its strings, the XML's text was lost); any other stream as the
        // strings it shows.
        if (/\/Type\s*\/EmbeddedFile\b/.test(own) || isXmlStream(own, content)) {
          partPieces(content, walk);
        } else {
          // Read once the file's pages are known, as they draw it ({@link drawnPieces}).
          keep(own, number, content, false);
        }
      } else if (list.length === 1 && (list[0] === 'DCTDecode' || list[0] === 'DCT')) {
        partPieces(rangeReader(file, body, end), walk);
      } else if (!(list.length === 1 && IMAGE_FILTERS.has(list[0]!))) {
        throw new Unwalkable('a PDF stream with a filter this reader does not decode');
      }
    }
    after = end + 9;
    at = after - 1;
  }
  if (from < length) raw(from, length);
  reader.end();
  for (const [own, content] of objectStreams) readObjectStream(own, content, references);
  fieldValueStreams(references, contents, walk);
  drawnPieces(references, contents, cmaps, walk);
}

/** A reference's path to a form field's value, default value or rich-text value (`/V 12 0 R`). */
const FIELD_VALUE = /(?:^|\0)(?:V|DV|RV)$/;

/**
 * The streams a form field's value names (`/V 12 0 R`, `/DV`, `/RV`): a
 * text stream, read as its text (round 34: it was read as a content
 * stream, for strings it does not hold, so `card 4111 …` there passed).
 * UTF-16 after its byte order mark, else its bytes as the walk reads them.
 * A value is followed through objects that are lone references (`6 0 R`)
 * to what it is ({@link fieldValue}); a string, a dictionary (a
 * signature's) or an array is read where it is written, with the bytes
 * outside streams.
 */
function fieldValueStreams(references: ObjectReferences, contents: Content[], walk: Walk): void {
  const values = new Set<number>();
  const { paths, targets } = references;
  const resolved = new Map<number, number>();
  for (let k = 0; k < paths.length; k++) {
    if (!FIELD_VALUE.test(paths[k]!)) continue;
    const value = fieldValue(references.kinds, targets[k]!, resolved);
    if (value >= 0) values.add(value);
  }
  if (values.size === 0) return;
  for (const { number, bytes } of contents) {
    if (!values.has(number)) continue;
    // Whole UTF-16 units (an unfiltered stream's data ends with the line break before `endstream`).
    const units = bytes.subarray(2, 2 + ((bytes.length - 2) & ~1));
    walk.pieces.push(bytes[0] === 0xfe && bytes[1] === 0xff ? UTF16BE.decode(units) : bytes);
  }
}

/**
 * What a form field's value names, followed through objects that are lone
 * references: the stream's number, or a negative kind (a string, a
 * dictionary or an array). Round 35: a value the walk cannot find was read
 * as none, so it fails closed ({@link Unwalkable}) where it names an
 * object the file does not hold (one it holds where the walk cannot read
 * it, a damaged object stream's), one that holds no text (a number, a name,
 * a keyword), or references that lead back into themselves. `resolved`
 * keeps each object's answer, so each object of the chains is followed
 * once: linear in the objects.
 */
function fieldValue(
  kinds: ReadonlyMap<number, number>,
  target: number,
  resolved: Map<number, number>,
): number {
  const chain: number[] = [];
  const onChain = new Set<number>();
  let at = target;
  let answer = resolved.get(at);
  while (answer === undefined) {
    const kind = kinds.get(at);
    if (kind === undefined) {
      throw new Unwalkable('a PDF form field whose value names an object the file does not hold');
    }
    if (kind === OTHER_OBJECT) {
      throw new Unwalkable(
        'a PDF form field whose value is neither text nor a dictionary or array',
      );
    }
    chain.push(at);
    onChain.add(at);
    if (kind === STREAM_OBJECT) answer = at;
    else if (kind < 0) answer = kind;
    else if (onChain.has(kind)) {
      throw new Unwalkable(
        'a PDF form field whose value is a chain of references that leads back into itself',
      );
    } else {
      at = kind;
      answer = resolved.get(at);
    }
  }
  for (const object of chain) resolved.set(object, answer);
  return answer;
}

/** A PDF stream kept to be drawn: its object's number, its data (inflated), whether unfiltered, a form's `/Matrix`. */
interface Content {
  number: number;
  bytes: Uint8Array;
  raw: boolean;
  matrix?: Matrix;
}

/** Whether a stream's bytes hold a ToUnicode CMap's keyword ({@link isToUnicodeMap}), asked of its bytes. */
function holdsToUnicodeMap(data: Uint8Array): boolean {
  for (let at = data.indexOf(0x62); at >= 0; at = data.indexOf(0x62, at + 1)) {
    if (BFCHAR.every((code, k) => data[at + k] === code)) return true;
    if (BFRANGE.every((code, k) => data[at + k] === code)) return true;
  }
  for (let at = data.indexOf(0x75); at >= 0; at = data.indexOf(0x75, at + 1)) {
    if (USECMAP.every((code, k) => data[at + k] === code)) return true;
  }
  return false;
}
const BFCHAR = ascii('beginbfchar');
const BFRANGE = ascii('beginbfrange');
const USECMAP = ascii('usecmap');

/**
 * The text of a PDF's content streams as its pages draw them (round 32,
 * `pdf-forms.ts`): each page's streams one after another (round 29), the
 * forms they draw inlined where drawn; then each stream no page drew whole
 * on its own, with the forms it draws. Each drawing's strings are read
 * ({@link pdfStrings}; a lone unfiltered stream's were read with the bytes
 * around it), and through the fonts' ToUnicode maps
 * ({@link shownThroughMaps}). A page's fonts and forms are its own; a lone
 * stream's those of each page or form that shows it. Past a bound the PDF
 * fails closed.
 */
function drawnPieces(
  references: ObjectReferences,
  contents: readonly Content[],
  cmaps: ReadonlyMap<number, Cmap>,
  walk: Walk,
): void {
  try {
    const index = new PdfIndex(references);
    const maps = toUnicodeMaps(references, cmaps);
    const fonts = maps.size > 0 ? new PdfFonts(index, maps) : undefined;
    const streams = new Map<number, DrawnStream>();
    for (const { number, bytes, matrix } of contents) {
      if (number >= 0) streams.set(number, { bytes, ...(matrix && { matrix }) });
    }
    const drawings = new PdfDrawings(index, streams, holder => fonts?.keyOf(holder) ?? '');
    /** Each drawing, whether its strings are read, and the fonts it is read through. */
    type Read = [Drawing, boolean, Array<(name: string) => ToUnicode[] | undefined>];
    const paged: Read[] = [];
    const lone: Read[] = [];
    const raw = new Set(contents.flatMap(({ number, raw }) => (raw ? [number] : [])));
    for (const [page, list] of pageContents(references, streams)) {
      const drawing = drawings.draw(list, page);
      if (drawing === undefined) continue;
      const strings = list.length > 1 || drawing.scopes.length > 0 || !raw.has(list[0]!);
      paged.push([drawing, strings, fonts ? [fonts.ofHolder(page)] : []]);
    }
    for (const { number, bytes, raw } of contents) {
      if (drawings.drawnWhole(bytes)) continue;
      const holder =
        number < 0 ? -1 : index.hasResources(number) ? number : (index.holdersOf(number)[0] ?? -1);
      // Its own bytes (a stream written twice is read twice), with the forms it draws.
      const drawing = (number >= 0 && streams.get(number)?.bytes === bytes
        ? drawings.draw([number], holder)
        : undefined) ?? { bytes, scopes: [] };
      const map = maps.has(number); // a CMap shows nothing through the maps
      lone.push([
        drawing,
        !raw || drawing.scopes.length > 0,
        fonts && !map ? fonts.of(number) : [],
      ]);
    }
    // Lone streams first, then pages; strings first, then through the maps (as round 29 read them).
    const reads = [...lone, ...paged];
    for (const [drawing, strings] of reads) {
      if (!strings) continue;
      for (const reading of bothReadings(pdfStrings(drawing))) walk.pieces.push(reading);
    }
    for (const [drawing, , fontsOf] of fonts ? reads : []) {
      for (const fontOf of fontsOf) {
        const shown = shownThroughMaps(drawing, fontOf, walk.budget, holder =>
          fonts!.ofHolder(holder),
        );
        for (const reading of shown ?? []) if (reading.trim() !== '') walk.pieces.push(reading);
      }
    }
  } catch (error) {
    if (error instanceof ToUnicodeUnreadable || error instanceof FormsUnreadable) {
      throw new Unwalkable(error.message);
    }
    throw error;
  }
}

/**
 * Each page's content streams (`/Contents [4 0 R 9 0 R]`, `/Contents 8 0
 * R` and object 8 that array, or one stream), in order, by the page that
 * shows them (round 29: each was read on its own, so a card whose groups
 * two streams of one page drew on one line passed). Pages showing the same
 * streams with the same resources are drawn once.
 */
function pageContents(
  references: ObjectReferences,
  streams: ReadonlyMap<number, DrawnStream>,
): Array<[number, number[]]> {
  /** Each page's `/Contents` targets, and each object's own top-level references (an array object). */
  const lists = new Map<number, number[]>();
  const arrays = new Map<number, number[]>();
  const { objects, paths, targets } = references;
  for (let k = 0; k < objects.length; k++) {
    const by = paths[k] === 'Contents' ? lists : paths[k] === '' ? arrays : undefined;
    if (by === undefined || objects[k]! < 0) continue;
    const list = by.get(objects[k]!) ?? [];
    list.push(targets[k]!);
    by.set(objects[k]!, list);
  }
  const out: Array<[number, number[]]> = [];
  for (const [page, list] of lists) {
    const shown = list.flatMap(target =>
      streams.has(target) ? [target] : (arrays.get(target) ?? []).filter(part => streams.has(part)),
    );
    if (shown.length > 0) out.push([page, shown]);
  }
  return out;
}

/** A CMap stream's text, and the CMap stream its dictionary's `/UseCMap` names. */
interface Cmap {
  text: string;
  use?: number;
}

/** How many CMaps deep `/UseCMap` is followed. */
const MAX_USED_CMAPS = 4;

/**
 * A CMap's text after the texts of the CMaps it uses (`/UseCMap 9 0 R`, to
 * {@link MAX_USED_CMAPS} deep), its entries last so they win (round 28: a
 * map's used entries were not read). A `usecmap` no stream of the file
 * answers names a CMap this reader does not have: the PDF fails closed.
 */
function withUsed(cmap: Cmap, cmaps: ReadonlyMap<number, Cmap>): string {
  const texts = [cmap.text];
  let used: Cmap | undefined = cmap;
  for (let depth = 0; used && /\busecmap\b/.test(used.text); depth++) {
    const next: Cmap | undefined = used.use === undefined ? undefined : cmaps.get(used.use);
    if (next === undefined || depth === MAX_USED_CMAPS) {
      throw new ToUnicodeUnreadable(
        'a PDF ToUnicode map that uses a CMap this reader does not have',
      );
    }
    texts.unshift(next.text);
    used = next;
  }
  return texts.join('\n');
}

/**
 * The ToUnicode maps of a PDF's fonts (round 26: a Type0 font's codes,
 * `<0012003A…> Tj`, were read as latin-1 bytes only): each CMap an object
 * names as its `/ToUnicode`, read once; past a bound the PDF fails closed
 * ({@link ToUnicodeUnreadable}). The fonts' names are found in the file's
 * bytes outside filtered streams and its object streams.
 */
function toUnicodeMaps(
  references: ObjectReferences,
  cmaps: ReadonlyMap<number, Cmap>,
): Map<number, ToUnicode> {
  const maps = new Map<number, ToUnicode>();
  if (cmaps.size === 0) return maps;
  const budget = { codes: MAX_TO_UNICODE_CODES };
  for (const [k, path] of references.paths.entries()) {
    const map = references.targets[k]!;
    const cmap = /(?:^|\0)ToUnicode$/.test(path) && !maps.has(map) ? cmaps.get(map) : undefined;
    if (cmap !== undefined) maps.set(map, parseToUnicode(withUsed(cmap, cmaps), budget));
  }
  return maps;
}

/**
 * A PDF's bytes outside its filtered streams: read as they are, and the
 * strings in them that read otherwise decoded (hexadecimal `<…>` strings, a
 * literal string with escapes: `<FEFF0034…>` as a document's `/Title`, `<34
 * 31 31 31…> Tj` in an uncompressed page) as the text they are (round 25:
 * only the bytes as written were read, so those passed).
 */
function rawPdfPieces(bytes: Uint8Array, walk: Walk): void {
  walk.pieces.push(bytes);
  for (const strings of bothReadings(pdfStrings({ bytes, scopes: [] }, true))) {
    if (strings.trim() !== '') walk.pieces.push(strings);
  }
}

/** An XMP metadata stream (`/Type /Metadata`, `/Subtype /XML`, or XML opening its data). */
function isXmlStream(dictionary: string, content: Uint8Array): boolean {
  if (/\/Type\s*\/Metadata\b|\/Subtype\s*\/XML\b/.test(dictionary)) return true;
  const opening = latin1(content.subarray(0, 64)).trimStart();
  return (
    opening.startsWith('<?xpacket') ||
    opening.startsWith('<?xml') ||
    opening.startsWith('<x:xmpmeta')
  );
}

/**
 * The strings of an inflated PDF stream as a reader shows them: each
 * literal `(…)` (escapes and nested parentheses read) and hexadecimal
 * `<…>` string, UTF-16 after its byte order mark, else one character a
 * byte; the strings of one text line joined as a viewer shows them (a `TJ`
 * array's as they are, strings moved along the line by a space), lines by
 * line feeds ({@link ShownLines}). A page's
 * content stream is operators and numbers (`72 712 Td`, `-49.398`) that
 * read as phone numbers to `pii`: only its strings are text (two real PDFs'
 * streams read whole were flagged; their strings were not). One pass.
 */
function pdfStrings(drawing: Drawing, encodedOnly = false): string {
  const { bytes } = drawing;
  // The strings' bytes, one after another (line feeds between texts), read as latin-1 once;
  // a UTF-16 string is read on its own, the bytes before it read first.
  let out = new Uint8Array(Math.max(64, bytes.length >> 2));
  let size = 0;
  const texts: string[] = [];
  const put = (byte: number) => {
    if (size === out.length) {
      const grown = new Uint8Array(out.length * 2);
      grown.set(out);
      out = grown;
    }
    out[size++] = byte;
  };
  const lines = new ShownLines();
  // Inside a `[…]` array, after its first string: the next string joins the last text.
  let inArray = false;
  let join = false;
  // A form drawn inside the bytes (round 32): its drawer's line goes on after it.
  const entered: Array<[boolean, boolean]> = [];
  const redraws = new Redraws();
  /** The length of the text read so far (before `out`'s bytes). */
  let read = 0;
  const cursor = new ScopeCursor(drawing, scope => {
    if (scope.kind === 'stream' || scope.kind === 'done') {
      redraws.scope(scope, read + size);
      return;
    }
    if (scope.kind === 'enter') {
      entered.push([inArray, join]);
      lines.enter(scope.matrix);
    } else if (scope.kind === 'leave') {
      [inArray, join] = entered.pop() ?? [false, false];
      lines.leave();
    } else lines.cut();
    if (scope.kind !== 'leave') [inArray, join] = [false, false];
  });
  let limit = cursor.reach(0);
  /** Before a string's bytes: its start, and what was before it. */
  let [sizeBefore, joinBefore] = [0, false];
  const begin = () => {
    sizeBefore = size;
    joinBefore = join;
    return size;
  };
  /** A string that is not kept (`encodedOnly`): as if it had not been read. */
  const drop = () => {
    size = sizeBefore;
    join = joinBefore;
  };
  /**
   * After a string's bytes from `start` (read to `at`): set off from the
   * last as a viewer shows it ({@link ShownLines}, {@link moveGap});
   * a UTF-16 one (byte order mark, or round 25: two bytes a
   * character with a zero high byte, as a CID font's codes can be,
   * `<00340031…>`) read on its own.
   */
  const end = (start: number, at: number) => {
    const separator = join ? 0 : lines.string(bytes, at);
    join = inArray;
    const gap =
      separator === 2
        ? 0x0a
        : separator === 1 && start > 0 && size > start
          ? moveGap(out[start - 1]!, out[start]!)
          : undefined;
    if (gap !== undefined) {
      put(0);
      out.copyWithin(start + 1, start, size - 1);
      out[start++] = gap;
    }
    const length = size - start;
    let from = start;
    if (length >= 2 && out[start] === 0xfe && out[start + 1] === 0xff) from = start + 2;
    else {
      if (length < 2 || length % 2 !== 0) return;
      for (let k = start; k < size; k += 2) if (out[k] !== 0) return;
    }
    const wide = UTF16BE.decode(out.subarray(from, size));
    texts.push(latin1(out.subarray(0, start)), wide);
    read += start + wide.length;
    size = 0;
    sizeBefore = 0;
    joinBefore = join;
  };
  for (let at = 0; at < bytes.length; at++) {
    if (at >= limit) limit = cursor.reach(at);
    const code = bytes[at]!;
    if (code === 0x5b || code === 0x5d) {
      inArray = code === 0x5b;
      join = false;
    } else if (code === 0x28) {
      const start = begin();
      const read = pdfString(bytes, at, put, false, limit);
      at = read.end;
      // Outside a stream, a string with no escape is read as it is written too, and
      // here again with the strings of its line (round 28: dropped here, `(card
      // 4111 ) Tj (1111 ) Tj …` in an uncompressed page passed).
      end(start, at);
    } else if (code === 0x3c && bytes[at + 1] !== 0x3c) {
      const start = begin();
      // Outside a stream, no hex string (XML's `<tag>` in an uncompressed stream): read on from there.
      const read = pdfString(bytes, at, put, encodedOnly, limit);
      at = read.end;
      if (read.broken || (encodedOnly && at >= bytes.length)) {
        drop();
        at--;
        continue;
      }
      end(start, at);
    } else if (code === 0x3c) at++;
    else if (code === 0x2f) {
      // A name (`/Tj` is no operator).
      while (at + 1 < bytes.length && !isDelimiter(bytes[at + 1]!)) at++;
    } else if (!isDelimiter(code)) at = lines.token(bytes, at);
  }
  texts.push(latin1(out.subarray(0, size)));
  return redraws.filter(texts.join(''));
}

/** A letter or digit (a keyword's neighbour inside one word). */
const isWordCode = (code: number) =>
  (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
