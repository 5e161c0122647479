import type {
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
} from '@ai-sdk/provider';
import type { GuardrailRecord } from '../core/types';
import type { ToolOutputResult } from './tool-outputs';

type ResponseToolResult = Extract<LanguageModelV4Content, { type: 'tool-result' }>;

/** What judging the tool results of a model's response needs. */
export interface ResponseToolResultJudge {
  /** `judgeToolOutputs` over a prompt (the call's `toolOutputs` guardrails, cache and context). */
  judge: (prompt: LanguageModelV4Prompt) => Promise<ToolOutputResult>;
  /** Where the records go (the call's records). */
  records: GuardrailRecord[];
  /** Called when a result was modified or withheld: the caller gets another response than the model's. */
  changed: () => void;
}

/**
 * The model output the AI SDK makes of a provider-executed tool's result
 * when it sends it back to the model (no `toModelOutput`): a string as
 * text, anything else as JSON, as an error when the provider said so.
 */
function modelOutputOf(part: ResponseToolResult): LanguageModelV4ToolResultOutput {
  const text = typeof part.result === 'string';
  if (part.isError === true) {
    return text
      ? { type: 'error-text', value: part.result as string }
      : { type: 'error-json', value: part.result };
  }
  return text
    ? { type: 'text', value: part.result as string }
    : { type: 'json', value: part.result };
}

/**
 * One tool result of the model's response (a provider-executed tool's, such
 * as a web search the provider ran) judged by the `toolOutputs` guardrails
 * as they judge it in the next call's prompt: the AI SDK hands it to the
 * app (and a UI stream to the browser) as it is, so without this a card
 * number or an injected instruction in a fetched page reached the browser
 * unjudged. A modification is put back as the result; a withheld result
 * becomes the blocked message (a string), what the model reads of it next.
 */
export async function judgedToolResult<PART extends ResponseToolResult>(
  part: PART,
  guard: ResponseToolResultJudge,
): Promise<PART> {
  const prompt: LanguageModelV4Prompt = [
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-result',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          output: modelOutputOf(part),
        },
      ],
    },
  ];
  const judged = await guard.judge(prompt);
  guard.records.push(...judged.records);
  if (judged.prompt === prompt) return part;
  const replaced = judged.prompt[0]?.content[0] as { output?: { value?: unknown } } | undefined;
  guard.changed();
  return { ...part, result: replaced?.output?.value ?? null };
}

/** The response with each of its tool results judged (see `judgedToolResult`). */
export async function judgeResponseToolResults(
  result: LanguageModelV4GenerateResult,
  guard: ResponseToolResultJudge,
): Promise<LanguageModelV4GenerateResult> {
  if (!result.content.some(part => part.type === 'tool-result')) return result;
  const content: LanguageModelV4Content[] = [];
  for (const part of result.content) {
    content.push(part.type === 'tool-result' ? await judgedToolResult(part, guard) : part);
  }
  return { ...result, content };
}
