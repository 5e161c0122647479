import { readingCallerArgument } from '../core/caller-values';
import { shownCutToolName } from '../core/shown-tool-calls';
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
 * Marks the blocked outputs this package made. A property keyed by a
 * symbol, not enumerable: JSON, `structuredClone` and a spread copy drop
 * it, so no value that came from outside the process (a tool's fetched
 * JSON, a remote server's answer, a client's message) carries it. A
 * registered symbol, so a second copy of the package (its ESM and CJS
 * builds in one process) recognises the first one's outputs.
 */
const madeByGuardrails = Symbol.for('ai-guardrails.blocked-output');

/**
 * The `GuardrailBlockedOutput` for `record` with `message`, marked as made
 * here (`isGuardrailBlocked`). For guarded tools; not exported from the package.
 */
export function blockedOutput(record: GuardrailRecord, message: string): GuardrailBlockedOutput {
  const output: GuardrailBlockedOutput = { status: 'blocked', guardrail: record, message };
  Object.defineProperty(output, madeByGuardrails, { value: true });
  return output;
}

/**
 * True when a tool output is a `GuardrailBlockedOutput` that a guarded tool
 * of this process returned. Recognises its mark, not its shape: a tool
 * result or fetched JSON that looks like one (`{ status: 'blocked',
 * guardrail: {…}, message }`) is not one, so a remote server cannot make
 * an app believe a guardrail tripped. An output that went through JSON (UI
 * messages a chat client sends back, stored conversations) lost the mark:
 * use `hasGuardrailBlockedShape` there, as a hint to display, never as a
 * proof.
 *
 * @example
 * for (const result of step.toolResults) {
 *   if (isGuardrailBlocked(result.output)) console.warn(result.output.guardrail);
 * }
 */
export function isGuardrailBlocked(output: unknown): output is GuardrailBlockedOutput {
  return (
    output != null &&
    typeof output === 'object' &&
    readingCallerArgument(
      'isGuardrailBlocked',
      'output',
      () => Object.hasOwn(output, madeByGuardrails) && blockedShaped(output),
    )
  );
}

/**
 * True when a value has the shape of a `GuardrailBlockedOutput` (`status:
 * 'blocked'`, a tool record in `guardrail`, a string `message`), wherever it
 * came from: for clients that receive tool outputs over the wire (a React
 * tool part, a stored conversation), to show that a call was blocked. Any
 * tool or server can return this shape: it proves nothing. In the process
 * that ran the tools, `isGuardrailBlocked` tells real blocked outputs apart.
 *
 * @example
 * if (part.state === 'output-available' && hasGuardrailBlockedShape(part.output)) {
 *   return <Notice>{part.output.message}</Notice>;
 * }
 */
export function hasGuardrailBlockedShape(value: unknown): value is GuardrailBlockedOutput {
  if (value == null || typeof value !== 'object') return false;
  return readingCallerArgument('hasGuardrailBlockedShape', 'value', () => blockedShaped(value));
}

/** `hasGuardrailBlockedShape` of an object. */
function blockedShaped(value: object): boolean {
  const { status, guardrail, message } = value as Partial<Record<string, unknown>>;
  if (status !== 'blocked' || typeof message !== 'string') return false;
  if (guardrail == null || typeof guardrail !== 'object') return false;
  const record = guardrail as Partial<Record<string, unknown>>;
  return (
    typeof record.guardrail === 'string' &&
    (record.kind === 'tool_input' || record.kind === 'tool_output') &&
    (record.status === 'blocked' || record.status === 'error')
  );
}

/**
 * The default text the model sees for a blocked tool call. The tool's name
 * as reasons show it (quoted, escaped, cut to 64 characters): an MCP
 * server chooses it.
 */
export function defaultBlockedMessage(record: GuardrailRecord): string {
  // The record's name is cut already: shown as the name it was cut from.
  const tool = record.toolName ? `${shownCutToolName(record.toolName)} ` : '';
  return record.kind === 'tool_input'
    ? `The ${tool}tool call was blocked by a guardrail and did not run.`
    : `The result of the ${tool}tool call was withheld by a guardrail.`;
}
