import { describe, expect, it } from 'vitest';
import { defaultBlockedMessage, isGuardrailBlocked } from './blocked-output';

const record = {
  guardrail: 'no-drop-table',
  kind: 'tool_input' as const,
  status: 'blocked' as const,
  toolName: 'runSql',
  durationMs: 1,
};

describe('isGuardrailBlocked', () => {
  it('recognises a blocked output, also after a JSON round trip', () => {
    const output = { status: 'blocked', guardrail: record, message: 'No.' };
    expect(isGuardrailBlocked(output)).toBe(true);
    expect(isGuardrailBlocked(JSON.parse(JSON.stringify(output)))).toBe(true);
  });

  it('rejects ordinary tool outputs that merely look similar', () => {
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
