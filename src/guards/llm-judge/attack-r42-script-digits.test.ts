import { describe, expect, it } from 'vitest';
import { withoutQuotes } from './reason-masking';

/*
 * Round 42, an attacker's read of round 41's reason masking (a quote read
 * by code point). A judge's reason that writes the judged card number or
 * PIN in another script's decimal digits (Arabic-Indic `٤١١١`, Extended
 * Arabic-Indic `۴۱۱۱`, Devanagari `४१११`, Bengali, Thai), or a judged
 * text written in them quoted in ASCII digits, was kept whole in the
 * record: the skeleton folded what NFKD folds (fullwidth, mathematical,
 * circled, superscript digits) but a script's own digits are no
 * compatibility form. Found at 285f814f; fixed in reason-skeleton.ts (a
 * decimal digit of any script is its value).
 */

const card = '4111 1111 1111 1111';
const pin = '4821';

/** `text` with its ASCII digits written from the zero at `zero`. */
function inDigits(text: string, zero: number): string {
  return text.replace(/\d/g, digit => String.fromCodePoint(zero + Number(digit)));
}

const scripts: [string, number][] = [
  ['Arabic-Indic', 0x660],
  ['Extended Arabic-Indic', 0x6f0],
  ['Devanagari', 0x966],
  ['Bengali', 0x9e6],
  ['Thai', 0xe50],
  ['Adlam', 0x1e950],
];

describe('llmJudge reason masking: digits of other scripts', () => {
  const judged = [`my card is ${card} and my pin is ${pin}, thanks`];

  it('ASCII, fullwidth and mathematical digits are masked (as before)', () => {
    for (const zero of [0x30, 0xff10, 0x1d7ce]) {
      expect(withoutQuotes(`it quotes ${inDigits(card, zero)} here`, judged)).toBe(
        'it quotes [quoted] here',
      );
      expect(withoutQuotes(`the code ${inDigits(pin, zero)} here`, judged)).toBe(
        'the code [quoted] here',
      );
    }
  });

  it.each(scripts)('a card and a PIN in %s digits are masked', (_, zero) => {
    expect(withoutQuotes(`it quotes ${inDigits(card, zero)} here`, judged)).toBe(
      'it quotes [quoted] here',
    );
    expect(withoutQuotes(`the code ${inDigits(pin, zero)} here`, judged)).toBe(
      'the code [quoted] here',
    );
  });

  it.each(scripts)('a judged text in %s digits, quoted in ASCII digits, is masked', (_, zero) => {
    const written = [`my card is ${inDigits(card, zero)} and my pin is ${inDigits(pin, zero)}`];
    expect(withoutQuotes(`it quotes ${card} here`, written)).toBe('it quotes [quoted] here');
    expect(withoutQuotes(`the code ${pin} here`, written)).toBe('the code [quoted] here');
  });

  it('digits the judged text does not hold stay, in any script', () => {
    for (const [, zero] of scripts) {
      const other = inDigits('5500 0000 0000 0004', zero);
      expect(withoutQuotes(`it names ${other} here`, judged)).toBe(`it names ${other} here`);
      expect(withoutQuotes(`step ${inDigits('97', zero)} of it`, judged)).toBe(
        `step ${inDigits('97', zero)} of it`,
      );
    }
  });
});
