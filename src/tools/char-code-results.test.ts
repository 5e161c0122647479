import { describe, expect, it } from 'vitest';
import { codes, guardedToolResultSent, recordTypes } from '../../test/helpers/char-codes';

/*
 * Round 20: a tool result holding text as character codes passed pii: an
 * array of numbers (`[52,49,49,49,…]` for `4111 1111 1111 1111`), a
 * Uint16Array or Int32Array (written `{"0":52,…}`), which a model decodes
 * when asked. Round 19 read byte arrays (Uint8Array, Buffer, Int8Array) as
 * UTF-8 only. An array of 8 numbers or more that are all character codes
 * of text (integers 9, 10, 13, 32-126, 160 and up) is now also judged as its
 * text: unmodified, the model reads the numbers as they were; modified,
 * the judged text in their place. Larger typed arrays are sent as arrays.
 */

const CARD = 'card 4111 1111 1111 1111';
const EMAIL = 'jane.doe@corp.io';

/** What the model read of the tool result in its second call, and the records. */
async function run(result: unknown) {
  const { sent, records } = await guardedToolResultSent(result);
  return { sent, records: records.map(recordTypes) };
}

describe('a tool result holding text as character codes', () => {
  it('an array of numbers: the card and the e-mail are redacted in place', async () => {
    expect(await run({ data: codes(CARD), id: 7 })).toEqual({
      sent: { type: 'json', value: { data: 'card [CREDIT_CARD]', id: 7 } },
      records: [['pii', 'modified', ['CREDIT_CARD']]],
    });
    expect(await run(codes(EMAIL))).toEqual({
      // The whole result was the array: it goes on as the text (a string result).
      sent: { type: 'text', value: '[EMAIL_ADDRESS]' },
      records: [['pii', 'modified', ['EMAIL_ADDRESS']]],
    });
  });

  it('typed arrays of 16 and 32 bits, and floats that are integers', async () => {
    for (const array of [
      Uint16Array.from(codes(EMAIL)),
      Int16Array.from(codes(EMAIL)),
      Uint32Array.from(codes(EMAIL)),
      Int32Array.from(codes(EMAIL)),
      Float64Array.from(codes(EMAIL)),
    ]) {
      expect(await run({ file: array })).toEqual({
        sent: { type: 'json', value: { file: '[EMAIL_ADDRESS]' } },
        records: [['pii', 'modified', ['EMAIL_ADDRESS']]],
      });
    }
  });

  it('ArrayBuffer and DataView are written {} (the model reads nothing of them)', async () => {
    const bytes = new TextEncoder().encode(EMAIL);
    for (const value of [bytes.buffer, new DataView(bytes.buffer)]) {
      const { sent } = await run({ file: value });
      expect(JSON.stringify(sent)).not.toContain('106');
      expect(JSON.stringify(sent)).not.toContain('jane');
    }
  });

  it('ordinary number arrays go on as numbers, and so does a clean text array', async () => {
    const scores = { coordinates: [52.52, 13.405], ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] };
    const years = { years: [1990, 2001, 1985, 2020, 2023, 1999, 2010, 2015] };
    const hello = { text: codes('Hello, world') };
    for (const result of [scores, years, hello]) {
      expect(await run(result)).toEqual({
        sent: { type: 'json', value: result },
        records: [['pii', 'passed', undefined]],
      });
    }
    // Another value redacted: the arrays beside it stay numbers.
    expect(await run({ ...years, ...hello, owner: EMAIL })).toEqual({
      sent: { type: 'json', value: { ...years, ...hello, owner: '[EMAIL_ADDRESS]' } },
      records: [['pii', 'modified', ['EMAIL_ADDRESS']]],
    });
  });
});
