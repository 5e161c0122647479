/**
 * The shared decoder against `atob` (what the guardrails used before round
 * 30, and what fast-paths.reference.ts compared with until round 31): the
 * same bytes for every base64 and base64url run, of every length `atob`
 * accepts, including a last partial group whose spare bits are not zero.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { base64Bytes, latin1Of } from './base64-decoding';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_';

function viaAtob(run: string): string {
  const standard = run.replace(/-/g, '+').replace(/_/g, '/');
  return atob(standard + '='.repeat((4 - (standard.length % 4)) % 4));
}

describe('base64Bytes', () => {
  it('decodes 5,000 random runs as atob does', () => {
    const next = seededRandom(31);
    let checked = 0;
    for (let round = 0; round < 5_000; round++) {
      let run = '';
      const length = Math.floor(next() * 90);
      for (let index = 0; index < length; index++) run += ALPHABET[Math.floor(next() * 66)];
      if (run.length % 4 === 1) run += 'A';
      expect(latin1Of(base64Bytes(run))).toBe(viaAtob(run));
      checked++;
    }
    expect(checked).toBe(5_000);
  });

  it('keeps a part of a text, from start to end', () => {
    expect(latin1Of(base64Bytes('..aGVsbG8..', 2, 9))).toBe('hello');
  });
});
