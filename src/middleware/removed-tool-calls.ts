import type {
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
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
  guard.records.push(record);
  emitEvent(guard.onEvent, record);
  return record;
}

/** The response without calls to removed tools. */
export function dropRemovedToolCalls(
  result: LanguageModelV4GenerateResult,
  guard: RemovedToolCalls,
): LanguageModelV4GenerateResult {
  const isDropped = (part: LanguageModelV4Content): boolean =>
    part.type === 'tool-call' && guard.removed.has(part.toolName);
  if (!result.content.some(isDropped)) return result;
  const content: LanguageModelV4Content[] = [];
  for (const part of result.content) {
    if (isDropped(part)) droppedCallRecord((part as { toolName: string }).toolName, guard);
    else content.push(part);
  }
  return { ...result, content };
}

/** The stream without calls to removed tools (their input parts and the call itself). */
export function dropRemovedToolCallParts(
  result: LanguageModelV4StreamResult,
  guard: RemovedToolCalls,
): LanguageModelV4StreamResult {
  // Ids of streamed tool inputs that belong to a removed tool.
  const droppedInputs = new Set<string>();
  const stream = result.stream.pipeThrough(
    new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
      transform(part, controller) {
        switch (part.type) {
          case 'tool-input-start':
            if (guard.removed.has(part.toolName)) {
              droppedInputs.add(part.id);
              return;
            }
            break;
          case 'tool-input-delta':
            if (droppedInputs.has(part.id)) return;
            break;
          case 'tool-input-end':
            if (droppedInputs.delete(part.id)) return;
            break;
          case 'tool-call':
            if (guard.removed.has(part.toolName)) {
              droppedCallRecord(part.toolName, guard);
              return;
            }
            break;
        }
        controller.enqueue(part);
      },
    }),
  );
  return { ...result, stream };
}
