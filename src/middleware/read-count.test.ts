import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/fixtures';
import { isReadThrough } from '../guards/shared/normalize-text';
import { readCount } from './window-processor';

/** The count as round 28 read it: code point by code point. */
function referenceCount(text: string, from: number, most: number, end = text.length): number {
  let count = 0;
  let at = from;
  while (at < end && count < most) {
    const codePoint = text.codePointAt(at)!;
    if (!isReadThrough(codePoint)) count++;
    at += codePoint > 0xffff ? 2 : 1;
  }
  return count;
}

const PIECES = [
  'a',
  'bc',
  ' ',
  '.',
  '\n',
  '\t',
  '\u200b',
  '\u00ad',
  '\u0301',
  '\ufe0f',
  'é',
  'ж',
  '😀',
  '\u{e0041}',
  '\ue000',
  '\ud800',
  '~',
  '\x7f',
];

describe('readCount (round 29: printable ASCII runs found by one search)', () => {
  it('counts as the code-point loop does, with any start, end and cap', () => {
    const next = seededRandom(1729);
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      // Round 30: short stretches are read by a loop, long ones by the search: both lengths.
      const length = Math.floor(next() * (i % 4 === 0 ? 400 : 40));
      for (let k = 0; k < length; k++) text += PIECES[Math.floor(next() * PIECES.length)];
      const from = Math.floor(next() * (text.length + 1));
      const end = from + Math.floor(next() * (text.length - from + 1));
      const most = Math.floor(next() * (i % 4 === 0 ? 500 : 50));
      expect(readCount(text, from, most, end), JSON.stringify([text, from, most, end])).toBe(
        referenceCount(text, from, most, end),
      );
      expect(readCount(text, from, most)).toBe(referenceCount(text, from, most));
    }
  });
});
