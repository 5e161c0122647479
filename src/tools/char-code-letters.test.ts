import { describe, expect, it } from 'vitest';
import {
  codes,
  guardedToolResultSent,
  recordTypes,
  toolOutputsRead,
} from '../../test/helpers/char-codes';

/*
 * Round 22: an array of numbers was read as character codes whenever 8 of
 * its numbers were codes of text, so readings between 32 and 64 read as
 * digits and separators: 16 heart rates from 48 to 57 were a Luhn-valid
 * card, values from 45 to 60 (`-` `.` `/` are 45-47) an SSN, a phone or
 * an IP address, and the array reached the model as `[CREDIT_CARD]`.
 * Random arrays of 8-64 values, flagged before / now: 48-57 4.3% / 0,
 * 45-60 15% / 0, 40-60 6% / 0. An array is now read only when its text
 * holds a letter: codes of a letterless value (`4111 1111 1111 1111`,
 * `536-22-1234`) go on as numbers, as the same digits one per number
 * (`[4,1,1,1,…]`) do; with a letter beside them they are read as before.
 */

/** Heart rates that decode to `5540613508393622`, a Luhn-valid card number. */
const HEART_RATES = codes('5540613508393622');
/** Readings from 45 to 54 that decode to `536-22-1234`, an SSN's shape. */
const READINGS = codes('536-22-1234');

describe('numbers that decode to digits and separators alone', () => {
  it('guardTools: heart rates that spell a Luhn-valid card go on as numbers', async () => {
    expect(HEART_RATES).toEqual([53, 53, 52, 48, 54, 49, 51, 53, 48, 56, 51, 57, 51, 54, 50, 50]);
    const result = { patient: 7, bpm: HEART_RATES };
    const { sent, records } = await guardedToolResultSent(result);
    expect(sent).toEqual({ type: 'json', value: result });
    expect(records.map(recordTypes)).toEqual([['pii', 'passed', undefined]]);
  });

  it('toolOutputs: readings that spell an SSN, and digits one per number, go on as numbers', async () => {
    const value = { sensor: 'a1', readings: READINGS, digits: [4, 1, 1, 1, 1, 1, 1, 1, 1, 1] };
    const { read, records } = await toolOutputsRead({ type: 'json', value });
    expect(read).toEqual([{ type: 'json', value }]);
    expect(records.map(recordTypes)).toEqual([['pii', 'passed', undefined]]);
  });

  it('the same codes with a letter beside them are read as text and redacted', async () => {
    const { read, records } = await toolOutputsRead({
      type: 'json',
      value: { note: codes('ssn 536-22-1234'), readings: READINGS },
    });
    expect(read).toEqual([{ type: 'json', value: { note: 'ssn [US_SSN]', readings: READINGS } }]);
    expect(records.map(recordTypes)).toEqual([['pii', 'modified', ['US_SSN']]]);
    const { sent } = await guardedToolResultSent({ bpm: codes('card 5540613508393622') });
    expect(sent).toEqual({ type: 'json', value: { bpm: 'card [CREDIT_CARD]' } });
  });
});
