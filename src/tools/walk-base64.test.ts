import { describe, expect, it } from 'vitest';
import { gifComment, jpegSegment, realGif, realJpeg } from '../../test/helpers/binary-files';
import { pseudoRandomBytes } from '../../test/helpers/binary-heads';
import { generatedFileOutcome, toolFileSent, toolOutputSent } from '../../test/helpers/tool-file';

// Round 25: a JPEG's and a GIF's structure is walked by their headers and
// block sizes, and a JPEG's scans searched for 0xFF, on base64 read through
// one `atob` string: before, the whole file was decoded to bytes a character
// at a time on every call (3 MB of base64: about 3x the time). The text read
// must stay the same: a comment between two scans, after a long scan, after
// EOI, a GIF's comment after its image data and the bytes after its trailer,
// as bytes and as base64.

const CARD_TEXT = 'card 4111 1111 1111 1111';
const utf8 = (text: string) => Array.from(new TextEncoder().encode(text));
/** Entropy-coded data: random bytes, each 0xFF stuffed with a 0. */
const scan = (length: number, seed: number) =>
  Array.from(pseudoRandomBytes(length, seed)).flatMap(byte => (byte === 0xff ? [byte, 0] : [byte]));
/** A JPEG whose first scan is followed by a comment and a second scan, then `after` past EOI. */
const twoScans = (comment: string, after: string) => {
  const jpeg = Array.from(realJpeg([], 200_000));
  return Uint8Array.from([
    ...jpeg.slice(0, -2),
    ...jpegSegment(0xfe, utf8(comment)),
    ...jpegSegment(0xda, [1, 1, 0, 0, 63, 0]),
    ...scan(100_000, 0x5eed),
    0xff,
    0xd9,
    ...utf8(after),
  ]);
};
/** A GIF with image data of `blocks` sub-blocks, then a comment, the trailer and `after`. */
const bigGif = (comment: string, after: string) => {
  const gif = Array.from(realGif());
  const data = pseudoRandomBytes(255 * 800, 7);
  const image = [0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 8];
  for (let at = 0; at < data.length; at += 255) image.push(255, ...data.subarray(at, at + 255));
  image.push(0);
  return Uint8Array.from([
    ...gif.slice(0, -1),
    ...image,
    ...gifComment(comment),
    0x3b,
    ...utf8(after),
  ]);
};
const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};
const files = (card: string): Array<[string, string, Uint8Array]> => [
  ['JPEG, comment between scans', 'image/jpeg', twoScans(card, '')],
  ['JPEG, after EOI', 'image/jpeg', twoScans('ok', ` ${card}`)],
  ['GIF, comment after the image', 'image/gif', bigGif(card, '')],
  ['GIF, after the trailer', 'image/gif', bigGif('ok', ` ${card}`)],
];
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('a JPEG and a GIF read by their structure, as bytes and as base64', () => {
  it("a card there withholds a tool's file (guardTools), bytes or base64", async () => {
    for (const [name, type, data] of files(CARD_TEXT)) {
      expect([name, await toolOutputSent(data, type)]).toEqual([name, WITHHELD]);
      expect([name, await toolOutputSent(base64(data), type)]).toEqual([name, WITHHELD]);
    }
  });

  it('the same files without it go on as they came', async () => {
    for (const [, type, data] of files('Quarterly figures, as agreed')) {
      expect(await toolFileSent(data, type)).toEqual({ mediaType: type, data });
      const encoded = base64(data);
      expect(await toolFileSent(encoded, type)).toEqual({ mediaType: type, data: encoded });
    }
  });

  it('a generated JPEG as base64 with a card between its scans is withheld (generateText)', async () => {
    expect(await generatedFileOutcome(base64(files(CARD_TEXT)[0]![2]), 'image/jpeg')).toEqual({
      files: [],
      records: [
        ['pii', 'modified'],
        ['output-unreadable', 'error'],
        ['pii', 'passed'],
      ],
    });
  });
});
