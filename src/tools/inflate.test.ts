import { deflateRawSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pseudoRandomBytes } from '../../test/helpers/binary-heads';
import { INFLATE_OVER, inflate } from './inflate';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('inflate', () => {
  it('reads what zlib writes: stored, fixed and dynamic blocks, raw and zlib', () => {
    const inputs = [
      new Uint8Array(0),
      utf8('card 4111 1111 1111 1111'),
      utf8('Contact jane.doe@corp.io today. '.repeat(5000)),
      pseudoRandomBytes(70_000),
      Uint8Array.from([...pseudoRandomBytes(3000), ...utf8('a'.repeat(40_000))]),
    ];
    for (const input of inputs) {
      for (const level of [0, 1, 6, 9]) {
        const same = (out: unknown) =>
          out instanceof Uint8Array && Buffer.from(out).equals(Buffer.from(input));
        expect(same(inflate(deflateSync(input, { level }), true, 1 << 20))).toBe(true);
        expect(same(inflate(deflateRawSync(input, { level }), false, 1 << 20))).toBe(true);
      }
    }
  });

  it('stops at its limit (a bomb decodes no further) and refuses what is no deflate stream', () => {
    const bomb = deflateSync(new Uint8Array(50_000_000));
    expect(bomb.length).toBeLessThan(60_000);
    expect(inflate(bomb, true, 1_000_000)).toBe(INFLATE_OVER);
    const text = deflateSync(utf8('card 4111 1111 1111 1111'));
    expect(inflate(text, true, 10)).toBe(INFLATE_OVER);
    expect(inflate(text.subarray(0, text.length - 8), true, 1000)).toBeUndefined();
    expect(inflate(utf8('not deflate at all'), true, 1000)).toBeUndefined();
    expect(inflate(pseudoRandomBytes(1000), false, 1_000_000)).not.toEqual(expect.any(String));
  });
});
