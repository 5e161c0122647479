import { argumentError, readingCallerArgument } from './caller-values';
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

/**
 * `mergeOutcomes` of a caller's outcomes (the public name): a getter or a
 * Proxy trap of them that throws is a TypeError naming it by kind
 * (`readingCallerArgument`), never its message.
 */
export function mergeGuardrailOutcomes(outcomes: GuardrailOutcome[]): GuardrailOutcome {
  return readingCallerArgument('mergeGuardrailOutcomes', 'outcomes', () => {
    if (!Array.isArray(outcomes)) {
      throw argumentError('mergeGuardrailOutcomes', 'outcomes', 'an array of outcomes', outcomes);
    }
    return mergeOutcomes(outcomes);
  });
}
