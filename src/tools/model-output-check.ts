import type { GuardrailRecord } from '../core/types';
import {
  type ByteReader,
  formatPieces,
  opensBinaryFormat,
  opensWholeBinaryFormat,
  readerOf,
} from './binary-formats';
import { mediaTypeReading } from './media-type-reading';

/**
 * A tool result output as the model reads it (`toModelOutput`'s return, the
 * `output` of a `tool-result` prompt part): `text`, `json`,
 * `execution-denied`, `error-text`, `error-json` or `content`.
 */
export type ModelOutput = { type: string } & Record<string, unknown>;

/** Where a judged text sits in a model output. */
export type ModelOutputTextPlace =
  /** the `value` of a `text` or `error-text` output */
  | 'value'
  /** the `reason` of an `execution-denied` output */
  | 'reason'
  /** a `text` part of a `content` output */
  | 'part'
  /**
   * the text of a `file` part of a `content` output: inline (`data: { type:
   * 'text', text }`), or bytes / base64 of a text media type (`text/*`, JSON,
   * XML, YAML, CSV...), decoded (UTF-8 unless a byte order mark or `charset`
   * names another encoding); also AI SDK 6's `file-data` and
   * `media` parts of a text media type; and the bytes of a file of any
   * other type, or of none, when they are text ({@link fileBytesText})
   */
  | 'file-text';

/** A judged text or value, or the trip that withholds the output. */
export type Judged<VALUE> = { value: VALUE; trip?: undefined } | { trip: GuardrailRecord };

/** How the texts of one model output are judged (the caller's guardrails, cache and records). */
export interface ModelOutputJudges {
  /** Judges a text the model reads as it is; returns it (possibly modified) or the trip. */
  text(text: string, place: ModelOutputTextPlace): Promise<Judged<string>>;
  /** Judges the value of a `json` or `error-json` output (as canonical JSON); returns it or the trip. */
  json(value: unknown): Promise<Judged<unknown>>;
  /**
   * Optional, before the bytes of a text file are decoded, with the fewest
   * characters their text can have ({@link fewestTextCharacters}): a
   * trip returned withholds the output undecoded (a caller with a length
   * limit refuses a 10 MB file from its size). `binaryText`: the text is a
   * binary file's readable text ({@link binaryTextWhat}), said in place of
   * `the text is` when it alone is too long.
   */
  beforeDecoding?(
    fewestCharacters: number,
    binaryText?: string,
  ): { trip: GuardrailRecord } | undefined;
  /**
   * Optional: a file part the model may read that no guardrail reads (a
   * PDF, an image, audio, a file given by URL or id), with its media type
   * when it has one. A trip returned withholds the output
   * (`unreadableFiles: 'block'`); without this hook such files pass.
   */
  unreadableFile?(mediaType: unknown): { trip: GuardrailRecord } | undefined;
  /**
   * Optional: what a call computes from the output, shared with another
   * call over the same output (a caller that reads it twice), so each file
   * is decoded once and each part's fields are one object. One per reading
   * of one prompt: a part changed later is not read from it.
   */
  memo?: ModelOutputMemo;
}

/** See {@link ModelOutputJudges.memo}. */
export interface ModelOutputMemo {
  /** Decoded file texts by their bytes (`undefined`: not bytes). */
  decoded: Map<unknown, FileText | undefined>;
  /** The fields of each unmodified `content` part (`undefined`: none to judge). */
  fields: Map<object, object | undefined>;
}

/** An empty {@link ModelOutputMemo}. */
export function modelOutputMemo(): ModelOutputMemo {
  return { decoded: new Map(), fields: new Map() };
}

/** What judging a model output gave: the output the model may read, a trip, or why it could not be read. */
export type ModelOutputCheck =
  | { value: ModelOutput; trip?: undefined; unreadable?: undefined; withheld?: undefined }
  | { trip: GuardrailRecord; unreadable?: undefined; withheld?: undefined }
  | {
      /** What was found instead of a readable output (`type "x"`, `null`, ...): never a value of it. */
      unreadable: string;
      /**
       * Where in a readable output what fails closed was found, and what it
       * is (`content part 1 (a file of type image/png): …`; no value of it),
       * when the output was read and one of its files is withheld (round 24:
       * a reason named the output's type alone).
       */
      withheld?: string;
      trip?: undefined;
    };

/**
 * Media types whose bytes a model reads as text: `text` and `text/*`, JSON,
 * XML, YAML, TOML, CSV, JavaScript / TypeScript, Python, PHP, RTF, shell,
 * SQL and `+json` / `+xml` subtypes (Gemini, for one, reads source code
 * sent as `application/x-javascript`, `application/x-python-code` or
 * `application/rtf` as text).
 */
const TEXT_MEDIA_TYPE =
  /^(?:text(?:\/|$)|application\/(?:json|xml|x-yaml|yaml|toml|x-toml|csv|javascript|x-javascript|ecmascript|typescript|x-typescript|x-python|x-python-code|x-httpd-php|x-php|rtf|x-sh|x-shellscript|sql|x-ndjson|ndjson|x-www-form-urlencoded|[\w.+-]*\+(?:json|xml))\s*(?:;|$))/i;

/** The name of the record of a file no guardrail reads, refused with `unreadableFiles: 'block'`. */
export const UNREADABLE_FILE = 'unreadable-file';

/** Whether files the guardrails cannot read pass (the default) or fail closed. */
export type UnreadableFiles = 'pass' | 'block';

/**
 * What a record says of a file no guardrail reads: its media type when it
 * is a plain `type/subtype` that reads as a type name (the client wrote it:
 * nothing else is quoted). At most four digits and no word of 20 letters
 * and digits: `application/4111111111111111` or `image/ghp_…` carried a card
 * number or a token to every log the record reaches.
 */
export function unreadableFileReason(mediaType: unknown): string {
  return `${fileOfType(mediaType)}, which no guardrail reads`;
}

/**
 * `a file of type image/png`, or `a file without a plain media type` when
 * the type does not read as a type name ({@link unreadableFileReason}).
 */
export function fileOfType(mediaType: unknown): string {
  const plain =
    typeof mediaType === 'string' ? mediaType.split(';')[0]!.trim().toLowerCase() : undefined;
  const named =
    plain !== undefined &&
    /^[a-z0-9][\w.+-]{0,40}\/[\w.+*-]{1,60}$/.test(plain) &&
    !VALUE_IN_TYPE.test(plain)
      ? plain
      : undefined;
  return `a file ${named ? `of type ${named}` : 'without a plain media type'}`;
}

/**
 * What the text read from a binary file is, for a reason that says it is
 * too long (`… longer than 1000000 characters`): `a file of type
 * application/x-data, binary with no known format, has readable text` (its
 * readable runs), or `…, of a binary format, has text in its format's
 * pieces` (a PNG's chunks, a PDF's strings). Round 26: guardTools and
 * toolOutputs said `the text is longer than…` where the middleware said this.
 */
export function binaryTextWhat(mediaType: unknown, ofFormat: boolean): string {
  const what = ofFormat
    ? "of a binary format, has text in its format's pieces"
    : 'binary with no known format, has readable text';
  return `${fileOfType(mediaType)}, ${what}`;
}

/**
 * What the guardrails that changed a withheld file's text found, for its
 * record's reason: `; pii found CREDIT_CARD` from the `modified` records
 * among `records` (their names and `info.types`, never a value), or `''`.
 */
export function foundByModifiers(records: readonly GuardrailRecord[]): string {
  const found = records
    .filter(record => record.status === 'modified')
    .map(record => {
      const types = (record.info as { types?: unknown } | undefined)?.types;
      const named = Array.isArray(types) && types.every(type => typeof type === 'string');
      return named && types.length > 0
        ? `${record.guardrail} found ${types.join(', ')}`
        : `${record.guardrail} changed it`;
    });
  return found.length === 0 ? '' : `; ${[...new Set(found)].join('; ')}`;
}

