import { describe, expect, it } from 'vitest';
import { judgeContext } from './judge-prompt';

/*
 * Round 36: a context message was cut at `contextMaxChars` UTF-16 units,
 * so an emoji across the cut left half a surrogate pair in the judge's
 * prompt: no character, which a provider may refuse as invalid Unicode
 * (HTTP 400, which fails the check closed since round 36).
 */
describe('judgeContext', () => {
  it('cuts a long message before a surrogate pair, never inside it', () => {
    const text = `${'a'.repeat(9)}\u{1F600}tail`;
    const context = judgeContext(
      [
        { role: 'user', content: [{ type: 'text', text }] },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      ],
      'output',
      4,
      10,
    );
    expect(context).toBe(`[user] ${'a'.repeat(9)}…\n[assistant] ok`);
  });

  it('keeps a pair that ends at the cut', () => {
    const context = judgeContext(
      [{ role: 'user', content: [{ type: 'text', text: `${'a'.repeat(8)}\u{1F600}tail` }] }],
      'output',
      4,
      10,
    );
    expect(context).toBe(`[user] ${'a'.repeat(8)}\u{1F600}…`);
  });
});
