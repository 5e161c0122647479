import { findSecrets } from '../../src/guards/secrets/find-secrets';
import { secrets } from '../../src/guards/secrets/secrets';
import { guardContext } from './index';
import { expectInputRedacted } from './redacted-input';

const guard = secrets({ action: 'redact' });

/** What `secrets({ action: 'redact' })` lets through for `text` at output. */
export function secretsRedacted(text: string): string {
  const verdict = guard.check(text, guardContext('output')) as { action: string; content?: string };
  return verdict.action === 'modify' ? verdict.content! : text;
}

/** `token` with a blank at each of `cuts` (a key split as a model or a paste splits it). */
export function cutToken(token: string, ...cuts: number[]): string {
  return [0, ...cuts].map((from, index) => token.slice(from, cuts[index])).join(' ');
}

/** What `findSecrets` finds in `text`: each span's type and the text it covers. */
export function foundSecrets(text: string): string[][] {
  return findSecrets(text).map(span => [span.type, text.slice(span.start, span.end)]);
}

/** The one input record of `secrets` redacting one key of `type` at `start`, `length` long. */
export function oneSecretInputRecord(type: string, start: number, length: number) {
  return [
    {
      guardrail: 'secrets',
      kind: 'input',
      status: 'modified',
      info: { types: [type], spans: [{ type, start, end: start + length }] },
    },
  ];
}

/** Redacts `secret` inside `before` … `after` through `generateText`, as one span of `type`. */
export async function expectWhole(type: string, before: string, secret: string, after: string) {
  await expectInputRedacted(
    () => secrets({ action: 'redact' }),
    `${before}${secret}${after}`,
    `${before}[${type}]${after}`,
    oneSecretInputRecord(type, before.length, secret.length),
  );
}

/** Letters and digits. */
export const alphanumerics = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** The base64 alphabet. */
export const base64Alphabet = `${alphanumerics}+/`;

/**
 * `length` characters of `alphabet` from a fixed `seed` (a linear
 * congruential generator: no placeholder, no repeats), as a long secret
 * under test is written.
 */
export function seededRun(length: number, alphabet: string, seed: number): string {
  let state = seed;
  let run = '';
  for (let index = 0; index < length; index++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    run += alphabet[(state >> 16) % alphabet.length];
  }
  return run;
}
