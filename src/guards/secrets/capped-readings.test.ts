import { describe, it } from 'vitest';
import { expectWindowAsGenerate } from '../../../test/helpers/redacted-input';
import { base64Alphabet, expectWhole, seededRun } from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Round 30. A secret longer than a pattern's bound was redacted up to the
 * bound and its rest released: a PEM key past 400 lines of 64 (a
 * 16,384-bit key, ~23,000 characters of body) or with a body pasted as
 * one line (any over 200 characters: not found at all), a JWT payload past
 * 8,000 characters, an `Authorization` value past 4,000, a bare password
 * past 300, bounded provider tokens (Bedrock, PyPI, Fly.io). Each is read
 * to its end, at one past the bound and at ten times it.
 */

/** `length` characters of base64 from a fixed seed (no placeholder, no repeats). */
const base64Run = (length: number, seed = 12345) => seededRun(length, base64Alphabet, seed);

/** `lines` lines of `width` base64 characters, each ended by `lineBreak`. */
function pemBody(lines: number, width = 64, lineBreak = '\n'): string {
  const run = base64Run(lines * width);
  let body = '';
  for (let line = 0; line < lines; line++)
    body += run.slice(line * width, (line + 1) * width) + lineBreak;
  return body;
}

const BEGIN = '-----BEGIN RSA PRIVATE KEY-----';
const END = '-----END RSA PRIVATE KEY-----';

describe('a secret longer than its pattern reads', () => {
  it('generateText: a PEM key past 400 lines is redacted to its END line', async () => {
    for (const lines of [401, 4000]) {
      await expectWhole('PRIVATE_KEY', 'key:\n', `${BEGIN}\n${pemBody(lines)}${END}`, '\nthanks');
      await expectWhole(
        'PRIVATE_KEY',
        '{"key":"',
        `${BEGIN}\\n${pemBody(lines, 64, '\\n')}${END}`,
        '\\n"}',
      );
    }
  });

  it('generateText: a PEM key past 400 lines with no END line is redacted to the end', async () => {
    for (const lines of [401, 4000]) {
      const key = `${BEGIN}\n${pemBody(lines)}`;
      await expectWhole('PRIVATE_KEY', 'key:\n', key, '');
    }
  });

  it('generateText: a PEM body on one line, or of lines over 200 wide, is redacted', async () => {
    for (const width of [201, 1700, 30_000]) {
      await expectWhole('PRIVATE_KEY', 'key: ', `${BEGIN}\n${base64Run(width)}\n${END}`, ' ok');
      await expectWhole('PRIVATE_KEY', '{"key":"', `${BEGIN}\\n${base64Run(width)}`, '"}');
      await expectWhole('PRIVATE_KEY', 'key: ', `${BEGIN}\n${pemBody(3, width)}${END}`, ' ok');
    }
  });

  it('generateText: a JWT whose payload runs past 8,000 characters is redacted whole', async () => {
    const header = btoa('{"alg":"HS256","typ":"JWT"}').replace(/=+$/, '');
    for (const length of [8001, 80_000]) {
      const payload = `eyJ${base64Run(length).replace(/\+/g, '-').replace(/\//g, '_')}`;
      const jwt = `${header}.${payload}.${base64Run(43, 7).replace(/[+/]/g, 'x')}`;
      await expectWhole('JWT', 'token ', jwt, ' ok.');
    }
  });

  it('generateText: bounded values read on to their end', async () => {
    const letters = (length: number) => base64Run(length).replace(/[+/]/g, 'q');
    for (const times of [1, 10]) {
      await expectWhole(
        'AUTHORIZATION_HEADER',
        'Authorization: Bearer ',
        letters(4000 * times + 1),
        ' ok',
      );
      await expectWhole('AWS_BEDROCK_API_KEY', 'key ', `ABSK${letters(400 * times + 1)}`, ' ok');
      await expectWhole(
        'PYPI_TOKEN',
        'key ',
        `pypi-AgEIcHlwaS5vcmc${letters(1000 * times + 1)}`,
        ' ok',
      );
      await expectWhole('FLYIO_TOKEN', 'key ', `FlyV1 fm2_${letters(2000 * times + 1)}`, ' ok');
      await expectWhole(
        'AWS_BEDROCK_API_KEY',
        'key ',
        `bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t${letters(2000 * times + 1)}`,
        ' ok',
      );
      await expectWhole('GENERIC_SECRET', 'password=', `${letters(300 * times + 1)}!Zx9`, ' ok');
    }
  });

  it('generateText: a Kubernetes Secret JSON value past 16,384 characters is redacted', async () => {
    for (const length of [16_385, 163_840]) {
      await expectWhole(
        'KUBERNETES_SECRET',
        '{"kind":"Secret","data":{"tls.key":"',
        base64Run(length),
        '"}}',
      );
    }
  });

  it('window streaming ends as generate does for a key past 400 lines', async () => {
    await expectWindowAsGenerate(
      () => secrets({ action: 'redact' }),
      `key:\n${BEGIN}\n${pemBody(401)}${END}\nthanks`,
      'key:\n[PRIVATE_KEY]\nthanks',
      [[500], [4096]],
    );
  });

  it('a key that is no longer than the bound is read as before', async () => {
    const key = `${BEGIN}\n${pemBody(30)}${END}`;
    await expectWhole('PRIVATE_KEY', 'key:\n', key, '\nthanks');
    // A line that is no key's (a word glued to a dot) still ends a block without its END line.
    await expectWhole('PRIVATE_KEY', 'key:\n', `${BEGIN}\n${pemBody(30)}`, 'see.');
  });
});
