import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchoredScanMismatches } from './find-secrets';

// Every string literal of the secrets tests (real-looking tokens of each
// provider, placeholders, near misses), alone and run together, so that
// matches touch each other and the text edges.
const testSource = readFileSync(
  fileURLToPath(new URL('./secrets.test.ts', import.meta.url)),
  'utf8',
);
const literals = [...testSource.matchAll(/'([^'\n]{6,})'|`([^`]{6,})`/g)].map(match =>
  (match[1] ?? match[2]!).replace(/\\n/g, '\n'),
);

describe('anchored scans', () => {
  it('find exactly the matches of a full scan on the test fixtures', () => {
    expect(literals.length).toBeGreaterThan(30);
    for (const text of literals) expect([text, anchoredScanMismatches(text)]).toEqual([text, []]);
    expect(anchoredScanMismatches(literals.join(''))).toEqual([]);
    expect(anchoredScanMismatches(literals.join('\n'))).toEqual([]);
  });

  it('find exactly the matches of a full scan on tokens run together', () => {
    const tokens = [
      `sk-ant-api03-${'a'.repeat(93)}AA`,
      'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R',
      'AKIAZ7VRSQ5TJN2XMY3K',
      'xoxb-123456789012-1234567890123-q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3N',
      'postgres://admin:hunter2pass@db.example.com:5432/app',
      'https://user:s3cr3tpass@example.com/x',
      'MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs',
      '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw5',
      '1234567890123456|q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5V',
      'abc4Q~q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R',
      '0123456789abcdef0123456789abcdef-us12',
      `q8Zr4Lm2Xw9Tb6.atlasv1.${'q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R'.repeat(2)}`,
      '//registry.npmjs.org/:_authToken=12345678-1234-1234-1234-123456789012',
      'aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzK8Q2mN4pL"',
      'curl -u bob:s3cr3tPW https://api.example.com',
      // Anchored on the flag (`-u`, `-p`), the element's `<`, or near the value's run.
      'curl -s --user bob:s3cr3tPW https://api.example.com',
      'sshpass -p hunter22pw ssh host',
      'mysqldump -h db -pS3cretpw app',
      '<password>hunter2pass</password>',
      'SNYK_TOKEN = "12345678-1234-1234-1234-123456789012"',
      'sumo key: su1234567890ab',
      'sk_live_q8Zr4Lm2Xw9Tb6Yp1Kd7',
      'Authorization: Bearer q8Zr4Lm2Xw9Tb6Yp1Kd7',
      'API_KEY="q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3N" if "Tr0ub4dor&3xyz" == password',
      '<add key="ClearTextPassword" value="aB3$kLm9xQ" />',
      'Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2RzT4bU9wX1yV3aP6kL0mN8oQ2rS5tU7vW9xY1zA3b==',
    ];
    for (const separator of ['', ' ', '\n', '.', '-', '_', '"']) {
      const text = tokens.join(separator);
      expect([separator, anchoredScanMismatches(text)]).toEqual([separator, []]);
    }
  });
});
