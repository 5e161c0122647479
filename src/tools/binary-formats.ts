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
   * The byte ranges of the whole file its structure does not hold
   * ({@link rangesOutsideFormat}); without it every byte is the format's.
   */
  outside?(file: ByteReader): ByteRange[];
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
    outside: pngOutside,
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
  },
  // GIF: the logical screen descriptor, its colour table, then a block that reads as one.
  ...['GIF87a', 'GIF89a'].map(
    (signature): Format => ({ signature: ascii(signature), structure: gifStructure }),
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
  { signature: ascii('%PDF-'), structure: pdfStructure, outside: pdfOutside },
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
  },
  // An empty zip (its end record: disk numbers 0), a spanned one (a local header next).
  { signature: [0x50, 0x4b, 0x05, 0x06], structure: head => head.has(4, [0, 0, 0, 0]) },
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
 * byte of which is the format's: any but a PNG or a PDF, whose bytes
 * outside their structure are read ({@link rangesOutsideFormat}).
 */
export function opensWholeBinaryFormat(bytes: Uint8Array): boolean {
  const format = openedFormat(bytes);
  return format !== undefined && format.outside === undefined;
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

/** `[start, end)`: a range of a file's bytes. */
export type ByteRange = readonly [start: number, end: number];

/** A file's bytes read a range at a time (a \`Uint8Array\`, or base64 decoded where asked). */
export interface ByteReader {
  readonly length: number;
  /** The bytes of `[start, end)`, within `[0, length]`. */
  read(start: number, end: number): Uint8Array;
}

/**
 * The byte ranges of a file that opens a binary format ({@link
 * opensBinaryFormat}, told from `head`, its first bytes) that the format's
 * structure does not hold, which a reader that takes the file for text
 * reads (round 23: a real PNG head, signature and IHDR chunk, or a PDF's
 * header and first object, kept kilobytes of text behind it from every
 * guardrail). A PNG is its chunks (a length, a four-letter type, the data,
 * a CRC) up to IEND: the bytes after IEND, or from a chunk whose type is
 * not four letters or whose length runs past the file, are outside. A PDF
 * is outside but for its header line and the bodies of its streams whose dictionary names a
 * `/Filter` (compressed or encoded data: from the end of the line after
 * `stream` to `endstream`); its objects, dictionaries, strings,
 * cross-reference table, unfiltered streams and whatever follows `%%EOF`
 * are read. The text inside a PNG's chunks or a filtered stream is not.
 * `[]`: nothing outside. `undefined`: the bytes open no format, or one
 * whose extent is not walked (JPEG, GIF, zip, audio...: every byte is the
 * format's). A PNG costs a read of 8 bytes a chunk, a PDF one pass.
 */
export function rangesOutsideFormat(head: Uint8Array, file: ByteReader): ByteRange[] | undefined {
  return openedFormat(head)?.outside?.(file);
}

/** Whether 4 bytes are ASCII letters (a PNG chunk type). */
const isChunkType = (bytes: Uint8Array, at: number) => {
  for (let k = at; k < at + 4; k++) {
    const letter = bytes[k]! | 0x20;
    if (letter < 0x61 || letter > 0x7a) return false;
  }
  return true;
};

/** {@link rangesOutsideFormat} for a PNG: past IEND, or from where its chunks stop being chunks. */
function pngOutside(file: ByteReader): ByteRange[] {
  const { length } = file;
  let at = 8;
  while (at + 12 <= length) {
    const header = file.read(at, at + 8);
    const size =
      (header[0]! * 0x1000000 + (header[1]! << 16) + (header[2]! << 8) + header[3]!) >>> 0;
    // The PNG specification's limit on a chunk's length is 2^31 - 1.
    if (size > 0x7fffffff || !isChunkType(header, 4) || at + 12 + size > length) break;
    at += 12 + size;
    if (header[4] === 0x49 && header[5] === 0x45 && header[6] === 0x4e && header[7] === 0x44) {
      break; // IEND
    }
  }
  return at < length ? [[at, length]] : [];
}

/**
 * {@link rangesOutsideFormat} for a PDF: all but its header line and the
 * bodies of filtered streams. The bytes are read as latin-1 (one character
 * a byte, so places are the same) and searched with the string's own
 * search; each stream's dictionary is looked for between the last `obj`
 * before its `stream` and that keyword, after the previous stream's end,
 * so no byte is searched twice. A stream with no `endstream` runs to the
 * end of the file and is read (what it holds is not known to be data).
 */
function pdfOutside(file: ByteReader): ByteRange[] {
  const text = new TextDecoder('latin1').decode(file.read(0, file.length));
  const ranges: ByteRange[] = [];
  // The header line (`%PDF-1.7`) is the format's.
  let from = 5;
  while (from < text.length && text[from] !== '\n' && text[from] !== '\r') from++;
  let after = 0; // where the previous stream's body ended
  for (let at = text.indexOf('stream', 0); at >= 0; at = text.indexOf('stream', at + 1)) {
    // `endstream`, or a word that ends in `stream` (`/Substream`): no stream's start.
    if (at > 0 && isWordCode(text.charCodeAt(at - 1))) continue;
    let body = at + 6;
    if (text[body] === '\r') body++;
    if (text[body] !== '\n' && text[body - 1] !== '\r') continue;
    if (text[body] === '\n') body++;
    const end = text.indexOf('endstream', body);
    if (end < 0) break;
    const dictionary = text.slice(after, at);
    const object = dictionary.lastIndexOf('obj');
    if (object >= 0 && dictionary.includes('/Filter', object)) {
      if (body > from) ranges.push([from, body]);
      from = end;
    }
    after = end + 9;
    at = after - 1;
  }
  if (from < text.length) ranges.push([from, text.length]);
  return ranges;
}

/** A letter or digit (a keyword's neighbour inside one word). */
const isWordCode = (code: number) =>
  (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
