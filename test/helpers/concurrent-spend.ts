import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { tokenBudget } from '../../src/guards/token-budget/token-budget';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import type { Store } from '../../src/store/store';

/**
 * Test fixture (not exported by the package), shared by the memory and Redis
 * tests: fires `calls` concurrent `generateText` calls of one session through
 * the middleware, spread over `instances` middleware instances (each with its
 * own guardrail over the store `storeFor(i)` returns). Every answer takes a
 * few milliseconds and reports the tokenizer's count of the prompt as input
 * and all of the call's `maxOutputTokens` (50) as output, so each
 * reservation is exactly what its call costs. Returns the tokens spent.
 */
export async function concurrentSpend(
  store: Store | ((instance: number) => Store),
  calls: number,
  budgetTokens: number,
  instances = 1,
) {
  let spent = 0;
  let modelCalls = 0;
  const models = Array.from({ length: instances }, (_, i) => {
    const model = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        modelCalls++;
        const text = prompt
          .flatMap(message => (message.role === 'user' ? message.content : []))
          .map(part => (part.type === 'text' ? part.text : ''))
          .join('\n');
        const input = countTokens(text);
        spent += input + 50;
        await new Promise(resolve => setTimeout(resolve, 1 + ((i + modelCalls) % 5)));
        return {
          content: [{ type: 'text', text: 'An answer.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: {
            inputTokens: {
              total: input,
              noCache: input,
              cacheRead: undefined,
              cacheWrite: undefined,
            },
            outputTokens: { total: 50, text: 50, reasoning: undefined },
          },
          warnings: [],
        };
      },
    });
    const budget = tokenBudget({
      perSession: { maxTokens: budgetTokens },
      store: typeof store === 'function' ? store(i) : store,
    });
    return wrapLanguageModel({
      model,
      middleware: guardrails({ input: [budget], output: [budget] }),
    });
  });
  const results = await Promise.all(
    Array.from({ length: calls }, (_, i) =>
      generateText({
        model: models[i % instances]!,
        prompt: `Question ${i}`,
        maxOutputTokens: 50,
        providerOptions: { guardrails: { sessionId: 'busy' } },
      }),
    ),
  );
  return { spent, results, modelCalls };
}
