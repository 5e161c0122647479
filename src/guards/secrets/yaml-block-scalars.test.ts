import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets as found } from '../../../test/helpers/secrets-redacted';
import { scanSecrets } from './find-secrets';
import { secrets } from './secrets';

// Round 33: a value on the lines after `password: |` was read by no scan;
// a low-entropy one (a password, not a random token) reached the model.
describe('YAML block scalars under a secret-named key', () => {
  // The forms of the block itself: in config-formats.test.ts.
  it('reports every line of the value, blank lines inside it too, and nothing after it', () => {
    const text = 'api_token: |\n  q8Zr4 Lm2\n\n  Xw9T more\nuser: bob\npath: /x\n';
    expect(found(text)).toEqual([['GENERIC_SECRET', 'q8Zr4 Lm2\n\n  Xw9T more']]);
  });

  it('ends the value at the first line no deeper than the key', () => {
    const text = 'db:\n  password: |\n    hunter2hunter\n  host: db.internal\n';
    expect(found(text)).toEqual([['GENERIC_SECRET', 'hunter2hunter']]);
  });

  it('keeps a provider token inside the value typed, and judges the rest apart', () => {
    const token = `ghp_${'q8Zr4Lm2Xw9Tb6Yp3Vn7Kc1Hd5Jf0Gs8Rt2W'}`;
    expect(found(`token: |\n  ${token}\n`)).toEqual([['GITHUB_TOKEN', token]]);
  });

  it('reads an indicator one to 16 blanks after the colon, and only there', () => {
    // Round 34: found from each `:` rather than each `|` and `>`.
    const value = (blanks: string) => found(`password:${blanks}|\n  hunter2hunter\n`);
    expect(value(' ')).toEqual([['GENERIC_SECRET', 'hunter2hunter']]);
    expect(value('\t')).toEqual([['GENERIC_SECRET', 'hunter2hunter']]);
    expect(value(' '.repeat(16))).toEqual([['GENERIC_SECRET', 'hunter2hunter']]);
    expect(value('')).toEqual([]);
    expect(value(' '.repeat(17))).toEqual([]);
    // Beside a markdown table, whose `|` hold no indicator.
    const table = '| a | b |\n|---|---|\n| 1 | 2 |\n';
    expect(found(`${table}password: >-\n  hunter2hunter\n${table}`)).toEqual([
      ['GENERIC_SECRET', 'hunter2hunter'],
    ]);
  });

  it('skips a placeholder, and counts it', () => {
    expect(scanSecrets('password: |\n  changeme\n')).toEqual({ spans: [], placeholdersSkipped: 1 });
  });

  it.each([
    ['a key naming something about a secret', 'password_hint: |\n  my first dog 1999\n'],
    ['a key naming no secret', 'description: |\n  hunter2hunter\n'],
    ['an empty block at the end', 'password: |\n'],
    ['an empty block before the next key', 'password: |\nuser: bob\n'],
    ['a key inside a quoted string', 'echo "password: |"\n  hunter2hunter\n'],
    ['a table cell', '| password: | x |\n  hunter2hunter\n'],
    ['an indicator with more on its line', 'password: |x\n  hunter2hunter\n'],
  ])('reads nothing for %s', (_case, text) => {
    expect(found(text)).toEqual([]);
  });

  it('window streaming holds a block while its lines may still come', async () => {
    // `correct horse` alone is no secret: released before the rest came (round 33).
    const answer = 'Config:\npassword: |\n  correct horse\n  battery staple 42\nuser: x\nDone.';
    const redacted = answer.replace('correct horse\n  battery staple 42', '[GENERIC_SECRET]');
    const chunkings = [[1], [3], [7], [13, 2, 40]];
    expect(await windowAndGenerateTexts(secrets({ action: 'redact' }), answer, chunkings)).toEqual({
      generated: redacted,
      streamed: chunkings.map(() => redacted),
    });
  });

  it('is redacted alike in generate and in window streaming', async () => {
    const answer =
      'Use this:\n\n```yaml\ndb:\n  password: |\n    hunter2hunter\n  user: bob\n```\nDone.';
    const redacted = answer.replace('hunter2hunter', '[GENERIC_SECRET]');
    const chunkings = [[1], [7], [13, 2, 40]];
    expect(await windowAndGenerateTexts(secrets({ action: 'redact' }), answer, chunkings)).toEqual({
      generated: redacted,
      streamed: chunkings.map(() => redacted),
    });
  });
});
