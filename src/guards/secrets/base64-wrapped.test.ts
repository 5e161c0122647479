import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets, oneSecretInputRecord } from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Round 27: a `.env` file encoded whole in base64 is one token. Up to 200
 * characters the entropy detector reports it; a longer one was taken for a
 * data payload and passed with the GitHub token and password inside. Such a
 * token (201 to 1,000 characters) that decodes to text is now read decoded.
 */
const env = (...lines: string[]) => btoa(`${lines.join('\n')}\n`);
const SETTINGS = [
  'APP_NAME=shop',
  'LOG_LEVEL=info',
  'REGION=eu-west-1',
  'FEATURE_FLAGS=a,b,c',
  'CACHE_TTL=3600',
  'SENTRY_ENV=production',
];
const WITH_KEYS = env(
  ...SETTINGS,
  'GITHUB=ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R',
  'DB_PASSWORD=Tr0ub4dor3x',
);

describe('a base64-wrapped .env file', () => {
  it('generateText: the model receives the wrapped file redacted; the record has its span', async () => {
    expect(WITH_KEYS.length).toBeGreaterThan(200);
    const { sent, records } = await promptSentWithRecords(
      secrets({ action: 'redact' }),
      `ENV_B64: ${WITH_KEYS}\nplease decode it`,
    );
    expect(sent).toBe('ENV_B64: [GITHUB_TOKEN]\nplease decode it');
    expect(records).toEqual(oneSecretInputRecord('GITHUB_TOKEN', 9, WITH_KEYS.length));
  });

  it('a wrapped file of settings only, and binary base64, pass', () => {
    const plain = env(
      ...SETTINGS,
      'HOME=/srv/app',
      'WORKERS=4',
      'TIMEOUT=30',
      'RETRIES=5',
      'MODE=fast',
    );
    expect(plain.length).toBeGreaterThan(200);
    expect(foundSecrets(`cfg ${plain} ok`)).toEqual([]);
    const binary = btoa(
      String.fromCharCode(...Array.from({ length: 240 }, (_, i) => (i * 37) % 256)),
    );
    expect(foundSecrets(`img ${binary} ok`)).toEqual([]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Here it is:\n${WITH_KEYS}\nDone.`;
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      [[1], [3], [7], [16], [64], [1, 9, 4]],
    );
    expect(generated).toBe('Here it is:\n[GITHUB_TOKEN]\nDone.');
    for (const text of streamed) expect(text).toBe(generated);
  });
});
