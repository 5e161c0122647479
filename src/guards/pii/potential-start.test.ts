import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import {
  joinable,
  joinableByPatterns,
  marker,
  markerByPattern,
  PII_NEEDS,
  PII_NEEDS_SPELLED_OUT,
  piece,
  pieceByPatterns,
  piiNeeds,
} from './potential-start';

const CHARS = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split(''),
  ...'@:/+#=_%&~|\\<>.,;!?\'"()[]{}-*$^`'.split(''),
  'é',
  'É',
  '٣',
  '\uff11',
  '\uff21',
  '😀',
];

describe('pii hook: joinable tokens', () => {
  it('answers as the patterns it stands for, on 50,000 random tokens (joinable and piece)', () => {
    const random = seededRandom(62);
    let joined = 0;
    let pieces = 0;
    for (let i = 0; i < 50_000; i++) {
      const length = Math.floor(random() * 7);
      let token = '';
      for (let j = 0; j < length; j++) {
        // Mostly letters, so short groups and plain words are common.
        token +=
          random() < 0.8
            ? CHARS[Math.floor(random() * 52)]
            : CHARS[Math.floor(random() * CHARS.length)];
      }
      const expected = joinableByPatterns(token);
      if (joinable(token) !== expected) expect({ token, joinable: !expected }).toBe(undefined);
      if (expected) joined++;
      const expectedPiece = pieceByPatterns(token);
      if (piece(token) !== expectedPiece) expect({ token, piece: !expectedPiece }).toBe(undefined);
      if (expectedPiece) pieces++;
    }
    expect(joined).toBeGreaterThan(5_000);
    expect(joined).toBeLessThan(40_000);
    expect(pieces).toBeGreaterThan(5_000);
    expect(pieces).toBeLessThan(40_000);
  });

  it('reads a marker as its pattern does, on 50,000 random tokens', () => {
    const random = seededRandom(63);
    const chars = [...'ab.@[]()<>{}-x😀'];
    let markers = 0;
    for (let i = 0; i < 50_000; i++) {
      const length = Math.floor(random() * 5);
      let token = '';
      for (let j = 0; j < length; j++) token += chars[Math.floor(random() * chars.length)];
      const expected = markerByPattern(token);
      if (marker(token) !== expected) expect({ token, marker: !expected }).toBe(undefined);
      if (expected) markers++;
    }
    expect(markers).toBeGreaterThan(10_000);
  });

  it('joins numbers and symbols; short letter groups are pieces (beside those only); not words', () => {
    expect(['4111', '(415)', 'x@y', '-', '--'].map(joinable)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['WEST', 'AB', 'ab', '😀AB', 'the', 'West', ''].map(joinable)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(['WEST', 'AB', 'ab', '😀AB'].map(piece)).toEqual([true, true, true, true]);
    expect(['the', 'West', 'order', 'ABCDE', ''].map(piece)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('pii mayMatch: the needs', () => {
  it('PII_NEEDS and piiNeeds answer as the needs spelled out, on 50,000 random texts', () => {
    const random = seededRandom(63);
    const pieces = [...'abcdefABCDEFxyzXYZ     .-:@<[](){}>\n\t0', 'at', 'AT', ' at ', 'é'];
    let needs = 0;
    for (let i = 0; i < 50_000; i++) {
      const count = 1 + Math.floor(random() * 20);
      let text = '';
      for (let j = 0; j < count; j++) {
        text +=
          random() < 0.9
            ? pieces[Math.floor(random() * 21)]
            : pieces[Math.floor(random() * pieces.length)];
      }
      const expected = PII_NEEDS_SPELLED_OUT.test(text);
      if (PII_NEEDS.test(text) !== expected) expect({ text, need: !expected }).toBe(undefined);
      if (piiNeeds(text) !== expected) expect({ text, piiNeeds: !expected }).toBe(undefined);
      if (expected) needs++;
    }
    expect(needs).toBeGreaterThan(2_000);
    expect(needs).toBeLessThan(40_000);
  });
});
