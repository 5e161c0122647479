import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { plainView } from '../shared/potential-start';
import { keywords } from './assignments';
import {
  joinable,
  joinableByPatterns,
  keywordPrefixes,
  marker,
  markerByPattern,
  mayHaveTrigger,
  piece,
  pieceByPattern,
  providerLiteralNeedles,
  secretsMayMatch,
  secretsPotentialStart,
  secretsPotentialStartFiltered,
} from './potential-start';

const escapeLiteral = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const boundaryOf = { none: '', alnum: '(?<![A-Za-z0-9])', 'alnum_-': '(?<![A-Za-z0-9_-])' };
const LITERALS = new RegExp(
  providerLiteralNeedles()
    .map(needle => `${boundaryOf[needle.boundary]}${escapeLiteral(needle.literal)}`)
    .join('|'),
);
const KEYWORD = new RegExp(keywords);

/** The regular expressions `secretsMayMatch` scans for in one pass (its definition, spelled out). */
function referenceMayMatch(text: string): boolean {
  const plain = plainView(text);
  if (plain === undefined) return true;
  return (
    /[^A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff\u2018-\u201f \t\n\r.,;:!?'"()-]/.test(plain) ||
    plain.includes('--') ||
    plain.includes('ata:') ||
    /[A-Za-z-]{14}/.test(plain) ||
    LITERALS.test(plain) ||
    KEYWORD.test(plain.toLowerCase())
  );
}

// Prose characters, case variants of every literal and keyword, and characters that end the scan.
const PIECES = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ        .,;:!?\'"()-\n\té\u2019'.split(
    '',
  ),
  ...providerLiteralNeedles().flatMap(needle => [needle.literal, needle.literal.toLowerCase()]),
  ...keywordPrefixes(),
  'password',
  'PassWord',
  'api_key',
  'API-TOKEN',
  'passwd',
  'data:',
  'DATA:',
  'x',
  '_',
  '1',
  '=',
  '\u00d7',
  '\u200b',
  'ask',
  'risk',
  'the ',
];

describe('secretsMayMatch', () => {
  it('finds the keyword prefixes of every alternative', () => {
    expect(keywordPrefixes('(?:api[_.-]?key|passw(?:or)?d|tokens?|dsn)')).toEqual([
      'api',
      'passw',
      'token',
      'dsn',
    ]);
    expect(keywordPrefixes()).toContain('secret');
  });

  it('answers as the regular expressions it stands for, on 20,000 random texts', () => {
    const random = seededRandom(16);
    let mayMatch = 0;
    for (let i = 0; i < 20_000; i++) {
      const count = 1 + Math.floor(random() * 30);
      let text = '';
      for (let j = 0; j < count; j++) {
        // Mostly prose letters, so texts that may not match are common too.
        text +=
          random() < 0.9
            ? PIECES[Math.floor(random() * 60)]
            : PIECES[Math.floor(random() * PIECES.length)];
      }
      const expected = referenceMayMatch(text);
      if (secretsMayMatch(text) !== expected) expect({ text, mayMatch: !expected }).toBe(undefined);
      if (expected) mayMatch++;
    }
    // Both answers are common, so the comparison tests both.
    expect(mayMatch).toBeGreaterThan(4_000);
    expect(mayMatch).toBeLessThan(16_000);
  });

  it('rules out prose and flags each kind of need', () => {
    expect(secretsMayMatch('The team agreed on three priorities; let me know.')).toBe(false);
    expect(secretsMayMatch('Please ask the desk for the risk report.')).toBe(false);
    expect(secretsMayMatch('My PASSWORD is here')).toBe(true);
    expect(secretsMayMatch('use AKIA keys')).toBe(true);
    expect(secretsMayMatch('use xAKIA keys')).toBe(false);
    expect(secretsMayMatch('-----BEGIN')).toBe(true);
    expect(secretsMayMatch('data:')).toBe(true);
    expect(secretsMayMatch('abcdefghijklmn')).toBe(true);
    expect(secretsMayMatch('abcdefghijklm')).toBe(false);
    expect(secretsMayMatch('x = y')).toBe(true);
  });
});

