import { describe, expect, it, vi } from 'vitest';
import { expectInputRedacted } from '../../../test/helpers/redacted-input';
import {
  base64Alphabet,
  oneSecretInputRecord,
  seededRun,
} from '../../../test/helpers/secrets-redacted';
import type * as entropy from './entropy';
import { secrets } from './secrets';

// Counts the entropy detector's judgements (the module's own function, called through).
const judged = vi.hoisted(() => ({ count: 0 }));
vi.mock('./entropy', async original => {
  const actual = await original<typeof entropy>();
  return {
    ...actual,
    judgeEntropyToken: (...args: Parameters<typeof actual.judgeEntropyToken>) => {
      judged.count++;
      return actual.judgeEntropyToken(...args);
    },
  };
});

/**
 * Round 32: a megabyte of a private key's body lines took about 0.9 s to
 * redact: each of its 16,000 base64 lines was judged as an entropy token
 * (placeholder tests, entropy) and then dropped under the key's span. The
 * entropy scan now reads no run inside a private key's span.
 */
describe("a private key's body", () => {
  it('generateText: a 1 MB key is redacted whole, its lines never judged as tokens', async () => {
    const body = seededRun(1_000_000, base64Alphabet, 3)
      .match(/.{1,64}/g)!
      .join('\n');
    const key = `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`;
    const token = seededRun(40, base64Alphabet.slice(0, 62), 9);
    judged.count = 0;
    await expectInputRedacted(
      () => secrets({ action: 'redact' }),
      `key:\n${key}\nnext ${token} ok`,
      'key:\n[PRIVATE_KEY]\nnext [HIGH_ENTROPY_STRING] ok',
      [
        {
          guardrail: 'secrets',
          kind: 'input',
          status: 'modified',
          info: {
            types: ['PRIVATE_KEY', 'HIGH_ENTROPY_STRING'],
            spans: [
              { type: 'PRIVATE_KEY', start: 5, end: 5 + key.length },
              {
                type: 'HIGH_ENTROPY_STRING',
                start: 5 + key.length + 6,
                end: 5 + key.length + 6 + token.length,
              },
            ],
          },
        },
      ],
    );
    // The token after the key, in each of the three calls (the redacted text's check included).
    expect(judged.count).toBeLessThan(10);
  });

  it('a key no longer than a line is read as before', async () => {
    const key = `-----BEGIN PRIVATE KEY-----\n${seededRun(64, base64Alphabet, 5)}\n-----END PRIVATE KEY-----`;
    await expectInputRedacted(
      () => secrets({ action: 'redact' }),
      `key:\n${key}\nthanks`,
      'key:\n[PRIVATE_KEY]\nthanks',
      oneSecretInputRecord('PRIVATE_KEY', 5, key.length),
    );
  });
});

/**
 * Round 33: a megabyte of certificate lines (armoured base64 with no
 * private key's BEGIN line) cost about 0.4 s: each line was judged as an
 * entropy token (placeholder tests, entropy) before `isArmourLine` dropped
 * it. The armour test, which reads only the blanks beside a token that is
 * not a whole line, now comes first.
 */
describe('certificate and other armoured base64 lines', () => {
  it('generateText: a 1 MB certificate passes, its lines never judged as tokens', async () => {
    const body = seededRun(1_000_000, base64Alphabet, 4)
      .match(/.{1,64}/g)!
      .join('\n');
    const certificate = `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`;
    const token = seededRun(40, base64Alphabet.slice(0, 62), 9);
    judged.count = 0;
    await expectInputRedacted(
      () => secrets({ action: 'redact' }),
      `cert:\n${certificate}\nnext ${token} ok`,
      `cert:\n${certificate}\nnext [HIGH_ENTROPY_STRING] ok`,
      oneSecretInputRecord('HIGH_ENTROPY_STRING', 6 + certificate.length + 6, token.length),
    );
    // The token after the certificate, in each of the calls (the redacted text's check included).
    expect(judged.count).toBeLessThan(10);
  });

  it('MIME base64 lines (76 wide, no BEGIN line) are not judged either', async () => {
    const body = seededRun(200_000, base64Alphabet, 6)
      .match(/.{1,76}/g)!
      .join('\r\n');
    const text = `Content-Transfer-Encoding: base64\r\n\r\n${body}\r\n`;
    judged.count = 0;
    await expectInputRedacted(() => secrets({ action: 'redact' }), text, text, [
      { guardrail: 'secrets', kind: 'input', status: 'passed' },
    ]);
    expect(judged.count).toBeLessThan(10);
  });
});
