import { describe, expect, it } from 'vitest';
import { expectLinearOnRepeats } from '../../../test/helpers/repeated-unit-cost';
import { foundSecrets, secretsRedacted } from '../../../test/helpers/secrets-redacted';
import { findSecrets } from './find-secrets';

/*
 * Round 46 (issue 17): shapes a blind fixture of unseen config and provider
 * text (test/fixtures/secrets-blind-r46.jsonl) found missing. Every value
 * below is made up for this file.
 */

const ID16 = 'Q7XW2MZK9RBT4HNV';
const AWS = `AKIA${ID16}`;

describe('an AWS key id glued to a word of digits, with no joiner (found by no rule before)', () => {
  it.each([
    ['a version', `key v2${AWS} ok`, 6],
    ['one digit', `id: 7${AWS}`, 5],
    ['after an assignment', `key=v2${AWS}`, 6],
    ['after an assignment, a word of letters', `key=x${AWS}`, 5],
    ['after an assignment, a word a joiner ends', `key=v2-${AWS}`, 7],
    ['a URL query', `https://x.example/c?id=2024${AWS}&b=1`, 27],
  ])('%s: the id', (_, text, start) => {
    expect(findSecrets(text)).toEqual([{ type: 'AWS_ACCESS_KEY_ID', start, end: start + 20 }]);
    expect(secretsRedacted(text)).toBe(
      `${text.slice(0, start)}[AWS_ACCESS_KEY_ID]${text.slice(start + 20)}`,
    );
  });

  it('read to the token end when letters follow, as after a blank', () => {
    expect(foundSecrets(`see v2${AWS}X ok`)).toEqual([['AWS_ACCESS_KEY_ID', `${AWS}X`]]);
    expect(secretsRedacted(`see v2${AWS}X ok`)).toBe('see v2[AWS_ACCESS_KEY_ID] ok');
  });

  it('not after base64 padding, a slash, nor capitals without a digit', () => {
    expect(findSecrets(`QUJD==v2${AWS}`)).toEqual([]);
    expect(findSecrets(`QUJD/v2${AWS} x`)).toEqual([]);
    expect(findSecrets('see v2AKIATODAYINASIAASACKOF ok')).toEqual([]);
  });

  it('a variable key after digits glued with no joiner stays no key (an identifier)', () => {
    expect(findSecrets('task2sk_live_configuration2 ok')).toEqual([]);
  });
});

const HEX24 = '9c41d0e7a2b85f36c09e1d4a';
const HEX34 = '7b2e90c4d1a6f38e5c0b9d27a41f6e830c';
const HEX64 = '5e0a9c3b7d21f84e6a0c5b9d3e7f1a2c4b6d8e0f1a3c5e7b9d0f2a4c6e8b0d1f';
const NOTION = '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';
const AIRTABLE = `patR4kZ8mQ2wX7nLp.${HEX64}`;
const DISCORD = `https://discord.com/api/webhooks/1122334455667788990/${'Ab3_Cd9-Ef2Gh7Jk'.repeat(4)}Lm4N`;

describe('providers with a prefix and no rule before round 46', () => {
  it.each([
    ['POSTMAN_API_KEY', 'postman: ', `PMAK-${HEX24}-${HEX34}`, '\n'],
    ['NOTION_TOKEN', 'NOTION_KEY=', NOTION, ''],
    ['AIRTABLE_TOKEN', '"token": "', AIRTABLE, '"'],
    ['DISCORD_WEBHOOK', 'hook ', DISCORD, ' done'],
  ])('%s: found whole and redacted', (type, before, key, after) => {
    const text = `${before}${key}${after}`;
    expect(findSecrets(text)).toEqual([
      { type, start: before.length, end: before.length + key.length },
    ]);
    expect(secretsRedacted(text)).toBe(`${before}[${type}]${after}`);
  });

  it('look-alikes stay unflagged: short forms, a path, a placeholder', () => {
    expect(findSecrets('ntn_12345678901abc and PMAK-1234')).toEqual([]);
    expect(findSecrets('see /usr/share/pattern/matching.txt')).toEqual([]);
    expect(findSecrets(`PMAK-${'x'.repeat(24)}-${'x'.repeat(34)}`)).toEqual([]);
  });

  it('a Discord webhook token past 68 characters is read to its end', () => {
    const longer = `${DISCORD}Zz9`;
    expect(foundSecrets(`hook ${longer} done`)).toEqual([['DISCORD_WEBHOOK', longer]]);
  });
});

