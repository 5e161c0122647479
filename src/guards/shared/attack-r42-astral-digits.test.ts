import { describe, expect, it } from 'vitest';
import { findPii } from '../pii/find-pii-bundled';
import { normalizeText } from './normalize-text';

/*
 * Round 42, an attacker's read of the shared normal form (round 41 moved
 * more of it between readers): `normalizeText` folds the decimal digits of
 * other scripts that NFKC leaves alone (`digitZeros`), but only the 35 runs
 * of the Basic Multilingual Plane, read a UTF-16 unit at a time. The 32
 * runs past it (Osmanya, Brahmi, Adlam, Sharada, Ahom, Wancho,
 * Nag Mundari…, \p{Nd} from U+104A0 on) stay as written, so a card number,
 * a phone number or an SSN an answer writes in them is found by no finder
 * and `pii()` releases it. Found at 285f814f. Not fixed: normalize-text.ts
 * is src/guards/shared (hE's lane this round); the fix is the astral zeros
 * in the list and a code point read where the fold is asked.
 */

/** `text` with its ASCII digits written from the zero at `zero`. */
function inDigits(text: string, zero: number): string {
  return text.replace(/\d/g, digit => String.fromCodePoint(zero + Number(digit)));
}

const values = 'card 4111 1111 1111 1111 phone +44 20 7946 0958 ssn 536-22-1234';

/** The values written from `zero` normalise to ASCII digits, and each is found. */
function readAsAscii(zero: number): void {
  expect(normalizeText(inDigits(values, zero)).text).toBe(values);
  expect(findPii(inDigits(values, zero)).map(span => span.type)).toEqual([
    'CREDIT_CARD',
    'PHONE_NUMBER',
    'US_SSN',
  ]);
}

describe('decimal digits of other scripts', () => {
  it.each([
    ['Arabic-Indic', 0x660],
    ['Devanagari', 0x966],
    ['Thai', 0xe50],
    ['Meetei Mayek', 0xabf0],
  ])('%s digits (in the Basic Multilingual Plane) are read as ASCII digits', (_, zero) => {
    readAsAscii(zero);
  });

  // DEFECT (found at 285f814f): the digits come back as written, and no value is found.
  it.fails.each([
    ['Osmanya', 0x104a0],
    ['Brahmi', 0x11066],
    ['Adlam', 0x1e950],
  ])('%s digits (past it) are read as ASCII digits, a card found', (_, zero) => {
    readAsAscii(zero);
  });
});
