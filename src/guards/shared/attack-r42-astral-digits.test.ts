import { describe, expect, it } from 'vitest';
import { cut, windowAndGenerateTexts } from '../../../test/helpers';
import { streamedTextDeltas } from '../../../test/helpers/window';
import { guardrails } from '../../middleware/guardrails-middleware';
import { findPii } from '../pii/find-pii-bundled';
import { pii } from '../pii/pii';
import { normalizeText } from './normalize-text';

/*
 * Round 42, an attacker's read of the shared normal form (round 41 moved
 * more of it between readers): `normalizeText` folds the decimal digits of
 * other scripts that NFKC leaves alone (`digitZeros`), but only the 35 runs
 * of the Basic Multilingual Plane, read a UTF-16 unit at a time. The 32
 * runs past it (Osmanya, Brahmi, Adlam, Sharada, Ahom, Wancho,
 * Nag Mundari…, \p{Nd} from U+104A0 on) stay as written, so a card number,
 * a phone number or an SSN an answer writes in them is found by no finder
 * and `pii()` releases it. Found at 285f814f. Fixed in round 42: the
 * astral zeros are in the list (`digitZeros`, checked against the
 * runtime's `\p{Nd}` in normalize-text.test.ts), folded per code point.
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

  // Found at 285f814f (the digits came back as written, and no value was found); fixed in round 42.
  it.each([
    ['Osmanya', 0x104a0],
    ['Brahmi', 0x11066],
    ['Adlam', 0x1e950],
  ])('%s digits (past it) are read as ASCII digits, a card found', (_, zero) => {
    readAsAscii(zero);
  });
});

describe('values in digits past the Basic Multilingual Plane, through the middleware (round 42)', () => {
  const scripts = [
    ['Osmanya', 0x104a0],
    ['Brahmi', 0x11066],
    ['Adlam', 0x1e950],
  ] as const;
  const redacted = 'card [CREDIT_CARD] phone [PHONE_NUMBER] ssn [US_SSN]';
  /** Every digit of `\p{Nd}` past U+FFFF, and every lone half of a pair. */
  const rawOrSplit =
    /\p{Nd}|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

  it.each(scripts)(
    '%s: generate redacts each value whole, both units of every digit',
    async (_, zero) => {
      const answer = inDigits(values, zero);
      const { generated } = await windowAndGenerateTexts(pii(), answer, []);
      expect(generated).toBe(redacted);
    },
  );

  it.each(scripts)(
    '%s: window mode releases no raw digit, in any delta, cut anywhere',
    async (_, zero) => {
      const answer = inDigits(values, zero);
      const middleware = guardrails({ output: [pii()], stream: { mode: 'window' } });
      for (const sizes of [[1], [2], [3], [5], [1, 4, 2], [64]]) {
        const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
        expect(deltas.join('')).toBe(redacted);
        for (const delta of deltas) expect(delta).not.toMatch(rawOrSplit);
      }
    },
  );
});
