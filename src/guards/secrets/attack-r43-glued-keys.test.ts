import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets, secretsRedacted } from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/*
 * Round 43, an attacker's read of round 42's glued keys (glued-keys.ts):
 * a key right after a word's letters is read from its prefix, but one the
 * text runs on after (`x.comghp_…done.`) was left to the entropy reading,
 * which finds no token there: `secrets()` released the key, though the
 * same key after a blank (`see ghp_…done`) is found and read to the
 * token's end (its rule's `more`, round 33). Found at 8302f965; fixed
 * here (glued-keys.ts is in no one's lane this round): a glued match whose
 * rule reads on past its bound is read on, as the main scan reads it. A
 * blob's `+`, `/`, `=` after it still rules it out.
 *
 * Then (round 43, hI) an AWS access key id a token character follows:
 * one exact length with no read-on (`[A-Z0-9]{16}` then no token
 * character), so `id AKIA…end`, two ids written together and an id glued
 * on both sides were found by no rule, and 20 to 23 capitals are under
 * the entropy reading's length or threshold. Found at 8302f965 (and
 * 988bdd44): [] for each. Fixed in the rule (provider-rules.ts): cut at
 * 20 and read to the token's end as GitHub's, when its 16 hold a digit.
 */

const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const NPM = 'npm_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const AWS = 'AKIAZ7QH3M2KQ8WLTB4N';
const AWS_2 = 'AKIAQ2WE4RT6YU8IO0PA';

describe('a key glued on both sides', () => {
  // Found at 8302f965: [] for each.
  it.each([
    ['after a domain', 'x.com', GITHUB, 'done.', 'GITHUB_TOKEN'],
    ['after an e-mail address', 'mail jane.doe@example.com', GITHUB, 'now', 'GITHUB_TOKEN'],
    ['after a host name', 'see ops.example.org', NPM, 'now.', 'NPM_TOKEN'],
  ])('%s: the key is found and read to the token end', (_, before, key, after, type) => {
    expect(foundSecrets(`${before}${key}${after}`)).toEqual([
      [type, `${key}${after.replace('.', '')}`],
    ]);
  });

  it('the same key after a blank reads the same (the baseline)', () => {
    expect(foundSecrets(`see ${GITHUB}done.`)).toEqual([['GITHUB_TOKEN', `${GITHUB}done`]]);
  });

  it.each([
    ['a base64 character after', `x.com${GITHUB}+Zm9v`],
    ['a placeholder read on', 'x.comghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxdone.'],
  ])('%s: no key', (_, text) => {
    expect(foundSecrets(text)).toEqual([]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Write to jane.doe@example.com${GITHUB}done or ops.example.org${NPM}now.\nDone.`;
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      [[1], [2], [3], [5], [7], [11], [1, 7, 3], [30]],
    );
    expect(generated).toBe(
      'Write to jane.doe@example.com[GITHUB_TOKEN] or ops.example.org[NPM_TOKEN].\nDone.',
    );
    for (const text of streamed) expect(text).toBe(generated);
  });
});

describe('an AWS access key id a token character follows', () => {
  it('alone, the id is found (the baseline)', () => {
    expect(foundSecrets(`id ${AWS} ok`)).toEqual([['AWS_ACCESS_KEY_ID', AWS]]);
  });

  // Found at 8302f965 (and at fc226bfe, 988bdd44): [] for each, the id released.
  it.each([
    ['letters after', `id ${AWS}end ok`, `${AWS}end`],
    ['glued on both sides', `idkey${AWS}end ok`, `${AWS}end`],
    ['after an e-mail address, letters after', `mail john@example.com${AWS}end ok`, `${AWS}end`],
    ['two ids written together', `x ${AWS}${AWS_2} y`, `${AWS}${AWS_2}`],
    ['a token character after', `id ${AWS}_prod ok`, `${AWS}_prod`],
  ])('%s: the id is found, read to the token end', (_, text, found) => {
    expect(foundSecrets(text)).toEqual([['AWS_ACCESS_KEY_ID', found]]);
  });

  it('the id and what it runs on to are redacted as one', () => {
    expect(secretsRedacted(`id ${AWS}end ok`)).toBe('id [AWS_ACCESS_KEY_ID] ok');
  });

  // A gitleaks negative (aws.go): capitals run together hold an id's prefix and 16 capitals.
  it.each([
    ['glued', 'TODAYINASIAASACKOFRICEFELLOVER'],
    ['at a word start', 'today ASIAASACKOFRICEFELLOVER'],
  ])('capitals without a digit run on past 20 (%s): no key', (_, text) => {
    expect(foundSecrets(text)).toEqual([]);
  });
});