describe('secrets hook: joinable tokens', () => {
  it('answers as the patterns it stands for, on 20,000 random tokens', () => {
    const random = seededRandom(17);
    let pieces = 0;
    const chars = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', ...'0_=-."\'é٣😀'];
    let joined = 0;
    for (let i = 0; i < 20_000; i++) {
      const length = Math.floor(random() * 6);
      let token = '';
      for (let j = 0; j < length; j++) {
        token +=
          random() < 0.85
            ? chars[Math.floor(random() * 52)]
            : chars[Math.floor(random() * chars.length)];
      }
      const expected = joinableByPatterns(token);
      if (joinable(token) !== expected) expect({ token, joinable: !expected }).toBe(undefined);
      if (expected) joined++;
      const expectedPiece = pieceByPattern(token);
      if (piece(token) !== expectedPiece) expect({ token, piece: !expectedPiece }).toBe(undefined);
      if (expectedPiece) pieces++;
    }
    // Short words were joinable before round 28 (4,000 or more); they are pieces now.
    expect(joined).toBeGreaterThan(500);
    expect(joined).toBeLessThan(16_000);
    expect(pieces).toBeGreaterThan(4_000);
    expect(pieces).toBeLessThan(16_000);
  });

  it('takes short words, four capitals and a small letter then a capital for pieces, not words', () => {
    expect(['ab', 'I', 'ZQHM', 'abCd', 'iWt', 'McDonald', 'ＺＱＨＭ'].map(piece)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['the', 'ZQHMX', 'West', 'report', 'a1', ''].map(piece)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('secrets hook: markers', () => {
  it('reads a marker as its pattern does, on 30,000 random tokens', () => {
    const random = seededRandom(18);
    const words = [
      'bearer',
      'BEARER',
      'Basic',
      'token',
      'tokens',
      'toke',
      '=',
      ':',
      '"',
      "'",
      '`',
      '!',
      '?',
      '<',
      '>',
      'a',
      'é',
    ];
    let markers = 0;
    for (let i = 0; i < 30_000; i++) {
      const length = Math.floor(random() * 3);
      let token = '';
      for (let j = 0; j < length; j++) token += words[Math.floor(random() * words.length)];
      const expected = markerByPattern(token);
      if (marker(token) !== expected) expect({ token, marker: !expected }).toBe(undefined);
      if (expected) markers++;
    }
    expect(markers).toBeGreaterThan(5_000);
  });
});

describe('secrets hook: triggers', () => {
  it('finds a keyword, authorization or curl in any case wherever the pattern does (20,000 random texts)', () => {
    const trigger = new RegExp(`${keywords}|authorization|curl`);
    const pieces = [
      ...PIECES,
      'Authorization',
      'AUTHORIZATION',
      'CuRl',
      'curl',
      '\u212a',
      '\u0130',
      'ſ',
    ];
    const random = seededRandom(18);
    let found = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      for (let j = 0, count = 1 + Math.floor(random() * 20); j < count; j++) {
        text += pieces[Math.floor(random() * pieces.length)];
      }
      const expected = trigger.test(text.toLowerCase());
      // A necessary condition: never false where the pattern matches.
      if (expected && !mayHaveTrigger(text)) expect(text).toBe('a text with a trigger');
      if (expected) found++;
    }
    expect(found).toBeGreaterThan(2_000);
    expect(mayHaveTrigger('The team agreed on three priorities.')).toBe(false);
    expect(mayHaveTrigger('my PassWord is')).toBe(true);
  });
});

describe('secrets hook for text its filter ruled out', () => {
  it('answers as the full hook on every substring of 20,000 random texts secretsMayMatch rules out', () => {
    const pieces = [
      ...PIECES,
      ...'  "\'`\'"=:'.split(''),
      'Authorization: ',
      'AUTHORIZATION',
      'authoriZation',
      'CuRl ',
      'Curl -u ',
      'curl',
      'Bearer ',
      '-----BEGIN',
      '-',
      'data:\n  ',
      'password',
      'token',
      '\u2013',
      '\u00a0',
      '\u2026',
      '\u212a',
      'ſ',
      '\n',
    ];
    const random = seededRandom(19);
    let ruledOut = 0;
    let held = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      for (let j = 0, count = 1 + Math.floor(random() * 24); j < count; j++) {
        text +=
          random() < 0.7
            ? PIECES[Math.floor(random() * 60)]
            : pieces[Math.floor(random() * pieces.length)];
      }
      if (secretsMayMatch(text)) continue;
      ruledOut++;
      // The window asks about the end of the text the filter saw (or a prefix of it).
      for (let k = 0; k < 4; k++) {
        const from = Math.floor(random() * text.length);
        const to =
          k % 2 === 0 ? text.length : from + Math.floor(random() * (text.length - from + 1));
        const sub = text.slice(from, to);
        const expected = secretsPotentialStart(sub);
        if (secretsPotentialStartFiltered(sub) !== expected) {
          expect({ text: sub, filtered: secretsPotentialStartFiltered(sub) }).toEqual({
            text: sub,
            filtered: expected,
          });
        }
        if (expected < sub.length) held++;
      }
    }
    // Both kinds of text are common: ruled out and, within those, held back.
    expect(ruledOut).toBeGreaterThan(4_000);
    expect(held).toBeGreaterThan(4_000);
  });

  it('holds back an Authorization header or a curl command in a case the filter does not look for', () => {
    for (const [text, start] of [
      ['then AuthoriZation: Bearer ab', 5],
      ['run Curl -u me:pa', 4],
    ] as const) {
      expect(secretsMayMatch(text)).toBe(false);
      expect(secretsPotentialStartFiltered(text)).toBe(start);
      expect(secretsPotentialStart(text)).toBe(start);
    }
    expect(secretsPotentialStartFiltered('say "hello')).toBe(4);
    // The last word may still grow into a key.
    expect(secretsPotentialStartFiltered('The team agreed on three priorities')).toBe(25);
  });
});
