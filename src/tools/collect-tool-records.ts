import { GuardrailTripwireError } from '../core/errors';
import type { GuardrailRecord } from '../core/types';
import { isGuardrailBlocked } from './blocked-output';

/** The parts of an AI SDK step that `collectToolRecords` reads (ai@6 and ai@7 steps fit). */
export interface StepWithToolResults {
  content?: ReadonlyArray<unknown>;
  toolResults?: ReadonlyArray<unknown>;
}

type ToolPart = {
  type?: unknown;
  toolCallId?: unknown;
  output?: unknown;
  error?: unknown;
  preliminary?: unknown;
};

/**
 * The records of the tool guardrails that tripped in a run, in step order:
 * the `guardrail` of every `GuardrailBlockedOutput` (`onTrip: 'return'`) and
 * the `record` of every `GuardrailTripwireError` tool error (`onTrip:
 * 'throw'`). Reads `step.content`, falling back to `step.toolResults`.
 *
 * Passing and modifying tool guardrails leave no trace in the steps; receive
 * their records through the `onEvent` option of `guardTools`.
 *
 * @example
 * const { steps } = await generateText({ model, tools, prompt });
 * const tripped = collectToolRecords(steps);
 */
export function collectToolRecords(
  steps: ReadonlyArray<StepWithToolResults> | undefined,
): GuardrailRecord[] {
  const records: GuardrailRecord[] = [];
  const seen = new Set<unknown>();
  for (const step of steps ?? []) {
    const parts = step.content ?? step.toolResults ?? [];
    for (const part of parts as ReadonlyArray<ToolPart>) {
      if (part == null || typeof part !== 'object' || part.preliminary === true) continue;
      let record: GuardrailRecord | undefined;
      if (part.type === 'tool-result' && isGuardrailBlocked(part.output)) {
        record = part.output.guardrail;
      } else if (part.type === 'tool-error' && GuardrailTripwireError.isInstance(part.error)) {
        record = part.error.record;
      }
      if (record === undefined) continue;
      const key = part.toolCallId ?? record;
      if (seen.has(key)) continue;
      seen.add(key);
      records.push(record);
    }
  }
  return records;
}
