import { settleUnawaited } from './callback-result';
import type { GuardrailEvent, GuardrailEventListener, GuardrailRecord } from './types';

const eventTypes = {
  passed: 'guardrail.passed',
  blocked: 'guardrail.blocked',
  modified: 'guardrail.modified',
  error: 'guardrail.error',
} as const satisfies Record<GuardrailRecord['status'], GuardrailEvent['type']>;

/**
 * Sends one event for a record. A listener that throws, or an async one
 * that rejects, is ignored: events never break a call (nor, through an
 * unhandled rejection, the process).
 */
export function emitEvent(listener: GuardrailEventListener | undefined, record: GuardrailRecord) {
  if (!listener) return;
  try {
    settleUnawaited(listener({ type: eventTypes[record.status], record }));
  } catch {
    // Observability must not change the outcome of the call.
  }
}
