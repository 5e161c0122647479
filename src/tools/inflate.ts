/**
 * Bounded, synchronous inflate (RFC 1951 deflate; RFC 1950 zlib around it),
 * for the compressed text inside files a provider parses (a PNG's `zTXt` and
 * `iTXt` chunks, a PDF's `/FlateDecode` streams, a zip's deflated entries;
 * `binary-formats.ts`). Plain JavaScript, no Node built-in (edge-safe), and
 * synchronous, as the readers of a prompt's files are (the web's
 * `DecompressionStream` is asynchronous only). It stops at `limit` output
 * bytes (a zip bomb decodes no further) and at the end of its input: time
 * linear in both, each symbol decoded in at most 15 steps (the canonical
 * code read a bit at a time, as zlib's `puff` reads it).
 */

/** {@link inflate}: the output would be longer than its limit. */
export const INFLATE_OVER = Symbol('inflate: over the limit');

const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
  163, 195, 227, 258,
];
const LENGTH_EXTRA = [
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DISTANCE_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
  3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** A canonical Huffman code: how many codes of each length, and the symbols in code order. */
interface Huffman {
  counts: Uint16Array;
  symbols: Uint16Array;
}

/** Thrown inside {@link inflate} for input that is no deflate stream (or ends early). */
class Corrupt extends Error {}
class Over extends Error {}

function huffman(lengths: ArrayLike<number>, from: number, count: number): Huffman {
  const counts = new Uint16Array(16);
  for (let i = 0; i < count; i++) counts[lengths[from + i]!]!++;
  const offsets = new Uint16Array(16);
  for (let length = 1; length < 15; length++) {
    offsets[length + 1] = offsets[length]! + counts[length]!;
  }
  const symbols = new Uint16Array(count);
  for (let i = 0; i < count; i++) {
    const length = lengths[from + i]!;
    if (length !== 0) symbols[offsets[length]!++] = i;
  }
  counts[0] = 0;
  return { counts, symbols };
}

let fixed: { literals: Huffman; distances: Huffman } | undefined;
function fixedCodes() {
  if (fixed === undefined) {
    const lengths = new Uint8Array(288);
    lengths.fill(8, 0, 144);
    lengths.fill(9, 144, 256);
    lengths.fill(7, 256, 280);
    lengths.fill(8, 280, 288);
    fixed = {
      literals: huffman(lengths, 0, 288),
      distances: huffman(new Uint8Array(30).fill(5), 0, 30),
    };
  }
  return fixed;
}

/**
 * The bytes `data` inflates to: raw deflate, or with `zlib` a zlib stream
 * (its two-byte header checked, its Adler-32 not read). {@link INFLATE_OVER}
 * when the output would pass `limit` bytes; `undefined` when `data` is no
 * such stream (a bad header or code, a distance before the output's start,
 * input that ends before the last block does).
 */
export function inflate(
  data: Uint8Array,
  zlib: boolean,
  limit: number,
): Uint8Array | typeof INFLATE_OVER | undefined {
  let at = 0;
  let bits = 0;
  let held = 0;
  let out = new Uint8Array(Math.min(limit, Math.max(1024, data.length * 4)));
  let size = 0;

  const need = (more: number) => {
    if (size + more <= out.length) return;
    if (size + more > limit) throw new Over();
    const grown = new Uint8Array(Math.min(limit, Math.max(size + more, out.length * 2)));
    grown.set(out.subarray(0, size));
    out = grown;
  };
  const read = (count: number): number => {
    while (held < count) {
      if (at >= data.length) throw new Corrupt();
      bits |= data[at++]! << held;
      held += 8;
    }
    const value = bits & ((1 << count) - 1);
    bits >>>= count;
    held -= count;
    return value;
  };
  const decode = (code: Huffman): number => {
    let value = 0;
    let first = 0;
    let index = 0;
    for (let length = 1; length < 16; length++) {
      value |= read(1);
      const count = code.counts[length]!;
      if (value - count < first) return code.symbols[index + (value - first)]!;
      index += count;
      first = (first + count) << 1;
      value <<= 1;
    }
    throw new Corrupt();
  };

  try {
    if (zlib) {
      if (data.length < 2) return undefined;
      const cmf = data[0]!;
      const flags = data[1]!;
      if ((cmf & 0x0f) !== 8 || (cmf * 256 + flags) % 31 !== 0 || flags & 0x20) return undefined;
      at = 2;
    }
    let last = 0;
    while (!last) {
      last = read(1);
      const type = read(2);
      if (type === 0) {
        // Stored: the rest of this byte is dropped, then LEN and its complement.
        bits = 0;
        held = 0;
        if (at + 4 > data.length) return undefined;
        const length = data[at]! | (data[at + 1]! << 8);
        const check = data[at + 2]! | (data[at + 3]! << 8);
        if ((length ^ 0xffff) !== check || at + 4 + length > data.length) return undefined;
        need(length);
        out.set(data.subarray(at + 4, at + 4 + length), size);
        size += length;
        at += 4 + length;
        continue;
      }
      let literals: Huffman;
      let distances: Huffman;
      if (type === 1) ({ literals, distances } = fixedCodes());
      else if (type === 2) {
        const literalCount = read(5) + 257;
        const distanceCount = read(5) + 1;
        const codeLengthCount = read(4) + 4;
        if (literalCount > 286 || distanceCount > 30) return undefined;
        const codeLengths = new Uint8Array(19);
        for (let i = 0; i < codeLengthCount; i++) codeLengths[CODE_LENGTH_ORDER[i]!] = read(3);
        const lengthCode = huffman(codeLengths, 0, 19);
        const lengths = new Uint8Array(literalCount + distanceCount);
        for (let i = 0; i < lengths.length; ) {
          const symbol = decode(lengthCode);
          if (symbol < 16) {
            lengths[i++] = symbol;
            continue;
          }
          let repeat: number;
          let value = 0;
          if (symbol === 16) {
            if (i === 0) return undefined;
            value = lengths[i - 1]!;
            repeat = 3 + read(2);
          } else repeat = symbol === 17 ? 3 + read(3) : 11 + read(7);
          if (i + repeat > lengths.length) return undefined;
          lengths.fill(value, i, i + repeat);
          i += repeat;
        }
        literals = huffman(lengths, 0, literalCount);
        distances = huffman(lengths, literalCount, distanceCount);
      } else return undefined;
      for (;;) {
        const symbol = decode(literals);
        if (symbol < 256) {
          need(1);
          out[size++] = symbol;
          continue;
        }
        if (symbol === 256) break;
        const lengthIndex = symbol - 257;
        if (lengthIndex >= 29) return undefined;
        const length = LENGTH_BASE[lengthIndex]! + read(LENGTH_EXTRA[lengthIndex]!);
        const distanceIndex = decode(distances);
        if (distanceIndex >= 30) return undefined;
        const distance = DISTANCE_BASE[distanceIndex]! + read(DISTANCE_EXTRA[distanceIndex]!);
        if (distance > size) return undefined;
        need(length);
        for (let k = 0; k < length; k++, size++) out[size] = out[size - distance]!;
      }
    }
  } catch (error) {
    if (error instanceof Over) return INFLATE_OVER;
    if (error instanceof Corrupt) return undefined;
    throw error;
  }
  return out.subarray(0, size);
}
