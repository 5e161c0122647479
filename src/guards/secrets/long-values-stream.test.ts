import { describe, expect, it } from 'vitest';
import { expectWindowAsGenerate } from '../../../test/helpers/redacted-input';
import { base64Alphabet, seededRun } from '../../../test/helpers/secrets-redacted';
import { secretsPotentialStart, secretsPotentialStartFiltered } from './potential-start';
import { secrets } from './secrets';

/**
 * Round 34. The stream hook reads only the last 1,024 characters of what
 * window mode holds (`withinLast`): a value longer than that lost its key
 * there. Where the value's first part alone reads as a placeholder (a run
 * of `x`), the check did not redact it either, and the run was released
 * before the rest made the whole value a secret that `generateText`
 * redacts. The key before a long last token is now looked for too.
 */
const tail = 'Q9Lm2Zr8Wq4Tb6YpXk3Vn7Hs1Jd5Fg0';
const masked = (length: number) => `${'x'.repeat(length)}${tail}`;

describe('a value longer than the window is held from its key', () => {
  it.each([
    ['Authorization: Bearer ', '\nDone.', '[AUTHORIZATION_HEADER]'],
    ['Authorization: Basic ', '\nDone.', '[AUTHORIZATION_HEADER]'],
    ['authorization: token ', '', '[AUTHORIZATION_HEADER]'],
    ['db.password = ', '\nuser=bob', '[GENERIC_SECRET]'],
  ])(
    '%s<1,100 x and a key> streams as generateText redacts it',
    async (before, after, placeholder) => {
      await expectWindowAsGenerate(
        () => secrets({ action: 'redact' }),
        `${before}${masked(1_100)}${after}`,
        `${before}${placeholder}${after}`,
        [[1], [2], [7], [64]],
      );
    },
  );

  it('the hook holds from the key on every prefix inside the value, past the window', () => {
    const before = 'Use it:\nAuthorization: Bearer ';
    const text = `${before}${masked(2_000)}`;
    const key = before.indexOf('Authorization');
    const released: number[] = [];
    for (let end = before.length + 1; end <= text.length; end += 7) {
      const prefix = text.slice(0, end);
      if (secretsPotentialStart(prefix) > key) released.push(end);
      if (secretsPotentialStartFiltered(prefix) > key) released.push(end);
    }
    expect(released).toEqual([]);
  });

  it('a long token after a value that ended, or with no key before it, is not held from there', () => {
    const ended = `Authorization: Bearer abc123 and then ${'x'.repeat(1_100)}`;
    expect(secretsPotentialStart(ended)).toBe(ended.length - 1_024);
    const keyless = `See ${'x'.repeat(1_100)}`;
    expect(secretsPotentialStart(keyless)).toBe(keyless.length - 1_024);
  });

  // The case round 33's review named: a base64 value of 1,500 and 3,000
  // characters under `password:` in small deltas. It streamed as generate
  // did before (each check redacts the visible part whole); kept as a guard.
  it('a long base64 value under password: streams as generateText redacts it', async () => {
    for (const length of [1_500, 3_000]) {
      const value = seededRun(length, base64Alphabet, 34);
      await expectWindowAsGenerate(
        () => secrets({ action: 'redact' }),
        `Use this:\npassword: ${value}\nDone.`,
        'Use this:\npassword: [GENERIC_SECRET]\nDone.',
        [[1], [3], [64]],
      );
    }
  });
});
