import { describe, expect, it } from 'vitest';
import {
  genericSecretsRedacted,
  promptSentWithRecords,
  windowAndGenerateTexts,
} from '../../../test/helpers';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

/**
 * A password of words joined by dots (`letmein.now`,
 * `correct.horse.battery`) had a member access's shape and was excused as a
 * reference: it reached the model (round 18). Under a password key the value
 * is the password unless it reads as a reference in code.
 */
describe('letters-only dotted passwords', () => {
  it('finds them under a password key', () => {
    expect(findSecrets('password=letmein.now')).toEqual([
      { type: 'GENERIC_SECRET', start: 9, end: 20 },
    ]);
    expect(findSecrets('password: correct.horse.battery')).toEqual([
      { type: 'GENERIC_SECRET', start: 10, end: 31 },
    ]);
  });

  it('keeps references in code: a secret-naming part, an identifier, an object root; other keys as before', () => {
    for (const text of [
      'password=self.password',
      'password = config.db.pass',
      'password=request.form.get',
      'pwd=user.name',
      'password: os.environ',
      'password=settings.DB_PASSWORD',
      'password=this.userPassword',
      'api_key=letmein.now',
      'token=some.module.path',
    ]) {
      expect(findSecrets(text), text).toEqual([]);
    }
  });

  it('generateText: the model receives the passwords redacted, with records of the spans', async () => {
    const prompt = 'Use password=letmein.now or password: correct.horse.battery today.';
    const { sent, records } = await promptSentWithRecords(secrets({ action: 'redact' }), prompt);
    expect(sent).toBe('Use password=[GENERIC_SECRET] or password: [GENERIC_SECRET] today.');
    expect(records).toEqual([
      genericSecretsRedacted([
        [13, 24],
        [38, 59],
      ]),
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = 'Set password=letmein.now and password: correct.horse.battery then go.';
    const chunkings = [[1], [2], [3], [7], [5, 11], [64]];
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      chunkings,
    );
    expect(generated).toBe('Set password=[GENERIC_SECRET] and password: [GENERIC_SECRET] then go.');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
