import type {
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { type ChainContext, runChain } from '../core/chain';
import { emitEvent } from '../core/events';
import { cutToolName, shownToolCallIdOf, shownToolName } from '../core/shown-tool-calls';
import type { Guardrail, GuardrailEventListener, GuardrailRecord } from '../core/types';
import { canonicalJson } from '../tools/canonical-json';
import { TOOL_INPUT_UNREADABLE } from '../tools/guard-tool';
import { parseModifiedJson } from '../tools/quote-redacted-literals';
import { withRewrittenInput } from './provider-part-data';
import {
  DEFAULT_MAX_TOOL_OUTPUT_LENGTH,
  inKeyOrderOf,
  jsonLimitProblem,
  MAX_TOOL_ID_LENGTH,
  walkJson,
} from './tool-outputs';

type Part = LanguageModelV4StreamPart;
type ToolCall = Extract<Part, { type: 'tool-call' }>;

/** What judging the tool calls of a model's response needs (the middleware's `toolCalls`). */
export interface ToolCallJudge {
  /** The `toolCalls` guardrails, in order. */
  guardrails: readonly Guardrail[];
  /** The call's context for the chain: prompt, metadata, state, step. */
  context: Omit<ChainContext, 'kind' | 'toolName' | 'toolCallId' | 'value'>;
  abortSignal: AbortSignal;
  onEvent: GuardrailEventListener | undefined;
  defaultTimeoutMs: number;
  /** Where the records go (the call's records). */
  records: GuardrailRecord[];
  /** Called when a call was withheld or its input modified: the caller gets another response than the model's. */
  changed: () => void;
  /** With `onTrip: 'throw'`: the error a withheld call ends the call with (else undefined). */
  tripError: ((record: GuardrailRecord) => Error) | undefined;
  /** With `retry`: the attempt whose response is judged, tagged on its records as output records are. */
  attempt?: () => number | undefined;
}

/** `modified`: a guardrail changed the input (not only its JSON formatting). */
type Judged = { input: string; modified: boolean; trip?: undefined } | { trip: GuardrailRecord };

function pushRecord(guard: ToolCallJudge, record: GuardrailRecord): GuardrailRecord {
  const attempt = guard.attempt?.();
  if (attempt !== undefined) record.attempt = attempt;
  guard.records.push(record);
  emitEvent(guard.onEvent, record);
  return record;
}

/**
 * Judges the input of one tool call of the model's response (kind
 * `tool_input`) before anyone sees it. Input that parses as JSON is judged
 * as canonical JSON (as `guardTools` judges arguments: an escape the model
 * wrote hides nothing) with the parse in `ctx.value`, and given back as the
 * JSON text of its value (a modification put back in the model's key order;
 * whitespace, escapes and duplicate keys, which no guardrail read, are
 * gone). Input that does not parse is judged and given back as written.
 * Past the limits (tool name or call id over 256 characters, input over
 * 1,000,000 characters, JSON nested deeper than 64) it is not judged: an
 * `error` record, withheld. Records never carry the input.
 */
export async function judgeToolInput(
  toolName: unknown,
  toolCallId: unknown,
  input: unknown,
  guard: ToolCallJudge,
  /** The input was longer than the limit (streamed input is not kept past it). */
  tooLong = false,
): Promise<Judged> {
  if (
    typeof toolName !== 'string' ||
    typeof toolCallId !== 'string' ||
    toolName.length > MAX_TOOL_ID_LENGTH ||
    toolCallId.length > MAX_TOOL_ID_LENGTH
  ) {
    return {
      trip: pushRecord(guard, {
        guardrail: TOOL_INPUT_UNREADABLE,
        kind: 'tool_input',
        status: 'error',
        reason: `a tool call of the model was not judged: its tool name or call id is not a string of at most ${MAX_TOOL_ID_LENGTH} characters`,
        durationMs: 0,
      }),
    };
  }
  const own = (guardrail: string, status: 'blocked' | 'error', reason: string) =>
    pushRecord(guard, {
      guardrail,
      kind: 'tool_input',
      status,
      reason,
      durationMs: 0,
      toolName: cutToolName(toolName),
      toolCallId: shownToolCallIdOf(guard.context.state, toolCallId),
    });
  const unreadable = (why: string): Judged => ({
    trip: own(
      TOOL_INPUT_UNREADABLE,
      'error',
      `the arguments of tool ${shownToolName(toolName)} were not judged: ${why}`,
    ),
  });
  const max = DEFAULT_MAX_TOOL_OUTPUT_LENGTH;
  if (typeof input !== 'string') return unreadable('they are not a string');
  if (input.length > max || tooLong) {
    return unreadable(`the text is longer than ${max} characters`);
  }

  let value: unknown;
  let json = true;
  try {
    value = JSON.parse(input);
  } catch {
    json = false;
  }
  let text = input;
  if (json) {
    const problem = jsonLimitProblem(walkJson(value, max), max, max);
    if (problem) return unreadable(problem);
    text = canonicalJson(value);
    if (text.length > max) return unreadable(`the text is longer than ${max} characters`);
  }

  let current = text;
  let currentValue = json ? value : undefined;
  const attempt = guard.attempt?.();
  for (const guardrail of guard.guardrails) {
    const result = await runChain(
      [guardrail],
      current,
      {
        ...guard.context,
        kind: 'tool_input',
        toolName,
        toolCallId,
        value: currentValue,
        ...(attempt !== undefined && { attempt }),
      },
      {
        abortSignal: guard.abortSignal,
        onEvent: guard.onEvent,
        defaultTimeoutMs: guard.defaultTimeoutMs,
      },
    );
    guard.records.push(...result.records);
    if (result.trip) return { trip: result.trip };
    if (result.content === current) continue;
    if (!json) {
      current = result.content;
      continue;
    }
    try {
      // A redacted bare number (`"card":[CREDIT_CARD]`) becomes a JSON string.
      ({ text: current, value: currentValue } = parseModifiedJson(current, result.content));
    } catch {
      // The app would get arguments that are not the JSON the model wrote: withheld.
      return {
        trip: own(
          guardrail.name,
          'blocked',
          `modified the arguments of tool ${shownToolName(toolName)} into text that is not valid JSON`,
        ),
      };
    }
  }
  const modified = current !== text;
  if (!json) return { input: current, modified };
  const released = JSON.stringify(modified ? inKeyOrderOf(value, currentValue) : value);
  return { input: released === input ? input : released, modified };
}

/**
 * A withheld part of the response (a tool call, a generated file): the
 * response goes on without it (or, with `onTrip: 'throw'`, the error).
 */
export function withheld(
  record: GuardrailRecord,
  guard: Pick<ToolCallJudge, 'changed' | 'tripError'>,
): Error | undefined {
  guard.changed();
  return guard.tripError?.(record);
}

/**
 * The response with each tool call judged (see {@link judgeToolInput}): a
 * modified input is put back; a withheld call is dropped with the tool
 * result a provider-executed call had, or ends the call with the error
 * (`onTrip: 'throw'`).
 */
export async function judgeResponseToolCalls(
  result: LanguageModelV4GenerateResult,
  guard: ToolCallJudge,
): Promise<LanguageModelV4GenerateResult> {
  if (!result.content.some(part => part.type === 'tool-call')) return result;
  const content: LanguageModelV4Content[] = [];
  const dropped = new Set<string>();
  for (const part of result.content) {
    if (part.type === 'tool-result' || part.type === 'tool-approval-request') {
      if (!dropped.has(part.toolCallId)) content.push(part);
      continue;
    }
    if (part.type !== 'tool-call') {
      content.push(part);
      continue;
    }
    const judged = await judgeToolInput(part.toolName, part.toolCallId, part.input, guard);
    if (judged.trip) {
      const error = withheld(judged.trip, guard);
      if (error) throw error;
      dropped.add(part.toolCallId);
      continue;
    }
    // The provider's raw data (response.body, logprobs) holds the input as the model wrote it.
    if (judged.modified) guard.changed();
    content.push(withRewrittenInput(part, judged.input));
  }
  return { ...result, content };
}

/** The input parts of one call, held until its `tool-call` part (or the end) arrives. */
interface HeldInput {
  start?: Extract<Part, { type: 'tool-input-start' }>;
  end?: Extract<Part, { type: 'tool-input-end' }>;
  deltas: string[];
  length: number;
}

/**
 * Judges the tool calls of one streamed response, part by part, in the
 * stream's order (the guard's read loop calls it: no stream layer of its
 * own that every text delta would pass through). Each call's input parts
 * are held until its `tool-call` part, which is judged (see
 * {@link judgeToolInput}); then its input is released as one
 * `tool-input-delta` between its start and end, followed by the judged
 * call. A withheld call releases none of its parts (nor a
 * provider-executed call's result or approval request). Input whose call
 * never came is judged when the response ends (`end`) and withheld.
 */
export interface StreamedToolCalls {
  /**
   * The parts that go on in place of `part`: `undefined` when it goes on as
   * it is (every part that is no tool input, call, result or approval
   * request), none while it is held or dropped, or a promise of them (a
   * call being judged). A `finish` part is the caller's to act on with `end`.
   */
  push(part: Part): readonly Part[] | Promise<readonly Part[]> | undefined;
  /**
   * The response ended (its finish part, or the end of the stream): input
   * whose call never came is judged as received (reported), then withheld.
   * The parts that go on: with `onTrip: 'throw'`, the error part.
   */
  end(): Promise<readonly Part[]>;
}

const NOTHING: readonly Part[] = [];

/** The tool-call judging of one streamed response (see {@link StreamedToolCalls}). */
export function streamedToolCalls(guard: ToolCallJudge): StreamedToolCalls {
  const held = new Map<string, HeldInput>();
  const dropped = new Set<string>();
  const heldOf = (id: string) => {
    let input = held.get(id);
    if (!input) {
      input = { deltas: [], length: 0 };
      held.set(id, input);
    }
    return input;
  };

  async function release(call: ToolCall): Promise<readonly Part[]> {
    const input = held.get(call.toolCallId);
    held.delete(call.toolCallId);
    const judged = await judgeToolInput(call.toolName, call.toolCallId, call.input, guard);
    if (judged.trip) {
      dropped.add(call.toolCallId);
      const error = withheld(judged.trip, guard);
      return error ? [{ type: 'error', error }] : NOTHING;
    }
    if (judged.modified) guard.changed();
    const parts: Part[] = [];
    if (input?.start) {
      const id = input.start.id;
      parts.push(input.start);
      // Text-encoded deltas are not the JSON of the call: only the call carries it then.
      if (judged.input !== '' && input.start.inputEncoding !== 'text') {
        parts.push({ type: 'tool-input-delta', id, delta: judged.input });
      }
      parts.push(input.end ?? { type: 'tool-input-end', id });
    }
    parts.push(withRewrittenInput(call, judged.input));
    return parts;
  }

  /** Input whose call never came: judged as received (reported), then withheld. */
  async function withholdUnfinished(): Promise<void> {
    for (const [id, input] of held) {
      held.delete(id);
      const toolName = input.start?.toolName;
      const tooLong = input.length > DEFAULT_MAX_TOOL_OUTPUT_LENGTH;
      const judged = await judgeToolInput(toolName, id, input.deltas.join(''), guard, tooLong);
      const record =
        judged.trip ??
        pushRecord(guard, {
          guardrail: TOOL_INPUT_UNREADABLE,
          kind: 'tool_input',
          status: 'error',
          reason: `the model's response ended before its call of tool ${shownToolName(String(toolName))} was complete: its arguments were withheld`,
          durationMs: 0,
          ...(typeof toolName === 'string' && { toolName: cutToolName(toolName) }),
          toolCallId: shownToolCallIdOf(guard.context.state, id),
        });
      guard.changed();
      // With 'throw' the first one ends the call; the rest are reported and dropped as well.
      const error = guard.tripError?.(record);
      if (error) throw error;
    }
  }

  return {
    push(part) {
      switch (part.type) {
        case 'tool-input-start': {
          const input = heldOf(part.id);
          input.start ??= part;
          return NOTHING;
        }
        case 'tool-input-delta': {
          const input = heldOf(part.id);
          // Past the limit the text is not kept: the call is refused unjudged either way.
          input.length += part.delta.length;
          if (input.length > DEFAULT_MAX_TOOL_OUTPUT_LENGTH) input.deltas = [];
          else input.deltas.push(part.delta);
          return NOTHING;
        }
        case 'tool-input-end':
          heldOf(part.id).end = part;
          return NOTHING;
        case 'tool-call':
          return release(part);
        case 'tool-result':
        case 'tool-approval-request':
          return dropped.has(part.toolCallId) ? NOTHING : undefined;
        default:
          return undefined;
      }
    },
    async end() {
      if (held.size === 0) return NOTHING;
      try {
        await withholdUnfinished();
        return NOTHING;
      } catch (error) {
        return [{ type: 'error', error }];
      }
    },
  };
}
