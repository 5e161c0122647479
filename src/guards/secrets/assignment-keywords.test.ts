import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignmentAsScanned, scanAssignments } from './assignments';
import { anchoredScanMismatches } from './find-secrets';

// Every keyword of `keywords`, with each optional part present and absent, in three cases.
const spellings = [
  ...['api_key', 'api.key', 'api-key', 'apikey', 'api_token', 'apitoken', 'secret', 'token'],
  ...['passwd', 'password', 'pwd', 'pass', 'auth_key', 'authkey', 'credential', 'access-key'],
  ...['accesskey', 'private_key', 'privatekey', 'client_secret', 'clientsecret', 'signing_key'],
  ...['signingkey', 'encryption_key', 'encryptionkey', 'session_key', 'sessionkey'],
  ...['webhook_url', 'webhookurl', 'dsn', 'login'],
].flatMap(word => [word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1)]);

describe('assignment keys', () => {
  it('are read for every keyword, whatever its case and the letters around it', () => {
    for (const spelling of spellings) {
      for (const key of [spelling, `db.${spelling}2`, `my_${spelling}_prod`, `x${spelling}`]) {
        const text = `set ${key}=Xq9Lm2Zr8Wq4Tb6Yp and ${key}: "Xq9Lm2Zr8Wq4Tb6Yp" don't`;
        const keys: string[] = [];
        scanAssignments(text, match => {
          keys.push(match[1]!);
        });
        expect([text, keys, anchoredScanMismatches(text)]).toEqual([text, [key, key], []]);
      }
    }
  });

  it('are not read for words without a keyword', () => {
    const keys: string[] = [];
    scanAssignments("don't: isn't = passe: sec_ret=Xq9Lm2Zr8Wq4 tok-en: 'Xq9Lm2Zr8Wq4'", match => {
      keys.push(match[1]!);
    });
    expect(keys).toEqual(['passe']);
  });

  it('are read as a scan of the whole text reads them, with or without a quote after the key', () => {
    // Keys right before a quote are read from the `:` or `=` after it, or
    // from a quote with a blank before it (round 19): every such form here.
    const part = fc.constantFrom(
      ...[
        'password',
        'api_key',
        'token',
        'x.secret',
        'pass',
        "don't",
        'isn',
        'word',
        'Xq9Lm2Zr8Wq4',
      ],
      ...[
        '"',
        "'",
        '`',
        ' ',
        '  ',
        '\t',
        '\n',
        ':',
        '=',
        ':=',
        '?=',
        '!==',
        '=>',
        '::=',
        ':::=',
        '== ',
      ],
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 24 }), parts => {
        const text = parts.join('');
        const read: string[] = [];
        scanAssignments(text, match => {
          read.push(`${match.index}:${match[0]}`);
        });
        const whole = Array.from(
          text.matchAll(assignmentAsScanned),
          match => `${match.index}:${match[0]}`,
        );
        expect([text, read]).toEqual([text, whole]);
      }),
      { numRuns: 5000 },
    );
  });
});
