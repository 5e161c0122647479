import type { GuardrailOutcome, GuardrailRecord } from './types';

/**
 * The status of a call from its records and whether it tripped. An `error`
 * record that was allowed (`onError: 'allow'`) does not make a call blocked.
 */
export function outcomeOf(records: GuardrailRecord[], tripped: boolean): GuardrailOutcome {
  return {
    status: tripped
      ? 'blocked'
      : records.some(r => r.status === 'modified')
        ? 'modified'
        : 'passed',
    records,
  };
}

/**
 * Combines the outcomes of several calls or steps into one: every record,
 * the most severe status (`blocked` over `modified` over `passed`), and the
 * sum of their `cachedVerdicts`. Useful in
 * a route handler's `messageMetadata` to report a whole turn.
 */
export function mergeOutcomes(outcomes: GuardrailOutcome[]): GuardrailOutcome {
  const records = outcomes.flatMap(o => o.records);
  const status = outcomes.some(o => o.status === 'blocked')
    ? 'blocked'
    : outcomes.some(o => o.status === 'modified')
      ? 'modified'
      : 'passed';
  const cachedVerdicts = outcomes.reduce((sum, o) => sum + (o.cachedVerdicts ?? 0), 0);
  return cachedVerdicts > 0 ? { status, records, cachedVerdicts } : { status, records };
}

/** Public name of `mergeOutcomes`. */
export { mergeOutcomes as mergeGuardrailOutcomes };