/** Whether a file of this media type is text the model reads. */
export function isTextMediaType(mediaType: unknown): boolean {
  return typeof mediaType === 'string' && TEXT_MEDIA_TYPE.test(mediaType.trim());
}

/**
 * A media type no guardrail needs to read: lower-case `type/subtype` of
 * token characters but `@`, with no parameter but a known charset.
 */
const PLAIN_MEDIA_TYPE =
  /^[a-z]{1,20}\/[a-z0-9][a-z0-9.+-]{0,100}(?:; ?charset=(?:utf-8|utf-16|utf-16le|utf-16be|us-ascii|iso-8859-1))?$/;

/**
 * Digits or a word a type name does not have (four digits, twenty letters
 * and digits in a row: the rule {@link unreadableFileReason} quotes types
 * by): a subtype carries a value as well as a parameter does, and
 * `text/4111-1111-1111-1111` reached result.files unjudged (round 22). Round
 * 25: four digits, not five: `text/1.2.3.4` (an address) with no parameter
 * was plain, so never judged, and quoted in reasons. Round 26: an address's
 * short forms hold fewer digits (`text/0x7f.1`, `text/10.1`: 127.0.0.1 and
 * 10.0.0.1 as inet_aton reads them), so a hex number (`0x` and a hex digit)
 * or two numbers joined by a dot hold a value too.
 */
const VALUE_IN_TYPE = /(?:\d\D*){4}|[a-z0-9]{20}|0x[0-9a-f]|\d\.\d/;

/**
 * Whether a file's media type is one no guardrail needs to read
 * ({@link PLAIN_MEDIA_TYPE}, its `type/subtype` holding no value:
 * {@link VALUE_IN_TYPE}). Any other (a parameter but a known charset,
 * capitals, other signs, a card number as a subtype) is judged as text
 * wherever a file is: a generated file's, a tool output's (round 23: a
 * tool's `text/plain; name=4111111111111111` reached the model, judged by
 * a looser rule than generated files'). One rule for both.
 */
export function isPlainMediaType(mediaType: string): boolean {
  if (!PLAIN_MEDIA_TYPE.test(mediaType)) return false;
  const semicolon = mediaType.indexOf(';');
  return !VALUE_IN_TYPE.test(semicolon < 0 ? mediaType : mediaType.slice(0, semicolon));
}

/**
 * The media type a file goes on with once a guardrail changed its judged
 * media type (`mediaType` as written, `judged` as the chain left it): its
 * bare `type/subtype` when the change was in its parameters only (`judged`
 * keeps all before the first `;`) and the bare type is plain
 * ({@link isPlainMediaType}), else `application/octet-stream` (the judged
 * text itself, `text/plain; name=[CREDIT_CARD]`, is no media type). Round
 * 24: a plain-looking bare type was released whatever had changed, so a
 * value in the subtype `isPlainMediaType` lets by (`text/1.2.3.4; x=1`, an
 * address redacted) went on as written.
 */
export function releasedMediaType(mediaType: string, judged: unknown): string {
  const semicolon = mediaType.indexOf(';');
  if (semicolon < 0) return 'application/octet-stream';
  if (typeof judged !== 'string' || !judged.startsWith(mediaType.slice(0, semicolon + 1))) {
    return 'application/octet-stream';
  }
  const bare = mediaType.slice(0, semicolon).trim().toLowerCase();
  return isPlainMediaType(bare) ? bare : 'application/octet-stream';
}

/** No media type, an empty one or `application/octet-stream` (parameters aside): a file of any kind. */
export function isUntypedMediaType(mediaType: unknown): boolean {
  if (mediaType === undefined || mediaType === null) return true;
  if (typeof mediaType !== 'string') return false;
  const plain = mediaType.split(';')[0]!.trim().toLowerCase();
  return plain === '' || plain === 'application/octet-stream';
}

/** How many bytes of a file too long to be judged are read to tell text from binary. */
const UNTYPED_PROBE_BYTES = 65_536;
/**
 * How many bytes of a file longer than a probe are read first for its
 * format ({@link opensBinaryFormat} reads its structure within them; a
 * format it needs more of to tell is told from the whole file).
 */
const FORMAT_PROBE_BYTES = 4096;
/** {@link fileBytesText}: the bytes are not text (a file no guardrail reads). */
export const NOT_UTF8 = Symbol('not UTF-8');
/** {@link fileBytesText}: text too long to be judged. */
export const TOO_LONG = Symbol('too long');

/**
 * The bytes of file data given as bytes or base64; with `tooLong` only the
 * first `UNTYPED_PROBE_BYTES` (never the whole decoded). `undefined` for
 * data that is neither, or base64 `atob` refuses.
 */
