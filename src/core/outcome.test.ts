import { describe, expect, it } from 'vitest';
import { mergeGuardrailOutcomes, outcomeOf } from './outcome';
import type { GuardrailRecord } from './types';

const record = (guardrail: string, status: GuardrailRecord['status']): GuardrailRecord => ({
  guardrail,
  kind: 'output',
  status,
  durationMs: 1,
});

describe('outcomes', () => {
  it('a call is blocked when it tripped, modified when a record modified, else passed', () => {
    expect(outcomeOf([record('a', 'passed')], false).status).toBe('passed');
    expect(outcomeOf([record('a', 'modified')], false).status).toBe('modified');
    // An allowed error (onError: 'allow') does not block the call.
    expect(outcomeOf([record('a', 'error')], false).status).toBe('passed');
    expect(outcomeOf([record('a', 'blocked')], true).status).toBe('blocked');
  });

  it('merges steps: every record, the most severe status', () => {
    const merged = mergeGuardrailOutcomes([
      { status: 'modified', records: [record('pii', 'modified')] },
      { status: 'passed', records: [record('pii', 'passed')] },
    ]);
    expect(merged).toEqual({
      status: 'modified',
      records: [record('pii', 'modified'), record('pii', 'passed')],
    });
    expect(
      mergeGuardrailOutcomes([merged, { status: 'blocked', records: [record('judge', 'blocked')] }])
        .status,
    ).toBe('blocked');
    expect(mergeGuardrailOutcomes([])).toEqual({ status: 'passed', records: [] });
  });
});
