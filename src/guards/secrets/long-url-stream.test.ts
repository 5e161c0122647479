import { describe, expect, it } from 'vitest';
import { cut } from '../../../test/helpers/index';
import { generatedText, streamed } from '../../../test/helpers/window';
import { guardrails } from '../../middleware/guardrails-middleware';
import { secretsPotentialStart } from './potential-start';
import { secrets } from './secrets';

/**
 * Round 35. A long URL (a token longer than the bounded hooks' reach) with
 * `token=` in its first 300 characters was held from the key to the URL's
 * end: the key's value may still grow while the URL does. A value in a
 * URL's query ends at `&` or `#` before the next key and its `=`
 * (`bareValueEnd`, as `findSecrets` reads it), so once that is written the
 * value is judged, and only the rest of the URL is searched for a key whose
 * value may still grow.
 */
const path = (parts: number) => Array.from({ length: parts }, (_, k) => `p${k}`).join('/');
const SECRET = 'Zq8Lm2Rt9Wv4Xb7N';
const site = 'See https://files.example.com/get?';

describe('the hook on a text ending in a long URL', () => {
  it('a query value that ended is judged: only the trailing 1,024 characters are held', () => {
    const text = `${site}token=${SECRET}&page=2&ref=${path(600)}`;
    expect(secretsPotentialStart(text)).toBe(text.length - 1_024);
  });

  it.each([
    ['still being written', `${site}token=${SECRET}${'x'.repeat(2_000)}`],
    [
      'with an `&` not before a key and its `=` (part of the value)',
      `${site}token=${SECRET}&${path(600)}`,
    ],
    ['glued to its key outside a query', `See password=${SECRET}&page=2&ref=${path(600)}`],
  ])('a value %s is held from its key', (_, text) => {
    expect(secretsPotentialStart(text)).toBe(
      Math.max(text.indexOf('token'), text.indexOf('password')),
    );
  });

  it('a key later in the URL whose value may still grow is held from there', () => {
    const text = `${site}token=abc&page=2&ref=${path(100)}&api_key=${SECRET}${'x'.repeat(1_500)}`;
    expect(secretsPotentialStart(text)).toBe(text.indexOf('api_key'));
  });

  it('past 8 ended values, the next key is held from (fails closed)', () => {
    const keys = (count: number) =>
      Array.from({ length: count }, (_, k) => `token=a${k}`).join('&');
    const eight = `${site}${keys(8)}&page=2&ref=${path(600)}`;
    expect(secretsPotentialStart(eight)).toBe(eight.length - 1_024);
    const nine = `${site}${keys(9)}&page=2&ref=${path(600)}`;
    expect(secretsPotentialStart(nine)).toBe(nine.indexOf('token=a8'));
  });
});

describe('a long URL streamed in window mode in 256-character deltas', () => {
  const middleware = () =>
    guardrails({ output: [secrets({ action: 'redact' })], stream: { mode: 'window' } });
  /** `text` cut at `ends`, the last piece from `generated` (the redacted text) on. */
  const pieces = (text: string, generated: string, ends: number[]) =>
    [0, ...ends].map((from, k) =>
      k < ends.length ? text.slice(from, ends[k]) : generated.slice(from),
    );

  it('a token early whose value is no secret: released as the URL grows (was held to its end)', async () => {
    const text = `${site}token=abc&page=2&ref=${path(600)} now.`;
    const generated = await generatedText(middleware(), text);
    expect(generated).toBe(text);
    expect(await streamed(middleware(), text, cut(text, [256]))).toEqual(
      pieces(text, generated, [4, 256, 768, 1_280, 1_792]),
    );
  });

  it('a token late: redacted, the URL released before it as it grows', async () => {
    const text = `See https://files.example.com/${path(600)}?page=2&token=${SECRET} now.`;
    const generated = await generatedText(middleware(), text);
    expect(generated).toBe(text.replace(SECRET, '[GENERIC_SECRET]'));
    expect(await streamed(middleware(), text, cut(text, [256]))).toEqual(
      pieces(text, generated, [4, 256, 768, 1_280, 1_792]),
    );
  });

  // Round 35 held this URL to its end: window mode confirmed a cut in a
  // text the check changed by asking the hooks about the text cut there,
  // where the URL's last 1,024 characters are a trailing token that may
  // grow. Since round 36 a cut is confirmed only where a change ends after
  // it, so the URL is released as it grows, the secret already redacted (the placeholder is as long as
  // the secret, so the cuts are the same as for a value that is none).
  it('a token early whose value is a secret: redacted, the URL released as it grows (was held to its end)', async () => {
    const text = `${site}token=${SECRET}&page=2&ref=${path(600)} now.`;
    const generated = await generatedText(middleware(), text);
    expect(generated).toBe(text.replace(SECRET, '[GENERIC_SECRET]'));
    expect(await streamed(middleware(), text, cut(text, [256]))).toEqual(
      pieces(generated, generated, [4, 256, 768, 1_280, 1_792]),
    );
  });
});
