import type { GuardrailRecord } from '../core/types';

/** The records of one guarded tool call, and whether a guardrail stopped it. */
export interface ToolCallRecords {
  records: GuardrailRecord[];
  tripped: boolean;
}

/*
 * The AI SDK hands `execute` the very input object it later puts in the
 * step's tool-call and tool-result parts, so the records of a call are kept
 * by that object: weakly, so they live exactly as long as the result that
 * holds the input, and no two runs can mix records up (a tool call id can
 * repeat across runs, an object cannot).
 */
const recordsByInput = new WeakMap<object, ToolCallRecords>();

/** Remembers the records of the call whose input (as the SDK passed it) is `input`. */
export function rememberToolCallRecords(input: unknown, entry: ToolCallRecords): void {
  if (input !== null && typeof input === 'object') recordsByInput.set(input, entry);
}

/** The records of the guarded call whose input is `input`, if it was one. */
export function toolCallRecordsOf(input: unknown): ToolCallRecords | undefined {
  return input !== null && typeof input === 'object' ? recordsByInput.get(input) : undefined;
}

/*
 * Calls the AI SDK runs before the first step (approved calls of a history
 * a client sent back) show up in no step: only their tool message, in
 * `response.messages`, whose `output` is the very object the wrapper's
 * `toModelOutput` returned. Their records are found by that object.
 */
const recordsByModelOutput = new WeakMap<object, ToolCallRecords>();

/** Remembers the records of a call by the model output the wrapper made of its result. */
export function rememberModelOutputRecords(modelOutput: unknown, entry: ToolCallRecords): void {
  if (modelOutput !== null && typeof modelOutput === 'object') {
    recordsByModelOutput.set(modelOutput, entry);
  }
}

/** The records of the guarded call whose model output is `modelOutput`, if it was one. */
export function modelOutputRecordsOf(modelOutput: unknown): ToolCallRecords | undefined {
  return modelOutput !== null && typeof modelOutput === 'object'
    ? recordsByModelOutput.get(modelOutput)
    : undefined;
}
