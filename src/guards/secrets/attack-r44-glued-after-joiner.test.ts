import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets } from '../../../test/helpers/secrets-redacted';
import { runChain } from '../../core/chain';
import { pii } from '../pii/pii';
import { secrets } from './secrets';

/*
 * Round 44, an attacker's read of round 43's glued keys (glued-keys.ts):
 * a key glued to the word before it is read from its prefix, but one a
 * `-` or `_` joins to the word (`x.com-ghp_…`, `prod-AKIA…`,
 * `x.com_xoxb-…`) is found by no rule: every provider pattern wants no
 * token character before it, and a glued key wants a letter there. The
 * entropy reading finds `foo-ghp_…` whole but nothing in
 * `com-ghp_…` (after a domain) nor in an AWS id, so `secrets()` released
 * the key. With `pii()` first, an e-mail address a `-` joins a key to
 * (`john@example.com-AKIA…`) went out whole too: the e-mail finder read
 * `com-AKIA…` as the last label, no top-level domain. Found at bbe5b0ee
 * (and 8302f965): [] for each row. Fixed in glued-keys.ts (no one's lane
 * this round): a key may be glued to a word (or to a character no token
 * has) by one or two `-` or `_`, and `gluedKeyInDomain` ends the domain
 * before them. Findings identical on 111,676 texts (the four corpora, the
 * five dev sets, the English prose's paragraphs); a joiner inside the word
 * would have found a key in one gitleaks negative, so it ends the word.
 */

const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const AWS = 'AKIAZ7QH3M2KQ8WLTB4N';
const SLACK = 'xoxb-123456789012-1234567890123-q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3N';
const STRIPE = 'sk_live_51Hq8Zr4Lm2Xw9Tb6Yp1Kd7Hs3N';

describe('a provider key joined to the word before it by a - or _', () => {
  it.each([
    ['a GitHub token after a blank', `see ${GITHUB} now`, 'GITHUB_TOKEN', GITHUB],
    ['a GitHub token glued to a word', `see x.com${GITHUB} now`, 'GITHUB_TOKEN', GITHUB],
  ])('%s: found (the baseline)', (_, text, type, value) => {
    expect(foundSecrets(text)).toEqual([[type, value]]);
  });

  // At bbe5b0ee: [] for each.
  it.each([
    ['a GitHub token after a domain and a -', `see x.com-${GITHUB} now`, 'GITHUB_TOKEN', GITHUB],
    ['an AWS id after a word and a -', `id prod-${AWS} now`, 'AWS_ACCESS_KEY_ID', AWS],
    ['an AWS id after a word and a _', `id prod_${AWS} now`, 'AWS_ACCESS_KEY_ID', AWS],
    ['an AWS id after a word and --', `id prod--${AWS} now`, 'AWS_ACCESS_KEY_ID', AWS],
    [
      'an AWS id after a placeholder and a -',
      `[EMAIL_ADDRESS]-${AWS} now`,
      'AWS_ACCESS_KEY_ID',
      AWS,
    ],
    ['an AWS id after a quote and a -', `"-${AWS}"`, 'AWS_ACCESS_KEY_ID', AWS],
    ['a Slack token after a domain and a _', `use x.com_${SLACK} now`, 'SLACK_TOKEN', SLACK],
    ['a Stripe key after a domain and a -', `pay x.com-${STRIPE} ok`, 'STRIPE_KEY', STRIPE],
  ])('%s: the key is found, the word before kept', (_, text, type, value) => {
    expect(foundSecrets(text)).toEqual([[type, value]]);
  });

  it.each([
    ['a hex digest after a word and a -', 'cache-key-d41d8cd98f00b204e9800998ecf8427e ok'],
    // gitleaks' huggingface negative (secrets.dev.jsonl gitleaks-507): a joiner inside the word.
    [
      'random letters joined by _ before a prefix',
      '$IACa_ecghbfbaebejhahfbhf_ddbficghbgfbhhcghdghfhigiifhhehhdggcgfchf_fgcei^',
    ],
  ])('%s: no key', (_, text) => {
    expect(foundSecrets(text)).toEqual([]);
  });

  // [] at bbe5b0ee and f716bfc7: a digit in the word before the joiner ended it as no word.
  // Round 45: a word a joiner ends may hold digits (glued-keys.ts).
  it.each([
    ['an AWS id after a word with a digit and a -', `id v2-${AWS} now`, 'AWS_ACCESS_KEY_ID', AWS],
    ['an AWS id after a number and a _', `id 2024_${AWS} now`, 'AWS_ACCESS_KEY_ID', AWS],
  ])('%s: the key is found', (_, text, type, value) => {
    expect(foundSecrets(text)).toEqual([[type, value]]);
  });

  it('a key after a word with a digit and a -: window streaming ends as generate does', async () => {
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      `Use v2-${AWS} or 2024_${AWS} now.`,
      [[1], [2], [3], [5], [7], [1, 7, 3], [30]],
    );
    expect(generated).toBe('Use v2-[AWS_ACCESS_KEY_ID] or 2024_[AWS_ACCESS_KEY_ID] now.');
    for (const text of streamed) expect(text).toBe(generated);
  });

  it('pii() then secrets(): the address and the key are both hidden', async () => {
    const context = { kind: 'output' as const, messages: [], metadata: {}, state: new Map() };
    const result = await runChain(
      [pii({ action: 'redact' }), secrets({ action: 'redact' })],
      `mail john@example.com-${AWS} now`,
      context,
    );
    expect(result.content).toBe('mail [EMAIL_ADDRESS]-[AWS_ACCESS_KEY_ID] now');
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Use x.com-${GITHUB} or prod_${AWS} now.\nDone.`;
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      [[1], [2], [3], [5], [7], [11], [1, 7, 3], [30]],
    );
    expect(generated).toBe('Use x.com-[GITHUB_TOKEN] or prod_[AWS_ACCESS_KEY_ID] now.\nDone.');
    for (const text of streamed) expect(text).toBe(generated);
  });

  it('pii() then secrets() in window mode end as generate does, at every cut', async () => {
    const { generated, streamed } = await windowAndGenerateTexts(
      [pii({ action: 'redact' }), secrets({ action: 'redact' })],
      `Mail john@example.com-${AWS}end or jane@x.org${GITHUB}done now.\nDone.`,
      [[1], [2], [3], [5], [7], [11], [1, 7, 3], [30]],
    );
    expect(generated).toBe(
      'Mail [EMAIL_ADDRESS]-[AWS_ACCESS_KEY_ID] or [EMAIL_ADDRESS][GITHUB_TOKEN] now.\nDone.',
    );
    for (const text of streamed) expect(text).toBe(generated);
  });
});
