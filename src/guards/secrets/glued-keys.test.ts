import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets, oneSecretInputRecord } from '../../../test/helpers/secrets-redacted';
import { runChain } from '../../core/chain';
import { pii } from '../pii/pii';
import { secrets } from './secrets';

/**
 * Round 42: a key glued after a word or a domain's top-level label
 * (`jane.doe@example.comghp_…`) was found by neither `pii()` nor
 * `secrets()`: every provider pattern wants no token character before it,
 * and the e-mail finder read `example.comghp` as the domain (no top-level
 * domain). Round 41's attacker read found it.
 */
const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const AWS = 'AKIAZ7QH3M2KQ8WLTB4N';
const NPM = 'npm_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const SHOPIFY = 'shpat_0123456789abcdef0123456789abcdef';

describe('a provider key glued after a word or a domain', () => {
  it.each([
    ['an e-mail address', 'mail jane.doe@example.com', GITHUB, ' now', 'GITHUB_TOKEN'],
    ['a host name', 'see docs.example.io', AWS, ' ok', 'AWS_ACCESS_KEY_ID'],
    ['a word after a colon', 'id:key', AWS, '.', 'AWS_ACCESS_KEY_ID'],
    ['a word after a quote', "x='key", AWS, "'", 'AWS_ACCESS_KEY_ID'],
    ['a word at the start', 'key', AWS, ' is mine', 'AWS_ACCESS_KEY_ID'],
    [
      'a hex key after a marked prefix',
      'reach me at jane.doe@example.com',
      SHOPIFY,
      '',
      'SHOPIFY_TOKEN',
    ],
    ['a 63-letter word', `x.${'a'.repeat(63)}`, GITHUB, ' y', 'GITHUB_TOKEN'],
    // Round 46: no rule found these before (a digit ended the word).
    ['a label ending in a digit', 'x.com1', GITHUB, '.', 'GITHUB_TOKEN'],
    ['letters after digits', 'x.1abc', GITHUB, '.', 'GITHUB_TOKEN'],
  ])(
    'after %s: the key is found from its prefix, the word stays',
    (_, before, key, after, type) => {
      expect(foundSecrets(`${before}${key}${after}`)).toEqual([[type, key]]);
    },
  );

  it.each([
    ['a digest after a word (key- then 32 hex)', 'cachekey-d41d8cd98f00b204e9800998ecf8427e'],
    ['a digest after letters (AC then 32 hex)', 'HMACd41d8cd98f00b204e9800998ecf8427e'],
    ['a placeholder glued to a domain', 'a@b.comghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
    ['a word longer than a domain label', `x.${'a'.repeat(64)}${GITHUB} y`],
    // Past 200 characters a run is a payload to the entropy reading too.
    ['letters after a slash of a base64 blob', `${'QUJD'.repeat(50)}/xyz${GITHUB}\n`],
    ['a word before a key a base64 character follows', `x.com${GITHUB}+Zm9v`],
    // A key glued on both sides (`x.com${GITHUB}done.`) is found since round 43 (attack-r43-glued-keys.test.ts).
    // Round 46: a fixed-shape key glued to digits (`x.com1ghp_…`, `v2AKIA…`) is found
    // (round46-unseen-shapes.test.ts); a variable one is not (an identifier's digits).
  ])('%s is no key', (_, text) => {
    expect(foundSecrets(text)).toEqual([]);
  });

  it('after a blank, the entropy reading of word and key (longer) still covers both', () => {
    expect(foundSecrets(`x com${GITHUB} y`)).toEqual([['HIGH_ENTROPY_STRING', `com${GITHUB}`]]);
    expect(foundSecrets(`Use:npm${NPM}.`)).toEqual([['HIGH_ENTROPY_STRING', `npm${NPM}`]]);
  });

  it('generateText: the model receives the address with the key redacted; the record has the span', async () => {
    const prompt = `Reach jane.doe@example.com${GITHUB} today`;
    const { sent, records } = await promptSentWithRecords(secrets({ action: 'redact' }), prompt);
    expect(sent).toBe('Reach jane.doe@example.com[GITHUB_TOKEN] today');
    expect(records).toEqual(oneSecretInputRecord('GITHUB_TOKEN', 26, GITHUB.length));
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Write to jane.doe@example.com${GITHUB} or ops.example.org${AWS}.\nDone.`;
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      [[1], [2], [3], [5], [7], [11], [1, 7, 3], [30]],
    );
    expect(generated).toBe(
      'Write to jane.doe@example.com[GITHUB_TOKEN] or ops.example.org[AWS_ACCESS_KEY_ID].\nDone.',
    );
    for (const text of streamed) expect(text).toBe(generated);
  });

  // Round 42 left the address out with pii() first; round 43's email finder ends the domain where a glued key starts (`gluedKeyInDomain`).
  it('secrets() then pii() and pii() then secrets() both hide the key and the address', async () => {
    const context = () => ({
      kind: 'input' as const,
      messages: [],
      metadata: {},
      state: new Map(),
    });
    const text = `x jane.doe@example.com${GITHUB} y`;
    const secretsFirst = await runChain([secrets({ action: 'redact' }), pii()], text, context());
    expect(secretsFirst.content).toBe('x [EMAIL_ADDRESS][GITHUB_TOKEN] y');
    const piiFirst = await runChain([pii(), secrets({ action: 'redact' })], text, context());
    expect(piiFirst.content).toBe('x [EMAIL_ADDRESS][GITHUB_TOKEN] y');
  });
});
