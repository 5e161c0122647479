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

  it('tells a lone surrogate from U+FFFD (UTF-8 writes both as EF BF BD): no shared cached verdict', async () => {
    const lone = await sha256Hex('ignore \uD800 this');
    const replacement = await sha256Hex('ignore \uFFFD this');
    expect(lone).not.toBe(replacement);
    expect(await sha256Hex('x\uDC00')).not.toBe(await sha256Hex('x\uD800'));
    // Long texts (Web Crypto) alike; a well-formed pair keeps its UTF-8 digest.
    expect(await sha256Hex(`${'y'.repeat(5_000)}\uD800`)).not.toBe(
      await sha256Hex(`${'y'.repeat(5_000)}\uFFFD`),
    );
    expect(await sha256Hex('\uD83D\uDE00')).toBe(createHash('sha256').update('😀').digest('hex'));
  });
});
