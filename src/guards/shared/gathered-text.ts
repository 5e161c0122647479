/**
 * A string made of stretches of other strings and of runs of one unit,
 * as most of one text with short pieces cut out or written over (the
 * invisible characters `invisibleText` strips, the blanks of a broken
 * reading). Long stretches are kept as slices; short ones are gathered as
 * UTF-16 units and made a string 4,096 at a time. Round 30: a slice per
 * piece, joined, cost 300-400 ms on 1 MB of `a\u200B` (a million pieces of
 * one unit); gathered, about 10 ms.
 */

/** Pieces up to this long are gathered unit by unit. */
const SHORT = 32;
const GATHERED_SIZE = 4096;

/** The buffer of the one builder that has it (builders are short-lived; a second one alive makes its own). */
let shared: Uint16Array | undefined;

export class GatheredText {
  private readonly parts: string[] = [];
  private units: Uint16Array | undefined;
  private filled = 0;

  /** Adds `source[from, to)`. */
  copy(source: string, from: number, to: number): void {
    const size = to - from;
    if (size <= 0) return;
    if (size > SHORT) {
      this.flush();
      this.parts.push(source.slice(from, to));
      return;
    }
    const units = this.room(size);
    let filled = this.filled;
    for (let unit = from; unit < to; unit++) units[filled++] = source.charCodeAt(unit);
    this.filled = filled;
  }

  /** Adds `count` copies of the unit `unit`. */
  fill(unit: number, count: number): void {
    if (count <= 0) return;
    if (count > SHORT) {
      this.flush();
      this.parts.push(String.fromCharCode(unit).repeat(count));
      return;
    }
    const units = this.room(count);
    let filled = this.filled;
    for (let left = count; left > 0; left--) units[filled++] = unit;
    this.filled = filled;
  }

  /** The string made, flat; the builder is done (its buffer is given back). */
  finish(): string {
    this.flush();
    if (this.units !== undefined && this.units.length === GATHERED_SIZE) shared ??= this.units;
    this.units = undefined;
    const { parts } = this;
    return parts.length === 1 ? parts[0]! : parts.join('');
  }

  /** The buffer, with room for `size` more units. */
  private room(size: number): Uint16Array {
    let units = this.units;
    if (units === undefined) {
      units = shared ?? new Uint16Array(GATHERED_SIZE);
      shared = undefined;
      this.units = units;
    } else if (this.filled + size > units.length) {
      this.flush();
    }
    return units;
  }

  private flush(): void {
    if (this.filled === 0) return;
    this.parts.push(
      String.fromCharCode.apply(null, this.units!.subarray(0, this.filled) as unknown as number[]),
    );
    this.filled = 0;
  }
}
