import { describe, expect, it } from 'vitest';
import type { GuardrailContext } from '../../core/types';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

const ctx: GuardrailContext = {
  kind: 'output',
  messages: [],
  metadata: {},
  state: new Map(),
  abortSignal: new AbortController().signal,
};
const types = (text: string) => findSecrets(text).map(span => span.type);

describe('findSecrets', () => {
  it('finds provider keys with exact spans', () => {
    const text = 'key AKIAIOSFODNN7EXAMPL1 and ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';
    expect(findSecrets(text)).toEqual([
      { type: 'AWS_ACCESS_KEY_ID', start: 4, end: 24 },
      { type: 'GITHUB_TOKEN', start: 29, end: 69 },
    ]);
  });

  it('recognises the common provider formats', () => {
    expect(types('sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z')).toEqual(['OPENAI_API_KEY']);
    expect(types('xoxb-103412963322-bhzv1ts5luft8kpi3v5qccc')).toEqual(['SLACK_TOKEN']);
    expect(types('sk_live_4eC39HqLyjWDarjtT1zdp7dc')).toEqual(['STRIPE_KEY']);
    expect(types('npm_abcdefghijABCDEFGHIJ0123456789abcdef')).toEqual(['NPM_TOKEN']);
    expect(types('-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----')).toEqual(
      ['PRIVATE_KEY'],
    );
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

  it('is stream-safe and rejects bad options', () => {
    expect(secrets().streamSafe).toBe(true);
    expect(() => secrets({ action: 'mask' as never })).toThrow(/secrets\.action/);
    expect(() => secrets({ entropyThreshold: -1 })).toThrow(/entropyThreshold/);
  });

  it('stays linear on adversarial input', () => {
    const ordinary = 'The quick brown fox jumps over the lazy dog. '.repeat(5_000);
    const adversarial = ['a'.repeat(200_000), 'password='.repeat(20_000), '-'.repeat(100_000)].join(
      ' ',
    );
    const time = (text: string) => {
      const started = performance.now();
      findSecrets(text);
      return performance.now() - started;
    };
    time(ordinary);
    expect(time(adversarial)).toBeLessThan(Math.max(50, time(ordinary)) * 20);
  });
});
