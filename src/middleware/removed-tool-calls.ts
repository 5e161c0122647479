import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { emitEvent } from '../core/events';
import { cutToolName, shownToolName } from '../core/shown-tool-calls';
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
  /** The server of each removed tool that has one (from its definition record), by the name records show (cut to 64 characters). */
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
    reason: `the model called tool ${shownToolName(toolName)}, which the tool-definition guardrails removed from this call; the call was dropped`,
    durationMs: 0,
    toolName: cutToolName(toolName),
  };
  // By the name records show (cut to 64 characters): the records it is read from.
  const serverId = guard.serverIds.get(record.toolName!);
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
  const parts = removedToolCallParts(guard);
  // A generated response holds no input parts: each part goes on as it is or is dropped.
  const content = result.content.filter(
    part => parts(part as LanguageModelV4StreamPart)?.length !== 0,
  );
  return content.length === result.content.length ? result : { ...result, content };
}

type Part = LanguageModelV4StreamPart;
type ToolCall = Extract<Part, { type: 'tool-call' }>;

/** The input parts of one call to a tool still offered, held until its `tool-call` decides it. */
interface HeldInput {
  start: Extract<Part, { type: 'tool-input-start' }>;
  end?: Extract<Part, { type: 'tool-input-end' }>;
}

const NOTHING: readonly Part[] = [];

/**
 * The parts of one response without its calls to removed tools, part by
 * part in the response's order: `undefined` when `part` goes on as it is
 * (every part that is no tool input, call, result or approval request),
 * none while it is held or when it is dropped, or the parts that go on in
 * its place. The guard's read loop asks it first (no stream layer of its
 * own that every text delta would pass through), and so does
 * `dropRemovedToolCalls` for a generated response.
 *
 * A call's input parts are held until its `tool-call` part names the tool
 * (round 24: a `tool-input-start` naming a tool still offered, then the
 * deltas, then a `tool-call` with the same id naming a removed tool had
 * sent the removed tool's arguments on before its call was dropped). The
 * call decides: a call to a removed tool is dropped and recorded (never its
 * arguments), with its input, its approval request and, for a call the
 * provider executed, its result (round 23); any other call goes on after
 * its start (when that named the same tool), its input as one delta (the
 * call's own, which is what the AI SDK runs) and its end. The deltas
 * themselves never go on: they are not kept (linear, however long the
 * input), and input whose call never comes goes nowhere. A start naming a
 * removed tool is dropped; an id started twice keeps its first start.
 */
export function removedToolCallParts(
  guard: RemovedToolCalls,
): (part: LanguageModelV4StreamPart) => readonly LanguageModelV4StreamPart[] | undefined {
  const held = new Map<string, HeldInput>();
  // Ids of the dropped calls: their approval requests and results go too.
  const droppedCalls = new Set<string>();
  function decided(call: ToolCall): readonly Part[] {
    const input = held.get(call.toolCallId);
    held.delete(call.toolCallId);
    if (guard.removed.has(call.toolName)) {
      droppedCallRecord(call.toolName, guard);
      droppedCalls.add(call.toolCallId);
      return NOTHING;
    }
    if (input === undefined || input.start.toolName !== call.toolName) return [call];
    const id = input.start.id;
    const parts: Part[] = [input.start];
    // Text-encoded deltas are not the JSON of the call: only the call carries it then.
    if (call.input !== '' && input.start.inputEncoding !== 'text') {
      parts.push({ type: 'tool-input-delta', id, delta: call.input });
    }
    parts.push(input.end ?? { type: 'tool-input-end', id });
    parts.push(call);
    return parts;
  }
  return part => {
    switch (part.type) {
      case 'tool-input-start':
        if (!guard.removed.has(part.toolName) && !held.has(part.id)) {
          held.set(part.id, { start: part });
        }
        return NOTHING;
      case 'tool-input-delta':
        return NOTHING;
      case 'tool-input-end': {
        const input = held.get(part.id);
        if (input !== undefined) input.end ??= part;
        return NOTHING;
      }
      case 'tool-call':
        return decided(part);
      case 'tool-approval-request':
        return droppedCalls.has(part.toolCallId) ? NOTHING : undefined;
      case 'tool-result':
        if (droppedCalls.has(part.toolCallId)) return NOTHING;
        // A result of a removed tool whose call this response did not hold.
        if (!guard.removed.has(part.toolName)) return undefined;
        droppedCallRecord(part.toolName, guard);
        return NOTHING;
      default:
        return undefined;
    }
  };
}
