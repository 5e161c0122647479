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
 * page, a logo form on every page), only its first and last
 * {@link SEAM} bytes are (cut at a token, a line break between them), so
 * its text is read whole once and its seams where each drawing puts them
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

/** How many bytes of each end of a stream drawn again are drawn. */
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
 * name; `mark` with where each token starts (where a stream may be cut).
 */
function scanDraws(
  bytes: Uint8Array,
  from: number,
  to: number,
  draw: (end: number, name: string) => void,
  mark: (at: number) => void = NOTHING,
): void {
  let name: string | undefined;
  for (let at = from; at < to; at++) {
    const code = bytes[at]!;
    if (isPdfSpace(code)) continue;
    mark(at);
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
  /** Where each stream drawn again is cut: its head's end, its tail's start. */
  private readonly cuts = new Map<Uint8Array, [number, number]>();
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
    let ranges: Array<[number, number]> = [[0, bytes.length]];
    let mark: ((at: number) => void) | undefined;
    const again = this.whole.has(key);
    if (again) {
      const [head, tail] = this.cuts.get(bytes) ?? [bytes.length, bytes.length];
      if (head < tail)
        ranges = [
          [0, head],
          [tail, bytes.length],
        ];
      this.spend(ranges.reduce((total, [from, to]) => total + to - from, 0));
    } else {
      if (this.drawn.has(bytes)) this.spend(bytes.length);
      this.whole.add(key);
      this.drawn.add(bytes);
      if (!this.cuts.has(bytes)) {
        const cut: [number, number] = [bytes.length, bytes.length];
        const tailFrom = bytes.length - SEAM;
        mark = at => {
          if (cut[0] === bytes.length && at >= SEAM) cut[0] = at;
          if (cut[1] === bytes.length && at >= tailFrom && at >= cut[0]) cut[1] = at;
        };
        this.cuts.set(bytes, cut);
      }
    }
    const forms = this.formsOf(holder);
    scopes.push({ at: out.size, kind: 'stream', again });
    for (const [k, [from, to]] of ranges.entries()) {
      if (k > 0) {
        scopes.push({ at: out.size, kind: 'cut' });
        out.append(LINE_FEED);
      }
      let copied = from;
      scanDraws(
        bytes,
        from,
        to,
        (end, name) => {
          const form = forms.get(name);
          const drawn = form === undefined ? undefined : this.streams.get(form);
          if (form === undefined || drawn?.matrix === undefined) return;
          if (stack.includes(form)) throw new FormsUnreadable('a PDF form that draws itself');
          if (stack.length === MAX_FORM_DEPTH) {
            throw new FormsUnreadable(
              `a PDF whose forms draw forms more than ${MAX_FORM_DEPTH} deep`,
            );
          }
          out.append(bytes.subarray(copied, end));
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
        },
        mark,
      );
      out.append(bytes.subarray(copied, to));
    }
    scopes.push({ at: out.size, kind: 'done' });
  }
}