function probedBytes(
  data: unknown,
  tooLong: boolean,
  probe = UNTYPED_PROBE_BYTES,
): Uint8Array | undefined {
  if (data instanceof Uint8Array) return tooLong ? data.subarray(0, probe) : data;
  if (typeof data !== 'string') return undefined;
  let base64 = data;
  if (tooLong) {
    // The first characters `atob` keeps, a whole number of 4-character groups.
    base64 = data.slice(0, 2 * probe).replace(/[\t\n\f\r ]/g, '');
    base64 = base64.slice(0, Math.floor(base64.length / 4) * 4);
  }
  let decoded: string;
  try {
    decoded = atob(base64);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(decoded.length);
  for (let i = 0; i < decoded.length; i++) bytes[i] = decoded.charCodeAt(i);
  return bytes;
}

/**
 * URL-safe base64 (`-` and `_` for `+` and `/`) as standard base64, as the
 * AI SDK decodes it (`atob` refused it, and the file passed as binary,
 * round 21); anything else as it is.
 */
export function standardBase64(data: unknown): unknown {
  return typeof data === 'string' && /[-_]/.test(data)
    ? data.replace(/[-_]/g, char => (char === '-' ? '+' : '/'))
    : data;
}

/**
 * Whether the first 4,096 bytes of a file longer than that open a binary
 * format every byte of which is the format's ({@link opensWholeBinaryFormat}:
 * not a PNG or a PDF, whose structure is walked, {@link fileBytesText}), a
 * file of no type (`untyped`) that may be UTF-8 aside: told before anything
 * is decoded whole or measured, so a 3 MB JPEG in every message of a
 * chat's history costs a few thousand bytes a call (measuring its base64
 * alone took 11 ms per 500 KB). A format that needs more bytes to tell is
 * told from the whole file ({@link fileBytesText}).
 */
export function headOpensBinaryFormat(data: unknown, untyped: boolean): boolean {
  const large =
    data instanceof Uint8Array
      ? data.length > FORMAT_PROBE_BYTES
      : typeof data === 'string' && data.length > 2 * FORMAT_PROBE_BYTES;
  if (!large) return false;
  const head = probedBytes(data, true, FORMAT_PROBE_BYTES);
  return (
    head !== undefined &&
    opensWholeBinaryFormat(head) &&
    (!untyped || strictly(head, 'utf-8', true) === undefined)
  );
}

/**
 * How many blocks a base64 file's small reads decode before it is decoded
 * whole (a PNG of tiny chunks far apart): 64, and one more per 8 KB.
 */
const rangeReads = (length: number) => 64 + Math.ceil(length / 8192);
/** The bytes of one block {@link byteReader} decodes for reads shorter than it (4,096 characters of base64). */
const READ_BLOCK = 3072;

/**
 * A file's bytes read a range at a time ({@link rangesOutsideFormat}):
 * a `Uint8Array`'s, or base64's, decoded four characters a group where
 * asked when it holds no white space: a read of a block or more decodes
 * its own range, a shorter one the 3,072-byte block it is in (the last
 * block kept, so a PNG's chunk headers or a zip's local headers one after
 * another cost a block each, not the file: round 27, a zip or a PDF was
 * decoded whole before any limit applied); after {@link rangeReads}
 * blocks, decoded whole. With white space, decoded whole. `undefined`
 * for data that is neither, or base64 `atob` refuses.
 */
function byteReader(data: unknown): ByteReader | undefined {
  if (data instanceof Uint8Array) return readerOf(data);
  if (typeof data !== 'string') return undefined;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  const groups = data.length - padding;
  const spaced = ['\t', '\n', '\f', '\r', ' '].some(space => data.includes(space));
  // White space (base64 wrapped in lines) is dropped first, the rest read a range at a
  // time as any base64 is (round 28: such a file was decoded whole before its walk).
  if (spaced) return byteReader(data.replace(/[\t\n\f\r ]+/g, ''));
  if (data.lastIndexOf('=', groups - 1) >= 0 || groups % 4 === 1) {
    const bytes = probedBytes(data, false);
    return bytes && byteReader(bytes);
  }
  let whole: Uint8Array | undefined;
  let blocks = 0;
  const length = Math.floor((groups * 3) / 4);
  const most = rangeReads(length);
  /** The bytes of `[start, end)` decoded from their own groups of base64. */
  const decoded = (start: number, end: number) => {
    const from = Math.floor(start / 3);
    const bytes = probedBytes(data.slice(4 * from, 4 * Math.ceil(end / 3)), false);
    if (bytes === undefined) throw new RangeError('not base64');
    return bytes.subarray(start - 3 * from, end - 3 * from);
  };
  let block = -1;
  let blockBytes: Uint8Array = new Uint8Array(0);
  return {
    length,
    read(start, end) {
      end = Math.min(end, length);
      if (whole !== undefined) return whole.subarray(start, end);
      if (end - start >= READ_BLOCK) return decoded(start, end);
      const first = Math.floor(start / READ_BLOCK);
      if (Math.floor(Math.max(start, end - 1) / READ_BLOCK) !== first) return decoded(start, end);
      if (first !== block) {
        if (++blocks > most) {
          whole = probedBytes(data, false);
          if (whole === undefined) throw new RangeError('not base64');
          return whole.subarray(start, end);
        }
        block = first;
        blockBytes = decoded(first * READ_BLOCK, Math.min(length, (first + 1) * READ_BLOCK));
      }
      return blockBytes.subarray(start - first * READ_BLOCK, end - first * READ_BLOCK);
    },
  };
}

/**
 * A reading of a file's bytes as text ({@link fileBytesText}). `binary`:
 * the bytes are not a text file's (a binary format's, or with NUL and
 * other control characters text has not: compiled Python, a gettext
 * `.mo` catalog), so they are never rewritten: a change a guardrail makes
 * withholds the file instead (round 23: redaction rewrote a `.mo` file's
 * bytes, corrupting it). `partial`: only the bytes outside a binary
 * format's structure were read (a PNG, a PDF), the file itself stays one
 * no guardrail reads.
 */
export interface FileBytesText {
  text: string;
  /** False for UTF-16. */
  utf8: boolean;
  binary?: true;
  partial?: true;
}

/**
 * The text of the bytes (or base64) of a file of any type but a text type
 * ({@link isTextMediaType}), when they are text, whatever the type says
 * (round 21 for the files a model generates, round 22 for a prompt's: a
 * client relabelled a text file `image/png` or `application/x-pem-file`
 * and no input guardrail read it). In order: for a file of no type
 * (`untyped`), strict UTF-8 (round 19); a PNG or a PDF (signature and
 * structure) is read outside its structure (round 23,
 * {@link rangesOutsideFormat}): each range by the rules below, those that
 * are text joined by line feeds, `partial`; bytes that open another binary
 * format a provider parses ({@link opensBinaryFormat}: its signature and
 * the structure behind it) are binary; UTF-16 after its byte order mark;
 * else UTF-8, each
 * byte that is not read as U+FFFD, when it reads as text
 * ({@link readsAsText}); else UTF-16 without a byte order mark, told by a
 * null byte in every other place (ASCII and latin-1 text). `NOT_UTF8` for
 * anything else (an image, a PDF, compressed or random bytes: a file no
 * guardrail reads). With `tooLong` only the first `UNTYPED_PROBE_BYTES`
 * are decoded: `TOO_LONG` when those read as text (a PNG's or PDF's
 * ranges are read whole: their text is measured by the caller); a longer
 * file's format is told from its first 4,096 bytes
 * ({@link headOpensBinaryFormat}). A reading with control characters text
 * has not is `binary` ({@link FileBytesText}). `undefined` for data that
 * is neither bytes nor base64. `utf8` is false for UTF-16.
 */
export function fileBytesText(
  data: unknown,
  tooLong: boolean,
  untyped: boolean,
): FileBytesText | typeof NOT_UTF8 | typeof TOO_LONG | FileUnwalkable | undefined {
  const outside = textOutsideFormat(data, untyped);
  if (outside !== undefined) return outside;
  if (headOpensBinaryFormat(data, untyped)) return NOT_UTF8;
  const bytes = probedBytes(data, tooLong);
  if (bytes === undefined) return undefined;
  const utf8 = strictly(bytes, 'utf-8', tooLong);
  // UTF-16 of ASCII is UTF-8 with a NUL beside each letter: read as UTF-16 (below).
  if (untyped && utf8 !== undefined && !(utf8.includes('\0') && nullEveryOther(bytes))) {
    return tooLong ? TOO_LONG : withControls({ text: utf8, utf8: true }, utf8);
  }
  if (opensBinaryFormat(bytes)) return NOT_UTF8;
  const read = bytesAsText(bytes, tooLong, utf8);
  if (read !== NOT_UTF8) return tooLong ? TOO_LONG : read;
  // No text and no format: its readable runs are judged (round 24), the whole
  // file's, never rewritten, and the file stays one no guardrail reads.
  const whole = tooLong ? probedBytes(data, false) : bytes;
  const runs = whole && readableRuns(new TextDecoder('utf-8').decode(whole));
  return runs === undefined ? NOT_UTF8 : { text: runs, utf8: true, binary: true, partial: true };
}

/** `read`, `binary` when the text it was read from has control characters text has not. */
function withControls(read: FileBytesText, from: string): FileBytesText {
  return hasControlCharacter(from) ? { ...read, binary: true } : read;
}

/** Whether a text holds NUL, DEL or a control character but tab to carriage return and escape. */
function hasControlCharacter(text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is looked for
  return /[\0-\x08\x0e-\x1a\x1c-\x1f\x7f]/.test(text);
}

/**
 * {@link fileBytesText} for a file of a format whose structure is walked (a
 * PNG, a JPEG, a GIF, a zip, a PDF): the text of the pieces its walk finds
 * ({@link formatPieces}: the bytes outside its structure, its text chunks,
 * comments, entries and streams, inflated), each read as {@link pieceText}
 * reads it, joined by line feeds (`binary`, `partial`); `NOT_UTF8` when
 * none holds text; {@link FileUnwalkable} when a part that may hold text
 * could not be read (fail closed). `undefined` for any other file, and for
 * a file of no type that is UTF-8 whole (read whole as text, round 19).
 */
export function textOutsideFormat(
  data: unknown,
  untyped: boolean,
  over?: (characters: number) => boolean,
): FileBytesText | typeof NOT_UTF8 | typeof TOO_LONG | FileUnwalkable | undefined {
  const head = probedBytes(data, true, FORMAT_PROBE_BYTES);
  if (head === undefined || opensWholeBinaryFormat(head) || !opensBinaryFormat(head)) {
    return undefined;
  }
  const file = byteReader(data);
  if (file === undefined) return undefined;
  if (untyped && strictly(head, 'utf-8', true) !== undefined) {
    if (isUtf8Whole(file)) return undefined;
  }
  let texts: string[];
  try {
    const found = formatPieces(head, file, { read: pieceText, ...(over && { over }) });
    if (found?.unreadable !== undefined) {
      return {
        unwalkable: `${formatName(head)} file whose text could not be read: ${found.unreadable}`,
      };
    }
    // Its text passed the caller's limit: the walk stopped there (round 27).
    if (found?.over) return TOO_LONG;
    texts = found?.texts ?? [];
  } catch (error) {
    if (error instanceof RangeError) return undefined; // not base64 after all: read as such data is
    throw error;
  }
  return texts.length === 0
    ? NOT_UTF8
    : { text: texts.join('\n'), utf8: true, binary: true, partial: true };
}

/** How many bytes of a file {@link isUtf8Whole} decodes at a time. */
const UTF8_CHUNK = 1_048_576;

/**
 * Whether a file's bytes are UTF-8 throughout, decoded a megabyte at a
 * time (round 28: decoded whole, 10 MB of base64 with a UTF-8 head before
 * any limit applied); stops at the first byte that is not.
 */
function isUtf8Whole(file: ByteReader): boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for (let at = 0; at < file.length; at += UTF8_CHUNK) {
      const end = Math.min(file.length, at + UTF8_CHUNK);
      decoder.decode(file.read(at, end), { stream: end < file.length });
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * A file's part that opens no format (a text chunk, a comment, an entry, a
 * formatless file whole) as text: by the text rules of {@link bytesAsText},
 * else its readable runs ({@link readableRuns}); `undefined` when neither
 * holds a character that is not white space.
 */
function pieceText(bytes: Uint8Array | string): string | undefined {
  if (typeof bytes === 'string') return bytes.trim() === '' ? undefined : bytes;
  const read = bytesAsText(bytes, false, strictly(bytes, 'utf-8', false));
  const text = read !== NOT_UTF8 ? read.text : readableRuns(new TextDecoder('utf-8').decode(bytes));
  return text === undefined || text.trim() === '' ? undefined : text;
}

/** A file whose format's structure holds a part that may be text and could not be read: it fails closed. */
export interface FileUnwalkable {
  /** What the file is and what could not be read (`a zip file whose text could not be read: an encrypted zip entry`): no value of it. */
  unwalkable: string;
}

/** Whether a reading is {@link FileUnwalkable}. */
export function isUnwalkable(read: unknown): read is FileUnwalkable {
  return typeof read === 'object' && read !== null && 'unwalkable' in read;
}

/** The name of the walked format `head` opens, for a reason. */
function formatName(head: Uint8Array): string {
  const [b0, b1] = head;
  if (b0 === 0x89) return 'a PNG';
  if (b0 === 0xff && b1 === 0xd8) return 'a JPEG';
  if (b0 === 0x47) return 'a GIF';
  if (b0 === 0x25) return 'a PDF';
  return 'a zip';
}

/**
 * The text rules of {@link fileBytesText} for bytes that open no binary
 * format: UTF-16 after its byte order mark, UTF-8 when it reads as text
 * (`utf8`: the bytes' strict UTF-8 reading, if any), UTF-16 without a byte
 * order mark, text between junk bytes; else `NOT_UTF8`.
 */
function bytesAsText(
  bytes: Uint8Array,
  stream: boolean,
  utf8: string | undefined,
): FileBytesText | typeof NOT_UTF8 {
  const [b0, b1] = bytes;
  const byteOrder =
    b0 === 0xff && b1 === 0xfe ? 'utf-16le' : b0 === 0xfe && b1 === 0xff ? 'utf-16be' : undefined;
  if (byteOrder !== undefined) {
    const text = strictly(bytes, byteOrder, stream);
    if (text !== undefined && text.length > 0 && readsAsText(text, false)) {
      return withControls({ text, utf8: false }, text);
    }
  }
  const text = utf8 ?? new TextDecoder('utf-8').decode(bytes, { stream });
  if (text.length > 0 && readsAsText(text, true)) return withControls({ text, utf8: true }, text);
  const nullOrder = nullEveryOther(bytes);
  if (nullOrder !== undefined) {
    const wide = strictly(bytes, nullOrder, stream);
    if (wide !== undefined && readsAsText(wide, false)) {
      return withControls({ text: wide, utf8: false }, wide);
    }
  }
  const interleaved = withoutInterleavedJunk(text);
  return interleaved === undefined
    ? NOT_UTF8
    : withControls({ text: interleaved, utf8: true }, text);
}

/** The fewest good characters in a row {@link readableRuns} reads (as `strings` does). */
const MIN_PRINTABLE_RUN = 4;

/**
 * The readable runs of a file that is no text and opens no binary format
 * ({@link fileBytesText}), as `strings` reads a binary file: each run of 4
 * or more characters that are not bad ones ({@link isBadCharacter}) in the
 * bytes' lossy UTF-8 reading, joined by line feeds; `undefined` when there
 * is none. Round 24: whether a file is text was told from the whole file,
 * so `card 4111 1111 1111 1111` between kilobytes of random bytes was
 * binary, passed unread, and a model reading the bytes as text read the
 * card. One pass; the runs are at most the file's characters.
 */
function readableRuns(text: string): string | undefined {
  const runs: string[] = [];
  let start = 0;
  for (let index = 0; index <= text.length; index++) {
    if (index < text.length && !isBadCharacter(text.charCodeAt(index))) continue;
    if (index - start >= MIN_PRINTABLE_RUN) runs.push(text.slice(start, index));
    start = index + 1;
  }
  return runs.length === 0 ? undefined : runs.join('\n');
}

/**
 * Why a model output is withheld when a guardrail changed the text read from
 * a file that is not text ({@link FileBytesText}'s `binary`): its bytes are
 * never rewritten.
 */
export const CHANGED_BINARY =
  'a guardrail changed the text read from a file that is not text, whose bytes are never rewritten';

/** The fewest good characters {@link withoutInterleavedJunk} reads text from. */
const MIN_INTERLEAVED_GOOD = 64;

/**
 * A reading of bytes with a junk byte every second or third character
 * (`I\xFFg\xFFn\xFFo\xFFr\xFFe`, round 22: no run of three good characters,
 * so {@link readsAsText} saw binary), as text without its bad characters:
 * when at least 64 characters and 2 in 5 are good, and at least 95% of
 * the good ones are letters, digits, blanks, `.,@-':` or characters past
 * ASCII (prose, a card number, an address). Random or compressed bytes
 * have about 45% good characters of which 73% are such (their printable
 * ASCII is uniform); of 4,201 files of a Linux system that open no binary
 * format and were not text by the other rules, one (Python bytecode) reads
 * so. `undefined` otherwise. Judged without its junk (what the model
 * makes of it), the file goes on as it came unless a guardrail changes it.
 */
function withoutInterleavedJunk(text: string): string | undefined {
  let good = 0;
  let wordLike = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isBadCharacter(code)) continue;
    good++;
    if (
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      code === 32 ||
      (code >= 9 && code <= 13) ||
      code === 46 ||
      code === 44 ||
      code === 64 ||
      code === 45 ||
      code === 39 ||
      code === 58 ||
      code >= 0xa0
    ) {
      wordLike++;
    }
  }
  if (good < MIN_INTERLEAVED_GOOD || good * 5 < text.length * 2 || wordLike * 20 < good * 19) {
    return undefined;
  }
  // The good characters' UTF-16 units, read back in one decode (no string built a character at a time).
  const units = new Uint16Array(good);
  let at = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (!isBadCharacter(code)) units[at++] = code;
  }
  return new TextDecoder('utf-16le').decode(units);
}

