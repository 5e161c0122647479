import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { findSecrets, scanSecrets } from './find-secrets';
import { secrets } from './secrets';

const found = (text: string) =>
  findSecrets(text).map(span => [span.type, text.slice(span.start, span.end)]);

// Round 33: a value on the lines after `password: |` was read by no scan;
// a low-entropy one (a password, not a random token) reached the model.
describe('YAML block scalars under a secret-named key', () => {
  it.each([
    ['literal', 'password: |\n  hunter2hunter\n'],
    ['folded, stripped', 'config:\n  db_password: >-\n    hunter2hunter\n  user: bob\n'],
    ['kept, with an indentation digit', 'password: |+2\n  hunter2hunter\n\nnext: 1'],
    ['a comment after the indicator', 'password: | # prod\n  hunter2hunter\n'],
    ['a list item', 'users:\n- password: |\n    hunter2hunter\n- name: bob\n'],
    ['a quoted key', '"db_password": >\n  hunter2hunter\n'],
    ['CRLF line ends', 'password: |\r\n  hunter2hunter\r\nuser: bob\r\n'],
    ['a tab before the indicator', 'password:\t|\n  hunter2hunter'],
  ])('finds the value (%s)', (_form, text) => {
    expect(found(text)).toEqual([['GENERIC_SECRET', 'hunter2hunter']]);
  });

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

  it('skips placeholders (counted), names and keys that name no secret', () => {
    expect(scanSecrets('password: |\n  changeme\n')).toEqual({ spans: [], placeholdersSkipped: 1 });
    expect(found('password_hint: |\n  my first dog 1999\n')).toEqual([]);
    expect(found('description: |\n  hunter2hunter\n')).toEqual([]);
    expect(found('password: |\n')).toEqual([]);
    expect(found('password: |\nuser: bob\n')).toEqual([]);
  });

  it('reads only a key at its line start, and only an indicator that ends its line', () => {
    expect(found('echo "password: |"\n  hunter2hunter\n')).toEqual([]);
    expect(found('| password: | x |\n  hunter2hunter\n')).toEqual([]);
    expect(found('password: |x\n  hunter2hunter\n')).toEqual([]);
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
