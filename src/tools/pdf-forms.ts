/**
 * A PDF's content streams as a viewer draws them (round 32): a page's
 * streams one after another (`/Contents [4 0 R 9 0 R]`, round 29), and each
 * form XObject a stream draws (`/Fm1 Do`) inlined where it is drawn, its
 * own forms in turn, so text split between a page and a form it draws
 * mid-line (`(Pass) Tj /Fm1 Do`, the form showing `(word: hunter2)`) is
 * read as one line. Before, a form was read on its own, and a value split
 * that way passed.
 *
 * Each stream is drawn whole once for each set of resources it is drawn
 * with (its fonts and forms): drawn again (a letterhead stream on every
 * page, a logo form on every page), only its seams are ({@link seamsOf}:
 * what it draws before its first string and {@link SEAM} bytes from there,
 * the same at its end, less what shows and moves no text; a line break
 * between them), so its text is read whole once and its seams where each drawing puts them
 * (round 29 joined a page's streams whole for every page: 500 pages
 * sharing one 100 KB stream passed the 8 MB bound and failed closed). The
 * bytes drawn again are bounded ({@link MAX_REDRAWN_BYTES}), forms drawn
 * inside forms {@link MAX_FORM_DEPTH} deep, and a form that draws itself
 * fails closed ({@link FormsUnreadable}). Linear: each byte of a stream is
 * scanned once when drawn whole, then only the seams.
 */
import {
  type Drawing,
  IDENTITY,
  isDelimiter,
  isPdfSpace,
  type Matrix,
  type PdfIndex,
  pdfName,
  pdfString,
  type Scope,
} from './pdf-to-unicode';

/** How many bytes of each end of a stream drawn again are drawn, from its first (last) string on. */
export const SEAM = 2048;
/** How many bytes may be drawn again (the seams of streams and forms drawn more than once), each drawing counted {@link DRAW_COST} more. */
export const MAX_REDRAWN_BYTES = 8_000_000;
/** What each drawing of a stream or form costs besides its bytes (a page of 100,000 `/Fm1 Do` of an empty form). */
const DRAW_COST = 64;
/** How deep forms drawn inside forms are inlined. */
export const MAX_FORM_DEPTH = 16;

/** Why a PDF's forms cannot be drawn (no value of them): the PDF fails closed. */
export class FormsUnreadable extends Error {}

/** A stream a page or form may draw: its bytes, and a form's `/Matrix` (`undefined`: an image, not inlined). */
export interface DrawnStream {
  bytes: Uint8Array;
  matrix?: Matrix;
}

/** A stream object's dictionary (its `obj` header to `stream`): a form's `/Matrix`, `undefined` for an image. */
export function formMatrix(dictionary: string): Matrix | undefined {
  const subtype = /\/Subtype\s*\/([^\s/<>[\]()%{}]*)/.exec(dictionary);
  if (subtype && pdfName(subtype[1]!) === 'Image') return undefined;
  const numbers = /\/Matrix\s*\[([^\]]{0,256})\]/
    .exec(dictionary)?.[1]
    ?.trim()
    .split(/\s+/)
    .map(Number);
  return numbers?.length === 6 && numbers.every(Number.isFinite) ? (numbers as Matrix) : IDENTITY;
}

const NOTHING = () => {};

/**
 * The `/Name Do` operators of `bytes[from, to)`, its strings and comments
 * skipped as a viewer skips them: `draw` with where each `Do` ends and the
 * name.
 */
function scanDraws(
  bytes: Uint8Array,
  from: number,
  to: number,
  draw: (end: number, name: string) => void,
): void {
  let name: string | undefined;
  for (let at = from; at < to; at++) {
    const code = bytes[at]!;
    if (isPdfSpace(code)) continue;
    if (code === 0x28 || (code === 0x3c && bytes[at + 1] !== 0x3c)) {
      at = pdfString(bytes, at, NOTHING, false, to).end;
      name = undefined;
    } else if (code === 0x25) {
      while (at + 1 < to && bytes[at + 1] !== 0x0a && bytes[at + 1] !== 0x0d) at++;
    } else if (code === 0x2f) {
      let end = at + 1;
      while (end < to && !isDelimiter(bytes[end]!)) end++;
      name = pdfName(String.fromCharCode(...bytes.subarray(at + 1, Math.min(end, at + 128))));
      at = end - 1;
    } else if (isDelimiter(code)) {
      if (code === 0x3c) at++;
      name = undefined;
    } else {
      let end = at;
      while (end < to && !isDelimiter(bytes[end]!)) end++;
      if (end - at === 2 && code === 0x44 && bytes[at + 1] === 0x6f && name !== undefined) {
        draw(end, name);
      }
      name = undefined;
      at = end - 1;
    }
  }
}

