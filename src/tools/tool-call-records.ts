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

/*
 * With `onTrip: 'throw'`, such a call's tool message holds no object the
 * wrapper made: the AI SDK catches the `GuardrailTripwireError` and writes
 * its text (`error-text`, `getErrorMessage`) itself. Those records are kept
 * by the call id and that text, only for calls the history approved (rare:
 * an approval the guardrails refused), in a bounded map: a string cannot be
 * held weakly. Two runs of one process that refuse a call of the same id
 * with the same text share the entry (the last one's records).
 */
const recordsByErrorText = new Map<string, ToolCallRecords>();

/** How many calls' error-text records are kept (the oldest go first). */
export const MAX_ERROR_TEXT_RECORDS = 1000;

function errorTextKey(toolCallId: string, text: string): string {
  return `${toolCallId}\u0000${text}`;
}

/** Remembers the records of a call whose tool message will read `text` as its `error-text` output. */
export function rememberErrorTextRecords(
  toolCallId: string,
  text: string,
  entry: ToolCallRecords,
): void {
  const key = errorTextKey(toolCallId, text);
  recordsByErrorText.delete(key);
  recordsByErrorText.set(key, entry);
  if (recordsByErrorText.size > MAX_ERROR_TEXT_RECORDS) {
    recordsByErrorText.delete(recordsByErrorText.keys().next().value as string);
  }
}

/** The records of the call `toolCallId` whose tool message output is the `error-text` `output`, if remembered. */
export function errorTextRecordsOf(
  toolCallId: unknown,
  output: unknown,
): ToolCallRecords | undefined {
  if (typeof toolCallId !== 'string' || output === null || typeof output !== 'object') {
    return undefined;
  }
  const { type, value } = output as { type?: unknown; value?: unknown };
  if (type !== 'error-text' || typeof value !== 'string') return undefined;
  return recordsByErrorText.get(errorTextKey(toolCallId, value));
}
