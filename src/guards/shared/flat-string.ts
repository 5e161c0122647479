/**
 * Flat strings for the detectors' character loops (see `flatString`).
 *
 * A piece of a long text (`chunked-scan.ts`) is read by loops over
 * `charCodeAt`, which V8 runs fastest on a flat string: a slice or a rope
 * (`+=`) costs an indirection at every read. Until round 29 each piece's
 * normal form was built as a rope and then copied flat by `flatString`,
 * which first wrote the rope out (V8 flattens a rope before slicing it) and
 * then copied that: two copies of every changed piece, three for a piece of
 * `pii`'s redacted text (itself a rope). Now the code that makes a string
 * it knows is flat (a join of two parts or more) may mark it, and
 * `flatString` returns a marked string as it is.
 *
 * One mark at a time, set and cleared within one piece's scan
 * (`scanInChunks` clears it after each piece), so no text is kept past the
 * scan that read it.
 */
let marked: string | undefined;

/** Marks `text` as flat (written out by a join); `flatString(text)` then returns it without a copy. */
export function markFlat(text: string): string {
  marked = text;
  return text;
}

/** Whether a string is marked (false after every scan: the module keeps no text past it). */
export function holdsFlatMark(): boolean {
  return marked !== undefined;
}

/** Drops the mark (after a piece's scan: the module keeps no text). */
export function clearFlatMark(): void {
  marked = undefined;
}

/**
 * `text` as a fresh flat string (the same characters): a piece is a slice
 * of its text, or a rope (a redacted text's slice, a normal form grown by
 * `+=`), and V8's optimised code follows that indirection at every
 * `charCodeAt` of the detectors' character loops (`printableRuns` on 1 MB
 * of dev text in pieces: 22.0 M instructions on slices, 15.4 M on flat
 * copies). `Array.prototype.join` of two parts writes one out; a piece is
 * below V8's 128 KB limit for the young generation, so the copy costs
 * about what reading it once does. A string marked flat (`markFlat`) is
 * returned as it is (the same characters: `===`).
 */
export function flatString(text: string): string {
  if (marked !== undefined && text === marked) return marked;
  return text.length < 2 ? text : [text.slice(0, 1), text.slice(1)].join('');
}
