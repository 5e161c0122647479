import { describe, expect, it } from 'vitest';
import { runChain } from '../../core/chain';
import { pii } from '../pii/pii';
import { gluedKeyInDomain } from './glued-keys';
import { secrets } from './secrets';

/*
 * Round 43: `pii()` then `secrets()` on an e-mail address a key is glued to
 * (`john@example.comAKIA…`). The e-mail finder read the domain run whole
 * (`example.comAKIAZ7…`, no top-level domain) and found no address, so
 * `pii()` passed; `secrets()` then redacted the key alone, and the chain
 * released the address: `mail john@example.com[AWS_ACCESS_KEY_ID] now`
 * with a `pii` record `passed` (at 8302f965 and 988bdd44). `secrets()`
 * first gave `[EMAIL_ADDRESS][AWS_ACCESS_KEY_ID]`. The e-mail finder now
 * cuts the domain where a glued key starts (`gluedKeyInDomain`).
 */

const AWS = 'AKIAZ7QH3M2KQ8WLTB4N';
const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const context = () => ({ kind: 'output' as const, messages: [], metadata: {}, state: new Map() });
const email = (start: number, end: number) => ({
  guardrail: 'pii',
  status: 'modified',
  info: { types: ['EMAIL_ADDRESS'], spans: [{ type: 'EMAIL_ADDRESS', start, end }] },
});
const key = (type: string, start: number, end: number) => ({
  guardrail: 'secrets',
  status: 'modified',
  info: { types: [type], spans: [{ type, start, end }] },
});

describe('pii() then secrets(): an e-mail address a key is glued to', () => {
  it.each([
    ['an AWS id', `mail john@example.com${AWS} now`, 21, 'AWS_ACCESS_KEY_ID', 40],
    ['an AWS id read on', `mail john@example.com${AWS}end now`, 21, 'AWS_ACCESS_KEY_ID', 43],
    ['a GitHub token', `mail jane.doe@example.com${GITHUB} now`, 25, 'GITHUB_TOKEN', 60],
    ['two labels of suffix', `mail john@example.co.uk${AWS} now`, 23, 'AWS_ACCESS_KEY_ID', 40],
  ])('%s: both are hidden, each in its record', async (_, text, emailEnd, type, keyEnd) => {
    const result = await runChain(
      [pii({ action: 'redact' }), secrets({ action: 'redact' })],
      text,
      context(),
    );
    expect(result.content).toBe(`mail [EMAIL_ADDRESS][${type}] now`);
    // The key's offsets are in the text `pii()` released (`[EMAIL_ADDRESS]` is 15 long).
    expect(result.records).toMatchObject([email(5, emailEnd), key(type, 20, keyEnd)]);
  });

  it('secrets() then pii() ends the same (the baseline)', async () => {
    const text = `mail john@example.com${AWS} now`;
    const result = await runChain(
      [secrets({ action: 'redact' }), pii({ action: 'redact' })],
      text,
      context(),
    );
    expect(result.content).toBe('mail [EMAIL_ADDRESS][AWS_ACCESS_KEY_ID] now');
  });

  it('pii() alone hides the address and leaves the key to secrets()', async () => {
    const result = await runChain(
      [pii({ action: 'redact' })],
      `mail john@example.com${AWS} now`,
      context(),
    );
    expect(result.content).toBe(`mail [EMAIL_ADDRESS]${AWS} now`);
  });
});

describe('gluedKeyInDomain', () => {
  it.each([
    ['a glued AWS id', `john@example.com${AWS} now`, 5, 36, 16],
    ['a GitHub prefix past the run (`_` ends it)', `x@example.com${GITHUB}`, 2, 19, 13],
    ['an AWS id of capitals only', 'j@x.comAKIAQWERTYUIOPASDFGH now', 2, 26, 7],
    ['no key: a long top-level domain', 'x@example.community now', 2, 19, 19],
    [
      'no key: a hex digest glued (a word, not a key)',
      'x@example.comkey-d41d8cd98f00b204e9800998ecf8427e',
      2,
      49,
      49,
    ],
    ['no dot in the run', `x@localhost${AWS}`, 2, 31, 31],
  ])('%s', (_, text, from, end, expected) => {
    expect(gluedKeyInDomain(text, from, end)).toBe(expected);
  });
});
