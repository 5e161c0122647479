/**
 * The tokenizer's byte-pair merges are quadratic in the length of one
 * pre-token (400,000 x "a" took 90 s), so text is counted in slices of at
 * most this many characters, cut before whitespace where there is some.
 */
export const COUNT_SLICE = 256;

/**
 * Where the slice of `text` that starts at `start` ends, when more text
 * follows it: `COUNT_SLICE` characters on, moved back before the last
 * whitespace in the slice (which begins the next word's token), if any.
 */
export function sliceEnd(text: string, start: number): number {
  const end = start + COUNT_SLICE;
  for (let i = end; i > start + 1; i--) {
    const code = text.charCodeAt(i - 1);
    if (code === 32 || code === 10 || code === 9 || code === 13) return i - 1;
  }
  return end;
}

/**
 * Counts a text that arrives in pieces (a streamed answer) with the same
 * slices `countInSlices` cuts from the whole text, so the final count is
 * exactly the whole text's. Each slice is tokenized once, as soon as text
 * after it has arrived: linear in the stream, never re-tokenizing what was
 * counted. Only the last, open slice (under `COUNT_SLICE` characters) is
 * counted again when an exact count is asked for.
 */
export class StreamedTokenCount {
  /** Tokens of the slices already closed. */
  private closed = 0;
  /** Text of the open slice and after it (not yet counted). */
  private open = '';
  /** The exact count of `open` when it was last asked for, while `open` is unchanged. */
  private openCount: number | undefined;

  constructor(private readonly countTokens: (text: string) => number) {}

  /** Adds a delta: closes (and counts) every slice that text now follows. */
  push(delta: string): void {
    if (delta.length === 0) return;
    this.open += delta;
    this.openCount = undefined;
    if (this.open.length <= COUNT_SLICE) return;
    let start = 0;
    // A slice closes only when text follows its end (`countInSlices` counts the last one whole).
    while (this.open.length - start > COUNT_SLICE) {
      const end = sliceEnd(this.open, start);
      this.closed += this.countTokens(this.open.slice(start, end));
      start = end;
    }
    this.open = this.open.slice(start);
  }

  /** Tokens of the closed slices: a lower bound of the count, known without tokenizing. */
  get lowerBound(): number {
    return this.closed;
  }

  /** Characters not yet counted (fewer than `COUNT_SLICE` + the last delta). */
  get openLength(): number {
    return this.open.length;
  }

  /** The exact count of everything pushed so far (what `countInSlices` gives for the whole text). */
  total(): number {
    if (this.open.length === 0) return this.closed;
    this.openCount ??= this.countTokens(this.open);
    return this.closed + this.openCount;
  }
}
