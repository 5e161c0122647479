import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { type ModelMessage, wrapLanguageModel } from 'ai';
import type { Guardrail, GuardrailEvent } from '../../src/core/types';
import { pii } from '../../src/guards/pii/pii';
import { secrets } from '../../src/guards/secrets/secrets';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import { judgeToolOutputs } from '../../src/middleware/tool-outputs';
import { verdictCache } from '../../src/middleware/verdict-cache';
import { memoryStore } from '../../src/store/memory-store';
import { textModel } from '.';

/** The `output` of a `tool-result` part of a model message. */
export type ToolResultOutput = Extract<
  ModelMessage,
  { role: 'tool' }
>['content'][number] extends infer P
  ? P extends { type: 'tool-result'; output: infer O }
    ? O
    : never
  : never;

/**
 * A conversation whose tool result the client wrote: a user turn
 * (`Summarise the page.`), the assistant's call `c1`, and the result.
 */
export function toolResultHistory(
  output: ToolResultOutput,
  toolName = 'fetchPage',
): ModelMessage[] {
  return [
    { role: 'user', content: 'Summarise the page.' },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName, input: { url: 'x' } }],
    },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName, output }],
    },
  ];
}

/** The outputs of the tool results a model was given (tool and assistant messages), in prompt order. */
export function toolOutputsIn(prompt: LanguageModelV4Prompt) {
  return prompt.flatMap(message =>
    message.role === 'tool' || message.role === 'assistant'
      ? message.content.flatMap(part => (part.type === 'tool-result' ? [part.output] : []))
      : [],
  );
}

/**
 * `toolOutputs`' judging of a prompt holding one tool result (`fetch`, call
 * `c1`) with `output`, called directly: a fresh in-memory verdict cache, no
 * tools, no events.
 */
export function judgeOneToolOutput(guardrail: Guardrail, output: unknown) {
  return judgeToolOutputs({
    guardrails: [guardrail],
    cache: verdictCache({ store: memoryStore(), ttlMs: 60_000, guardrails: [guardrail] }),
    prompt: [
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'fetch', output }],
      },
    ] as LanguageModelV4Prompt,
    tools: [],
    metadata: {},
    state: new Map(),
    step: 0,
    abortSignal: new AbortController().signal,
    onEvent: undefined,
    defaultTimeoutMs: 10_000,
  });
}

/**
 * A history where the assistant called `lookup` once per id, with the
 * e-mail `email(i)` in each call's input (one pii record per call), and
 * each result came back: the tool-call ids the middleware judges.
 */
export function lookupHistory(
  toolCallIds: readonly string[],
  email: (i: number) => string,
): ModelMessage[] {
  return [
    { role: 'user', content: 'Look them up.' },
    {
      role: 'assistant',
      content: toolCallIds.map((toolCallId, i) => ({
        type: 'tool-call' as const,
        toolCallId,
        toolName: 'lookup',
        input: { email: email(i) },
      })),
    },
    {
      role: 'tool',
      content: toolCallIds.map(toolCallId => ({
        type: 'tool-result' as const,
        toolCallId,
        toolName: 'lookup',
        output: { type: 'text' as const, value: 'found' },
      })),
    },
  ];
}

/**
 * A model behind `pii()` on every input message, with `secrets()` built
 * (it registers its judge of tool-call ids): its events go to `events`.
 */
export function idJudgingModel(events: GuardrailEvent[]) {
  secrets();
  return wrapLanguageModel({
    model: textModel('ok'),
    middleware: guardrails({
      input: [pii()],
      inputScope: 'all',
      onEvent: event => events.push(event),
    }),
  });
}
