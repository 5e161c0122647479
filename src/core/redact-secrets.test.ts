import { describe, expect, it } from 'vitest';
import { configErrorOf } from '../../test/helpers';
import { buildGuardrailsConfig } from '../config/load-guardrails-config';
import { redisStore } from '../redis/redis-store';
import { memoryStore } from '../store/memory-store';
import { GuardrailConfigError } from './errors';
import {
  jsonErrorDetail,
  NotShown,
  redactSecretsInText,
  redactSecretsInValue,
} from './redact-secrets';

const PASSWORD = 'hunter2-Zq9';
const REDIS_URL = `redis://default:${PASSWORD}@cache.internal:6379/0`;
const GITHUB_TOKEN = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const OPENAI_KEY = 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34';

/** Everything a log line could carry of the error. */
const everything = (error: GuardrailConfigError) =>
  `${error.message}\n${JSON.stringify(error)}\n${String(error)}\n${JSON.stringify(error.issues)}`;

describe('redactSecretsInText', () => {
  it('hides URL user info, secret query parameters, bearer tokens and prefixed API keys', () => {
    expect(redactSecretsInText(REDIS_URL)).toBe('redis://[redacted]@cache.internal:6379/0');
    expect(
      redactSecretsInText('https://api.example.com/v1?user=ann&access_token=abc.def&page=2'),
    ).toBe('https://api.example.com/v1?user=ann&access_token=[redacted]&page=2');
    expect(redactSecretsInText('Authorization: Bearer abcdefgh12345678')).toBe(
      'Authorization: Bearer [redacted]',
    );
    expect(redactSecretsInText(`keys ${GITHUB_TOKEN} and ${OPENAI_KEY}.`)).toBe(
      'keys [redacted] and [redacted].',
    );
    expect(redactSecretsInText('AKIAIOSFODNN7EXAMPLE')).toBe('[redacted]');
    expect(redactSecretsInText('opaque 9f8e7d6c5b4a39281706f5e4d3c2b1a0ffeeddcc')).toBe(
      'opaque [redacted]',
    );
  });

  it('leaves ordinary values alone', () => {
    for (const text of [
      'hold',
      'https://example.com/docs/page',
      'a store name',
      'output[2].threshold',
      'abcdefghijklmnopqrstuvwxyzabcdefghijkl', // long, but letters only
    ]) {
      expect(redactSecretsInText(text)).toBe(text);
    }
  });

  it('is linear on adversarial input', () => {
    // Many scheme starts and no '@', many '?' and no '=': each scan stops at the next delimiter.
    const text = `${'a://b'.repeat(50_000)} ${'?token'.repeat(50_000)}`;
    expect(redactSecretsInText(text)).toBe(text);
  });
});

describe('redactSecretsInValue', () => {
  it('replaces values under secret-named keys and redacts nested strings, copying only when needed', () => {
    const plain = { mode: 'hold', window: 64 };
    expect(redactSecretsInValue(plain)).toBe(plain);
    expect(
      redactSecretsInValue({ url: REDIS_URL, password: 'short', nested: [{ apiKey: 'x1' }] }),
    ).toEqual({
      url: 'redis://[redacted]@cache.internal:6379/0',
      password: '[redacted]',
      nested: [{ apiKey: '[redacted]' }],
    });
    expect(redactSecretsInValue(new URL(REDIS_URL))).toBe(
      'redis://[redacted]@cache.internal:6379/0',
    );
  });
});

describe('GuardrailConfigError never echoes a credential', () => {
  it('a Redis URL given where a store name belongs: the message names the path, not the password', () => {
    const error = configErrorOf(() =>
      buildGuardrailsConfig(
        { input: [{ type: 'rate-limit', limit: 5, windowMs: 1_000, store: REDIS_URL }] },
        { stores: { memory: memoryStore() } },
      ),
    );
    expect(error.issues).toEqual([
      {
        path: 'input[0].store',
        // Round 39: the loader shows no value of the file, only its type and length.
        value: new NotShown(`a string of ${REDIS_URL.length} characters (not shown)`),
        expected: 'a store name given in options.stores (memory)',
      },
    ]);
    expect(error.message).toBe(
      `Invalid guardrail configuration at input[0].store: expected a store name given in options.stores (memory), received a string of ${REDIS_URL.length} characters (not shown)`,
    );
    expect(everything(error)).not.toContain(PASSWORD);
  });

  it('connection options passed as a Redis client', () => {
    const error = configErrorOf(() =>
      redisStore({ url: REDIS_URL, password: PASSWORD } as never, { prefix: 'p:' }),
    );
    expect(error.issues[0]?.path).toBe('redisStore.client');
    expect(everything(error)).not.toContain(PASSWORD);
  });

  it('API keys and tokens in unknown or wrong options', () => {
    const error = configErrorOf(() =>
      buildGuardrailsConfig({
        output: [
          { type: 'secrets', apiKey: OPENAI_KEY },
          { type: 'url-filter', allow: `https://x.test/?token=${GITHUB_TOKEN}` },
        ],
      }),
    );
    expect(error.issues.length).toBeGreaterThanOrEqual(2);
    const text = everything(error);
    expect(text).not.toContain(OPENAI_KEY);
    expect(text).not.toContain(GITHUB_TOKEN);
    expect(text).not.toContain(GITHUB_TOKEN.slice(0, 20));
    expect(text).toContain('output[0].apiKey');
  });

  it('a credential longer than the message shows is not cut into a visible prefix', () => {
    const long = `redis://default:${'p4ssw0rd'.repeat(20)}@cache.internal:6379`;
    const error = new GuardrailConfigError({ path: 'store', value: long, expected: 'a name' });
    expect(everything(error)).not.toContain('p4ssw0rd');
  });
});

describe('jsonErrorDetail', () => {
  it('keeps where the JSON broke and drops the text V8 quotes', () => {
    const errorOf = (text: string) => {
      try {
        JSON.parse(text);
      } catch (error) {
        return error;
      }
      throw new Error('parsed');
    };
    expect(jsonErrorDetail(errorOf('canary.person@example.com wrote'))).toBe(
      'unexpected character',
    );
    expect(jsonErrorDetail(errorOf('{"a": 1 "b"'))).toBe('at position 8');
    expect(jsonErrorDetail(errorOf('{"a": "4111 1111'))).toMatch(
      /^(it ends too early|at position \d+)$/,
    );
  });
});
