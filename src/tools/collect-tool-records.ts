import { readingCallerArgument } from '../core/caller-values';
import { GuardrailTripwireError } from '../core/errors';
import type { GuardrailRecord } from '../core/types';
import { isGuardrailBlocked } from './blocked-output';
import { type ToolCallRecords, toolCallRecordsOf } from './tool-call-records';

/** The parts of an AI SDK step that `collectToolRecords` reads (ai@6 and ai@7 steps fit). */
export interface StepWithToolResults {
  content?: ReadonlyArray<unknown>;
  toolResults?: ReadonlyArray<unknown>;
}

type ToolPart = {
  type?: unknown;
  toolCallId?: unknown;
  input?: unknown;
  output?: unknown;
  error?: unknown;
  preliminary?: unknown;
};

/**
 * The records of a run's guarded tool calls, and whether any tripped. Every
 * record (passed, modified, blocked, error) of each call whose result is in
 * the steps, in step order; for a result that no longer maps to its call,
 * the trip alone, read from a blocked output this process made
 * (`isGuardrailBlocked`: never one merely shaped as one) or the
 * `GuardrailTripwireError`. A call whose result shows up in several
 * steps counts once, in the first (across calls that share `seen`); two
 * calls under one id count twice.
 */
export function collectToolCallRecords(
  steps: ReadonlyArray<StepWithToolResults> | undefined,
  /** Calls already collected, by their list of records (one step at a time: pass the same set to each). */
  seen = new Set<unknown>(),
): ToolCallRecords {
  const records: GuardrailRecord[] = [];
  let tripped = false;
  for (const step of steps ?? []) {
    const parts = step.content ?? step.toolResults ?? [];
    for (const part of parts as ReadonlyArray<ToolPart>) {
      if (part == null || typeof part !== 'object' || part.preliminary === true) continue;
      if (part.type !== 'tool-result' && part.type !== 'tool-error') continue;
      const known = toolCallRecordsOf(part.input);
      let found: ToolCallRecords | undefined = known;
      if (!found && part.type === 'tool-result' && isGuardrailBlocked(part.output)) {
        found = { records: [part.output.guardrail], tripped: true };
      } else if (!found && GuardrailTripwireError.isInstance(part.error)) {
        found = { records: [part.error.record], tripped: true };
      }
      if (found === undefined) continue;
      // The call itself, not its id: ids repeat (a provider numbering each
      // response's calls call_0, call_1; a history the client wrote), and a
      // later blocked call under a used id was left out of the outcome. Its
      // list of records is one per call, the same however often it is read.
      const key = known ? known.records : found.records[0];
      if (seen.has(key)) continue;
      seen.add(key);
      records.push(...found.records);
      tripped ||= found.tripped;
    }
  }
  return { records, tripped };
}

/**
 * The records of a run's guarded tool calls, in step order: every record
 * (passed, modified, blocked, error) of each call made through `guardTools` /
 * `guardTool` in this process. Reads `step.content`, falling back to
 * `step.toolResults`. Steps that went through JSON (restored from a
 * database) yield none: a blocked output there cannot be told from a tool
 * result shaped as one (`isGuardrailBlocked`).
 *
 * @example
 * const { steps } = await generateText({ model, tools, prompt });
 * const records = collectToolRecords(steps);
 */
export function collectToolRecords(
  steps: ReadonlyArray<StepWithToolResults> | undefined,
): GuardrailRecord[] {
  return readingCallerArgument(
    'collectToolRecords',
    'steps',
    () => collectToolCallRecords(steps).records,
  );
}
