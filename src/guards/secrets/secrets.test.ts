import { describe, expect, it } from 'vitest';
import { guardContext, promptTextSent } from '../../../test/helpers';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

const ctx = guardContext('output');
const types = (text: string) => findSecrets(text).map(span => span.type);
const PEM_BODY = [
  'MIIEpAIBAAKCAQEAq8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2RzT4bU9wX1yV3aP6',
  'kL0mN8oQ2rS5tU7vW9xY1zA3bC5dE7fG9hI1jK3lM5nO7pQ9rS1tU3vW5xY7zA9b',
  'Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2RzQ==',
].join('\n');

describe('findSecrets', () => {
  it('finds provider keys with exact spans', () => {
    const text = 'key AKIAIOSFODNN7EXAMPL1 and ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
    expect(findSecrets(text)).toEqual([
      { type: 'AWS_ACCESS_KEY_ID', start: 4, end: 24 },
      { type: 'GITHUB_TOKEN', start: 29, end: 69 },
    ]);
  });

  it('recognises the common provider formats', () => {
    expect(types('sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z')).toEqual(['OPENAI_API_KEY']);
    expect(types('xoxb-103412963322-bhzv1ts5luft8kpi3v5qccc')).toEqual(['SLACK_TOKEN']);
    expect(types('sk_live_4eC39HqLyjWDarjtT1zdp7dc')).toEqual(['STRIPE_KEY']);
    expect(types('npm_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R')).toEqual(['NPM_TOKEN']);
    expect(
      types(`-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`),
    ).toEqual(['PRIVATE_KEY']);
  });

  it('reports only the password of a database URL', () => {
    const text = 'DATABASE_URL=postgres://app:s3cr3t-Pa55@db.internal:5432/app';
    const [span] = findSecrets(text);
    expect(span).toEqual({ type: 'DATABASE_URL_PASSWORD', start: 28, end: 39 });
    expect(text.slice(span!.start, span!.end)).toBe('s3cr3t-Pa55');
  });

  it('finds generic assignments but not placeholders or references', () => {
    expect(types('password = "Tr0ub4dor&3xyz"')).toEqual(['GENERIC_SECRET']);
    expect(
      types(
        'password: $' + '{DB_PASSWORD}' + '\napi_key = "your_api_key"\ntoken = process.env.TOKEN',
      ),
    ).toEqual([]);
  });

  it('finds an assignment inside the rejected value of an earlier one (an open quote cannot hide it)', () => {
    // `token: "abc ` opened a quoted value that ran to the next quote, the
    // assignment's own: its value was judged no secret, and the scan went on
    // after it, so the key inside was never read.
    const secret = 'api_key = "Zx9mQ2vL7pK4wRtY8uI3oP"';
    for (const prefix of ['', 'token: "abc ', '"token": "xOXR-5-z1VA9fMkJMsI ', 'password: "my ']) {
      const text = `${prefix + secret} ok`;
      const start = text.indexOf('Zx9');
      expect(findSecrets(text), prefix).toEqual([
        { type: 'GENERIC_SECRET', start, end: start + 'Zx9mQ2vL7pK4wRtY8uI3oP'.length },
      ]);
    }
    // Nested twice.
    expect(types('token: "a secret: "b api_key = "Zx9mQ2vL7pK4wRtY8uI3oP" ok')).toEqual([
      'GENERIC_SECRET',
    ]);
    // A value judged a secret still hides nothing inside it: it is reported whole.
    expect(findSecrets('password = "hunter22 token=abc"')).toEqual([
      { type: 'GENERIC_SECRET', start: 12, end: 30 },
    ]);
  });

  it('flags long random tokens with the entropy detector', () => {
    expect(types('use q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc here')).toEqual(['HIGH_ENTROPY_STRING']);
  });

  it('does not fire on git SHAs, UUIDs, lockfile hashes or base64 images', () => {
    const text = [
      'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
      'id 123e4567-e89b-12d3-a456-426614174000',
      '"integrity": "sha512-Vd6e9BsYyhQ5B4Gx3qwTiL2F4nPx7mWsjYqT3aKxKuY1aE3wYc8Z0mE9kQhFfR7Ck2aJ4pNzV6LxwQ=="',
      'sha256 d2a84f4b8b650937ec8f73cd8be2c74add5a911ba64df27458ed8229da804a26',
      '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==">',
    ].join('\n');
    expect(findSecrets(text)).toEqual([]);
  });

  it('can turn the entropy detector off', () => {
    expect(findSecrets('q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc', { entropy: false })).toEqual([]);
  });
});