/**
 * The operators the text reading reads (`ShownLines`: strings shown, text
 * and line matrices, leading, font size, the graphics state), and `Do`
 * (a form, which may show text): a run of operands before any other
 * operator (a path, a colour, a line width) shows and moves no text.
 */
const TEXT_OPERATORS = new Set([
  'BT',
  'ET',
  'Tj',
  'TJ',
  "'",
  '"',
  'Td',
  'TD',
  'Tm',
  'T*',
  'TL',
  'Tf',
  'cm',
  'q',
  'Q',
  'Do',
]);
/** A PDF number, or an operand keyword (`true`, `false`, `null`): no operator. */
const OPERAND = /^(?:[+-]?(?:\d+\.?\d*|\.\d+)|true|false|null)$/;
const SPACE = Uint8Array.of(0x20);

/**
 * What a stream drawn again draws (round 34): its head, what it draws
 * before its first string (or `Do`) and {@link SEAM} bytes from there, and
 * its tail, the same from its end; one piece, the whole stream, when the
 * two would meet. Left out: comments, blanks beyond one, and each
 * operator with its operands that shows and moves no text (a path, a
 * colour, an image's `Do` is kept, a `q`/`Q` is kept), so a value split at
 * a seam is read joined however much such padding lies between the seam
 * and its part in the stream (round 32 drew its first and last 2 KB of
 * bytes: a card split at a seam behind 3 KB of blanks, a comment or path
 * operators passed). A head or tail that holds more (kilobytes of `q Q`
 * before the first string) is drawn as it is, its bytes counted to
 * {@link MAX_REDRAWN_BYTES} (past it the PDF fails closed). Linear: one
 * pass over the stream, strings read as {@link scanDraws} reads them.
 */
export function seamsOf(bytes: Uint8Array): Uint8Array[] {
  // The runs kept, each an operator with its operands: where they start and end, and whether they show text.
  const starts: number[] = [];
  const ends: number[] = [];
  const shows: boolean[] = [];
  let start = -1;
  let structured = false;
  let showing = false;
  const close = (end: number, kept: boolean) => {
    if (start >= 0 && (kept || structured || showing)) {
      starts.push(start);
      ends.push(end);
      shows.push(showing);
    }
    start = -1;
    structured = false;
    showing = false;
  };
  for (let at = 0; at < bytes.length; at++) {
    const code = bytes[at]!;
    if (isPdfSpace(code)) continue;
    if (code === 0x25) {
      while (at + 1 < bytes.length && bytes[at + 1] !== 0x0a && bytes[at + 1] !== 0x0d) at++;
      continue;
    }
    if (start < 0) start = at;
    if (code === 0x28 || (code === 0x3c && bytes[at + 1] !== 0x3c)) {
      at = pdfString(bytes, at, NOTHING, false).end;
      showing = true;
    } else if (code === 0x2f) {
      while (at + 1 < bytes.length && !isDelimiter(bytes[at + 1]!)) at++;
    } else if (isDelimiter(code)) {
      if (code === 0x3c || code === 0x3e) at++;
      structured = true;
    } else {
      let end = at;
      while (end < bytes.length && !isDelimiter(bytes[end]!)) end++;
      const token = end - at <= 8 ? String.fromCharCode(...bytes.subarray(at, end)) : '';
      at = end - 1;
      if (token !== '' && OPERAND.test(token)) continue;
      if (token === 'Do') showing = true;
      close(end, TEXT_OPERATORS.has(token));
    }
  }
  close(bytes.length, true);
  const count = starts.length;
  // A stream that shows nothing is cut as if its first and last runs did (its state changes at its ends).
  let first = shows.indexOf(true);
  let last = shows.lastIndexOf(true);
  if (first < 0) [first, last] = [0, count - 1];
  // The head: every run before the first that shows, then runs while fewer than SEAM bytes are kept.
  let head = first;
  for (let kept = 0; head < count && kept < SEAM; head++) kept += ends[head]! - starts[head]!;
  // The tail: the same from the end.
  let tail = last + 1;
  for (let kept = 0; tail > 0 && kept < SEAM; ) {
    tail--;
    kept += ends[tail]! - starts[tail]!;
  }
  const runs = (from: number, to: number) => {
    const joined = new Bytes();
    for (let k = from; k < to; k++) {
      if (k > from) joined.append(SPACE);
      joined.append(bytes.subarray(starts[k], ends[k]));
    }
    return joined.data.subarray(0, joined.size);
  };
  return tail <= head ? [runs(0, count)] : [runs(0, head), runs(tail, count)];
}

