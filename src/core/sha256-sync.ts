/*
 * SHA-256 in process, synchronous, with no `node:` built-in (edge-safe). In
 * the core so that the chain's modules can use it without reaching a
 * detector module (`src/guards/`); `checksums.ts` re-exports it.
 */

const sha256Constants = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/**
 * SHA-256 of a byte array, synchronous: for short inputs (address
 * checksums, the verdict cache's short texts) and where an async API
 * cannot be (a long tool name's digest, shown in records). The blocks are
 * read from `bytes` in place (only the last one or two are padded in a
 * copy), each block compressed by one function over locals: 10 MB took
 * 1.5 s with a padded copy, a DataView read per word and the state
 * destructured from an array per block (round 29).
 */
export function sha256(bytes: Uint8Array): Uint8Array {
  const length = bytes.length;
  // The last one or two blocks: the bytes past the last whole block, 0x80, zeros, the bit length.
  const whole = length - (length % 64);
  const tailLength = length - whole + 9 > 64 ? 128 : 64;
  const tail = new Uint8Array(tailLength);
  tail.set(bytes.subarray(whole));
  tail[length - whole] = 0x80;
  const bitsHigh = Math.floor(length / 2 ** 29);
  const bitsLow = (length * 8) >>> 0;
  tail[tailLength - 8] = bitsHigh >>> 24;
  tail[tailLength - 7] = (bitsHigh >>> 16) & 0xff;
  tail[tailLength - 6] = (bitsHigh >>> 8) & 0xff;
  tail[tailLength - 5] = bitsHigh & 0xff;
  tail[tailLength - 4] = bitsLow >>> 24;
  tail[tailLength - 3] = (bitsLow >>> 16) & 0xff;
  tail[tailLength - 2] = (bitsLow >>> 8) & 0xff;
  tail[tailLength - 1] = bitsLow & 0xff;

  const state = new Int32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const words = new Int32Array(64);
  for (let offset = 0; offset < whole; offset += 64) compress(state, words, bytes, offset);
  for (let offset = 0; offset < tailLength; offset += 64) compress(state, words, tail, offset);
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let index = 0; index < 8; index++) outView.setInt32(index * 4, state[index]!);
  return out;
}

/** One 64-byte block of `source` at `offset` into `state` (`words`: scratch). */
function compress(state: Int32Array, words: Int32Array, source: Uint8Array, offset: number): void {
  for (let index = 0; index < 16; index++) {
    const at = offset + index * 4;
    words[index] =
      (source[at]! << 24) | (source[at + 1]! << 16) | (source[at + 2]! << 8) | source[at + 3]!;
  }
  for (let index = 16; index < 64; index++) {
    const w15 = words[index - 15]!;
    const w2 = words[index - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    words[index] = (words[index - 16]! + s0 + words[index - 7]! + s1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let index = 0; index < 64; index++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const choice = (e & f) ^ (~e & g);
    const temp1 = (h + s1 + choice + sha256Constants[index]! + words[index]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const majority = (a & b) ^ (a & c) ^ (b & c);
    h = g;
    g = f;
    f = e;
    e = (d + temp1) | 0;
    d = c;
    c = b;
    b = a;
    a = (temp1 + s0 + majority) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}
