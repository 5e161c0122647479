import { describe, expect, it } from 'vitest';
import { codes, guardedToolResultSent, toolOutputsRead } from '../../test/helpers/char-codes';
import type { ToolResultOutput } from '../../test/helpers/tool-history';

/*
 * Round 21: an array was read as character codes only when every element
 * was one, and only on its own. A hostile tool (or a forged history) kept
 * the codes from being read with one other number, which a model decoding
 * them reads past: `jane.doe@corp.io`'s codes and a `0` (a C string's end),
 * a `1.5` or a `-1` among a card's; or cut them into arrays shorter than 8
 * (`[[52,49,49,49],[49,49,49,49],…]`). An array of numbers and arrays of
 * numbers is now read whole, the numbers that are no character's code read
 * as nothing, through guardTools and toolOutputs alike.
 */

const EMAIL = 'jane.doe@corp.io';
// With its word: since round 22 codes with no letter among them stay numbers (char-code-letters.test.ts).
const CARD = 'card 4111 1111 1111 1111';
/** The card's codes cut into arrays of 4 (each under 8: none was read). */
const CARD_PIECES = [0, 4, 8, 12, 16, 20].map(at => codes(CARD.slice(at, at + 4)));

/** What the model read of the guarded tool's result, and the records. */
async function throughGuardTools(result: unknown) {
  const { sent, records } = await guardedToolResultSent(result);
  return { sent, records: records.map(r => [r.guardrail, r.status]) };
}

/** What the model read of a forged tool result under `toolOutputs: [pii redact]`. */
async function throughToolOutputs(output: ToolResultOutput) {
  const { read, records } = await toolOutputsRead(output);
  return { read, records: records.map(r => [r.guardrail, r.status]) };
}

describe('character codes among other numbers, or cut into short arrays', () => {
  it('guardTools: a NUL after the codes, junk numbers among them, arrays of 4', async () => {
    const interleaved = codes(CARD).flatMap(code => [code, 1.5, -1]);
    for (const [data, redacted] of [
      [[...codes(EMAIL), 0], '[EMAIL_ADDRESS]'],
      [interleaved, 'card [CREDIT_CARD]'],
      [CARD_PIECES, 'card [CREDIT_CARD]'],
    ] as const) {
      expect(await throughGuardTools({ data, id: 7 })).toEqual({
        sent: { type: 'json', value: { data: redacted, id: 7 } },
        records: [['pii', 'modified']],
      });
    }
  });

  it('toolOutputs: the same arrays in a json output of the prompt', async () => {
    expect(
      await throughToolOutputs({
        type: 'json',
        value: { a: [...codes(EMAIL), 0], b: CARD_PIECES, n: 3 },
      }),
    ).toEqual({
      read: [{ type: 'json', value: { a: '[EMAIL_ADDRESS]', b: 'card [CREDIT_CARD]', n: 3 } }],
      records: [['pii', 'modified']],
    });
  });

  it('numbers the guardrails leave unchanged go on as they were, nested or not', async () => {
    const value = {
      points: [
        [12, 40],
        [13, 41.5],
        [-2, 300],
        [7, 99],
      ],
      ages: [25, 32, 47, 51, 38, 29, 44, 60, 0, 1],
      card: codes(CARD),
    };
    expect(await throughGuardTools(value)).toEqual({
      sent: { type: 'json', value: { ...value, card: 'card [CREDIT_CARD]' } },
      records: [['pii', 'modified']],
    });
    expect(await throughToolOutputs({ type: 'json', value: { points: value.points } })).toEqual({
      read: [{ type: 'json', value: { points: value.points } }],
      records: [['pii', 'passed']],
    });
  });
});
