import { expect } from 'vitest';
import type { Guardrail, GuardrailContext } from '../../src/core/types';

/**
 * Keys a caller may choose that differ only in what a careless store
 * would merge: case, Unicode forms, blanks around them, separators, glob
 * and Redis hash-tag characters, a zero-width space, and two 100 KB keys
 * that differ in their last character (kept under digest names).
 */
export const KEY_VARIANTS: readonly string[] = [
  'alice',
  'Alice',
  'ALICE',
  ' alice',
  'alice ',
  'caf\u00e9', // é composed (NFC)
  'cafe\u0301', // e and a combining accent (NFD)
  'a:b',
  'a',
  'a:b:c',
  'a*',
  'a?',
  'a[bc]',
  '{alice}',
  '\u200balice', // a zero-width space before it: not blank, its own key
  'x'.repeat(100_000),
  `${'x'.repeat(99_999)}y`,
];

/**
 * Checks that a rate limit of 1 keyed on `metadata.k` gives every one of
 * {@link KEY_VARIANTS} a count of its own: each passes once, then each is
 * refused (no key shared another's count).
 */
export async function expectOwnCounts(
  limiter: Guardrail,
  context: (metadata: GuardrailContext['metadata']) => GuardrailContext,
) {
  for (const k of KEY_VARIANTS) {
    expect(await limiter.check('hi', context({ k }))).toEqual({
      action: 'allow',
      info: { limit: 1, count: 1, remaining: 0 },
    });
  }
  for (const k of KEY_VARIANTS) {
    expect(await limiter.check('hi', context({ k }))).toMatchObject({
      action: 'block',
      info: { limit: 1, count: 1 },
    });
  }
}
