// Up to 4,096 entries per chunk: its arrays' backing stores stay under V8's
// large-object size (128 KB), so they live in the ordinary heap, whose pages
// are reused, instead of each growth mapping fresh pages.
const CHUNK_BITS = 12;
const CHUNK_SIZE = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_SIZE - 1;

interface Chunk<VALUE> {
  starts: number[];
  ends: number[];
  values: VALUE[];
}

/**
 * Spans (`start`, exclusive `end`) with a value each, in the order pushed,
 * stored in chunks of parallel arrays. A text with a hundred thousand
 * findings kept as one object each, or in arrays that outgrow 128 KB, paid
 * for fresh memory pages on every growth (about 1,000 page faults per MB of
 * a link flood on the CI machine): a 1 MB text cost three times as much per
 * byte as a 0.25 MB one.
 */
export class SpanList<VALUE> {
  #chunks: Chunk<VALUE>[] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(start: number, end: number, value: VALUE): void {
    if ((this.#length & CHUNK_MASK) === 0) this.#chunks.push({ starts: [], ends: [], values: [] });
    const chunk = this.#chunks[this.#chunks.length - 1]!;
    chunk.starts.push(start);
    chunk.ends.push(end);
    chunk.values.push(value);
    this.#length++;
  }

  start(index: number): number {
    return this.#chunks[index >>> CHUNK_BITS]!.starts[index & CHUNK_MASK]!;
  }

  end(index: number): number {
    return this.#chunks[index >>> CHUNK_BITS]!.ends[index & CHUNK_MASK]!;
  }

  value(index: number): VALUE {
    return this.#chunks[index >>> CHUNK_BITS]!.values[index & CHUNK_MASK]!;
  }
}