describe('findSecrets: structure and placeholders', () => {
  it('rejects example and placeholder values after a provider prefix', () => {
    expect(types('ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')).toEqual([]);
    expect(types('AKIAEXAMPLE0EXAMPLE1')).toEqual([]);
    expect(types('apiKey: "AIzaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"')).toEqual([]);
    expect(types('secret_key = "sk_abcdefghijklmnopqrstuvwxyz123"')).toEqual([]);
    expect(types('cloudant_pw="abcd1234abcd1234abcd1234abcd1234"')).toEqual([]);
    expect(types('curl --user "xxx:yyy" https://example.test')).toEqual([]);
  });

  it('skips placeholder words only as words, never as letters inside a random key', () => {
    expect(types('ghp_fake_token_for_the_docs_0000000000000')).toEqual([]);
    expect(types('token = "my-dummy-token-here"')).toEqual([]);
    // `fake` and `Dummy` happen to sit inside generated characters here.
    expect(types('ghp_q8ZfakeR2xLm9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe')).toEqual(['GITHUB_TOKEN']);
    expect(types('api_key = "Xw9q8FAKEr4Lm2Tb6Yp1Kd7Hs3"')).toEqual(['GENERIC_SECRET']);
    expect(types('q8Zr4Lm2Xw9Tb6DummyYp1Kd7Hs3Nf5')).toEqual(['HIGH_ENTROPY_STRING']);
  });

  it('skips a placeholder word only when what stays beside it could be no secret', () => {
    // 8+ characters beside the word that are not plain words or short numbers: reported.
    expect(types('token = "my-dummy-token-q8Zr4Lm2Xw9T"')).toEqual(['GENERIC_SECRET']);
    expect(types('aws_secret_access_key="wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"')).toEqual([
      'AWS_SECRET_ACCESS_KEY',
    ]);
    expect(types('AKIAIOSFODNN7EXAMPLE')).toEqual(['AWS_ACCESS_KEY_ID']);
  });

  it('reports placeholders when asked to', () => {
    expect(
      findSecrets('ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', { reportPlaceholders: true }),
    ).toEqual([{ type: 'GITHUB_TOKEN', start: 0, end: 40 }]);
  });

  it('accepts a JWT only when its header decodes to a JSON object', () => {
    const header = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9';
    const payload = 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ';
    const signature = 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
    expect(types(`${header}.${payload}.${signature}`)).toEqual(['JWT']);
    // The header cut by one character no longer parses.
    expect(types(`${header.slice(0, -1)}.${payload}.${signature}`)).not.toContain('JWT');
    expect(types(`eyJhbasdGciOiJIUaddasdasfsasd.${payload}.${signature}`)).not.toContain('JWT');
  });

  it('finds a PEM private key with JSON-escaped line breaks and skips an empty body', () => {
    const escaped = `"private_key": "-----BEGIN PRIVATE KEY-----\\n${PEM_BODY.replaceAll('\n', '\\n')}\\n-----END PRIVATE KEY-----\\n"`;
    const [span] = findSecrets(escaped);
    expect(span?.type).toBe('PRIVATE_KEY');
    expect(escaped.slice(span!.start, span!.end).endsWith('-----END PRIVATE KEY-----')).toBe(true);
    expect(types('-----BEGIN PRIVATE KEY-----\nanything\n-----END PRIVATE KEY-----')).toEqual([]);
  });

  it('matches a PEM key without its END line up to the end of the text (held while streaming)', () => {
    const open = `key:\n-----BEGIN EC PRIVATE KEY-----\n${PEM_BODY.slice(0, 70)}`;
    expect(findSecrets(open)).toEqual([{ type: 'PRIVATE_KEY', start: 5, end: open.length }]);
  });

  it('leaves certificates and public key blocks alone', () => {
    const certificate = [
      '-----BEGIN CERTIFICATE-----',
      'MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ',
      'RTESMBAGA1UEChMJQmFsdGltb3JlMRMwEQYDVQQLEwpDeWJlclRydXN0MSIwIAYD',
      'VQQDExlCYWx0aW1vcmUgQ3liZXJUcnVzdCBSb290MB4XDTAwMDUxMjE4NDYwMFoX',
      '-----END CERTIFICATE-----',
    ].join('\n');
    expect(findSecrets(certificate)).toEqual([]);
  });

  it('does not read names, ids, hosts or public keys as secrets', () => {
    expect(types('CREDENTIALS_ID = "K8S_CRED"')).toEqual([]);
    expect(types('dev.credentials.url=dev-lb1.api.f4ke.com:5215')).toEqual([]);
    expect(types('public_key = "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit"')).toEqual([]);
    expect(types('snowflake.password=\njdbc.snowflake.url=')).toEqual([]);
    expect(
      types(
        '<input name="authenticity_token" value="7SWaFo1hsC6oovfBsJFLGPUl2EhkSWPbJhWANwgaJWBDl1vxd9VNqXTNAe">',
      ),
    ).toEqual([]);
  });

  it('reads passwords in comparisons, XML settings and curl continuation lines', () => {
    expect(types('if (db_pass !== "m{{h}o)p${e]nob(ody") {')).toEqual(['GENERIC_SECRET']);
    expect(types('if ("Tr0ub4dor&3xyz" == password) {')).toEqual(['GENERIC_SECRET']);
    expect(types('<add key="ClearTextPassword" value="hal+9ooo_da!sY" />')).toEqual([
      'GENERIC_SECRET',
    ]);
    expect(types('curl -X POST https://api.test/x \\\n  -u developer:yqDVtkqPECriaLRi')).toEqual([
      'CURL_USER',
    ]);
  });
});

