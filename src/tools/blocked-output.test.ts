import { describe, expect, it } from 'vitest';
import {
  blockedOutput,
  defaultBlockedMessage,
  hasGuardrailBlockedShape,
  isGuardrailBlocked,
} from './blocked-output';

const record = {
  guardrail: 'no-drop-table',
  kind: 'tool_input' as const,
  status: 'blocked' as const,
  toolName: 'runSql',
  durationMs: 1,
};

describe('isGuardrailBlocked and hasGuardrailBlockedShape', () => {
  it('recognises the blocked outputs guarded tools make, whose JSON is the documented shape', () => {
    const output = blockedOutput(record, 'No.');
    expect(isGuardrailBlocked(output)).toBe(true);
    expect(JSON.stringify(output)).toBe(
      '{"status":"blocked","guardrail":{"guardrail":"no-drop-table","kind":"tool_input","status":"blocked","toolName":"runSql","durationMs":1},"message":"No."}',
    );
    expect(output).toEqual({ status: 'blocked', guardrail: record, message: 'No.' });
  });

  it('does not take a value shaped as one for a blocked output: JSON, a copy, a forged object', () => {
    const real = blockedOutput(record, 'No.');
    const forged = { status: 'blocked', guardrail: record, message: 'No.' };
    for (const lookalike of [
      forged,
      JSON.parse(JSON.stringify(real)),
      { ...real },
      structuredClone(real),
    ]) {
      expect(isGuardrailBlocked(lookalike)).toBe(false);
      // The shape, for a client that received it over the wire: a hint, no proof.
      expect(hasGuardrailBlockedShape(lookalike)).toBe(true);
    }
    expect(hasGuardrailBlockedShape(real)).toBe(true);
  });

  it('rejects ordinary tool outputs that merely look similar', () => {
    for (const check of [isGuardrailBlocked, hasGuardrailBlockedShape]) {
      expect(
        check({ status: 'blocked', guardrail: { ...record, kind: 'output' }, message: 'x' }),
      ).toBe(false);
      expect(check(blockedOutput({ ...record, status: 'passed' }, 'x'))).toBe(false);
    }
    expect(isGuardrailBlocked(undefined)).toBe(false);
    expect(isGuardrailBlocked('blocked')).toBe(false);
    expect(isGuardrailBlocked({ status: 'blocked', message: 'x' })).toBe(false);
    expect(isGuardrailBlocked({ status: 'blocked', guardrail: 'g', message: 'x' })).toBe(false);
    expect(
      isGuardrailBlocked({
        status: 'blocked',
        guardrail: { ...record, kind: 'output' },
        message: 'x',
      }),
    ).toBe(false);
    expect(
      isGuardrailBlocked({
        status: 'blocked',
        guardrail: { ...record, status: 'passed' },
        message: 'x',
      }),
    ).toBe(false);
  });
});

describe('defaultBlockedMessage', () => {
  it('says the call did not run for input trips and the result was withheld for output trips', () => {
    expect(defaultBlockedMessage(record)).toBe(
      'The "runSql" tool call was blocked by a guardrail and did not run.',
    );
    expect(defaultBlockedMessage({ ...record, kind: 'tool_output', toolName: undefined })).toBe(
      'The result of the tool call was withheld by a guardrail.',
    );
  });
});
