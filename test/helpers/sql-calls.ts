import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { type ToolPolicyOptions, toolPolicy } from '../../src/guards/tool-policy/tool-policy';
import { guardTools } from '../../src/tools/guard-tool';
import { generateResult } from './index';

/** A guarded tool call's output: what `execute` returned, or the blocked result with its record. */
export type SqlCallOutput = string | { status?: string; guardrail?: Record<string, unknown> };

/**
 * Has a model call the tool `runSql` once per query (its argument named
 * `key`) through `guardTools` with `toolPolicy(policy)`, then answer: the queries
 * that ran, and each call's output in order (`'ok'` when it ran).
 */
export async function runSqlCalls(
  queries: readonly string[],
  key = 'query',
  policy?: ToolPolicyOptions,
) {
  const ran: string[] = [];
  const tools = guardTools(
    {
      runSql: tool({
        inputSchema: z.object({ [key]: z.string() }),
        execute: async (input: Record<string, string>) => {
          ran.push(input[key]!);
          return 'ok';
        },
      }),
    },
    { input: [toolPolicy(policy)] },
  );
  let step = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async () =>
      ++step === 1
        ? generateResult(
            queries.map((query, index) => ({
              type: 'tool-call' as const,
              toolCallId: `c${index}`,
              toolName: 'runSql',
              input: JSON.stringify({ [key]: query }),
            })),
            { finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
          )
        : generateResult('done'),
  });
  const result = await generateText({ model, tools, prompt: 'tidy', stopWhen: stepCountIs(2) });
  const outputs = result.steps[0]!.toolResults.map(part => part.output as SqlCallOutput);
  return { ran, outputs };
}
