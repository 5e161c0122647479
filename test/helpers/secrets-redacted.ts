import { secrets } from '../../src/guards/secrets/secrets';
import { guardContext } from './index';

const guard = secrets({ action: 'redact' });

/** What `secrets({ action: 'redact' })` lets through for `text` at output. */
export function secretsRedacted(text: string): string {
  const verdict = guard.check(text, guardContext('output')) as { action: string; content?: string };
  return verdict.action === 'modify' ? verdict.content! : text;
}