/** Bytes appended to, grown by doubling. */
class Bytes {
  data = new Uint8Array(1024);
  size = 0;
  append(bytes: Uint8Array): void {
    if (this.size + bytes.length > this.data.length) {
      const grown = new Uint8Array(Math.max(this.size + bytes.length, this.data.length * 2));
      grown.set(this.data.subarray(0, this.size));
      this.data = grown;
    }
    this.data.set(bytes, this.size);
    this.size += bytes.length;
  }
}
const LINE_FEED = Uint8Array.of(0x0a);

/**
 * Draws a PDF's content streams ({@link draw}): a list of streams under a
 * page's (or a form's) resources, each form they draw inlined where drawn.
 * `keyOf` tells the fonts of a holder's resources apart (two holders with
 * one key read text alike).
 */
export class PdfDrawings {
  /** Each stream's bytes drawn whole, with each set of resources (`number`, key). */
  private readonly whole = new Set<string>();
  /** The bytes drawn whole at least once (a stream written twice is two). */
  private readonly drawn = new Set<Uint8Array>();
  /** What each stream drawn again draws ({@link seamsOf}), worked out at its first drawing again. */
  private readonly seams = new Map<Uint8Array, Uint8Array[]>();
  /** The lists drawn, with their resources' key ({@link draw}). */
  private readonly lists = new Set<string>();
  private readonly forms = new Map<number, ReadonlyMap<string, number>>();
  /** Each resources object's key's number ({@link keyOfResources}), and each key's. */
  private readonly keys = new Map<number, number>();
  private readonly numbers = new Map<string, number>();
  private redrawn = 0;
  constructor(
    private readonly index: PdfIndex,
    private readonly streams: ReadonlyMap<number, DrawnStream>,
    private readonly keyOf: (holder: number) => string = () => '',
  ) {}

  /** Whether these bytes (a stream) were drawn whole by some {@link draw}. */
  drawnWhole(bytes: Uint8Array): boolean {
    return this.drawn.has(bytes);
  }

  /**
   * The streams `list` drawn in order (a line feed between two) under the
   * resources of `holder` (a page or form; -1: none), each form they draw
   * inlined where it is drawn ({@link Scope}s). `undefined` when the same
   * list was drawn with the same resources before (many pages showing one
   * stream with one set of resources are drawn once, as round 29 joined them).
   */
  draw(list: readonly number[], holder: number): Drawing | undefined {
    const drawn = `${this.keyOfResources(holder)}:${list.join(' ')}`;
    if (this.lists.has(drawn)) return undefined;
    this.lists.add(drawn);
    const out = new Bytes();
    const scopes: Scope[] = [];
    for (const [k, stream] of list.entries()) {
      if (k > 0) out.append(LINE_FEED);
      this.emit(stream, holder, out, scopes, []);
    }
    return { bytes: out.data.subarray(0, out.size), scopes };
  }

