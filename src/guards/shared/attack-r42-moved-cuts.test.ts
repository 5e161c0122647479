import { describe, expect, it } from 'vitest';
import { runChain } from '../../core/chain';
import { findPiiNormalized } from '../pii/find-pii';
import { pii } from '../pii/pii';
import { scanSecretsNormalized } from '../secrets/find-secrets';
import { secrets } from '../secrets/secrets';
import { normalizeText } from './normalize-text';
import { replaceSpans } from './spans';

/*
 * Round 42, an attacker's read of round 41's moved cuts (e84fc3a3:
 * `secrets()` after `pii()` ends a piece where `pii()` cut, up to 2,048
 * characters past its target, and takes that piece's normal form). The
 * client writes lines of a fixed length, so `pii()` cuts at a line break
 * near each target, with a key at the start and the end of every line (on
 * both sides of every cut) and personal data before each; the caller's
 * placeholder moves the cuts: empty, a line break (a cut `secrets()` could
 * take of its own), 2,060 characters of line breaks (past the reach), and
 * 2,049 blanks. Held at 285f814f: the chain gives what two whole scans
 * give, and no key is left.
 */

const key = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';

/** About 340 KB of lines of `lineLength` characters, each starting and ending with a key. */
function linesText(lineLength: number): string {
  const lines: string[] = [];
  for (let index = 0, size = 0; size < 340_000; index++, size += lineLength) {
    const line =
      index % 7 === 0
        ? `${key} mail jane${index}@example.com`
        : `call +44 20 7946 0958 then ${key}`;
    const padded = `${line} ${'word '.repeat(lineLength)}`.slice(0, lineLength - key.length - 2);
    lines.push(`${padded} ${key}`);
  }
  return lines.join('\n');
}

describe('pii() then secrets(), keys on both sides of every cut, placeholders moving the cuts', () => {
  const context = () => ({ kind: 'input' as const, messages: [], metadata: {}, state: new Map() });
  const text = linesText(2_100);

  it.each([
    ['empty', ''],
    ['a line break', '\n'],
    ['2,060 characters of line breaks', 'z\n'.repeat(1_030)],
    ['2,049 blanks', ' '.repeat(2_049)],
  ])(
    '%s: the chain gives what two whole scans give',
    async (_, written) => {
      const piiSpans = findPiiNormalized(normalizeText(text));
      const redacted = replaceSpans(text, piiSpans, () => written);
      const secretSpans = scanSecretsNormalized(normalizeText(redacted)).spans;
      expect(piiSpans.length).toBeGreaterThan(150);
      expect(secretSpans.length).toBeGreaterThan(300);
      const result = await runChain(
        [pii({ placeholder: () => written }), secrets({ action: 'redact' })],
        text,
        context(),
      );
      expect(result.content).toBe(replaceSpans(redacted, secretSpans, span => `[${span.type}]`));
      expect(result.content).not.toContain(key);
    },
    120_000,
  );
});
