/**
 * A PDF's text shown with a font whose codes are not characters (a Type0
 * font with `/Encoding /Identity-H`: each two bytes a glyph's number), read
 * through the font's `/ToUnicode` CMap (`beginbfchar` / `beginbfrange`), as
 * a viewer's copy and search read it (round 26: `<0012003A…> Tj` read as
 * latin-1 bytes, so an injection drawn so passed). Round 28: the fonts
 * are resolved as a viewer resolves them ({@link PdfFonts}): a content
 * stream's strings after `/F1 12 Tf` are read through the map of the `/F1`
 * its page's (or form's) `/Resources` name, the objects' references read
 * in one streaming pass ({@link ReferenceReader}); a stream no page shows
 * through every `/F1`'s maps in the file, as before. Bounded: codes 1 to 4 bytes, a map's target 512 bytes at
 * most, {@link MAX_TO_UNICODE_CODES} codes in all the maps of one PDF, and
 * {@link MAX_FONTS_PER_NAME} maps a name; past a bound the PDF fails closed.
 * Each scan is one pass, its regular expressions without nested repetition.
 */

/**
 * A ToUnicode map: how many bytes a code is, and each code's text: the
 * codes of `<lo> <hi> <t>` ranges as `ranges` (sorted, apart: `[low, high,
 * stem, last]`, read by {@link shownCode} without being spelled out, round
 * 27: a range of 262,143 codes took 0.4 to 1 s to build a call), the rest in `map`.
 */
export interface ToUnicode {
  /** How many bytes a code is; 0: as long as the codespace range it falls in ({@link codeLength}). */
  width: number;
  /** The codespace ranges (`[width, low, high]`), for a width of 0. */
  spaces: Array<[width: number, low: number, high: number]>;
  /**
   * Each width the map's codes may be read at, the first its own (round
   * 28: its codespace's width only, so a map whose codespace says 1 byte and
   * whose entries are 2 read a Type0 font's codes a byte at a time, and
   * found nothing): the codespace ranges' widths, 0 when they differ (1-
   * and 2-byte codes in one map), and the widths of its entries' codes.
   */
  widths: number[];
  map: Map<number, string>;
  ranges: Array<[low: number, high: number, stem: string, last: number]>;
}

/** The range of sorted, apart `ranges` (`[low, high, …]`) that holds `code`, or `undefined`. */
function rangeOf<RANGE extends readonly [number, number, ...unknown[]]>(
  ranges: readonly RANGE[],
  code: number,
): RANGE | undefined {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const range = ranges[middle]!;
    if (code < range[0]) high = middle - 1;
    else if (code > range[1]) low = middle + 1;
    else return range;
  }
  return undefined;
}

/** The text of `code` in a ToUnicode map (`undefined`: none). */
export function shownCode(toUnicode: ToUnicode, code: number): string | undefined {
  const range = rangeOf(toUnicode.ranges, code);
  if (range === undefined) return toUnicode.map.get(code);
  return range[2] + String.fromCharCode((range[3] + code - range[0]) & 0xffff);
}

/** How many codes the ToUnicode maps of one PDF may hold together (a range counts each code). */
export const MAX_TO_UNICODE_CODES = 262_144;
/** How many codes the ranges of one ToUnicode map may hold when they overlap (spelled out one by one). */
export const MAX_SPELLED_OUT_CODES = 65_536;
/** How many codespace ranges one ToUnicode map may have. */
export const MAX_CODESPACE_RANGES = 32;
/** How many ToUnicode maps one font name may lead to (the same name on many pages). */
export const MAX_FONTS_PER_NAME = 8;

/** Why a PDF's ToUnicode maps cannot be read (no value of them): the PDF fails closed. */
export class ToUnicodeUnreadable extends Error {}

/** Whether an inflated stream is a ToUnicode CMap. */
export const isToUnicodeMap = (text: string): boolean =>
  text.includes('beginbfchar') || text.includes('beginbfrange') || text.includes('usecmap');

const HEX_TOKEN = /<([0-9A-Fa-f\s]*)>|\[|\]/g;

/** The bytes of a hex token's digits (white space dropped), or `undefined` past `most` bytes. */
function hexBytes(digits: string, most: number): number[] | undefined {
  const clean = digits.replace(/\s+/g, '');
  if (clean.length > 2 * most) return undefined;
  const bytes: number[] = [];
  for (let at = 0; at < clean.length; at += 2) {
    bytes.push(Number.parseInt(clean.slice(at, at + 2).padEnd(2, '0'), 16));
  }
  return bytes;
}

const codeOf = (bytes: readonly number[]) => bytes.reduce((code, byte) => code * 256 + byte, 0);

/**
 * A map's target, UTF-16BE bytes, as text; an odd number of bytes read
 * with a zero byte before them, as pdf.js and poppler read them (round 29:
 * the lone last byte was dropped, so `<0130> <0139> <30>` mapped the codes
 * of the digits to U+0000…U+0009 and `<0163> <63>` to nothing, and a card
 * drawn through such a map passed).
 */
function utf16(bytes: readonly number[]): string {
  let text = '';
  const odd = bytes.length % 2;
  for (let at = -odd; at + 1 < bytes.length; at += 2) {
    text += String.fromCharCode((at < 0 ? 0 : bytes[at]! * 256) + bytes[at + 1]!);
  }
  return text;
}

/**
 * The ToUnicode map a CMap stream's text defines; `budget.codes` counts the
 * codes left for the PDF's maps. Throws {@link ToUnicodeUnreadable} for a
 * code longer than 4 bytes, a target longer than 512, a range backwards,
 * or codes past the budget.
 */