describe('secrets', () => {
  it('blocks with the secret types and never the values', async () => {
    const verdict = await secrets().check('export AWS=AKIAIOSFODNN7EXAMPL1', ctx);
    expect(verdict).toMatchObject({
      action: 'block',
      message: 'The text contains credentials (AWS_ACCESS_KEY_ID).',
      info: { types: ['AWS_ACCESS_KEY_ID'] },
    });
    expect(JSON.stringify(verdict)).not.toContain('AKIA');
  });

  it('redacts each secret with a typed placeholder', async () => {
    expect(
      await secrets({ action: 'redact' }).check('key: AKIAIOSFODNN7EXAMPL1.', ctx),
    ).toMatchObject({
      action: 'modify',
      content: 'key: [AWS_ACCESS_KEY_ID].',
    });
  });

  it('redacts idempotently: its own placeholder after a key is no secret, so window mode keeps the context', async () => {
    // `toKEN:[GENERIC_SECRET]` was read as the key `toKEN` with the value
    // `[GENERIC_SECRET`, redacted again to `[GENERIC_SECRET]]`. Window mode
    // re-checks released text as context: the change made it judge the rest
    // alone, without the `telegram` before the token, which it then released.
    const text = 'toKEN:Xoaïve telegram t:37746062:Al_d4hpm_7z8cwyzu2camtttyv5_mpo--vg';
    const redacted = 'toKEN:[GENERIC_SECRET] telegram t:[TELEGRAM_BOT_TOKEN]';
    const guard = secrets({ action: 'redact' });
    expect(await guard.check(text, ctx)).toMatchObject({ action: 'modify', content: redacted });
    expect(await guard.check(redacted, ctx)).toEqual({ action: 'allow' });
    expect(await guard.check('password = [GENERIC_SECRET]', ctx)).toEqual({ action: 'allow' });
    expect(await guard.check('huggingface-cli login --token [HUGGINGFACE_TOKEN]', ctx)).toEqual({
      action: 'allow',
    });

    const { generateText, streamText, wrapLanguageModel } = await import('ai');
    const { modelFor } = await import('../../../test/helpers');
    const { guardrails } = await import('../../middleware/guardrails-middleware');
    const model = () =>
      wrapLanguageModel({
        model: modelFor(text, [text]),
        middleware: guardrails({
          output: [secrets({ action: 'redact' })],
          stream: { mode: 'window' },
        }),
      });
    expect((await generateText({ model: model(), prompt: 'hi' })).text).toBe(redacted);
    expect(await streamText({ model: model(), prompt: 'hi' }).text).toBe(redacted);
  });

  it('counts the placeholders it let pass in the record, never their values', async () => {
    const text = 'AWS_KEY=AKIAEXAMPLE0EXAMPLE1\ntoken: "<your-token>"\nkey: AKIAZ7VRSQ5TJN2XMY3K';
    const verdict = await secrets({ action: 'redact' }).check(text, ctx);
    expect(verdict).toEqual({
      action: 'modify',
      content: 'AWS_KEY=AKIAEXAMPLE0EXAMPLE1\ntoken: "<your-token>"\nkey: [AWS_ACCESS_KEY_ID]',
      info: {
        types: ['AWS_ACCESS_KEY_ID'],
        spans: [{ type: 'AWS_ACCESS_KEY_ID', start: 56, end: 76 }],
        placeholdersSkipped: 2,
      },
    });
    expect(await secrets().check('AWS_KEY=AKIAEXAMPLE0EXAMPLE1', ctx)).toEqual({
      action: 'allow',
      info: { placeholdersSkipped: 1 },
    });
    expect(await secrets().check('nothing here', ctx)).toEqual({ action: 'allow' });
  });

  it('is stream-safe and rejects bad options', () => {
    expect(secrets().streamSafe).toBe(true);
    expect(() => secrets({ action: 'mask' as never })).toThrow(/secrets\.action/);
    expect(() => secrets({ entropyThreshold: -1 })).toThrow(/entropyThreshold/);
  });
});

describe('a passphrase that starts with a template word', () => {
  it('is a template only when it names what goes there: password=MyDogRexIsCute is redacted', async () => {
    // `my`/`your`/`replace` followed by any letters was a template (round 14),
    // so a passphrase of words starting with one of them reached the model.
    const prompt =
      'password=MyDogRexIsCute pwd: YourMomIsNice passwd=MyCompany-Prod-Db password=my_password pwd=your-password-here api_key=YOUR_API_KEY token=insert_key_here passwd=replace_me password=yourApiKey';
    expect(await promptTextSent(secrets({ action: 'redact' }), prompt)).toBe(
      'password=[GENERIC_SECRET] pwd: [GENERIC_SECRET] passwd=[GENERIC_SECRET] password=my_password pwd=your-password-here api_key=YOUR_API_KEY token=insert_key_here passwd=replace_me password=yourApiKey',
    );
  });
});
