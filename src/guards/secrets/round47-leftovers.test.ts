import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { expectLinearOnRepeats } from '../../../test/helpers/repeated-unit-cost';
import { foundSecrets, secretsRedacted } from '../../../test/helpers/secrets-redacted';
import { anchoredScanMismatches, findSecrets } from './find-secrets';
import { secrets } from './secrets';

/*
 * Round 47 (hN, issue 17): what round 47's config rules left. Every value
 * below is made up for this file.
 */

const PASSWORD = 'Wq7!zR3kLm9x';
const TOKEN = 'k8Tz3Qm7Xw2Rb9Yp4Vd1Hs6Nf0Jc';

/** `value` is the one secret found in `text`, exactly, and redacted so. */
function expectOneGenericSecret(text: string, value: string) {
  const start = text.indexOf(value);
  expect(findSecrets(text)).toEqual([{ type: 'GENERIC_SECRET', start, end: start + value.length }]);
  expect(secretsRedacted(text)).toBe(text.replace(value, '[GENERIC_SECRET]'));
}

describe('a setting of a secret (its algorithm, scheme, expiration, variable) is no secret', () => {
  it.each([
    ['password_hash_algorithm: argon2id'],
    ['password_hashing_algorithm = "pbkdf2_sha256"'],
    ['PASSWORD_HASHERS=argon2id,bcrypt2'],
    ['password_encryption = scram-sha-256'],
    ['secret_key_algorithm = AES256'],
    ['password_scheme: SSHA512'],
    ['token_cipher: aes-256-gcm'],
    ['password_method: md5crypt'],
    ['token_expiration: 3600s2'],
    ['"secret_rotation": "P90D-x2"'],
    ['api_key_env: DEPLOY_KEY_V2'],
    ['vault_token_backend: kv2-store'],
    ['password_hash: argon2id'],
    ['password_digest: bcrypt'],
  ])('%s: nothing', text => {
    expect(findSecrets(text)).toEqual([]);
  });

  it('a hash under a hash key is still found (it can be cracked offline), and a password named so', () => {
    const hash = '$2a$12$Zr8kq2Lm9xTq4Wb7Yp1Nd';
    expect(foundSecrets(`password_digest: ${hash}`)).toEqual([['GENERIC_SECRET', hash]]);
    expect(foundSecrets('password_hash: bcrypt2x9')).toEqual([['GENERIC_SECRET', 'bcrypt2x9']]);
    expect(foundSecrets('password: argon2id')).toEqual([['GENERIC_SECRET', 'argon2id']]);
    expect(foundSecrets(`hash_password: ${PASSWORD}`)).toEqual([['GENERIC_SECRET', PASSWORD]]);
  });
});

describe('a plural key with a plain string value: the value (missed before)', () => {
  it.each([
    [`{"passwords": "${PASSWORD}"}`, PASSWORD],
    [`passwords: ${PASSWORD}`, PASSWORD],
    [`{"api_keys": "${TOKEN}"}`, TOKEN],
    [`SECRETS=${TOKEN}`, TOKEN],
    [`"credentials": '${PASSWORD}'`, PASSWORD],
  ])('%s', expectOneGenericSecret);

  it('what plural keys hold that is no secret stays unflagged', () => {
    for (const text of [
      'secrets: inherit',
      'max_tokens: 4096',
      '"credentials": "same-origin"',
      '"stop_tokens": "<|im_end|>"',
      `secrets: \${{ secrets.DEPLOY }}`,
      'imagePullSecrets: regcred2',
      '{"passwords": []}',
    ])
      expect(findSecrets(text)).toEqual([]);
  });
});

// A Grafana Cloud access policy token: `glc_` and standard base64 (made up).
const GLC = 'glc_Zq8Lm2Xw/9Tb6Yp1Kd7Hs3+Nf5Vg0Jc7Qe2Rt4Ua8Wm1Bn6Cx3Dz5Ey9Fo0Gi=';
const GLSA = 'glsa_Zq8Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe_9c41d0e7';

