/**
 * A PDF's text shown with a font whose codes are not characters (a Type0
 * font with `/Encoding /Identity-H`: each two bytes a glyph's number), read
 * through the font's `/ToUnicode` CMap (`beginbfchar` / `beginbfrange`), as
 * a viewer's copy and search read it (round 26: `<0012003A…> Tj` read as
 * latin-1 bytes, so an injection drawn so passed). The fonts are found by
 * name: every `/F1 5 0 R` whose object has `/ToUnicode 9 0 R`, wherever
 * written (a page's resources, a form's, an object stream's), and a
 * content stream's strings after `/F1 12 Tf` are read through each map the
 * name leads to. Bounded: codes 1 to 4 bytes, a map's target 512 bytes at
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
  width: number;
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
/** How many ToUnicode maps one font name may lead to (the same name on many pages). */
export const MAX_FONTS_PER_NAME = 8;

/** Why a PDF's ToUnicode maps cannot be read (no value of them): the PDF fails closed. */
export class ToUnicodeUnreadable extends Error {}

/** Whether an inflated stream is a ToUnicode CMap. */
export const isToUnicodeMap = (text: string): boolean =>
  text.includes('beginbfchar') || text.includes('beginbfrange');

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

/** UTF-16BE bytes as text (a lone trailing byte dropped). */
function utf16(bytes: readonly number[]): string {
  let text = '';
  for (let at = 0; at + 1 < bytes.length; at += 2) {
    text += String.fromCharCode(bytes[at]! * 256 + bytes[at + 1]!);
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
  const space = /begincodespacerange\s*<([0-9A-Fa-f\s]*)>/.exec(text);
  if (space) width = Math.ceil(space[1]!.replace(/\s+/g, '').length / 2);
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
  return { width: Math.min(Math.max(width, 1), 4), map, ranges: apartRanges(ranges, map, setAt) };
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
 * The object and reference pairs of a PDF's text (its bytes read as
 * latin-1, or an object stream's objects): each object that names a
 * `/ToUnicode` map (font object -> map object), and each `/Name N G R`
 * (name -> object). `objectAt` gives the object a place is in when the
 * text has no `N G obj` headers (an object stream). `state`: the object
 * the text starts in, updated to the one it ends in (a PDF read in
 * pieces), and where matches stop being read (`until`).
 */
export function collectFontReferences(
  text: string,
  fonts: Map<number, number>,
  names: Map<string, Set<number>>,
  objectAt?: (index: number) => number,
  state: { current: number; until?: number } = { current: -1 },
): void {
  // A number starts only after a non-digit, so a run of digits is tried once.
  const pattern =
    /(?<!\d)(\d{1,10})\s+\d{1,5}\s+obj\b|\/ToUnicode\s+(\d{1,10})\s+\d{1,5}\s+R\b|\/([^\s/[\]<>(){}%]{1,127})\s+(\d{1,10})\s+\d{1,5}\s+R\b/g;
  for (const match of text.matchAll(pattern)) {
    if (state.until !== undefined && match.index >= state.until) break;
    if (match[1] !== undefined) state.current = Number(match[1]);
    else {
      const object = objectAt ? objectAt(match.index) : state.current;
      if (match[2] !== undefined) {
        // Outside any object (a damaged file): kept under a key of its own.
        fonts.set(object >= 0 ? object : -1 - match.index, Number(match[2]));
      } else {
        const name = pdfName(match[3]!);
        let set = names.get(name);
        if (!set) {
          set = new Set();
          names.set(name, set);
        }
        set.add(Number(match[4]));
      }
    }
  }
}

/** A PDF name with its `#xx` escapes read (`/F#31` is `/F1`). */
const pdfName = (raw: string) =>
  raw.includes('#')
    ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      )
    : raw;

/**
 * The objects of an object stream (`/Type /ObjStm`, inflated): `collectFontReferences`
 * over its objects' text, each given its number from the stream's header.
 */
export function collectObjectStream(
  own: string,
  content: string,
  fonts: Map<number, number>,
  names: Map<string, Set<number>>,
): void {
  const first = /\/First\s+(\d{1,10})/.exec(own);
  const count = /\/N\s+(\d{1,10})/.exec(own);
  if (!first || !count) return;
  const start = Number(first[1]);
  const header = content.slice(0, start).trim().split(/\s+/);
  const numbers: number[] = [];
  const offsets: number[] = [];
  for (let k = 0; k + 1 < header.length && numbers.length < Number(count[1]); k += 2) {
    numbers.push(Number(header[k]));
    offsets.push(start + Number(header[k + 1]));
  }
  let index = 0;
  collectFontReferences(content, fonts, names, at => {
    while (index + 1 < offsets.length && offsets[index + 1]! <= at) index++;
    return at >= (offsets[0] ?? Number.POSITIVE_INFINITY) ? numbers[index]! : -1;
  });
}

/** {@link mapsByName}'s key for the maps no name leads to. */
export const UNNAMED = '\0unnamed';

/**
 * Each font name's ToUnicode maps: the name's objects that are fonts with
 * a map, their maps (at most {@link MAX_FONTS_PER_NAME} distinct a name).
 * The maps no name leads to (a font written inline in a page's resources,
 * `/F1 << … /ToUnicode 7 0 R >>`, its map counted to the page) are kept
 * under {@link UNNAMED}, for the strings of a font whose name leads to none.
 */
export function mapsByName(
  fonts: ReadonlyMap<number, number>,
  names: ReadonlyMap<string, ReadonlySet<number>>,
  maps: ReadonlyMap<number, ToUnicode>,
): Map<string, ToUnicode[]> {
  const byName = new Map<string, ToUnicode[]>();
  const named = new Set<ToUnicode>();
  const tooMany = () =>
    new ToUnicodeUnreadable(
      `a PDF font name that leads to more than ${MAX_FONTS_PER_NAME} ToUnicode maps`,
    );
  for (const [name, objects] of names) {
    const found = new Set<ToUnicode>();
    for (const object of objects) {
      const map = maps.get(fonts.get(object) ?? -1);
      if (map) found.add(map);
    }
    if (found.size > MAX_FONTS_PER_NAME) throw tooMany();
    for (const map of found) named.add(map);
    if (found.size > 0) byName.set(name, [...found]);
  }
  const unnamed = [...maps.values()].filter(map => !named.has(map));
  if (unnamed.length > MAX_FONTS_PER_NAME) throw tooMany();
  if (unnamed.length > 0) byName.set(UNNAMED, unnamed);
  return byName;
}

/**
 * The string at `bytes[at]` (`(`: a literal string, its escapes and nested
 * parentheses read; `<`: a hex string), each byte given to `put`. Returns
 * where it ends (its closing delimiter, or the end of the bytes); for a hex
 * string, with `strict`, `broken` at a character that is neither a hex
 * digit nor white space (returned as its end, nothing more put).
 */
export function pdfString(
  bytes: Uint8Array,
  at: number,
  put: (byte: number) => void,
  strict = false,
): { end: number; escaped: boolean; broken: boolean } {
  if (bytes[at] === 0x28) {
    let depth = 1;
    let escaped = false;
    for (at++; at < bytes.length; at++) {
      let byte = bytes[at]!;
      if (byte === 0x5c) {
        escaped = true;
        const next = bytes[++at];
        if (next === undefined) break;
        if (next >= 0x30 && next <= 0x37) {
          byte = next - 0x30;
          for (let k = 0; k < 2 && bytes[at + 1]! >= 0x30 && bytes[at + 1]! <= 0x37; k++) {
            byte = byte * 8 + bytes[++at]! - 0x30;
          }
          put(byte & 0xff);
        } else if (next === 0x0d || next === 0x0a) {
          if (next === 0x0d && bytes[at + 1] === 0x0a) at++;
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
  for (at++; at < bytes.length && bytes[at] !== 0x3e; at++) {
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
 * The text a content stream shows through its fonts' ToUnicode maps: each
 * string after `/Name … Tf` read through the name's maps (codes of the
 * map's width; a code the map lacks shows nothing), a string of a font
 * with no map as latin-1; the strings of one `[…]` array joined, others by
 * line feeds. A name leading to several maps gives one reading for each
 * (the k-th map of each name, its last where it has fewer). `undefined`
 * when no string is shown through a map. Each character read is taken
 * from `room.left` (the walk's budget); past it the PDF fails closed.
 */
export function shownThroughMaps(
  bytes: Uint8Array,
  byName: ReadonlyMap<string, ToUnicode[]>,
  room: { left: number },
): string[] | undefined {
  // The shown strings' bytes one after another, and each string's [font maps, end, joined to the previous].
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
  const shown: Array<[ToUnicode[] | undefined, number, boolean]> = [];
  let font: ToUnicode[] | undefined;
  let lastName = '';
  let inArray = false;
  let joined = false;
  let readings = 0;
  for (let at = 0; at < bytes.length; at++) {
    const code = bytes[at]!;
    if (code === 0x5b || code === 0x5d) {
      inArray = code === 0x5b;
      joined = false;
    } else if (code === 0x28 || (code === 0x3c && bytes[at + 1] !== 0x3c)) {
      at = pdfString(bytes, at, put).end;
      shown.push([font, size, joined]);
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
      font = byName.get(lastName) ?? byName.get(UNNAMED);
    } else if (code === 0x25) {
      // A comment, to the end of its line.
      while (at < bytes.length && bytes[at] !== 0x0a && bytes[at] !== 0x0d) at++;
    }
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
    for (const [maps, end, join] of shown) {
      if (start > 0 && !join) text += '\n';
      const map = maps?.[Math.min(reading, maps.length - 1)];
      if (map === undefined) {
        spend(end - start);
        for (let at = start; at < end; at++) text += String.fromCharCode(data[at]!);
      } else {
        for (let at = start; at + map.width <= end; at += map.width) {
          let value = 0;
          for (let k = 0; k < map.width; k++) value = value * 256 + data[at + k]!;
          const shownText = shownCode(map, value);
          if (shownText !== undefined) {
            spend(shownText.length);
            text += shownText;
          }
        }
      }
      start = end;
    }
    texts.push(text);
  }
  return texts;
}

/** PDF white space or a delimiter (a name's or an operator's end). */
const isDelimiter = (code: number) =>
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
