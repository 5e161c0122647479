import { describe, expect, it } from 'vitest';
import { promptSentWithRecords } from '../../../test/helpers';
import { findSecrets } from './find-secrets';
import { isPlaceholderValue } from './placeholder';
import { secrets } from './secrets';

/**
 * A typed run (`12345678`, `abcdefghij`, `11111111`, `xxxxx`, `****`) made
 * the whole value an example, whatever stood beside it: a real key with one
 * appended passed (round 17). Now, as beside a placeholder word, the run
 * excuses the value only when what stays beside it could be no secret.
 */
describe('typed runs beside a real value', () => {
  it('generateText: a key or password with a typed run appended reaches the model redacted; the record has its spans', async () => {
    const prompt =
      'api_key=Xq9Lm2Zr8Wq4Tb6Yp12345678 password=Tr0ub4dor&3xabcdefgh ' +
      'Authorization: Bearer Xq9Lm2Zr8Wq4Tb6Yp4111111111111111 secret=Xq9Lm2Zr8Wq4Tb6Ypxxxxxxxx';
    const { sent, records } = await promptSentWithRecords(secrets({ action: 'redact' }), prompt);
    expect(sent).toBe(
      'api_key=[GENERIC_SECRET] password=[GENERIC_SECRET] ' +
        'Authorization: Bearer [AUTHORIZATION_HEADER] secret=[GENERIC_SECRET]',
    );
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['GENERIC_SECRET', 'AUTHORIZATION_HEADER'],
          spans: [
            { type: 'GENERIC_SECRET', start: 8, end: 33 },
            { type: 'GENERIC_SECRET', start: 43, end: 63 },
            { type: 'AUTHORIZATION_HEADER', start: 86, end: 119 },
            { type: 'GENERIC_SECRET', start: 127, end: 152 },
          ],
        },
      },
    ]);
  });

  it('finds each run shape at either end of a value', () => {
    for (const run of ['12345678', 'abcdefghij', '00000000', 'XXXXXXXX', '********', '#####']) {
      for (const value of [`Xq9Lm2Zr8Wq4Tb6Yp${run}`, `${run}Xq9Lm2Zr8Wq4Tb6Yp`]) {
        const text = `password=${value}`;
        expect({ text, found: findSecrets(text) }).toEqual({
          text,
          found: [{ type: 'GENERIC_SECRET', start: 9, end: text.length }],
        });
      }
    }
  });

  it('still takes typed values with nothing secret beside their runs for examples', () => {
    for (const value of [
      'sk_test_xxxxxxxxxxxxxxxxxxxxxxxx',
      'abcdefghij1234567890',
      '1234567890abcdef1234567890abcdef1234567890abcdefextra',
      '5555555dAAAAA7777777CcccCFaaaaaaaaaaaaaa',
      'your-key-12345678',
      'Txxxxxxxx/Bxxxxxxxx',
    ]) {
      expect({ value, placeholder: isPlaceholderValue(value) }).toEqual({
        value,
        placeholder: true,
      });
    }
  });
});
