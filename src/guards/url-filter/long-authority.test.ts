import { describe, expect, it } from 'vitest';
import type { GuardrailContext } from '../../core/types';
import { urlFilter } from './url-filter';

/**
 * Round 38: a URL is cut at 2,048 characters, and the host was judged in
 * the cut text. A user info longer than that (`https://u:<3,000 p>@evil.com`,
 * `https://a@a@…@evil.com`) put the host past the cut: the cut text parsed
 * as no URL (or as the host `a`), and the URL passed a deny list, an allow
 * list and blockUserinfo, though `fetch` and browsers read the whole URL
 * (host evil.com). A URL whose authority runs past the cut is now flagged
 * unjudged: fail closed.
 */
const output = { kind: 'output' } as GuardrailContext;

const flaggedUnjudged = (scheme: string) => ({
  action: 'block',
  reason: `${scheme}:: the user info and host run past 2,048 characters: not judged`,
});

describe('urlFilter: a URL whose authority runs past the 2,048-character cut', () => {
  const long = 'p'.repeat(3_000);
  it.each([
    ['a long password', `see https://u:${long}@evil.com/x`, 'https'],
    ['many @', `see https://${'a@'.repeat(1_500)}evil.com/x`, 'https'],
    ['a loose special scheme', `see https:u:${long}@evil.com`, 'https'],
    ['a scheme-relative link', `see //u:${long}@evil.com`, 'http'],
  ])('%s: blocked under a deny list, an allow list and the defaults', async (_, text, scheme) => {
    for (const guard of [
      urlFilter({ deny: ['evil.com'] }),
      urlFilter({ allow: ['good.com'] }),
      urlFilter({ blockUserinfo: false, deny: ['evil.com'] }),
    ]) {
      const result = (await guard.check(text, output)) as { action: string; reason?: string };
      expect({ action: result.action, reason: result.reason }).toEqual(flaggedUnjudged(scheme));
    }
  });

  it('redacts the whole run; a long path after a short authority is judged by its host as before', async () => {
    const text = `see https://u:${long}@evil.com/x ok`;
    const result = (await urlFilter({ deny: ['evil.com'], action: 'redact' }).check(
      text,
      output,
    )) as { action: string; content?: string; info?: unknown };
    expect(result.action).toBe('modify');
    expect(result.content).toBe('see [link removed] ok');
    expect(result.info).toEqual({
      urls: [
        { url: 'https:', rule: 'the user info and host run past 2,048 characters: not judged' },
      ],
      count: 1,
    });
    const path = `see https://good.com/${'a'.repeat(3_000)}@evil.com`;
    expect(await urlFilter({ allow: ['good.com'] }).check(path, output)).toEqual({
      action: 'allow',
    });
  });
});

describe('urlFilter: a cut run flagged whole stops at a URL found in its rest', () => {
  it('the scheme-relative run and the https URL inside it are two spans, both redacted', async () => {
    const text = `x //${'a'.repeat(2_100)}-https://evil.com/p y`;
    const result = (await urlFilter({ deny: ['evil.com'], action: 'redact' }).check(
      text,
      output,
    )) as { content?: string; info?: { count: number } };
    expect(result.content).toBe('x [link removed][link removed] y');
    expect(result.info?.count).toBe(2);
  });
});
