import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { runChain } from '../../core/chain';
import { findPiiNormalized } from '../pii/find-pii';
import { pii } from '../pii/pii';
import { scanSecretsNormalized } from '../secrets/find-secrets';
import { secrets } from '../secrets/secrets';
import { chunkedScanFrom } from './chunked-scan';
import { normalizeText } from './normalize-text';
import { replaceSpans } from './spans';

/*
 * Round 41, an attacker's read of round 40's reuse of `pii()`'s piece
 * normal forms by `secrets()` (`readNormalForm`, `earlierCuts`): the client
 * chooses where the personal data stands (so where the placeholders move
 * the text) and the caller chooses the placeholder (empty, one character,
 * longer than a piece's cut search), and a key stands right beside a
 * redacted value, in a piece with no personal data, or where the moved
 * cuts fall. The chain's result must be what two whole scans give.
 */

const keys = [
  'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R',
  'AKIAIOSFODNN7EXAMPLE',
  'password = "Tr0ub4dor&3xyz"',
  'ｇｈｐ＿q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R',
];
const personal = ['jane.doe@example.com', 'call +44 20 7946 0958', 'card 4111 1111 1111 1111'];
const words = ['the', 'order', 'shipped', 'to', 'our', 'customer', 'ａｃｃｏｕｎｔ', 'and', '\n'];

/** Prose of `length` characters: personal data in bursts (most pieces hold none), keys everywhere, some right after a value. */
function attackText(length: number, seed: number): string {
  const next = seededRandom(seed);
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const roll = next();
    const burst = Math.floor(size / 20_000) % 3 === 0;
    const part =
      roll < 0.02
        ? keys[Math.floor(next() * keys.length)]!
        : roll < 0.025
          ? `${personal[0]} ${keys[0]}`
          : burst && roll < 0.08
            ? personal[Math.floor(next() * personal.length)]!
            : words[Math.floor(next() * words.length)]!;
    parts.push(part);
    size += part.length + 1;
  }
  return parts.join(' ');
}

describe('pii() then secrets() on a long text, placeholders of any length', () => {
  const context = () => ({ kind: 'input' as const, messages: [], metadata: {}, state: new Map() });
  it.each([
    ['the default', undefined],
    ['empty', () => ''],
    ['one character', () => '#'],
    ['longer than a cut search', () => '-'.repeat(3_000)],
  ])('%s placeholder: the chain gives what two whole scans give', async (_, placeholder) => {
    for (const seed of [1, 2]) {
      const text = attackText(2.5 * chunkedScanFrom, seed);
      const piiSpans = findPiiNormalized(normalizeText(text));
      const written = placeholder ?? ((type: string) => `[${type}]`);
      const redacted = replaceSpans(text, piiSpans, span => written(span.type));
      const secretSpans = scanSecretsNormalized(normalizeText(redacted)).spans;
      expect(piiSpans.length).toBeGreaterThan(50);
      expect(secretSpans.length).toBeGreaterThan(100);
      const result = await runChain(
        [pii(placeholder ? { placeholder } : {}), secrets({ action: 'redact' })],
        text,
        context(),
      );
      expect(result.content).toBe(replaceSpans(redacted, secretSpans, span => `[${span.type}]`));
      expect(result.content).not.toContain('q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R');
      expect(result.content).not.toContain('AKIAIOSFODNN7EXAMPLE');
    }
  });
});

describe('a key glued to an e-mail address (found before round 40 too: not from the reuse)', () => {
  // `jane.doe@example.comghp_…` is no address (`comghp` is no top-level
  // domain), and until round 42 the key with a letter before it was no key
  // either: `secrets()` now reads a key glued after a word or a domain
  // (`glued-keys.ts`). Since round 43 the e-mail finder ends the domain where
  // a glued key starts (`gluedKeyInDomain`): the address is found whichever runs first.
  const context = () => ({ kind: 'input' as const, messages: [], metadata: {}, state: new Map() });
  it('pii() then secrets() hides the key and the address', async () => {
    const text = `x ${personal[0]}${keys[0]} y`;
    const result = await runChain([pii(), secrets({ action: 'redact' })], text, context());
    expect(result.content).toBe('x [EMAIL_ADDRESS][GITHUB_TOKEN] y');
  });
  it('the same key glued to a word is found', async () => {
    const text = `x com${keys[0]} y`;
    const result = await runChain([pii(), secrets({ action: 'redact' })], text, context());
    expect(result.content).toBe('x [HIGH_ENTROPY_STRING] y');
  });
});
