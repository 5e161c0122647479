import type { GuardrailEvent, GuardrailEventListener, GuardrailRecord } from './types';

const eventTypes = {
  passed: 'guardrail.passed',
  blocked: 'guardrail.blocked',
  modified: 'guardrail.modified',
  error: 'guardrail.error',
} as const satisfies Record<GuardrailRecord['status'], GuardrailEvent['type']>;

/** Sends one event for a record. A listener that throws is ignored: events never break a call. */
export function emitEvent(listener: GuardrailEventListener | undefined, record: GuardrailRecord) {
  if (!listener) return;
  try {
    listener({ type: eventTypes[record.status], record });
  } catch {
    // Observability must not change the outcome of the call.
  }
}