export function parseToUnicode(text: string, budget: { codes: number }): ToUnicode {
  const map = new Map<number, string>();
  /** Ranges as read, each with its place among the bfrange entries; where each array-set code was set. */
  const ranges: Array<[number, number, string, number, number]> = [];
  const setAt = new Map<number, number>();
  let order = 0;
  let width = 0;
  const spaces: ToUnicode['spaces'] = [];
  const entryWidths = new Set<number>();
  // Each `begincodespacerange … endcodespacerange` block (one pass: each searched from the last's end).
  for (let from = text.indexOf('begincodespacerange'); from >= 0; ) {
    const end = text.indexOf('endcodespacerange', from);
    const block = text.slice(from + 19, end < 0 ? text.length : end);
    from = end < 0 ? -1 : text.indexOf('begincodespacerange', end);
    const bounds = [...block.matchAll(/<([0-9A-Fa-f\s]*)>/g)].map(match => hexBytes(match[1]!, 4));
    for (let k = 0; k + 1 < bounds.length; k += 2) {
      // Each code is tried against each range (a real CMap has a few).
      if (spaces.length === MAX_CODESPACE_RANGES) {
        throw new ToUnicodeUnreadable(
          `a PDF ToUnicode map with more than ${MAX_CODESPACE_RANGES} codespace ranges`,
        );
      }
      const [low, high] = [bounds[k], bounds[k + 1]];
      if (!low || !high || low.length === 0 || low.length !== high.length) continue;
      spaces.push([low.length, codeOf(low), codeOf(high)]);
    }
  }
  if (spaces.length > 0) width = spaces[0]![0];
  const add = (code: number, target: string) => {
    if (--budget.codes < 0) {
      throw new ToUnicodeUnreadable(
        `a PDF whose ToUnicode maps hold more than ${MAX_TO_UNICODE_CODES} codes`,
      );
    }
    map.set(code, target);
  };
  const bad = () => new ToUnicodeUnreadable('a PDF ToUnicode map that is not one');
  for (const kind of ['bfchar', 'bfrange'] as const) {
    let from = 0;
    for (;;) {
      const begin = text.indexOf(`begin${kind}`, from);
      if (begin < 0) break;
      const end = text.indexOf(`end${kind}`, begin);
      const block = text.slice(begin + 6 + kind.length, end < 0 ? text.length : end);
      from = end < 0 ? text.length : end;
      // Tokens: hex strings and array brackets (names as targets are not read).
      const tokens: Array<number[] | '[' | ']'> = [];
      for (const match of block.matchAll(HEX_TOKEN)) {
        if (match[1] === undefined) tokens.push(match[0] as '[' | ']');
        else {
          const bytes = hexBytes(match[1], 512);
          if (bytes === undefined) throw bad();
          tokens.push(bytes);
        }
      }
      const source = (token: (typeof tokens)[number] | undefined) => {
        if (!Array.isArray(token) || token.length === 0 || token.length > 4) throw bad();
        if (width === 0) width = token.length;
        entryWidths.add(token.length);
        return codeOf(token);
      };
      const target = (token: (typeof tokens)[number] | undefined) => {
        if (!Array.isArray(token)) throw bad();
        return utf16(token);
      };
      for (let at = 0; at < tokens.length; ) {
        if (kind === 'bfchar') {
          add(source(tokens[at]), target(tokens[at + 1]));
          at += 2;
          continue;
        }
        const low = source(tokens[at]);
        const high = source(tokens[at + 1]);
        if (high < low) throw bad();
        if (high - low >= budget.codes) {
          throw new ToUnicodeUnreadable(
            `a PDF whose ToUnicode maps hold more than ${MAX_TO_UNICODE_CODES} codes`,
          );
        }
        if (tokens[at + 2] === '[') {
          // `<lo> <hi> [<t0> <t1> …]`: each code its own target.
          let k = at + 3;
          for (let code = low; code <= high && tokens[k] !== ']' && k < tokens.length; code++) {
            add(code, target(tokens[k++]));
            setAt.set(code, order);
          }
          order++;
          while (k < tokens.length && tokens[k] !== ']') k++;
          at = k + 1;
          continue;
        }
        // `<lo> <hi> <t>`: the target's last character counts up from `t` (kept as a range).
        const first = target(tokens[at + 2]);
        budget.codes -= high - low + 1;
        ranges.push([
          low,
          high,
          first.slice(0, -1),
          first.length > 0 ? first.charCodeAt(first.length - 1) : 0,
          order++,
        ]);
        at += 3;
      }
    }
  }
  width = Math.min(Math.max(width, 1), 4);
  const spaceWidths = new Set(spaces.map(([size]) => size));
  const widths = new Set([
    width,
    ...(spaceWidths.size > 1 ? [0] : []),
    ...spaceWidths,
    ...entryWidths,
  ]);
  return { width, spaces, widths: [...widths], map, ranges: apartRanges(ranges, map, setAt) };
}

/**
 * `<lo> <hi> <t>` ranges as {@link ToUnicode.ranges}: sorted, when they
 * are apart and no later array entry sets a code in one (a real CMap's);
 * else each spelled out into `map` in the order written (a later entry
 * wins), as before, at most {@link MAX_SPELLED_OUT_CODES} codes (past
 * them the PDF fails closed). The budget counted each code already.
 */
function apartRanges(
  ranges: Array<[number, number, string, number, number]>,
  map: Map<number, string>,
  setAt: ReadonlyMap<number, number>,
): ToUnicode['ranges'] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  let apart = sorted.every((range, k) => k === 0 || range[0] > sorted[k - 1]![1]);
  // A code an array entry after a range sets: the array's text wins, so the range is spelled out.
  for (const [code, at] of apart ? setAt : []) {
    if ((rangeOf(sorted, code)?.[4] ?? at) < at) apart = false;
  }
  // Ranges win over bfchar entries (read before them) and earlier array entries.
  if (apart) return sorted.map(([low, high, stem, last]) => [low, high, stem, last]);
  const spelled = ranges.reduce((total, [low, high]) => total + high - low + 1, 0);
  if (spelled > MAX_SPELLED_OUT_CODES) {
    throw new ToUnicodeUnreadable(
      `a PDF ToUnicode map whose overlapping ranges hold more than ${MAX_SPELLED_OUT_CODES} codes`,
    );
  }
  for (const [low, high, stem, last, at] of ranges.sort((a, b) => a[4] - b[4])) {
    for (let code = low; code <= high; code++) {
      if ((setAt.get(code) ?? -1) > at) continue;
      map.set(code, stem + String.fromCharCode((last + code - low) & 0xffff));
    }
  }
  return [];
}

/**
 * A PDF's references, each with the object it is in and the keys that
 * lead to it there, joined by NUL: `3 0 obj << /Resources << /Font << /F1
 * 5 0 R >> >> >>` is object 3, path `Resources\0Font\0F1`, target 5; a
 * reference in an array is the array's key's (`/Contents [4 0 R 9 0 R]`).
 * An object written twice (an incremental update) keeps the references of
 * both. Kept flat (three arrays), indexed only for a PDF with ToUnicode maps.
 */
export class ObjectReferences {
  readonly objects: number[] = [];
  readonly paths: string[] = [];
  readonly targets: number[] = [];
  /**
   * What each object written holds (the last one written under its
   * number): {@link STRING_OBJECT}, {@link STREAM_OBJECT},
   * {@link CONTAINER_OBJECT}, {@link OTHER_OBJECT} (a number, a name, a
   * keyword), or the object a lone reference names (`5 0 obj 6 0 R endobj`).
   */
  readonly kinds = new Map<number, number>();
  add(object: number, path: string, target: number): void {
    this.objects.push(object);
    this.paths.push(path);
    this.targets.push(target);
  }
}

/** {@link ObjectReferences.kinds}: an object that is a string. */
export const STRING_OBJECT = -1;
/** An object that is a stream. */
export const STREAM_OBJECT = -2;
/** An object that is a dictionary or an array. */
export const CONTAINER_OBJECT = -3;
/** An object that is a number, a name or a keyword. */
export const OTHER_OBJECT = -4;

/** Joins the keys of a reference's path. */
const SEP = '\0';
const joinPath = (path: string, key: string) => (path === '' ? key : `${path}${SEP}${key}`);
/** How deep dictionaries and arrays are followed: deeper references are not kept. */
const MAX_NESTING = 32;

interface Frame {
  array: boolean;
  /** The keys that lead to this container. */
  path: string;
  /** A dictionary's last key, and whether its value was read. */
  key?: string;
  valued: boolean;
  /** The path of the last key's value, once asked for. */
  at?: string;
}

/**
 * Reads a PDF's objects for their references ({@link ObjectReferences}),
 * given its text (bytes read as latin-1) a piece at a time, in order, the
 * bodies of filtered streams left out: one pass, a token cut between two
 * pieces read whole (round 27: references were matched in 1 MB pieces
 * overlapping by 4 KB, so `/ToUnicode` and `9 0 R` more than 4 KB apart
 * across a piece's end were lost). Strings and comments are skipped, an
 * unfiltered stream's body up to its `endstream`; `N G obj` and `endobj`
 * close whatever a damaged object left open.
 */