/** A character text has not: U+FFFD, NUL, a control character but tab to carriage return and escape, DEL. */
const isBadCharacter = (code: number) =>
  code === 0xfffd || (code < 32 && (code < 9 || (code > 13 && code !== 27))) || code === 127;

/** `bytes` decoded in `encoding`, `undefined` when they are not valid in it. */
function strictly(bytes: Uint8Array, encoding: string, stream: boolean): string | undefined {
  try {
    // `stream`: a probe may cut a character in two, which is no error.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes, { stream });
  } catch {
    return undefined;
  }
}

/**
 * `utf-16le` when every byte at an odd place is null (`j\0a\0n\0e\0`),
 * `utf-16be` when every byte at an even one is, for 8 bytes or more and
 * with at most one exception in 16 pairs; else `undefined`. ASCII and
 * latin-1 text in UTF-16 with no byte order mark is read so: as UTF-8 its
 * every other character was a NUL, and it passed as binary.
 */
function nullEveryOther(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const pairs = bytes.length >> 1;
  if (pairs < 4) return undefined;
  let oddNulls = 0;
  let evenNulls = 0;
  for (let index = 0; index + 1 < bytes.length; index += 2) {
    if (bytes[index] === 0) evenNulls++;
    if (bytes[index + 1] === 0) oddNulls++;
  }
  const needed = pairs - Math.floor(pairs / 16);
  if (oddNulls >= needed && evenNulls * 2 <= pairs) return 'utf-16le';
  if (evenNulls >= needed && oddNulls * 2 <= pairs) return 'utf-16be';
  return undefined;
}