describe('a Terraform variable named for a secret: its default (found by no rule before)', () => {
  const block = (name: string, value: string) =>
    `variable "${name}" {\n  type      = string\n  sensitive = true\n  default   = "${value}"\n}\n`;

  it.each([
    ['db_password', 'Zr8!kq2Lm9xT'],
    ['admin_pass', 'Hw3q!Lm8vR2z'],
    ['API_TOKEN', 'k9Qz2Lm7Xw4Tb8Yp1Rd6'],
  ])('%s', (name, value) => {
    const text = block(name, value);
    const start = text.indexOf(value);
    expect(findSecrets(text)).toEqual([
      { type: 'GENERIC_SECRET', start, end: start + value.length },
    ]);
    expect(secretsRedacted(text)).toBe(block(name, '[GENERIC_SECRET]'));
  });

  it('not a setting named for one (a TTL, a path, a name), a placeholder, nor another name', () => {
    for (const [name, value] of [
      ['token_ttl', '3600s'],
      ['ssh_private_key_path', '~/.ssh/id_rsa'],
      ['secret_name', 'prod-db-creds'],
      ['db_password', `\${var.fallback}`],
      ['db_password', 'changeme'],
      ['region', 'Zr8!kq2Lm9xT'],
    ])
      expect(findSecrets(block(name!, value!))).toEqual([]);
  });
});

describe('public and checksum look-alikes (entropy false positives before round 46)', () => {
  const blob = 'AAAAC3NzaC1lZDI1NTE5AAAAIK8qZr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2Rt';
  it.each([
    ['an SSH public key', `ssh-ed25519 ${blob} dev@laptop`],
    ['an authorized_keys line', `command="x" ssh-rsa ${blob} ops`],
    ['a go.sum line', 'golang.org/x/text v0.14.0 h1:Sd2ZkL9qWx7Rt3Mv8Np4Bc6Hy1Jf5Gs0Ke2Ua9Zq8Lw='],
    [
      'a go.sum go.mod line',
      'golang.org/x/text v0.14.0/go.mod h1:Sd2ZkL9qWx7Rt3Mv8Np4Bc6Hy1Jf5Gs0Ke2Ua9Zq8Lw=',
    ],
    ['an Ansible vault tag', 'password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6231336539666234'],
  ])('%s: nothing', (_, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it('the same token after another word, or a blob not of a key type, is still found', () => {
    const token = 'Sd2ZkL9qWx7Rt3Mv8Np4Bc6Hy1Jf5Gs0Ke2Ua9Zq8Lw';
    expect(foundSecrets(`h1 ${token}`)).toEqual([['HIGH_ENTROPY_STRING', token]]);
    expect(foundSecrets(`ssh-ed25519 ${token}`)).toEqual([['HIGH_ENTROPY_STRING', token]]);
    expect(foundSecrets('password: !vaultXy9Q')).toEqual([['GENERIC_SECRET', '!vaultXy9Q']]);
  });
});

/*
 * Found and left in round 46: the second blind fixture
 * (test/fixtures/secrets-blind-r46b.jsonl) was kept held out, so the classes
 * it shows missing were pinned here, not fixed. Round 47 (hI) read them and
 * added rules for the shapes (`provider-rules.ts`' config rules): each value
 * is now found exactly; the fixture is in sample since.
 */
describe('config shapes no rule read before round 47 (round 46, held out)', () => {
  const PASSWORD = 'Lq8x!Zr4Tm2w';
  const TOKEN = 'k9Qz2Lm7Xw4Tb8Yp1Rd6Hs3Nf5Vg0Jc';
  it.each([
    [
      'a .netrc line',
      `machine api.example.com login deploy password ${PASSWORD}`,
      PASSWORD,
      'machine api.example.com login deploy password [GENERIC_SECRET]',
    ],
    [
      'a PHP define',
      `define('DB_PASSWORD', '${PASSWORD}');`,
      PASSWORD,
      "define('DB_PASSWORD', '[GENERIC_SECRET]');",
    ],
    [
      'htpasswd -b',
      `htpasswd -b .htpasswd admin ${PASSWORD}`,
      PASSWORD,
      'htpasswd -b .htpasswd admin [GENERIC_SECRET]',
    ],
    [
      'a JSON array under a password key',
      `{"passwords": ["${PASSWORD}"]}`,
      PASSWORD,
      '{"passwords": ["[GENERIC_SECRET]"]}',
    ],
    ['an AUTH-named .env key', `REDIS_AUTH=${TOKEN}`, TOKEN, 'REDIS_AUTH=[GENERIC_SECRET]'],
  ])('%s: the value', (_, text, value, redacted) => {
    expect(foundSecrets(text)).toEqual([['GENERIC_SECRET', value]]);
    expect(secretsRedacted(text)).toBe(redacted);
  });

  it('a setting naming a hash algorithm is no secret', () => {
    // Round 47 (hN): a key whose last word names a setting (`algorithm`) is no secret's.
    expect(findSecrets('password_hash_algorithm: argon2id')).toEqual([]);
  });
});

describe('linear time on a rule prefix repeated', () => {
  it.each([
    ['PMAK-'],
    ['ntn_'],
    ['pat'],
    ['https://discord.com/api/webhooks/'],
    ['7AKIA'],
    ['=v2AKIA'],
    ['x=9'],
    ['variable "db_password" {'],
    ['ssh-ed25519 '],
    [' v1 h1:'],
  ])(
    '1 MB of %j costs at most 3x four times 256 KB of it',
    unit => expectLinearOnRepeats(findSecrets, unit),
    120_000,
  );
});