export class ReferenceReader {
  private object = -1;
  private frames: Frame[] = [];
  private nested = 0;
  /** The integers read last, in a row (for `N G R` and `N G obj`). */
  private numbers: number[] = [];
  /** A token cut at the end of a piece. */
  private token = '';
  private mode: 'code' | 'comment' | 'literal' | 'hex' | 'stream' | 'open' | 'close' = 'code';
  private depth = 0;
  private escaped = false;
  /** The end of the last piece in a stream's body, for an `endstream` cut between two. */
  private tail = '';
  private readonly interned = new Map<string, string>();
  private readonly joined = new Map<string, Map<string, string>>();
  constructor(readonly references: ObjectReferences) {}

  /** Starts object `number` (an object stream's next object): whatever was open is closed. */
  begin(number: number): void {
    this.end();
    this.object = number;
    // Written again (an incremental update): what it holds is read anew.
    if (number >= 0) this.references.kinds.delete(number);
  }

  /**
   * What the object being read holds, once a value outside its containers
   * is read: `OTHER_OBJECT` only when nothing else was (the number and
   * generation before the next object's `obj`, when an `endobj` is missing).
   */
  private holds(kind: number): void {
    if (this.object < 0 || this.nested > 0) return;
    const { kinds } = this.references;
    if (kind !== OTHER_OBJECT || !kinds.has(this.object)) kinds.set(this.object, kind);
  }

  /** Ends the text read so far (an object stream's object): a token cut there is read. */
  end(): void {
    this.flush();
    this.frames = [];
    this.nested = 0;
    this.numbers = [];
    this.mode = 'code';
  }

  /** The next piece of the text. */
  feed(text: string): void {
    const { length } = text;
    for (let at = 0; at < length; at++) {
      switch (this.mode) {
        case 'comment': {
          const end = lineEnd(text, at);
          if (end < 0) return;
          this.mode = 'code';
          at = end;
          continue;
        }
        case 'literal':
          at = this.literal(text, at);
          continue;
        case 'hex': {
          const end = text.indexOf('>', at);
          if (end < 0) return;
          this.holds(STRING_OBJECT);
          this.value();
          at = end;
          continue;
        }
        case 'stream': {
          // `endstream` cut between the last piece and this one, else searched in this one.
          const cut = at === 0 ? (this.tail + text.slice(0, 8)).indexOf('endstream') : -1;
          const found = cut >= 0 ? cut - this.tail.length : text.indexOf('endstream', at);
          if (found < 0 && cut < 0) {
            this.tail = text.slice(-8);
            return;
          }
          at = found + 8;
          this.tail = '';
          this.mode = 'code';
          continue;
        }
        case 'open':
          this.mode = 'code';
          if (text.charCodeAt(at) === 0x3c) this.open(false);
          else {
            this.mode = 'hex';
            at--;
          }
          continue;
        case 'close':
          this.mode = 'code';
          if (text.charCodeAt(at) === 0x3e) {
            this.close();
            continue;
          }
          break;
      }
      const code = text.charCodeAt(at);
      if (CHARACTER[code] === SPACE) {
        if (this.token !== '') this.flush();
        continue;
      }
      if (CHARACTER[code] === REGULAR) {
        let end = at + 1;
        while (end < length && CHARACTER[text.charCodeAt(end)] === REGULAR) end++;
        // A token cut by the piece's end is read on in the next.
        if (this.token.length < 256) this.token += text.slice(at, Math.min(end, at + 256));
        if (end === length) return;
        at = end - 1;
        continue;
      }
      if (this.token !== '') this.flush();
      if (code === 0x2f) this.token = '/';
      else if (code === 0x25) this.mode = 'comment';
      else if (code === 0x28) {
        this.mode = 'literal';
        this.depth = 1;
      } else if (code === 0x3c) this.mode = 'open';
      else if (code === 0x3e) this.mode = 'close';
      else if (code === 0x5b) this.open(true);
      else if (code === 0x5d) this.close();
    }
  }

  /** A literal string's characters from `at`: where it ends, or the piece's last place. */
  private literal(text: string, at: number): number {
    for (; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (this.escaped) this.escaped = false;
      else if (code === 0x5c) this.escaped = true;
      else if (code === 0x28) this.depth++;
      else if (code === 0x29 && --this.depth === 0) {
        this.holds(STRING_OBJECT);
        this.value();
        return at;
      }
    }
    return at;
  }

  /** The token read so far, if any. */
  private flush(): void {
    const token = this.token;
    if (token === '') return;
    this.token = '';
    if (token[0] === '/') {
      // Interned: a key is kept once however often it is written (no slice of a piece kept).
      const name = pdfName(token.slice(1, 128));
      let kept = this.interned.get(name);
      if (kept === undefined) {
        kept = name.split('').join('');
        if (this.interned.size < 65_536) this.interned.set(kept, kept);
      }
      this.name(kept);
      return;
    }
    if (isInteger(token)) {
      this.holds(OTHER_OBJECT);
      this.numbers.push(Number(token));
      if (this.numbers.length > 2) this.numbers.shift();
      this.value(false);
      return;
    }
    const [number, generation] = this.numbers.length === 2 ? this.numbers : [];
    this.numbers = [];
    if (token === 'R' && number !== undefined && generation !== undefined) this.reference(number);
    else if (token === 'obj' && number !== undefined) this.begin(number);
    else if (token === 'endobj') this.begin(-1);
    else if (token === 'stream') {
      this.holds(STREAM_OBJECT);
      this.end();
      this.mode = 'stream';
      this.tail = '';
    } else {
      this.holds(OTHER_OBJECT);
      this.value();
    }
  }

  private name(name: string): void {
    this.numbers = [];
    const frame = this.frames.at(-1);
    if (frame && !frame.array && (frame.key === undefined || frame.valued)) {
      frame.key = name;
      frame.valued = false;
      frame.at = undefined;
    } else {
      this.holds(OTHER_OBJECT);
      this.value();
    }
  }

  /** A value read in the open container (`numbers`: it ends a run of integers). */
  private value(numbers = true): void {
    if (numbers) this.numbers = [];
    if (this.mode !== 'comment') this.mode = 'code';
    const frame = this.frames.at(-1);
    if (frame) frame.valued = true;
  }

  /** The path a value read now is at. */
  private path(): string {
    const frame = this.frames.at(-1);
    if (!frame) return '';
    if (frame.array || frame.key === undefined) return frame.path;
    if (frame.at === undefined) {
      // Interned: each path is one string however many references are at it.
      let byKey = this.joined.get(frame.path);
      if (!byKey) {
        byKey = new Map();
        this.joined.set(frame.path, byKey);
      }
      frame.at = byKey.get(frame.key);
      if (frame.at === undefined) {
        frame.at = joinPath(frame.path, frame.key);
        byKey.set(frame.key, frame.at);
      }
    }
    return frame.at;
  }

  private reference(target: number): void {
    this.holds(target);
    if (this.nested <= this.frames.length) this.references.add(this.object, this.path(), target);
    this.value();
  }

  private open(array: boolean): void {
    this.numbers = [];
    if (this.nested++ < MAX_NESTING) this.frames.push({ array, path: this.path(), valued: false });
  }

