import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { emitEvent } from '../core/events';
import type { GuardrailEventListener, GuardrailRecord } from '../core/types';

/** Name of the record of a model's call to a tool the tool-definition guardrails removed. */
export const REMOVED_TOOL_CALL = 'removed-tool-call';

/**
 * A model can name a tool it was not given (an injected document can tell it
 * to), and `generateText` / `streamText` run any tool of the caller's tool
 * set by name. So a call to a tool whose definition was removed from this
 * call is dropped from the response before the AI SDK sees it, with a
 * blocked record naming the tool (never its arguments).
 */
export interface RemovedToolCalls {
  /** Names of the tools removed from this call. */
  removed: ReadonlySet<string>;
  /** The server of each removed tool that has one (from its definition record). */
  serverIds: ReadonlyMap<string, string>;
  /** Where the records go: the call's own records. */
  records: GuardrailRecord[];
  onEvent: GuardrailEventListener | undefined;
  /** With `retry`: the attempt whose response is read, tagged on its records as output records are. */
  attempt?: () => number | undefined;
}

function droppedCallRecord(toolName: string, guard: RemovedToolCalls): GuardrailRecord {
  const record: GuardrailRecord = {
    guardrail: REMOVED_TOOL_CALL,
    kind: 'tool_definition',
    status: 'blocked',
    severity: 'critical',
    reason: `the model called tool "${toolName}", which the tool-definition guardrails removed from this call; the call was dropped`,
    durationMs: 0,
    toolName,
  };
  const serverId = guard.serverIds.get(toolName);
  if (serverId !== undefined) record.serverId = serverId;
  const attempt = guard.attempt?.();
  if (attempt !== undefined) record.attempt = attempt;
  guard.records.push(record);
  emitEvent(guard.onEvent, record);
  return record;
}

/** The response without calls to removed tools. */
export function dropRemovedToolCalls(
  result: LanguageModelV4GenerateResult,
  guard: RemovedToolCalls,
): LanguageModelV4GenerateResult {
  const isDropped = removedToolCallParts(guard);
  const content = result.content.filter(part => !isDropped(part as LanguageModelV4StreamPart));
  return content.length === result.content.length ? result : { ...result, content };
}

/**
 * Whether a part of one response belongs to a call to a removed tool (its
 * input parts, the call itself, which is recorded, and, for a call the
 * provider executed, its approval request and its result), part by part in
 * the response's order: the guard's read loop drops those (no stream layer
 * of its own that every text delta would pass through), and so does
 * `dropRemovedToolCalls` for a generated response. Round 23: a
 * provider-executed call's `tool-result` was let through after its call
 * was dropped, so what the removed tool returned reached the app and the
 * next step's prompt.
 */
export function removedToolCallParts(
  guard: RemovedToolCalls,
): (part: LanguageModelV4StreamPart) => boolean {
  // Ids of streamed tool inputs that belong to a removed tool: kept past
  // their end, since an input part after it carries the same arguments.
  const droppedInputs = new Set<string>();
  // Ids of streamed tool inputs that belong to a tool still offered.
  const keptInputs = new Set<string>();
  // Ids of the dropped calls: their approval requests and results go too.
  const droppedCalls = new Set<string>();
  return part => {
    switch (part.type) {
      case 'tool-input-start':
        if (!guard.removed.has(part.toolName)) {
          keptInputs.add(part.id);
          return false;
        }
        droppedInputs.add(part.id);
        return true;
      case 'tool-input-delta':
      case 'tool-input-end':
        // An input part before its start (round 23: a provider that sent a
        // removed tool's arguments first) names no tool: it may be a removed
        // one's, so it is dropped. The call itself carries its whole input.
        return droppedInputs.has(part.id) || !keptInputs.has(part.id);
      case 'tool-call':
        if (!guard.removed.has(part.toolName)) return false;
        droppedCallRecord(part.toolName, guard);
        droppedCalls.add(part.toolCallId);
        return true;
      case 'tool-approval-request':
        return droppedCalls.has(part.toolCallId);
      case 'tool-result':
        if (droppedCalls.has(part.toolCallId)) return true;
        // A result of a removed tool whose call this response did not hold.
        if (!guard.removed.has(part.toolName)) return false;
        droppedCallRecord(part.toolName, guard);
        return true;
      default:
        return false;
    }
  };
}