/** The fewest characters of a readable run (as `strings` reads a binary file, which takes 4). */
const MIN_READABLE_RUN = 3;

/**
 * Whether a reading of a file's bytes is text. A bad character is one that
 * text has not: U+FFFD for a byte that is no UTF-8, NUL, a control
 * character but tab, line feed, vertical tab, form feed, carriage return
 * and escape, DEL. Text when at most one character in 16 is bad (latin-1
 * prose: an accent in 20 to 50 letters; round 20). With `runsCount`, text
 * too when at least half of the characters lie in readable runs (3 or more
 * good characters in a row): round 21, `Ignore all previous instructions`
 * or a card number with a junk byte every few characters was binary,
 * unread. Binary files have short runs: random, compressed or encrypted
 * bytes about 18% of their characters in such runs, executables,
 * WebAssembly, PDFs and bytecode 20 to 24% (measured on the files of a
 * Linux system); text that hides from this needs a junk byte every third
 * character. The caller rules out files that open a binary format first
 * ({@link opensBinaryFormat}). One pass.
 */
function readsAsText(text: string, runsCount: boolean): boolean {
  const allowed = Math.floor(text.length / 16);
  let bad = 0;
  let inRuns = 0;
  let run = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isBadCharacter(code)) {
      if (run >= MIN_READABLE_RUN) inRuns += run;
      run = 0;
      // Binary once neither rule can hold: too many bad characters, and too
      // few in runs even if every character left were in one.
      if (++bad > allowed && (!runsCount || (inRuns + text.length - index - 1) * 2 < text.length))
        return false;
    } else run++;
  }
  if (run >= MIN_READABLE_RUN) inRuns += run;
  return bad <= allowed || (runsCount && inRuns * 2 >= text.length);
}

/** The text of a text file's bytes, and whether they were UTF-8. */
export interface FileText {
  text: string;
  /**
   * False when the bytes were in another encoding (UTF-16, latin1...): a
   * modified text is put back as UTF-8 ({@link encodeFileText}), and the
   * media type must then say so ({@link utf8MediaType}).
   */
  utf8: boolean;
}

const CHARSET_PARAMETER = /;\s*charset\s*=\s*(?:"([^"]*)"|([^";\s]*))/gi;

/**
 * The `charset` of a media type, lower-cased: `undefined` without one,
 * `null` when two disagree (which one a provider reads is unknown).
 */
function charsetOf(mediaType: unknown): string | null | undefined {
  if (typeof mediaType !== 'string' || mediaType.indexOf(';') < 0) return undefined;
  let charset: string | undefined;
  for (const match of mediaType.matchAll(CHARSET_PARAMETER)) {
    const label = (match[1] ?? match[2]!).toLowerCase();
    if (charset !== undefined && label !== charset) return null;
    charset = label;
  }
  return charset;
}

/**
 * The encoding a text file's bytes are read in, as a browser reads a text
 * resource: a byte order mark first (UTF-8, UTF-16 LE or BE), else the
 * media type's `charset`, else UTF-8. `undefined` for what cannot be read
 * as the model may read it: UTF-32 (no TextDecoder reads it), a charset
 * TextDecoder does not know, `utf-16` without a byte order mark (little or
 * big endian is the reader's guess), two charsets that disagree.
 */
function fileEncoding(bytes: Uint8Array, mediaType: unknown): string | undefined {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 'utf-8';
  if (b0 === 0xff && b1 === 0xfe) return b2 === 0 && b3 === 0 ? undefined : 'utf-16le';
  if (b0 === 0xfe && b1 === 0xff) return 'utf-16be';
  if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) return undefined;
  const charset = charsetOf(mediaType);
  if (charset === undefined) return 'utf-8';
  if (charset === null || charset === 'utf-16') return undefined;
  try {
    return new TextDecoder(charset).encoding;
  } catch {
    return undefined;
  }
}

/**
 * Bytes (a `Uint8Array` or base64) of a file of `mediaType` as text, in the
 * encoding its byte order mark or `charset` names (UTF-8 without either):
 * read as UTF-8, UTF-16 was `j\0a\0n\0e\0…`, in which no finder sees a
 * value the model reads. `undefined` when they are neither bytes nor
 * base64, or in an encoding that cannot be read ({@link fileEncoding}).
 */
export function decodeFileText(data: unknown, mediaType?: unknown): FileText | undefined {
  let bytes: Uint8Array;
  if (data instanceof Uint8Array) bytes = data;
  else if (typeof data === 'string') {
    let binary: string;
    try {
      binary = atob(data);
    } catch {
      return undefined;
    }
    bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  } else return undefined;
  const encoding = fileEncoding(bytes, mediaType);
  if (encoding === undefined) return undefined;
  const text = new TextDecoder(encoding).decode(bytes);
  if (
    encoding !== 'utf-8' &&
    !startsWithByteOrderMark(bytes) &&
    readsOtherwiseAsUtf8(bytes, text)
  ) {
    return undefined;
  }
  return { text, utf8: encoding === 'utf-8' };
}

function startsWithByteOrderMark(bytes: Uint8Array): boolean {
  const [b0, b1] = bytes;
  return (b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff);
}

/**
 * Whether `bytes`, which a `charset` label made read as `text`, are valid
 * UTF-8 that reads otherwise. A provider may send them on as they came and a
 * reader take them for UTF-8 (a client chose the label): `card 4111…` in
 * UTF-8 labelled `utf-16le` was CJK to every guardrail, full-width digits
 * labelled `latin1` mojibake. Which one the model reads is unknown, as for
 * two disagreeing charsets. UTF-8 with a NUL beside each letter reads as
 * UTF-16 text of ASCII characters does (normalisation drops NULs).
 */
