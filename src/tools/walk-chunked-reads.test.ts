import { afterEach, describe, expect, it, vi } from 'vitest';
import { gifComment, jpegSegment, realGif, realJpeg } from '../../test/helpers/binary-files';
import { pseudoRandomBytes } from '../../test/helpers/binary-heads';
import { toolOutputSent } from '../../test/helpers/tool-file';

// Round 29: a JPEG's and a GIF's walk read base64 through one `atob` of the
// whole file at its first byte (round 25's byte-at-a-time reads), so a 3.7
// MB file was decoded whole before any limit applied, and a JPEG stored in a
// zip decoded the whole zip. Their walks now read the file 64 KB at a time
// (`FileBytes`): no read of the file decodes more than a chunk.

const CARD_TEXT = 'card 4111 1111 1111 1111';
const utf8 = (text: string) => Array.from(new TextEncoder().encode(text));
const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};
/** A JPEG whose scan of `length` random bytes (0xFF stuffed) is followed by a comment `text`. */
function jpegAfterScan(text: string, length: number): Uint8Array {
  const jpeg = Array.from(realJpeg([], 2000));
  const scan = Array.from(pseudoRandomBytes(length, 5)).flatMap(byte =>
    byte === 0xff ? [byte, 0] : [byte],
  );
  return Uint8Array.from([
    ...jpeg.slice(0, -2),
    ...jpegSegment(0xda, [1, 1, 0, 0, 63, 0]),
    ...scan,
    ...jpegSegment(0xfe, utf8(text)),
    0xff,
    0xd9,
  ]);
}
/** A GIF whose image data of `blocks` full sub-blocks is followed by a comment `text`. */
function gifAfterImage(text: string, blocks: number): Uint8Array {
  const gif = Array.from(realGif());
  const data = pseudoRandomBytes(255 * blocks, 7);
  const image = [0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 8];
  for (let at = 0; at < data.length; at += 255) image.push(255, ...data.subarray(at, at + 255));
  image.push(0);
  return Uint8Array.from([...gif.slice(0, -1), ...image, ...gifComment(text), 0x3b]);
}
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a JPEG and a GIF as base64 are walked a chunk at a time', () => {
  it.each([
    ['image/jpeg', jpegAfterScan(CARD_TEXT, 2_000_000)],
    ['image/gif', gifAfterImage(CARD_TEXT, 8_000)],
  ])(
    "a card after 2 MB of image data withholds a tool's %s (guardTools), no whole decode",
    async (type, file) => {
      const data = base64(file);
      const decoded: number[] = [];
      const atob = globalThis.atob;
      vi.spyOn(globalThis, 'atob').mockImplementation(text => {
        decoded.push(text.length);
        return atob(text);
      });
      expect(await toolOutputSent(data, type)).toEqual(WITHHELD);
      expect(data.length).toBeGreaterThan(2_600_000);
      // The head, then the walk's chunks (64 KB, 87,384 characters of base64): never the file.
      expect(Math.max(...decoded)).toBeLessThanOrEqual(87_384);
    },
  );
});
