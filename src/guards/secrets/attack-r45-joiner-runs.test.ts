import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets } from '../../../test/helpers/secrets-redacted';
import { runChain } from '../../core/chain';
import { pii } from '../pii/pii';
import { secrets } from './secrets';

/*
 * Round 45, an attacker's read of round 44's keys joined to a word
 * (`gluedAfterWord`, glued-keys.ts): a key may follow a word, or a
 * character no token has, and "one or two" `-` or `_`. Three joiners
 * released it: `x.com___ghp_…` (a GitHub token), `id ---AKIA…`,
 * `prod-_-AKIA…` were found by no rule, and with `pii()` first
 * `john@example.com---AKIA…` went out whole, the address and the key.
 * Found at f45bd334: [] for each row. Fixed in glued-keys.ts (no one's
 * lane this round): the run of joiners before the key is read whatever
 * its length. Findings identical on 111,676 texts (the four corpora, the
 * five dev sets, the English prose's paragraphs) at f45bd334 and after.
 */

const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const AWS = 'AKIAZ7QH3M2KQ8WLTB4N';

describe('a provider key after a run of - or _', () => {
  it('after two joiners: found (round 44, the baseline)', () => {
    expect(foundSecrets(`id prod--${AWS} now`)).toEqual([['AWS_ACCESS_KEY_ID', AWS]]);
  });

  // At f45bd334: [] for each.
  it.each([
    ['a GitHub token after a domain and ___', `see x.com___${GITHUB} now`, 'GITHUB_TOKEN', GITHUB],
    ['an AWS id after ---', `id ---${AWS} now`, 'AWS_ACCESS_KEY_ID', AWS],
    ['an AWS id after a word and -_-', `id prod-_-${AWS} now`, 'AWS_ACCESS_KEY_ID', AWS],
    ['an AWS id after a word and ---', `id prod---${AWS} now`, 'AWS_ACCESS_KEY_ID', AWS],
    ['an AWS id after 70 -', `id ${'-'.repeat(70)}${AWS} now`, 'AWS_ACCESS_KEY_ID', AWS],
  ])('%s: the key is found, the joiners kept', (_, text, type, value) => {
    expect(foundSecrets(text)).toEqual([[type, value]]);
  });

  it.each([
    // A joiner inside the word still ends it as no word (round 44).
    ['a word with joiners inside', `id __init__${AWS} x`],
    ['letters joined by _ then -', `id a_b-${AWS} x`],
  ])('%s before an AWS id: no key (as at f45bd334)', (_, text) => {
    expect(foundSecrets(text)).toEqual([]);
  });

  it('pii() then secrets(): the address and the key are both hidden', async () => {
    const context = { kind: 'output' as const, messages: [], metadata: {}, state: new Map() };
    const result = await runChain(
      [pii({ action: 'redact' }), secrets({ action: 'redact' })],
      `mail john@example.com---${AWS} now`,
      context,
    );
    // At f45bd334: the text unchanged.
    expect(result.content).toBe('mail [EMAIL_ADDRESS]---[AWS_ACCESS_KEY_ID] now');
  });

  it('pii() then secrets() in window mode end as generate does, at every cut', async () => {
    const { generated, streamed } = await windowAndGenerateTexts(
      [pii({ action: 'redact' }), secrets({ action: 'redact' })],
      `Mail john@example.com---${AWS} or see x.com___${GITHUB} now.\nDone.`,
      [[1], [2], [3], [5], [7], [11], [1, 7, 3], [30]],
    );
    expect(generated).toBe(
      'Mail [EMAIL_ADDRESS]---[AWS_ACCESS_KEY_ID] or see x.com___[GITHUB_TOKEN] now.\nDone.',
    );
    for (const text of streamed) expect(text).toBe(generated);
  });
});
