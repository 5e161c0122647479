import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './sha256-hex';

describe('sha256Hex', () => {
  it('is SHA-256 of the UTF-8 text, on the in-process path and the Web Crypto path alike', async () => {
    for (const text of [
      '',
      'abc',
      'x'.repeat(4_096),
      'é'.repeat(3_000),
      '😀 ok',
      'y'.repeat(5_000),
    ]) {
      expect(await sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    }
  });
});