function readsOtherwiseAsUtf8(bytes: Uint8Array, text: string): boolean {
  let asUtf8: string;
  try {
    asUtf8 = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  return asUtf8 !== text && asUtf8.replaceAll('\0', '') !== text;
}

/**
 * `mediaType` for a file whose text was put back as UTF-8 after it was read
 * in another encoding: its `charset` parameters replaced by `charset=utf-8`.
 */
export function utf8MediaType(mediaType: string): string {
  return `${mediaType.replace(CHARSET_PARAMETER, '').trimEnd()}; charset=utf-8`;
}

/**
 * How many bytes `data` decodes to: a `Uint8Array`'s length, or for a
 * string the length `atob` gives when it accepts it (ASCII white space
 * dropped first, as `atob` drops it: MIME base64 breaks its lines).
 * `undefined` for a string this cannot tell without decoding (another
 * alphabet, a bad length: `atob` decides). Allocates nothing: with a line
 * break in it, a 100 MB base64 file was decoded before its length was
 * known (`atob` ignores the break, and this said nothing).
 */
export function decodedByteLength(data: unknown): number | undefined {
  if (data instanceof Uint8Array) return data.length;
  if (typeof data !== 'string') return undefined;
  let length = data.length;
  let padding = 0;
  if (!STRICT_BASE64.test(data)) {
    // One pass: the characters `atob` keeps, each base64 or a final `=`.
    length = 0;
    for (let index = 0; index < data.length; index++) {
      const code = data.charCodeAt(index);
      if (code === 32 || code === 9 || code === 10 || code === 12 || code === 13) continue;
      if (code === 61) padding++;
      else if (padding > 0 || !isBase64Code(code)) return undefined;
      length++;
    }
    if (padding > 2) return undefined;
  } else padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  // As `atob` (forgiving base64): padding only on a length that is a multiple of 4.
  if (padding > 0) {
    if (length % 4 !== 0) return undefined;
    length -= padding;
  }
  if (length % 4 === 1) return undefined;
  return Math.floor((length * 3) / 4);
}
const STRICT_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const isBase64Code = (code: number) =>
  (code >= 65 && code <= 90) ||
  (code >= 97 && code <= 122) ||
  (code >= 48 && code <= 57) ||
  code === 43 ||
  code === 47;

/**
 * The fewest UTF-16 characters the text of `bytes` bytes of a file of
 * `mediaType` can have, whatever encoding it is read in (its byte order
 * mark, else its `charset`, else UTF-8). In UTF-8 a character takes at most
 * 3 bytes per UTF-16 unit (4 for a pair), an invalid sequence of up to 3
 * bytes becomes one U+FFFD, and a leading byte order mark (3 bytes) is
 * dropped; UTF-16 and the single- and double-byte charsets take fewer.
 * gb18030 (and GBK, read by its decoder) writes a character in 4 bytes, and
 * ISO-2022-JP spends 6 on two escape sequences back to back (one U+FFFD):
 * with UTF-8's bound, a gb18030 file of 750,003 characters was refused as
 * longer than 1,000,000. A charset TextDecoder does not know, or two that
 * disagree, is not read at all; the weakest bound is used for it.
 */
export function fewestTextCharacters(bytes: number, mediaType?: unknown): number {
  const charset = charsetOf(mediaType);
  let encoding: string | undefined = 'utf-8';
  if (charset === null) encoding = undefined;
  else if (charset !== undefined) {
    try {
      encoding = new TextDecoder(charset).encoding;
    } catch {
      encoding = undefined;
    }
  }
  if (encoding === 'gb18030' || encoding === 'gbk') return Math.floor(bytes / 4);
  if (encoding === 'iso-2022-jp' || encoding === undefined) return Math.floor(bytes / 6);
  return Math.max(0, Math.ceil((bytes - 3) / 3));
}

/** Text back into the form its bytes came in (a `Uint8Array`, or base64 for a string). */
export function encodeFileText(text: string, like: unknown): Uint8Array | string {
  const bytes = new TextEncoder().encode(text);
  if (like instanceof Uint8Array) return bytes;
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * Where the text of a `content` part is: a `text` part's text, an inline text
 * document, bytes in the file's `data` object (AI SDK 7), bytes in the part's
 * own `data` (AI SDK 6's `file-data` and `media`), image bytes (never text), or
 * none (a URL, a file id, a custom part).
 */
type ContentPayload = 'text' | 'inline-text' | 'bytes' | 'part-bytes' | 'image-bytes' | undefined;

/** A readable content part: where its text is, and the keys that are not judged as its fields. */
interface ContentPartShape {
  payload: ContentPayload;
  /** `type` and the keys of the payload; every other key is judged as a field. */
  payloadKeys: readonly string[];
}

/**
 * The keys each type of `content` part may have (AI SDK 7's `text`, `file`
 * and `custom`; AI SDK 6's too) and where its payload is. A part of another
 * type, or with another key, is not read past: a provider that sends parts
 * as JSON (OpenAI's chat API) would show the model what no guardrail read.
 */
const CONTENT_PARTS: Record<string, { keys: readonly string[]; payload: ContentPayload }> = {
  text: { keys: ['type', 'text', 'providerOptions'], payload: 'text' },
  file: { keys: ['type', 'data', 'mediaType', 'filename', 'providerOptions'], payload: undefined },
  custom: { keys: ['type', 'providerOptions'], payload: undefined },
  media: { keys: ['type', 'data', 'mediaType'], payload: 'part-bytes' },
  'file-data': {
    keys: ['type', 'data', 'mediaType', 'filename', 'providerOptions'],
    payload: 'part-bytes',
  },
  'image-data': { keys: ['type', 'data', 'mediaType', 'providerOptions'], payload: 'image-bytes' },
  'file-url': { keys: ['type', 'url', 'mediaType', 'providerOptions'], payload: undefined },
  'image-url': { keys: ['type', 'url', 'providerOptions'], payload: undefined },
  'file-id': { keys: ['type', 'fileId', 'providerOptions'], payload: undefined },
  'image-file-id': { keys: ['type', 'fileId', 'providerOptions'], payload: undefined },
};

/** The keys of each kind of an AI SDK 7 file's `data` object. */
const FILE_DATA_KEYS: Record<string, readonly string[]> = {
  data: ['type', 'data'],
  text: ['type', 'text'],
  url: ['type', 'url'],
  reference: ['type', 'reference'],
};

/**
 * Bytes as a `content` part carries them: a `Uint8Array`, or a base64 string
 * (no text in another form), wrapped in lines or not (MIME base64, as some
 * MCP servers send images).
 */
const BASE64 = /^[A-Za-z0-9+/_\-\s]*(?:=[ \t\r\n]*){0,2}$/;
const isBytes = (data: unknown) =>
  data instanceof Uint8Array || (typeof data === 'string' && BASE64.test(data));

/** Whether every own key of `value` is one of `keys`. */
function onlyKeys(value: object, keys: readonly string[]): boolean {
  for (const key of Object.keys(value)) if (!keys.includes(key)) return false;
  return true;
}

/** The shape of a readable `content` part, or `undefined` when it is not one. */
function contentPartShape(part: unknown): ContentPartShape | undefined {
  if (part === null || typeof part !== 'object' || Array.isArray(part)) return undefined;
  const { type, text, data } = part as { type?: unknown; text?: unknown; data?: unknown };
  if (typeof type !== 'string' || !Object.hasOwn(CONTENT_PARTS, type)) return undefined;
  const known = CONTENT_PARTS[type]!;
  if (!onlyKeys(part, known.keys)) return undefined;
  switch (known.payload) {
    case 'text':
      return typeof text === 'string'
        ? { payload: 'text', payloadKeys: ['type', 'text'] }
        : undefined;
    case 'part-bytes':
    case 'image-bytes':
      return isBytes(data) ? { payload: known.payload, payloadKeys: ['type', 'data'] } : undefined;
  }
  if (type !== 'file') return { payload: undefined, payloadKeys: ['type'] };
  // An AI SDK 7 file: its data says where the file is.
  if (data === null || typeof data !== 'object') return undefined;
  const kind = (data as { type?: unknown }).type;
  if (typeof kind !== 'string' || !Object.hasOwn(FILE_DATA_KEYS, kind)) return undefined;
  if (!onlyKeys(data, FILE_DATA_KEYS[kind]!)) return undefined;
  if (kind === 'text') {
    return typeof (data as { text?: unknown }).text === 'string'
      ? { payload: 'inline-text', payloadKeys: ['type', 'data'] }
      : undefined;
  }
  if (kind === 'data') {
    return isBytes((data as { data?: unknown }).data)
      ? { payload: 'bytes', payloadKeys: ['type', 'data'] }
      : undefined;
  }
  // A URL or a provider reference: the model may read it, so it is a field.
  return { payload: undefined, payloadKeys: ['type'] };
}

/**
 * Whether a `content` part is a file whose text the model reads and no
 * guardrail can: a text media type given by URL or provider reference (the
 * provider, or the AI SDK's download, reads it after the guardrails ran:
 * round 22, a tool result's `https://…/notes.txt` holding a card reached the
 * model with only its URL judged), or a `data:` URL whose own type, or the
 * part's, is text or none (the AI SDK turns it into bytes of its own type).
 * A user's such file fails closed the same way (the middleware's prompt reader).
 */
function pointsAtText(part: Record<string, unknown>): boolean {
  const { type, data, mediaType } = part as { type: string; data?: unknown; mediaType?: unknown };
  let href: unknown;
  if (type === 'file-url') href = part.url;
  else if (type === 'file' && data !== null && typeof data === 'object') {
    const kind = (data as { type?: unknown }).type;
    if (kind === 'reference') return isTextMediaType(mediaType);
    if (kind === 'url') href = (data as { url?: unknown }).url;
  }
  if (href === undefined) return false;
  const url = href instanceof URL ? href.href : typeof href === 'string' ? href : '';
  const dataUrl = /^\s*data:([^;,]*)/i.exec(url);
  if (dataUrl) {
    const own = dataUrl[1]!.trim();
    return (
      own === '' || isTextMediaType(own) || isUntypedMediaType(own) || isTextMediaType(mediaType)
    );
  }
  return isTextMediaType(mediaType);
}

/**
 * The fields of a `content` part that are not its payload (a file name, a
 * URL, a file id, provider options, a media type), judged as one JSON value;
 * `undefined` when there is nothing but a plain media type.
 */
function fieldsOf(part: Record<string, unknown>, shape: ContentPartShape): object | undefined {
  const fields: Record<string, unknown> = {};
  let count = 0;
  for (const key of Object.keys(part)) {
    if (shape.payloadKeys.includes(key) || part[key] === undefined) continue;
    Object.defineProperty(fields, key, {
      value: part[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
    count++;
  }
  if (count === 0) return undefined;
  if (typeof fields.mediaType === 'string' && isPlainMediaType(fields.mediaType)) {
    if (count === 1) return undefined;
  } else if (typeof fields.mediaType === 'string') {
    // Judged as its parameters read decoded too (round 25: `name*=utf-8''4111%20…`).
    const reading = mediaTypeReading(fields.mediaType);
    if (reading.unreadable !== undefined) return { [UNDECODED_MEDIA_TYPE]: reading.unreadable };
    fields.mediaType = reading.text;
  }
  return fields;
}

/** {@link fieldsOf}: the media type's parameters cannot be decoded (the reason). */
const UNDECODED_MEDIA_TYPE = Symbol('undecoded media type');

/** Whether two objects have the same own keys. */
function sameKeys(a: object, b: object): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && onlyKeys(b, keys);
}

/** Names what was found where a model output was expected, without quoting more than its type. */
function describeUnreadable(view: unknown): string {
  if (view === null) return 'null';
  if (typeof view !== 'object') return `a ${typeof view}`;
  const type = (view as { type?: unknown }).type;
  return typeof type === 'string'
    ? `type ${JSON.stringify(type.slice(0, 40))}`
    : 'an object without a type';
}

/**
 * Judges every text the model reads in one tool result output, the same way
 * wherever the output comes from (`guardTools`' `toModelOutput`, a
 * `tool-result` part of a prompt): `text` and `error-text` values, an
 * `execution-denied` reason, each `text` part of a `content` output and the
 * text of a `file` part (inline, or bytes of a text media type decoded as
 * UTF-8: {@link isTextMediaType}; bytes of no media type or
 * `application/octet-stream` when they are UTF-8; since round 22 the bytes of
 * a file of any other type when they are text, {@link fileBytesText}) go to `judges.text`; `json` and `error-json` values go to `judges.json`. Media
 * and `custom` parts are not text and pass as they are, unless
 * `judges.unreadableFile` refuses a file (`unreadableFiles: 'block'`). A modification is
 * put back in its place (the output is copied, never changed in place).
 * Anything else (an unknown type, a text that is not a string, a part
 * without a type) is `unreadable`: the caller fails closed.
 */
export async function checkModelOutputTexts(
  view: unknown,
  judges: ModelOutputJudges,
): Promise<ModelOutputCheck> {
  const unreadable = { unreadable: describeUnreadable(view) };
  if (view === null || typeof view !== 'object') return unreadable;
  const model = view as ModelOutput;
  switch (model.type) {
    case 'text':
    case 'error-text': {
      if (typeof model.value !== 'string') return unreadable;
      const checked = await judges.text(model.value, 'value');
      if (checked.trip) return { trip: checked.trip };
      return { value: checked.value === model.value ? model : { ...model, value: checked.value } };
    }
    case 'json':
    case 'error-json': {
      const checked = await judges.json(model.value);
      if (checked.trip) return { trip: checked.trip };
      return { value: checked.value === model.value ? model : { ...model, value: checked.value } };
    }
    case 'execution-denied': {
      if (model.reason === undefined) return { value: model };
      if (typeof model.reason !== 'string') return unreadable;
      const checked = await judges.text(model.reason, 'reason');
      if (checked.trip) return { trip: checked.trip };
      return {
        value: checked.value === model.reason ? model : { ...model, reason: checked.value },
      };
    }
    case 'content': {
      if (!Array.isArray(model.value)) return unreadable;
      const parts: unknown[] = [];
      let changed = false;
      for (const item of model.value as unknown[]) {
        const shape = contentPartShape(item);
        if (!shape) return unreadable;
        let part = item as Record<string, unknown>;
        const { data } = part as { data?: unknown };
        /** This file withheld: where it is and what it is, and why (no value of it). */
        const withheldFile = (why: string, unreadable = why) => ({
          unreadable,
          withheld: `content part ${parts.length} (${fileOfType(part.mediaType)}): ${why}`,
        });
        if (pointsAtText(part)) {
          // Read after the guardrails ran (the provider, or the AI SDK's download), as a user's.
          return {
            unreadable:
              'a text file given by URL or provider reference is read after the guardrails ran (give its bytes)',
          };
        }
        let judgedAsText = false;
        if (shape.payload === 'text') {
          const text = part.text as string;
          const checked = await judges.text(text, 'part');
          if (checked.trip) return { trip: checked.trip };
          if (checked.value !== text) part = { ...part, text: checked.value };
        } else if (shape.payload === 'inline-text') {
          // An inline text document: the model reads it as text.
          const inline = data as { type: 'text'; text: string };
          const checked = await judges.text(inline.text, 'file-text');
          if (checked.trip) return { trip: checked.trip };
          if (checked.value !== inline.text) {
            part = { ...part, data: { ...inline, text: checked.value } };
          }
        } else if (
          (shape.payload === 'bytes' ||
            shape.payload === 'part-bytes' ||
            shape.payload === 'image-bytes') &&
          !isTextMediaType(part.mediaType)
        ) {
          // Bytes of any other type, or of none: judged as text when they are
          // text, whatever the type says ({@link fileBytesText}; round 19 for
          // untyped files, round 22 for `image/png` or `application/x-pem-file`
          // text, as the prompt's and the model's files are read).
          const untyped = isUntypedMediaType(part.mediaType);
          const bytes = standardBase64(
            shape.payload === 'bytes' ? (data as { data: unknown }).data : data,
          );
          if (!headOpensBinaryFormat(bytes, untyped)) {
            // A PNG or a PDF: the text outside its structure, its length known (never measured whole);
            // its walk stops where its text is past the caller's limit (round 27), refused as such.
            let walkRefused: { trip: GuardrailRecord } | undefined;
            const walked = textOutsideFormat(bytes, untyped, characters => {
              walkRefused = judges.beforeDecoding?.(
                characters,
                binaryTextWhat(part.mediaType, true),
              );
              return walkRefused !== undefined;
            });
            if (walked === TOO_LONG) return walkRefused ?? unreadable;
            const outside = walked;
            const byteLength = outside === undefined ? decodedByteLength(bytes) : undefined;
            // Told from binary on its first bytes before any limit is asked (a
            // 10 MB PNG is no text over the limit), then decoded whole.
            const probed = byteLength !== undefined && byteLength > UNTYPED_PROBE_BYTES;
            let read = outside ?? fileBytesText(bytes, probed, untyped);
            // A part of its structure that may hold text could not be read (round 24): withheld.
            if (isUnwalkable(read)) return withheldFile(read.unwalkable);
            const partial =
              read !== NOT_UTF8 && read !== undefined && read !== TOO_LONG && read.partial
                ? read.text
                : undefined;
            const fewest =
              partial !== undefined
                ? partial.length
                : byteLength !== undefined
                  ? fewestTextCharacters(byteLength)
                  : undefined;
            if (read !== NOT_UTF8 && read !== undefined && fewest !== undefined) {
              const refused = judges.beforeDecoding?.(
                fewest,
                partial !== undefined
                  ? binaryTextWhat(part.mediaType, outside !== undefined)
                  : undefined,
              );
              if (refused) return refused;
              if (read === TOO_LONG) read = fileBytesText(bytes, false, untyped);
              if (isUnwalkable(read)) return withheldFile(read.unwalkable);
            }
            if (read === TOO_LONG || (read === undefined && untyped)) return unreadable;
            if (read !== NOT_UTF8 && read !== undefined) {
              // The text around a PNG's or PDF's structure: the file is still one no guardrail reads.
              judgedAsText = !read.partial;
              const checked = await judges.text(read.text, 'file-text');
              if (checked.trip) return { trip: checked.trip };
              if (read.binary) {
                // The bytes of a file that is not text are never rewritten (round 23).
                if (checked.value !== read.text) {
                  return withheldFile(
                    'a guardrail changed the text read from it, a file that is not text, whose bytes are never rewritten',
                    CHANGED_BINARY,
                  );
                }
              } else if (checked.value !== read.text || !read.utf8) {
                // UTF-16 goes on as UTF-8 of what was judged, modified or not (as a text file's).
                const encoded = encodeFileText(checked.value, bytes);
                part =
                  shape.payload === 'bytes'
                    ? { ...part, data: { ...(data as object), data: encoded } }
                    : { ...part, data: encoded };
                if (!read.utf8 && typeof part.mediaType === 'string') {
                  part.mediaType = utf8MediaType(part.mediaType);
                }
              }
            }
          }
        } else if (shape.payload !== undefined && isTextMediaType(part.mediaType)) {
          // A text document as bytes: the model reads its text, so it is judged decoded.
          const bytes = shape.payload === 'bytes' ? (data as { data: unknown }).data : data;
          const byteLength = decodedByteLength(bytes);
          if (byteLength !== undefined) {
            const refused = judges.beforeDecoding?.(
              fewestTextCharacters(byteLength, part.mediaType),
            );
            if (refused) return refused;
          }
          // The memo is keyed by the bytes: only where the media type names no charset.
          const memo = charsetOf(part.mediaType) === undefined ? judges.memo : undefined;
          let decoded: FileText | undefined;
          if (memo?.decoded.has(bytes)) decoded = memo.decoded.get(bytes);
          else {
            decoded = decodeFileText(bytes, part.mediaType);
            memo?.decoded.set(bytes, decoded);
          }
          if (decoded === undefined) return unreadable;
          const checked = await judges.text(decoded.text, 'file-text');
          if (checked.trip) return { trip: checked.trip };
          // Text read in another encoding goes on as UTF-8 of what was judged,
          // modified or not: a reader that takes the bytes for UTF-8 whatever
          // their byte order mark or label says (`FF FE` then UTF-8 bytes of
          // `card 4111…`) saw text no guardrail read.
          if (checked.value !== decoded.text || !decoded.utf8) {
            const encoded = encodeFileText(checked.value, bytes);
            part =
              shape.payload === 'bytes'
                ? { ...part, data: { ...(data as object), data: encoded } }
                : { ...part, data: encoded };
            if (!decoded.utf8) part.mediaType = utf8MediaType(part.mediaType as string);
          }
        }
        if (
          judges.unreadableFile &&
          !judgedAsText &&
          part.type !== 'text' &&
          part.type !== 'custom' &&
          shape.payload !== 'inline-text' &&
          !(shape.payload !== undefined && isTextMediaType(part.mediaType))
        ) {
          // A file the model reads and no guardrail does (a PDF, an image, a URL).
          const refused = judges.unreadableFile(part.mediaType);
          if (refused) return refused;
        }
        // Everything else the part holds (a file name, a URL, provider options...) is
        // read by a provider that sends the part as JSON (OpenAI's chat API does).
        // Read again with the same memo, an unmodified part gives the same object (its canonical
        // JSON and limit walk, keyed by it, are shared).
        let fields: object | undefined;
        if (part === item && judges.memo?.fields.has(item)) fields = judges.memo.fields.get(item);
        else {
          fields = fieldsOf(part, shape);
          if (part === item) judges.memo?.fields.set(item, fields);
        }
        const undecoded = (fields as { [UNDECODED_MEDIA_TYPE]?: string } | undefined)?.[
          UNDECODED_MEDIA_TYPE
        ];
        if (undecoded !== undefined) return withheldFile(undecoded);
        if (fields) {
          const checked = await judges.json(fields);
          if (checked.trip) return { trip: checked.trip };
          if (checked.value !== fields) {
            const modified = checked.value;
            if (
              modified === null ||
              typeof modified !== 'object' ||
              Array.isArray(modified) ||
              !sameKeys(modified, fields)
            ) {
              return unreadable;
            }
            const written = part.mediaType;
            part = { ...part, ...(modified as object) };
            // A changed media type goes on as its bare type (as a generated file's).
            const { mediaType } = fields as { mediaType?: unknown };
            if (typeof mediaType === 'string') {
              // Unchanged, it goes on as written (the judged text holds its decoded reading too).
              part.mediaType =
                part.mediaType === mediaType
                  ? written
                  : releasedMediaType(mediaType, part.mediaType);
            }
          }
        }
        changed ||= part !== item;
        parts.push(part);
      }
      return { value: changed ? { ...model, value: parts } : model };
    }
    default:
      return unreadable;
  }
}