describe('Grafana tokens (a glc_ key with + or / was missed)', () => {
  it.each([
    ['GRAFANA_CLOUD=', GLC, ''],
    ['loki_key: ', GLC, '\n'],
    ['"', GLC.slice(0, -1), '"'],
    ['Bearer ', GLSA, ' ok'],
  ])('%j then the token: GRAFANA_TOKEN, its span the token', (before, token, after) => {
    const text = `${before}${token}${after}`;
    expect(findSecrets(text)).toEqual([
      { type: 'GRAFANA_TOKEN', start: before.length, end: before.length + token.length },
    ]);
    expect(secretsRedacted(text)).toBe(`${before}[GRAFANA_TOKEN]${after}`);
  });

  it('a token past 400 base64 characters is read to its end', () => {
    const long = `${GLC.slice(0, -1)}${'aB3/'.repeat(100)}Zz==`;
    expect(foundSecrets(`k=${long} x`)).toEqual([['GRAFANA_TOKEN', long]]);
  });

  it('look-alikes stay unflagged: a placeholder, an identifier, a path, a short one', () => {
    expect(findSecrets(`glc_${'x'.repeat(68)}`)).toEqual([]);
    expect(
      findSecrets('void GLC_CreateLightmapTextureArray(void); glc_upload_lightmap(1);'),
    ).toEqual([]);
    expect(findSecrets('see glc_textures/lightmaps/arrays/individual/units.c')).toEqual([]);
    expect(findSecrets('glc_Zq8Lm2Xw9Tb6')).toEqual([]);
  });
});

describe('a password noted in a comment (an SSH config has no password setting)', () => {
  it.each([
    ['an SSH config', `Host bastion\n  HostName 10.0.0.1\n  User ops\n  # password ${PASSWORD}`],
    ['a shell script', `#!/bin/sh\n# PASSWORD ${PASSWORD}\nssh ops@host\n`],
    ['trailing blanks', `#passwd ${PASSWORD}  \r\nx`],
    ['a passphrase', `  #  Passphrase ${PASSWORD}`],
  ])('%s: the value', (_, text) => expectOneGenericSecret(text, PASSWORD));

  it('a value past 128 characters is read to its end', () => {
    const long = `${PASSWORD}${TOKEN.repeat(5)}`;
    expect(foundSecrets(`# password ${long}\n`)).toEqual([['GENERIC_SECRET', long]]);
  });

  it.each([
    ['prose after the word', '# Password Authentication is off'],
    ['one word of letters', '# Password Authentication'],
    ['a placeholder', '# password changeme1'],
    ['a variable', `# password \${DB_PASS}`],
    ['not the comment’s first word', `# the password ${PASSWORD}`],
    ['a comment after code', `x = 1 # password ${PASSWORD}`],
    ['more words after the value', `# password ${PASSWORD} is rotated`],
    ['a note on what to do', '# password required'],
  ])('%s: nothing', (_, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it('window mode: stream == generate, the value redacted', async () => {
    const CHUNKINGS = [[1], [2], [3], [7], [13], [50], [1, 7, 3], [4096]];
    const long = `${PASSWORD}${TOKEN.repeat(40)}`;
    for (const [text, redacted] of [
      [`Host b\n  User ops\n  # password ${PASSWORD}\nHost c\n`, PASSWORD],
      [`${'w'.repeat(60)} x # password ${PASSWORD}\nok`, undefined],
      [`${'long line of words '.repeat(5)}\n# password ${long}\nok`, long],
    ] as const) {
      const { generated, streamed } = await windowAndGenerateTexts(
        secrets({ action: 'redact' }),
        text,
        CHUNKINGS,
      );
      expect(generated).toBe(redacted ? text.replace(redacted, '[GENERIC_SECRET]') : text);
      expect(streamed).toEqual(Array(CHUNKINGS.length).fill(generated));
    }
  });
});

describe('the anchored scan matches a full scan of each new rule', () => {
  it.each([
    [`a ${GLC} glc_${TOKEN}+/ x/glc_${TOKEN}${TOKEN} ${GLSA}`],
    [`# password ${PASSWORD}\n #PWD ${PASSWORD} x\n# Passwd ${PASSWORD}\n`],
  ])('%j', text => {
    expect(anchoredScanMismatches(text)).toEqual([]);
  });
});

describe('linear time on a new rule prefix repeated', () => {
  it.each([
    ['glc_'],
    [`glc_${'A1b+'.repeat(10)}`],
    ['glsa_'],
    ['# password '],
    ['\n# password x1'],
  ])(
    '1 MB of %j costs at most 3x four times 256 KB of it',
    unit => expectLinearOnRepeats(findSecrets, unit),
    120_000,
  );
});
