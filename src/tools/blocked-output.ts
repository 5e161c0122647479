import type { GuardrailRecord } from '../core/types';

/**
 * What a guarded tool returns instead of running (`tool_input` trip) or
 * instead of its real result (`tool_output` trip) when it was wrapped with
 * `onTrip: 'return'`. It is the tool call's output in the steps, the response
 * messages and the UI stream; the model sees only `message`.
 */
export interface GuardrailBlockedOutput {
  status: 'blocked';
  /** The record of the guardrail that tripped. */
  guardrail: GuardrailRecord;
  /** What the model is told instead of the result. */
  message: string;
}

/**
 * True when a tool output is a `GuardrailBlockedOutput`. Recognises the
 * shape, not an identity, so it also works on outputs that went through JSON
 * (UI messages sent back by a chat client, stored conversations).
 *
 * @example
 * for (const result of step.toolResults) {
 *   if (isGuardrailBlocked(result.output)) console.warn(result.output.guardrail);
 * }
 */
export function isGuardrailBlocked(output: unknown): output is GuardrailBlockedOutput {
  if (output == null || typeof output !== 'object') return false;
  const { status, guardrail, message } = output as Partial<Record<string, unknown>>;
  if (status !== 'blocked' || typeof message !== 'string') return false;
  if (guardrail == null || typeof guardrail !== 'object') return false;
  const record = guardrail as Partial<Record<string, unknown>>;
  return (
    typeof record.guardrail === 'string' &&
    (record.kind === 'tool_input' || record.kind === 'tool_output') &&
    (record.status === 'blocked' || record.status === 'error')
  );
}

/** The default text the model sees for a blocked tool call. */
export function defaultBlockedMessage(record: GuardrailRecord): string {
  const tool = record.toolName ? `"${record.toolName}" ` : '';
  return record.kind === 'tool_input'
    ? `The ${tool}tool call was blocked by a guardrail and did not run.`
    : `The result of the ${tool}tool call was withheld by a guardrail.`;
}