  private close(): void {
    this.numbers = [];
    if (this.nested === 0) return;
    if (this.nested-- <= MAX_NESTING) this.frames.pop();
    this.holds(CONTAINER_OBJECT);
    this.value();
  }
}

/** A PDF name with its `#xx` escapes read (`/F#31` is `/F1`). */
export const pdfName = (raw: string) =>
  raw.includes('#')
    ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      )
    : raw;

/** What each latin-1 character is to a PDF token: white space, a delimiter or a token's own. */
const SPACE = 0;
const DELIMITER = 1;
const REGULAR = 2;

/** Where the line at `at` ends (its line feed or carriage return), or -1. */
function lineEnd(text: string, at: number): number {
  for (; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x0a || code === 0x0d) return at;
  }
  return -1;
}

/** Whether a token is an integer of 1 to 10 digits. */
function isInteger(token: string): boolean {
  if (token.length > 10) return false;
  for (let k = 0; k < token.length; k++) {
    const code = token.charCodeAt(k);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/**
 * The objects of an object stream (`/Type /ObjStm`, inflated): each read
 * for its references ({@link ReferenceReader}), given its number from the
 * stream's header.
 */
export function readObjectStream(own: string, content: string, references: ObjectReferences): void {
  const first = /\/First\s+(\d{1,10})/.exec(own);
  const count = /\/N\s+(\d{1,10})/.exec(own);
  if (!first || !count) return;
  const start = Number(first[1]);
  const header = content.slice(0, start).trim().split(/\s+/);
  const objects: Array<[number, number]> = [];
  for (let k = 0; k + 1 < header.length && objects.length < Number(count[1]); k += 2) {
    objects.push([Number(header[k]), start + Number(header[k + 1])]);
  }
  const reader = new ReferenceReader(references);
  for (const [k, [number, offset]] of objects.entries()) {
    reader.begin(number);
    reader.feed(content.slice(offset, objects[k + 1]?.[1] ?? content.length));
  }
  reader.end();
}

/** {@link PdfFonts}' key for the maps no font name leads to. */
export const UNNAMED = '\0unnamed';

/** The path of a form or image a page's resources name. */
const XOBJECT = /^Resources\0XObject\0[^\0]+$/;

/** Font names and the objects of their ToUnicode maps. */
type NamedMaps = Map<string, Set<number>>;

/**
 * A PDF's references indexed by the object they are in and their path
 * (`Resources\0Font\0F1`), with the objects that have `/Resources` and,
 * for each stream, the objects that show it (a page's `/Contents`, or a
 * `/XObject` entry naming a form). Built once, linear in the references;
 * read by {@link PdfFonts} and the forms' drawing (`pdf-forms.ts`).
 */
export class PdfIndex {
  private readonly byPath = new Map<number, Map<string, number[]>>();
  private readonly withResources = new Set<number>();
  private readonly holders = new Map<number, number[]>();
  constructor(references: ObjectReferences) {
    const { objects, paths, targets } = references;
    for (let k = 0; k < objects.length; k++) {
      const [object, path, target] = [objects[k]!, paths[k]!, targets[k]!];
      let byPath = this.byPath.get(object);
      if (!byPath) {
        byPath = new Map();
        this.byPath.set(object, byPath);
      }
      const list = byPath.get(path) ?? [];
      list.push(target);
      byPath.set(path, list);
      if (isUnder(path, 'Resources')) this.withResources.add(object);
      // A page's contents, and a form its resources name (`/XObject << /Fm1 9 0 R >>`).
      if ((path === 'Contents' || XOBJECT.test(path)) && object >= 0) {
        const holders = this.holders.get(target) ?? [];
        if (holders.at(-1) !== object) holders.push(object);
        this.holders.set(target, holders);
      }
    }
  }

  /** The objects `object`'s references at `path` lead to. */
  targets(object: number, path: string): readonly number[] {
    return this.byPath.get(object)?.get(path) ?? [];
  }

  /** Each path of `object`'s references and the objects it leads to. */
  paths(object: number): ReadonlyMap<string, number[]> {
    return this.byPath.get(object) ?? new Map();
  }

  /** Every object's paths ({@link paths}). */
  everyObject(): IterableIterator<ReadonlyMap<string, number[]>> {
    return this.byPath.values();
  }

  /** Whether `object` has `/Resources` of its own (a page or a form). */
  hasResources(object: number): boolean {
    return this.withResources.has(object);
  }

  /** The pages and forms that show stream `stream` (`/Contents`, `/XObject`). */
  holdersOf(stream: number): readonly number[] {
    return this.holders.get(stream) ?? [];
  }

  /** The object whose `/Resources` a page or form uses: its own, else its nearest `/Parent`'s. */
  resourcesOf(holder: number): number {
    let object = holder;
    for (let step = 0; step < 32 && !this.withResources.has(object); step++) {
      const parent = this.targets(object, 'Parent')[0];
      if (parent === undefined) break;
      object = parent;
    }
    return object;
  }
}

/**
 * A PDF's fonts as its content streams use them: each content stream's
 * font names and their ToUnicode maps, resolved through the page that
 * shows it (its `/Contents`, the `/Resources` it has or its nearest
 * `/Parent` has) or its own `/Resources` (a form), as a viewer resolves
 * them (round 27: by name across the whole file, so two pages each naming
 * `/F1` with another map read each page through either's map, and a font written
 * inline on one page through the other's). Linear: each object's references
 * indexed by path once ({@link PdfIndex}), each resources and font dictionary resolved once.
 */
export class PdfFonts {
  private readonly resolved = new Map<string, NamedMaps>();
  private readonly shown = new Map<number, (name: string) => ToUnicode[] | undefined>();
  private readonly keys = new Map<number, string>();
  private everyName: Map<string, ToUnicode[]> | undefined;
  constructor(
    private readonly index: PdfIndex,
    private readonly maps: ReadonlyMap<number, ToUnicode>,
  ) {}

  /**
   * The font names' maps to read content stream `stream` through, one for
   * each page (or form) that shows it, at most {@link MAX_FONTS_PER_NAME}
   * different ones (past them the PDF fails closed); for a stream no page
   * shows and that names no resources of its own, every name's maps in the
   * file (and {@link UNNAMED}'s), as before.
   */
  of(stream: number): Array<(name: string) => ToUnicode[] | undefined> {
    const holders = [...this.index.holdersOf(stream)];
    if (this.index.hasResources(stream)) holders.push(stream);
    // Read only when it names a font (`Tf`): every name's maps are resolved then.
    if (holders.length === 0) return [name => this.all().get(name) ?? this.all().get(UNNAMED)];
    const seen = new Map<string, Map<string, ToUnicode[]>>();
    for (const holder of holders) {
      const fonts = this.holderFonts(holder);
      const key = this.keyOf(holder);
      if (seen.has(key)) continue;
      if (seen.size === MAX_FONTS_PER_NAME) {
        throw new ToUnicodeUnreadable(
          `a PDF content stream shown with more than ${MAX_FONTS_PER_NAME} sets of fonts`,
        );
      }
      seen.set(key, this.mapped(fonts));
    }
    return [...seen.values()].map(fonts => name => fonts.get(name));
  }

  /**
   * The font names' maps of the page or form `holder` (its resources'),
   * for the text drawn where its resources apply (a form inlined where it
   * is drawn, `pdf-forms.ts`).
   */
  ofHolder(holder: number): (name: string) => ToUnicode[] | undefined {
    const object = this.index.resourcesOf(holder);
    let fontOf = this.shown.get(object);
    if (fontOf === undefined) {
      const fonts = this.mapped(this.holderFonts(object));
      fontOf = name => fonts.get(name);
      this.shown.set(object, fontOf);
    }
    return fontOf;
  }

  /** What tells the fonts of `holder` apart: two holders with one key read text alike. */
  keyOf(holder: number): string {
    return this.cachedKey(this.index.resourcesOf(holder));
  }

  private cachedKey(object: number): string {
    let key = this.keys.get(object);
    if (key === undefined) {
      key = [...this.holderFonts(object)]
        .map(([name, objects]) => `${name}:${[...objects].join(',')}`)
        .sort()
        .join(SEP);
      this.keys.set(object, key);
    }
    return key;
  }

  /** A page's or form's fonts: its `/Resources`, else the nearest `/Parent`'s. */
  private holderFonts(holder: number): NamedMaps {
    const object = this.index.resourcesOf(holder);
    return this.cached(`r${object}`, () => {
      const fonts: NamedMaps = new Map();
      this.resources(object, 'Resources', fonts);
      for (const target of this.targets(object, 'Resources')) {
        merge(
          fonts,
          this.cached(`r${target}:`, () => this.resources(target, '', new Map())),
        );
      }
      return fonts;
    });
  }

  /** The fonts of the resources dictionary at `path` in `object` (written there), added to `fonts`. */
  private resources(object: number, path: string, fonts: NamedMaps): NamedMaps {
    const fontPath = joinPath(path, 'Font');
    this.fontDictionary(object, fontPath, fonts);
    for (const target of this.targets(object, fontPath)) {
      merge(
        fonts,
        this.cached(`f${target}`, () => this.fontDictionary(target, '', new Map())),
      );
    }
    return fonts;
  }

  /**
   * The fonts of the font dictionary at `path` in `object` (written there),
   * added to `fonts`: `/F1 5 0 R` the font object's map, `/F1 << …
   * /ToUnicode 7 0 R >>` (a font written inline) its map.
   */
  private fontDictionary(object: number, path: string, fonts: NamedMaps): NamedMaps {
    for (const [entry, targets] of this.index.paths(object)) {
      const rest =
        path === '' ? entry : entry.startsWith(path + SEP) ? entry.slice(path.length + 1) : '';
      if (rest === '') continue;
      const cut = rest.indexOf(SEP);
      if (cut >= 0 && rest.slice(cut + 1) !== 'ToUnicode') continue;
      const name = cut < 0 ? rest : rest.slice(0, cut);
      for (const target of targets) {
        for (const map of cut < 0 ? this.targets(target, 'ToUnicode') : [target]) {
          if (!this.maps.has(map)) continue;
          const set = fonts.get(name) ?? new Set();
          set.add(map);
          fonts.set(name, set);
        }
      }
    }
    return fonts;
  }

  /** Every name's maps in the file, for a stream no page or form holds. */
  private all(): Map<string, ToUnicode[]> {
    if (this.everyName) return this.everyName;
    const fonts: NamedMaps = new Map();
    const named = new Set<number>();
    for (const paths of this.index.everyObject()) {
      for (const [path, targets] of paths) {
        const keys = path.split(SEP);
        const toUnicode = keys.at(-1) === 'ToUnicode';
        const name = keys.at(toUnicode ? -2 : -1);
        if (name === undefined || name === '') continue;
        for (const target of targets) {
          for (const map of toUnicode ? [target] : this.targets(target, 'ToUnicode')) {
            if (!this.maps.has(map)) continue;
            const set = fonts.get(name) ?? new Set();
            set.add(map);
            fonts.set(name, set);
            named.add(map);
          }
        }
      }
    }
    const unnamed = [...this.maps.keys()].filter(map => !named.has(map));
    if (unnamed.length > 0) fonts.set(UNNAMED, new Set(unnamed));
    this.everyName = this.mapped(fonts);
    return this.everyName;
  }

  /** Names' map objects as their maps, at most {@link MAX_FONTS_PER_NAME} a name. */
  private mapped(fonts: NamedMaps): Map<string, ToUnicode[]> {
    const out = new Map<string, ToUnicode[]>();
    for (const [name, objects] of fonts) {
      if (objects.size > MAX_FONTS_PER_NAME) {
        throw new ToUnicodeUnreadable(
          `a PDF font name that leads to more than ${MAX_FONTS_PER_NAME} ToUnicode maps`,
        );
      }
      // Each map at each width its codes may be read at (a reading each).
      out.set(
        name,
        [...objects].flatMap(object => {
          const map = this.maps.get(object)!;
          return map.widths.map(width => (width === map.width ? map : { ...map, width }));
        }),
      );
    }
    return out;
  }

  private cached(key: string, resolve: () => NamedMaps): NamedMaps {
    let fonts = this.resolved.get(key);
    if (fonts === undefined) {
      fonts = resolve();
      this.resolved.set(key, fonts);
    }
    return fonts;
  }

  private targets(object: number, path: string): readonly number[] {
    return this.index.targets(object, path);
  }
}

/** Adds `from`'s names and maps to `into`. */
function merge(into: NamedMaps, from: NamedMaps): void {
  for (const [name, objects] of from) {
    const set = into.get(name) ?? new Set();
    for (const object of objects) set.add(object);
    into.set(name, set);
  }
}

/** Whether `path` is `key` or under it. */
const isUnder = (path: string, key: string) => path === key || path.startsWith(key + SEP);

/**
 * The string at `bytes[at]` (`(`: a literal string, its escapes and nested
 * parentheses read; `<`: a hex string), each byte given to `put`. Returns
 * where it ends (its closing delimiter, or the end of the bytes); for a hex
 * string, with `strict`, `broken` at a character that is neither a hex
 * digit nor white space (returned as its end, nothing more put). A string
 * ends at `limit` at the latest (the end of a form drawn inside other bytes,
 * `pdf-forms.ts`: a form's unclosed string ends with its stream).
 */
export function pdfString(
  bytes: Uint8Array,
  at: number,
  put: (byte: number) => void,
  strict = false,
  limit = bytes.length,
): { end: number; escaped: boolean; broken: boolean } {
  if (bytes[at] === 0x28) {
    let depth = 1;
    let escaped = false;
    for (at++; at < limit; at++) {
      let byte = bytes[at]!;
      if (byte === 0x5c) {
        escaped = true;
        if (at + 1 >= limit) {
          at = limit;
          break;
        }
        const next = bytes[++at]!;
        if (next >= 0x30 && next <= 0x37) {
          byte = next - 0x30;
          for (
            let k = 0;
            k < 2 && at + 1 < limit && bytes[at + 1]! >= 0x30 && bytes[at + 1]! <= 0x37;
            k++
          ) {
            byte = byte * 8 + bytes[++at]! - 0x30;
          }
          put(byte & 0xff);
        } else if (next === 0x0d || next === 0x0a) {
          if (next === 0x0d && at + 1 < limit && bytes[at + 1] === 0x0a) at++;
        } else put(PDF_ESCAPES[next] ?? next);
        continue;
      }
      if (byte === 0x28) depth++;
      else if (byte === 0x29 && --depth === 0) break;
      put(byte);
    }
    return { end: at, escaped, broken: false };
  }
  let half = -1;
  for (at++; at < limit && bytes[at] !== 0x3e; at++) {
    const digit = hexValue(bytes[at]!);
    if (digit < 0 && strict && !isPdfSpace(bytes[at]!))
      return { end: at, escaped: false, broken: true };
    if (digit < 0) continue;
    if (half < 0) half = digit;
    else {
      put(half * 16 + digit);
      half = -1;
    }
  }
  if (half >= 0) put(half * 16);
  return { end: at, escaped: false, broken: false };
}

/** A PDF literal string's escapes: `\n`, `\r`, `\t`, `\b`, `\f` (any other stands for itself). */
const PDF_ESCAPES: Record<number, number> = { 110: 10, 114: 13, 116: 9, 98: 8, 102: 12 };

const hexValue = (code: number) =>
  code >= 0x30 && code <= 0x39
    ? code - 0x30
    : (code | 0x20) >= 0x61 && (code | 0x20) <= 0x66
      ? (code | 0x20) - 0x57
      : -1;

/** PDF white space (NUL, tab, line feed, form feed, carriage return, space). */
export const isPdfSpace = (code: number) =>
  code === 0 || code === 9 || code === 10 || code === 12 || code === 13 || code === 32;

/**
 * Where the bytes a reader reads change hands ({@link Drawing}, `pdf-forms.ts`):
 * a form drawn there starts (`enter`: the holder whose resources it uses,
 * -1 for its drawer's, and its `/Matrix`), the form ends (`leave`), the
 * middle of a stream drawn again is left out (`cut`), a stream's bytes
 * start (`stream`: `again`, drawn whole before) or end (`done`).
 */
export type Scope =
  | { at: number; kind: 'enter'; holder: number; matrix: Matrix }
  | { at: number; kind: 'stream'; again: boolean }
  | { at: number; kind: 'leave' | 'cut' | 'done' };

/**
 * The text of a drawing's streams drawn again ({@link Scope} `stream`,
 * `again`): read whole where first drawn, so here only the lines at their
 * seams are kept (their first and last line, which join what is drawn
 * before and after them); the rest is left out, so 500 pages drawing one
 * shared stream read its text once. Places are counted in the reader's
 * own units (a text's length, or a string's number), {@link filter}
 * given each as a place in the text.
 */
export class Redraws {
  /** Where streams drawn again start to be read (`true`) and end (`false`), outermost ones. */
  private readonly marks: Array<[at: number, again: boolean]> = [];
  private readonly drawing: boolean[] = [];
  private again = 0;
  /** A `stream` or `done` scope at `at`. */
  scope(scope: Scope, at: number): void {
    if (scope.kind === 'stream') {
      this.drawing.push(scope.again);
      if (scope.again && this.again++ === 0) this.marks.push([at, true]);
    } else if (scope.kind === 'done' && this.drawing.pop() && --this.again === 0) {
      this.marks.push([at, false]);
    }
  }
  /** `text` with each stream drawn again left out but its first and last line (`placeOf`: a mark's place in it). */
  filter(text: string, placeOf: (at: number) => number = at => at): string {
    if (this.marks.length === 0) return text;
    const kept: string[] = [];
    let from = 0;
    for (let k = 0; k < this.marks.length; k += 2) {
      let start = placeOf(this.marks[k]![0]);
      // A line break the stream's first string starts with is the line before it's.
      if (text.charCodeAt(start) === 0x0a) start++;
      const end = this.marks[k + 1] ? placeOf(this.marks[k + 1]![0]) : text.length;
      // Searched within the stream's text only (one pass over it, however many streams there are).
      let first = -1;
      let last = -1;
      for (let at = start; at < end; at++) {
        if (text.charCodeAt(at) !== 0x0a) continue;
        if (first < 0) first = at;
        last = at;
      }
      if (first < 0) {
        kept.push(text.slice(from, end));
      } else {
        kept.push(text.slice(from, first), '\n', text.slice(last + 1, end));
      }
      from = end;
    }
    kept.push(text.slice(from));
    return kept.join('');
  }
}

/** Content stream bytes as drawn: a page's streams, the forms they draw inlined where drawn ({@link Scope}s). */
export interface Drawing {
  bytes: Uint8Array;
  scopes: readonly Scope[];
}

/**
 * A reading's {@link Scope}s in order, applied as its bytes are read:
 * {@link reach} applies those at or before a place and says where the
 * next is (a string read there ends there at the latest).
 */
export class ScopeCursor {
  private next = 0;
  constructor(
    private readonly drawing: Drawing,
    private readonly apply: (scope: Scope) => void,
  ) {}
  reach(at: number): number {
    const { scopes, bytes } = this.drawing;
    while (this.next < scopes.length && scopes[this.next]!.at <= at)
      this.apply(scopes[this.next++]!);
    return this.next < scopes.length ? scopes[this.next]!.at : bytes.length;
  }
}

/**
 * The text a content stream shows through its fonts' ToUnicode maps: each
 * string after `/Name … Tf` read through the name's maps (`fontOf`; codes of the
 * map's width; a code the map lacks shows nothing), a string of a font
 * with no map as latin-1; the strings of one text line joined as a viewer
 * shows them, lines by line feeds ({@link ShownLines}). A name leading to several maps gives one reading for each
 * (the k-th map of each name, its last where it has fewer). `undefined`
 * when no string is shown through a map. Each character read is taken
 * from `room.left` (the walk's budget); past it the PDF fails closed.
 * Round 32: a form drawn inside the bytes (a {@link Scope}) names fonts of
 * its own resources (`fontsOf` its holder), and its drawer's font is back
 * after it.
 */
export function shownThroughMaps(
  drawing: Drawing,
  fontOf: (name: string) => ToUnicode[] | undefined,
  room: { left: number },
  fontsOf: (holder: number) => (name: string) => ToUnicode[] | undefined = () => fontOf,
): string[] | undefined {
  const { bytes } = drawing;
  // The shown strings' bytes one after another, and each string's [font maps, end, how it is set off from the last].
  let data = new Uint8Array(Math.max(64, bytes.length >> 1));
  let size = 0;
  const put = (byte: number) => {
    if (size === data.length) {
      const grown = new Uint8Array(data.length * 2);
      grown.set(data);
      data = grown;
    }
    data[size++] = byte;
  };
  const shown: Array<[ToUnicode[] | undefined, number, Separator]> = [];
  const lines = new ShownLines();
  let font: ToUnicode[] | undefined;
  let lastName = '';
  let inArray = false;
  let joined = false;
  let readings = 0;
  /** The forms being drawn: what their drawer read with, back when each ends. */
  let named = fontOf;
  const entered: Array<[typeof fontOf, typeof font, boolean, boolean]> = [];
  const redraws = new Redraws();
  const cursor = new ScopeCursor(drawing, scope => {
    if (scope.kind === 'stream' || scope.kind === 'done') {
      redraws.scope(scope, shown.length);
      return;
    }
    if (scope.kind === 'enter') {
      entered.push([named, font, inArray, joined]);
      if (scope.holder >= 0) named = fontsOf(scope.holder);
      lines.enter(scope.matrix);
    } else if (scope.kind === 'leave') {
      const state = entered.pop();
      if (state) [named, font, inArray, joined] = state;
      lines.leave();
    } else lines.cut();
    if (scope.kind !== 'leave') [inArray, joined] = [false, false];
  });
  let limit = cursor.reach(0);
  for (let at = 0; at < bytes.length; at++) {
    if (at >= limit) limit = cursor.reach(at);
    const code = bytes[at]!;
    if (code === 0x5b || code === 0x5d) {
      inArray = code === 0x5b;
      joined = false;
    } else if (code === 0x28 || (code === 0x3c && bytes[at + 1] !== 0x3c)) {
      at = pdfString(bytes, at, put, false, limit).end;
      shown.push([font, size, joined ? 0 : lines.string(bytes, at)]);
      if (font) readings = Math.max(readings, font.length);
      joined = inArray;
    } else if (code === 0x3c) at++;
    else if (code === 0x2f) {
      // A name: kept for a `Tf` after it.
      let end = at + 1;
      while (end < bytes.length && !isDelimiter(bytes[end]!)) end++;
      lastName = pdfName(String.fromCharCode(...bytes.subarray(at + 1, Math.min(end, at + 128))));
      at = end - 1;
    } else if (
      code === 0x54 &&
      bytes[at + 1] === 0x66 &&
      (at === 0 || isDelimiter(bytes[at - 1]!)) &&
      (at + 2 >= bytes.length || isDelimiter(bytes[at + 2]!))
    ) {
      font = named(lastName);
      lines.token(bytes, at);
    } else if (code === 0x25) {
      // A comment, to the end of its line.
      while (at < bytes.length && bytes[at] !== 0x0a && bytes[at] !== 0x0d) at++;
    } else if (!isDelimiter(code)) at = lines.token(bytes, at);
  }
  if (readings === 0) return undefined;
  const spend = (characters: number) => {
    room.left -= characters;
    if (room.left < 0) {
      throw new ToUnicodeUnreadable(
        'a PDF whose text read through its ToUnicode maps is longer than its budget',
      );
    }
  };
  const texts: string[] = [];
  for (let reading = 0; reading < readings; reading++) {
    let text = '';
    let start = 0;
    // Two strings moved apart on one line ({@link moveGap}).
    let space = false;
    const add = (shownText: string) => {
      const gap = space
        ? moveGap(text.charCodeAt(text.length - 1), shownText.charCodeAt(0))
        : undefined;
      if (gap !== undefined) text += String.fromCharCode(gap);
      space = false;
      text += shownText;
    };
    /** Where each string's text starts, for {@link Redraws.filter}. */
    const places: number[] = [];
    for (const [maps, end, separator] of shown) {
      places.push(text.length);
      if (separator === 2) text += '\n';
      space = separator === 1;
      const map = maps?.[Math.min(reading, maps.length - 1)];
      if (map === undefined) {
        spend(end - start);
        for (let at = start; at < end; at++) add(String.fromCharCode(data[at]!));
      } else {
        for (let at = start, size = map.width; at + size <= end; at += size) {
          if (map.width === 0) size = codeLength(map.spaces, data, at, end);
          let value = 0;
          for (let k = 0; k < size; k++) value = value * 256 + data[at + k]!;
          const shownText = shownCode(map, value);
          if (shownText !== undefined) {
            spend(shownText.length);
            add(shownText);
          }
        }
      }
      start = end;
    }
    places.push(text.length);
    text = redraws.filter(text, at => places[at]!);
    const [spaced, joined] = bothReadings(text);
    texts.push(spaced!);
    if (joined !== undefined) {
      spend(joined.length);
      texts.push(joined);
    }
  }
  return texts;
}

/**
 * How many bytes the code at `data[at]` is by codespace `ranges` (1- and
 * 2-byte codes in one map), as a viewer reads a CMap's codes: the first
 * length whose bytes so far fall in a range of that length; 1 when none does.
 */
function codeLength(
  ranges: ToUnicode['spaces'],
  data: Uint8Array,
  at: number,
  end: number,
): number {
  let code = 0;
  for (let size = 1; size <= 4 && at + size <= end; size++) {
    code = code * 256 + data[at + size - 1]!;
    for (const [width, low, high] of ranges) {
      if (width === size && code >= low && code <= high) return size;
    }
  }
  return 1;
}

/** PDF white space or a delimiter (a name's or an operator's end). */
export const isDelimiter = (code: number) =>
  isPdfSpace(code) ||
  code === 0x2f ||
  code === 0x5b ||
  code === 0x5d ||
  code === 0x3c ||
  code === 0x3e ||
  code === 0x28 ||
  code === 0x29 ||
  code === 0x7b ||
  code === 0x7d ||
  code === 0x25;

/** What each latin-1 character is to a PDF token ({@link ReferenceReader}). */
const CHARACTER = Uint8Array.from({ length: 256 }, (_, code) =>
  isPdfSpace(code) ? SPACE : isDelimiter(code) ? DELIMITER : REGULAR,
);

/** How a shown string is set off from the one before it: nothing, a space, a line feed. */
export type Separator = 0 | 1 | 2;

/**
 * The number `bytes[at, end)` writes (`12`, `-3.5`, `.25`, `+4.`), or
 * `undefined` when it writes none: as `Number` reads it (digits and a
 * power of ten divided, both exact, so rounded once as `Number` rounds;
 * past 15 digits read from its text).
 */
function numberAt(bytes: Uint8Array, at: number, end: number): number | undefined {
  const sign = bytes[at] === 0x2d ? -1 : 1;
  if (bytes[at] === 0x2d || bytes[at] === 0x2b) at++;
  let digits = 0;
  let scale = -1;
  let value = 0;
  for (let k = at; k < end; k++) {
    const code = bytes[k]!;
    if (code === 0x2e && scale < 0) scale = 0;
    else if (code >= 0x30 && code <= 0x39) {
      value = value * 10 + code - 0x30;
      digits++;
      if (scale >= 0) scale++;
    } else return undefined;
  }
  if (digits === 0) return undefined;
  if (digits > 15) return sign * Number(String.fromCharCode(...bytes.subarray(at, end)));
  return sign * (scale > 0 ? value / 10 ** scale : value);
}

/** A PDF transformation matrix `[a b c d e f]`. */
export type Matrix = [number, number, number, number, number, number];
export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
/** `m` then `n` (a point is moved by `m`, then by `n`): `cm` is `M × CTM`, `Td` is `T × Tlm`. */
const times = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];
/** How deep `q` is followed; deeper saves are counted, not kept (their `Q` restores nothing). */
const MAX_SAVED_STATES = 64;

/**
 * Where a content stream's strings fall, as a viewer lays them out: the
 * strings of one line read as one text (round 28: `(4111 ) Tj (1111 ) Tj`,
 * `[(41) -250 (11)] TJ` and strings moved along their line by `Td` / `Tm`, or
 * in two `BT … ET` on one line, were read as separate lines, and a card split
 * over them passed `pii`). A line break only at `T*`, `'`, `"`, a move across
 * the line of half the font's height or more (and at least a unit: `0 -14
 * Td` under `12 Tf`), or before a string not shown after one that was (a
 * dictionary's `/Title (…)`); a move along the line gives a space. Round 29:
 * moves are measured where the viewer draws them, through the text matrix
 * and the page's `cm` (saved by `q`, restored by `Q`): a `Td` under a `Tm`
 * that scales by 0.01 moves a hundredth as far, and pieces placed by `q 1 0
 * 0 1 x y cm BT … ET Q` are on the line their `cm` puts them on (the
 * heights were `Td`'s and `Tm`'s numbers as written). Each token is read once.
 */
export class ShownLines {
  /** The current transformation matrix (`cm`), and the states `q` saved (with the font size and leading). */
  private ctm: Matrix = IDENTITY;
  private saved: Array<[Matrix, number, number]> = [];
  private unsaved = 0;
  /** The forms being drawn ({@link enter}): the state each started with; `saved` below `floor` is the drawer's. */
  private entered: Array<[Matrix, number, number, number, number, number]> = [];
  private floor = 0;
  /** The text matrix and the text line matrix (`BT`, `Td`, `TD`, `T*`, `Tm`). */
  private tm: Matrix = IDENTITY;
  private tlm: Matrix = IDENTITY;
  /** The font size (`Tf`) and the leading (`TL`, `TD`). */
  private size = 0;
  private leading = 0;
  /** Where the last string shown starts, its line's direction and how far across it is the same line; `undefined` before the first. */
  private shownAt: [x: number, y: number, dx: number, dy: number, within: number] | undefined;
  /** The numbers before the last operator token (its operands), the last six. */
  private operands: number[] = [];
  private moved = false;
  private broke = false;
  /** The last string was followed by a showing operator (`Tj`, `TJ`, `'`, `"`). */
  private shown = false;
  /** No string yet. */
  private first = true;

  /**
   * A token (a number or an operator) from `at` of `bytes`: read, and where
   * it ends (its last byte). Read from the bytes, no string made but for
   * an operator of one or two characters (round 32: a string and an array
   * a token, most of a long stream's reading).
   */
  token(bytes: Uint8Array, at: number): number {
    let end = at;
    while (end < bytes.length && !isDelimiter(bytes[end]!)) end++;
    const number = end - at <= 16 ? numberAt(bytes, at, end) : undefined;
    if (number !== undefined) {
      const { operands } = this;
      operands.push(number);
      if (operands.length > 6) operands.shift();
    } else {
      this.operator(
        end - at === 1
          ? String.fromCharCode(bytes[at]!)
          : end - at === 2
            ? String.fromCharCode(bytes[at]!, bytes[at + 1]!)
            : '',
      );
    }
    return end - 1;
  }

  /** The last `count` operands (0 for each missing). */
  private last(count: number): number[] {
    const { operands } = this;
    const out: number[] = [];
    for (let k = operands.length - count; k < operands.length; k++) out.push(operands[k] ?? 0);
    return out;
  }

  /** A form drawn here starts ({@link Scope}): the graphics state saved, its `/Matrix` applied. */
  enter(matrix: Matrix): void {
    this.entered.push([
      this.ctm,
      this.floor,
      this.saved.length,
      this.unsaved,
      this.size,
      this.leading,
    ]);
    this.floor = this.saved.length;
    this.ctm = times(matrix, this.ctm);
    this.moved = true;
  }

  /** The form drawn last ends: the graphics state it started with is back (its `Q`s restored no more than its `q`s saved). */
  leave(): void {
    const state = this.entered.pop();
    if (state === undefined) return;
    let saved: number;
    [this.ctm, this.floor, saved, this.unsaved, this.size, this.leading] = state;
    this.saved.length = Math.min(this.saved.length, saved);
    this.moved = true;
  }

  /** The middle of a stream drawn again is left out here: the next string starts a line. */
  cut(): void {
    this.broke = true;
  }

  /** `Td tx ty`: the line matrix moved. */
  private move(tx: number, ty: number): void {
    this.tlm = times([1, 0, 0, 1, tx, ty], this.tlm);
    this.tm = this.tlm;
    this.moved = true;
  }

  private operator(name: string): void {
    switch (name) {
      case 'Tj':
      case 'TJ':
      case "'":
      case '"':
        this.shown = true;
        break;
      case 'BT':
        this.tm = this.tlm = IDENTITY;
        this.moved = true;
        break;
      case 'Td':
        this.move(...(this.last(2) as [number, number]));
        break;
      case 'TD': {
        const [tx, ty] = this.last(2) as [number, number];
        this.leading = -ty;
        this.move(tx, ty);
        break;
      }
      case 'Tm':
        this.tm = this.tlm = this.last(6) as Matrix;
        this.moved = true;
        break;
      case 'T*':
        this.move(0, -this.leading);
        this.broke = true;
        break;
      case 'TL':
        this.leading = this.last(1)[0]!;
        break;
      case 'Tf':
        this.size = this.last(1)[0]!;
        break;
      case 'cm':
        this.ctm = times(this.last(6) as Matrix, this.ctm);
        this.moved = true;
        break;
      case 'q':
        if (this.saved.length < MAX_SAVED_STATES) {
          this.saved.push([this.ctm, this.size, this.leading]);
        } else this.unsaved++;
        break;
      case 'Q':
        if (this.unsaved > 0) this.unsaved--;
        else if (this.saved.length > this.floor) {
          const state = this.saved.pop();
          if (state) [this.ctm, this.size, this.leading] = state;
        }
        break;
    }
    this.operands.length = 0;
  }

  /**
   * Before a string (not one joined inside a `[…]` array) whose bytes end at
   * `end`: how it is set off from the last. A string followed by `'` or `"`
   * starts a line (moved down by the leading first).
   */
  string(bytes: Uint8Array, end: number): Separator {
    let next = end + 1;
    while (next < bytes.length && isPdfSpace(bytes[next]!)) next++;
    const ownLine =
      (bytes[next] === 0x27 || bytes[next] === 0x22) &&
      (next + 1 >= bytes.length || isDelimiter(bytes[next + 1]!));
    if (ownLine) this.move(0, -this.leading);
    // The string's place on the page, its line's direction, and its height there.
    const [a, b, c, d, x, y] = times(this.tm, this.ctm);
    const along = Math.hypot(a, b);
    const [dx, dy] = along > 0 ? [a / along, b / along] : [1, 0];
    const within = Math.max(1, (Math.abs(this.size) * Math.hypot(c, d)) / 2);
    const last = this.shownAt;
    // How far the string is across the last one's line.
    const across = last ? Math.abs(last[2] * (y - last[1]) - last[3] * (x - last[0])) : 0;
    const separator: Separator = this.first
      ? 0
      : !this.shown || this.broke || ownLine || !(across < Math.max(within, last![4]))
        ? 2
        : this.moved
          ? 1
          : 0;
    this.first = false;
    this.shown = false;
    this.moved = false;
    this.broke = false;
    this.shownAt = [x, y, dx, dy, within];
    return separator;
  }
}

/**
 * What a move along a line between characters `before` and `after` (their
 * codes) reads as: nothing beside white space, else a space; between two
 * digits {@link DIGITS_APART}, both ways, since the move may be a group's
 * gap or none (`(4111 1111) Tj 60 0 Td (1111 1111) Tj`, `(41) Tj 12 0 Td
 * (11 1111…) Tj` both show a card).
 */
export const moveGap = (before: number, after: number): number | undefined =>
  isPdfSpace(before) || isPdfSpace(after)
    ? undefined
    : isDigit(before) && isDigit(after)
      ? DIGITS_APART
      : 0x20;
/** Two digits a move apart: read once with a space between them, once with none ({@link bothReadings}). */
export const DIGITS_APART = 0x01;
/** A text with {@link DIGITS_APART} marks read both ways: spaced, then joined. */
export const bothReadings = (text: string): string[] =>
  text.includes('\x01') ? [text.replaceAll('\x01', ' '), text.replaceAll('\x01', '')] : [text];
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
