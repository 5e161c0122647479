import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { kindOf, settleUnawaited } from '../core/callback-result';
import { GuardrailConfigError } from '../core/errors';
import { validateOptions } from '../core/options';
import { scriptedModelOptionShape } from './scripted-model-options';

/** What the scripted model answers: text, and optionally tool calls. */
export interface ScriptedResponse {
  text?: string;
  toolCalls?: Array<{ toolName: string; input: unknown; toolCallId?: string }>;
}

/** What a script sees of a call. */
export interface ScriptInput {
  /** The text of the last user message. */
  lastUserText: string;
  /** True when the prompt's last message is a tool result (the model is continuing a tool loop). */
  afterToolResult: boolean;
  prompt: LanguageModelV4Prompt;
}

/** Options of `scriptedModel`. */
export interface ScriptedModelOptions {
  /** Decides the answer from the call. */
  respond: (input: ScriptInput) => string | ScriptedResponse;
  /** Characters per streamed text delta. Default 8. */
  chunkSize?: number;
  /** Delay before each streamed delta, in ms. Default 0. */
  delayMs?: number;
  modelId?: string;
}

function lastUserText(prompt: LanguageModelV4Prompt): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]!;
    if (message.role === 'user') {
      return message.content.flatMap(p => (p.type === 'text' ? [p.text] : [])).join('\n');
    }
  }
  return '';
}

function usageOf(prompt: LanguageModelV4Prompt, text: string): LanguageModelV4Usage {
  // Deterministic stand-in counts (about four characters a token): this model only plays a script.
  const inputTokens = Math.ceil(JSON.stringify(prompt).length / 4);
  const outputTokens = Math.ceil(text.length / 4);
  return {
    inputTokens: {
      total: inputTokens,
      noCache: inputTokens,
      cacheRead: undefined,
      cacheWrite: undefined,
    },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

/** Whether `value` is an answer `respond` may give: a string, or `{ text?, toolCalls? }` of the right types. */
function isResponse(value: unknown): value is string | ScriptedResponse {
  if (typeof value === 'string') return true;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { text, toolCalls } = value as Record<string, unknown>;
  if (typeof (value as { then?: unknown }).then === 'function') return false;
  if (text !== undefined && typeof text !== 'string') return false;
  if (toolCalls === undefined) return true;
  return (
    Array.isArray(toolCalls) &&
    toolCalls.every(
      call =>
        call !== null &&
        typeof call === 'object' &&
        typeof call.toolName === 'string' &&
        call.toolName !== '' &&
        (call.toolCallId === undefined || typeof call.toolCallId === 'string'),
    )
  );
}

function sleep(ms: number, signal: AbortSignal | undefined) {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A deterministic language model that plays a script: no network, no API
 * key. For demos, examples and tests of guarded apps. Streams its text in
 * `chunkSize` pieces and honours the call's abort signal.
 *
 * @example
 * const model = scriptedModel({
 *   respond: ({ lastUserText }) => `You said: ${lastUserText}`,
 * });
 */
export function scriptedModel(options: ScriptedModelOptions): LanguageModelV4 {
  const {
    respond,
    chunkSize = 8,
    delayMs = 0,
    modelId = 'scripted',
  } = validateOptions(options, {
    prefix: 'scriptedModel',
    root: 'scriptedModel',
    shape: scriptedModelOptionShape,
  });
  function answer(options: LanguageModelV4CallOptions) {
    const response = respond({
      lastUserText: lastUserText(options.prompt),
      afterToolResult: options.prompt.at(-1)?.role === 'tool',
      prompt: options.prompt,
    });
    // Anything else answered "" (a test passed on an empty answer), or threw
    // a TypeError; a Promise's rejection went unhandled (round 35).
    if (!isResponse(response)) {
      settleUnawaited(response);
      throw new GuardrailConfigError({
        path: 'scriptedModel.respond',
        value: kindOf(response, 'respond'),
        expected: 'a function returning a string or { text?, toolCalls? }, synchronously',
      });
    }
    const { text = '', toolCalls = [] } =
      typeof response === 'string' ? { text: response } : response;
    const calls = toolCalls.map((call, index) => ({
      type: 'tool-call' as const,
      toolCallId: call.toolCallId ?? `call-${index + 1}`,
      toolName: call.toolName,
      input: JSON.stringify(call.input),
    }));
    return { text, calls, usage: usageOf(options.prompt, text) };
  }

  return {
    specificationVersion: 'v4',
    provider: 'ai-guardrails',
    modelId,
    supportedUrls: {},

    async doGenerate(options): Promise<LanguageModelV4GenerateResult> {
      const { text, calls, usage } = answer(options);
      if (delayMs > 0) await sleep(delayMs, options.abortSignal);
      const content: LanguageModelV4Content[] = [
        ...(text ? [{ type: 'text' as const, text }] : []),
        ...calls,
      ];
      return {
        content,
        finishReason:
          calls.length > 0
            ? { unified: 'tool-calls', raw: 'tool_calls' }
            : { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },

    async doStream(options) {
      const { text, calls, usage } = answer(options);
      let index = 0;
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (text) {
        parts.push({ type: 'text-start', id: 'text-1' });
        for (let i = 0; i < text.length; i += chunkSize) {
          parts.push({ type: 'text-delta', id: 'text-1', delta: text.slice(i, i + chunkSize) });
        }
        parts.push({ type: 'text-end', id: 'text-1' });
      }
      parts.push(...calls);
      parts.push({
        type: 'finish',
        usage,
        finishReason:
          calls.length > 0
            ? { unified: 'tool-calls', raw: 'tool_calls' }
            : { unified: 'stop', raw: 'stop' },
      });
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          if (index >= parts.length) return controller.close();
          const part = parts[index++]!;
          if (delayMs > 0 && part.type === 'text-delta') await sleep(delayMs, options.abortSignal);
          controller.enqueue(part);
        },
      });
      return { stream };
    },
  };
}