  /** The forms the resources of `holder` name: `/XObject << /Fm1 9 0 R >>`, written there or by reference. */
  private formsOf(holder: number): ReadonlyMap<string, number> {
    if (holder < 0) return new Map();
    const object = this.index.resourcesOf(holder);
    let forms = this.forms.get(object);
    if (forms !== undefined) return forms;
    const named = new Map<string, number>();
    const add = (dictionary: number, path: string) => {
      for (const [entry, targets] of this.index.paths(dictionary)) {
        const name = path === '' ? entry : entry.startsWith(path) ? entry.slice(path.length) : '';
        if (name !== '' && !name.includes('\0') && !named.has(name)) named.set(name, targets[0]!);
      }
      for (const inner of path === '' ? [] : this.index.targets(dictionary, path.slice(0, -1))) {
        add(inner, '');
      }
    };
    add(object, 'Resources\0XObject\0');
    for (const resources of this.index.targets(object, 'Resources')) add(resources, 'XObject\0');
    forms = named;
    this.forms.set(object, forms);
    return forms;
  }

  /**
   * What tells a holder's resources apart (its forms and its fonts), as a
   * number: one for each distinct key, so a stream's key is short however
   * many names its resources hold (each is built once a resources object).
   */
  private keyOfResources(holder: number): number {
    const object = holder < 0 ? holder : this.index.resourcesOf(holder);
    let number = this.keys.get(object);
    if (number === undefined) {
      const forms = [...this.formsOf(holder)].map(([name, form]) => `${name}:${form}`).sort();
      const key = `${forms.join('\0')}\0\0${holder < 0 ? '' : this.keyOf(holder)}`;
      number = this.numbers.get(key) ?? this.numbers.size;
      this.numbers.set(key, number);
      this.keys.set(object, number);
    }
    return number;
  }

  /** Counts `bytes` drawn again: past {@link MAX_REDRAWN_BYTES}, the PDF fails closed. */
  private spend(bytes: number): void {
    this.redrawn += bytes + DRAW_COST;
    if (this.redrawn > MAX_REDRAWN_BYTES) {
      throw new FormsUnreadable(
        `a PDF whose forms and shared content streams, drawn where they are drawn, hold more than ${MAX_REDRAWN_BYTES} bytes`,
      );
    }
  }

  /** Stream `number` drawn into `out` under `holder`'s resources, inside the forms `stack`. */
  private emit(number: number, holder: number, out: Bytes, scopes: Scope[], stack: number[]): void {
    const stream = this.streams.get(number);
    if (stream === undefined) return;
    const { bytes } = stream;
    const key = `${number}:${this.keyOfResources(holder)}`;
    let pieces = [bytes];
    const again = this.whole.has(key);
    if (again) {
      let seams = this.seams.get(bytes);
      if (seams === undefined) {
        seams = seamsOf(bytes);
        this.seams.set(bytes, seams);
      }
      pieces = seams;
      this.spend(pieces.reduce((total, piece) => total + piece.length, 0));
    } else {
      if (this.drawn.has(bytes)) this.spend(bytes.length);
      this.whole.add(key);
      this.drawn.add(bytes);
    }
    const forms = this.formsOf(holder);
    scopes.push({ at: out.size, kind: 'stream', again });
    for (const [k, piece] of pieces.entries()) {
      if (k > 0) {
        scopes.push({ at: out.size, kind: 'cut' });
        out.append(LINE_FEED);
      }
      let copied = 0;
      const to = piece.length;
      scanDraws(piece, 0, to, (end, name) => {
        const form = forms.get(name);
        const drawn = form === undefined ? undefined : this.streams.get(form);
        if (form === undefined || drawn?.matrix === undefined) return;
        if (stack.includes(form)) throw new FormsUnreadable('a PDF form that draws itself');
        if (stack.length === MAX_FORM_DEPTH) {
          throw new FormsUnreadable(
            `a PDF whose forms draw forms more than ${MAX_FORM_DEPTH} deep`,
          );
        }
        out.append(piece.subarray(copied, end));
        copied = end;
        out.append(LINE_FEED);
        const own = this.index.hasResources(form);
        scopes.push({
          at: out.size,
          kind: 'enter',
          holder: own ? form : -1,
          matrix: drawn.matrix,
        });
        stack.push(form);
        this.emit(form, own ? form : holder, out, scopes, stack);
        stack.pop();
        out.append(LINE_FEED);
        scopes.push({ at: out.size, kind: 'leave' });
      });
      out.append(piece.subarray(copied, to));
    }
    scopes.push({ at: out.size, kind: 'done' });
  }
}
