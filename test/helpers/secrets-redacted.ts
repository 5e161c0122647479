import { findSecrets } from '../../src/guards/secrets/find-secrets';
import { secrets } from '../../src/guards/secrets/secrets';
import { guardContext } from './index';

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
