import { describe, expect, it } from 'vitest';
import { judgeSecretValue, lastVerdictJudge } from './assignments';
import { findSecrets, scanSecrets } from './find-secrets';

describe('lastVerdictJudge', () => {
  it('answers each call as judgeSecretValue does, the value, key and flag all counting', () => {
    const judge = lastVerdictJudge();
    const calls: Array<[string, string, boolean]> = [
      ['Xq9Lm2Zr8Wq4', 'password', false],
      ['Xq9Lm2Zr8Wq4', 'password', false],
      ['Xq9Lm2Zr8Wq4', 'token_name', false],
      ['Xq9Lm2Zr8Wq4', 'password', false],
      ['abcdefghijklmnop', 'api_key', false],
      ['abcdefghijklmnop', 'api_key', true],
      ['abcdefghijklmnop', 'api_key', false],
      ['password=password=password=', 'password', false],
      ['password=password=password=', 'password', true],
    ];
    expect(calls.map(([value, key, report]) => judge(value, key, report))).toEqual([
      'secret',
      'secret',
      'other',
      'secret',
      'placeholder',
      'other',
      'placeholder',
      'placeholder',
      'secret',
    ]);
    expect(calls.map(([value, key, report]) => judgeSecretValue(value, key, report))).toEqual(
      calls.map(([value, key, report]) => lastVerdictJudge()(value, key, report)),
    );
  });

  it('leaves the scans of repeated values as they were (round 39: judged once in a row)', () => {
    // Each repeat of a placeholder value is still counted where it stands.
    const repeated = 'password=password '.repeat(30);
    expect(findSecrets(repeated)).toEqual([]);
    expect(scanSecrets(repeated).placeholdersSkipped).toBe(30);
    const glued = 'password='.repeat(20);
    expect(findSecrets(glued)).toEqual([]);
    expect(scanSecrets(glued).placeholdersSkipped).toBe(2);
    // Past the whole-value bound the glued flood is one value, redacted (fail closed).
    expect(findSecrets('password='.repeat(2_000))).toEqual([
      { type: 'GENERIC_SECRET', start: 9, end: 18_000 },
    ]);
    // A real value after 200 placeholder values is judged and reported.
    const text = `${'password=x '.repeat(200)}password=Xq9Lm2Zr8Wq4`;
    expect(findSecrets(text)).toEqual([{ type: 'GENERIC_SECRET', start: 2_209, end: 2_221 }]);
  });
});
