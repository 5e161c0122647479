import type {
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

/** One scripted model response: tool calls (args as objects) and/or text. */
export interface Turn {
  toolCalls?: Array<{ toolCallId: string; toolName: string; input: unknown }>;
  text?: string;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function contentOf(turn: Turn): LanguageModelV4Content[] {
  const content: LanguageModelV4Content[] = [];
  if (turn.text !== undefined) content.push({ type: 'text', text: turn.text });
  for (const call of turn.toolCalls ?? []) {
    content.push({
      type: 'tool-call',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: JSON.stringify(call.input),
    });
  }
  return content;
}

function finishReasonOf(turn: Turn) {
  return turn.toolCalls?.length
    ? { unified: 'tool-calls' as const, raw: 'tool_calls' }
    : { unified: 'stop' as const, raw: 'stop' };
}

/**
 * A `MockLanguageModelV4` that plays `turns` in order, for both `doGenerate`
 * and `doStream` (each counts its own calls). After the script it answers
 * "done".
 */
export function turnsModel(turns: Turn[]): MockLanguageModelV4 {
  const turnAt = (index: number): Turn => turns[index] ?? { text: 'done' };
  const model: MockLanguageModelV4 = new MockLanguageModelV4({
    doGenerate: async (): Promise<LanguageModelV4GenerateResult> => {
      const turn = turnAt(model.doGenerateCalls.length - 1);
      return {
        content: contentOf(turn),
        finishReason: finishReasonOf(turn),
        usage,
        warnings: [],
      };
    },
    doStream: async () => {
      const turn = turnAt(model.doStreamCalls.length - 1);
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (turn.text !== undefined) {
        parts.push(
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: turn.text },
          { type: 'text-end', id: 't1' },
        );
      }
      for (const part of contentOf(turn)) {
        if (part.type === 'tool-call') parts.push(part);
      }
      parts.push({ type: 'finish', usage, finishReason: finishReasonOf(turn) });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
  return model;
}
