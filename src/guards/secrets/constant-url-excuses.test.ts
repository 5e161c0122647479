import { describe, expect, it } from 'vitest';
import {
  genericSecretsRedacted,
  promptSentWithRecords,
  windowAndGenerateTexts,
} from '../../../test/helpers';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

/**
 * Round 17: the CONSTANT_NAME and URL excuses of a secret-named key's value
 * applied to the shape alone, as the name shapes did before round 16, so
 * `password=TR0UB4DOR_3X` and `password=https://Tr0ub4dor3x` reached the
 * model. A constant now excuses a value only when no part of it looks like
 * a secret (`hasSecretLookingPart`: under a password key letters mixed with
 * digits; under other keys letters and digits alternating three times); a
 * URL only when it goes to a host name (or `localhost`) without user
 * information and no part of its path, query or fragment alternates letters
 * and digits three times (`?`, `&`, `=`, `#`, `%`, `+` split parts as `/`
 * does).
 */

const found = (text: string) => findSecrets(text).map(span => text.slice(span.start, span.end));

describe('CONSTANT_NAME and URL values of secret-named keys', () => {
  it('reports a value of either shape with a secret-looking part', () => {
    expect(found('password=TR0UB4DOR_3X')).toEqual(['TR0UB4DOR_3X']);
    expect(found('password=https://Tr0ub4dor3x')).toEqual(['https://Tr0ub4dor3x']);
    expect(found('token=XQ9LM2ZR8_WQ4TB')).toEqual(['XQ9LM2ZR8_WQ4TB']);
    expect(found('secret=https://x.io/Xq9Lm2Zr8Wq4')).toEqual(['https://x.io/Xq9Lm2Zr8Wq4']);
  });

  it('still excuses references: constants and URLs whose parts are names', () => {
    for (const text of [
      'password=DB_PASSWORD',
      'password=POSTGRES_ROOT_PASSWORD',
      'api_key=AWS_S3_KEY',
      'token=OAUTH2_TOKEN',
      'password=https://vault.example.com/secret/db2',
      'reset your password: https://www.password-reset-12bh12.com now',
      'secret=https://example.com/cb?next=home&lang=en',
      'token=//cdn.example.com/k8s/v1/tokens',
    ]) {
      expect(found(text), text).toEqual([]);
    }
  });

  it('generateText: the model receives both values redacted, with the record', async () => {
    const prompt = 'password=TR0UB4DOR_3X and password=https://Tr0ub4dor3x ok';
    expect(await promptSentWithRecords(secrets({ action: 'redact' }), prompt)).toEqual({
      sent: 'password=[GENERIC_SECRET] and password=[GENERIC_SECRET] ok',
      records: [
        genericSecretsRedacted([
          [9, 21],
          [35, 54],
        ]),
      ],
    });
  });

  it('window streaming ends as generate does', async () => {
    const answer =
      'Use password=TR0UB4DOR_3X, then password=https://Tr0ub4dor3x; keep DB_PASSWORD.';
    const chunkings = [[1], [3], [7], [2, 5]];
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      chunkings,
    );
    expect(generated).toBe(
      'Use password=[GENERIC_SECRET], then password=[GENERIC_SECRET]; keep DB_PASSWORD.',
    );
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
