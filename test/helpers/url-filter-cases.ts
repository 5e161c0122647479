import { expect } from 'vitest';
import type { Guardrail } from '../../src';
import { guardContext } from './index';

/** The block `urlFilter()` gives a text whose one flagged URL is `url`, for `rule`. */
export function flaggedVerdict(url: string, rule: string) {
  return {
    action: 'block',
    message: 'This content contains a link that is not allowed.',
    reason: `${url}: ${rule}`,
    severity: 'warning',
    info: { urls: [{ url, rule }], count: 1 },
  };
}

/** The block `urlFilter({ deny: [entry] })` gives a text whose one flagged URL is `url` (host `host`). */
export function deniedVerdict(url = 'https://evil.io', host = 'evil.io', entry = 'evil.io') {
  return flaggedVerdict(url, `host "${host}" is denied by "${entry}"`);
}

/** `filter` gives `verdict` on each of `texts` at output. */
export async function expectEachVerdict(
  filter: Guardrail,
  texts: readonly string[],
  verdict: unknown,
) {
  for (const text of texts) {
    expect(await filter.check(text, guardContext('output')), text).toEqual(verdict);
  }
}
