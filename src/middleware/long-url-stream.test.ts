import { describe, expect, it } from 'vitest';
import { outputCallGuard } from '../../bench/fixtures';
import { secrets } from '../guards/secrets/secrets';
import type { StreamPart } from './stream-processor';
import { windowProcessor } from './window-processor';

/**
 * A secret in a long URL's query, window mode (round 36). The text is fed
 * to the window in 4-character deltas; each released delta is listed with
 * how many characters the model had sent when it went out (`received`).
 */
async function releases(text: string): Promise<Array<[received: number, delta: string]>> {
  const processor = windowProcessor(
    outputCallGuard(),
    [secrets({ action: 'redact' })],
    2048,
    () => true,
  );
  const out: Array<[number, string]> = [];
  let received = 0;
  const take = (parts: StreamPart[]) => {
    for (const part of parts) if (part.type === 'text-delta') out.push([received, part.delta]);
  };
  take((await processor.push({ type: 'text-start', id: 't' })).parts);
  for (let at = 0; at < text.length; at += 4) {
    received = Math.min(text.length, at + 4);
    const step = await processor.push({
      type: 'text-delta',
      id: 't',
      delta: text.slice(at, at + 4),
    });
    expect(step.trip).toBeUndefined();
    take(step.parts);
  }
  take((await processor.push({ type: 'text-end', id: 't' })).parts);
  return out;
}

const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
/** A path of 250 segments (about 1,900 characters): no blank, so one token. */
const PATH = Array.from({ length: 250 }, (_, i) => `seg${i}x`).join('/');

describe('a secret in a long URL (window mode, secrets)', () => {
  it('a token early: released redacted once its value ended, not held to the URL\u2019s end', async () => {
    const text = `See https://example.com/files?token=${TOKEN}&path=${PATH} for details, thanks.`;
    const redacted = text.replace(TOKEN, '[GITHUB_TOKEN]');
    // Before round 36 the URL went out whole at the text's end: [[32, 'See '], [1992, the rest]].
    expect(await releases(text)).toEqual([
      [32, 'See '],
      // Held back: the last 1,024 characters (the secrets hook's bound on a
      // trailing token), from the last check on. (Round 46: a check of text
      // ending in `/` waits for one more delta, which moves the checks: at
      // 1,624 and 1,992 before.)
      [1120, redacted.slice(4, 70)],
      [1632, redacted.slice(70, 582)],
      [1992, redacted.slice(582)],
    ]);
    expect(text.indexOf(' for details')).toBe(1971);
  });

  it('a token late: held from its key until the text ends, no part of it before', async () => {
    const text = `See https://example.com/files/${PATH}?x=1&token=${TOKEN} for details, thanks.`;
    const redacted = text.replace(TOKEN, '[GITHUB_TOKEN]');
    const parts = await releases(text);
    expect(parts).toEqual([
      [32, 'See '],
      // (Round 46: 1,084, 1,596 and 572 before; see above.)
      [1124, redacted.slice(4, 100)],
      [1636, redacted.slice(100, 612)],
      [1991, redacted.slice(612)],
    ]);
    // The key comes after every release but the last.
    expect(text.indexOf('token=')).toBeGreaterThan(612);
  });
});
