import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { llmJudge } from '../../src/guards/llm-judge/llm-judge';
import { getGuardrailOutcome } from '../../src/middleware/get-guardrail-outcome';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import { generateResult, withoutTiming } from './index';

/** The records of an input judge (`policy`) that answers `reason` about `prompt`, through generateText. */
export async function judgeRecordsFor(policy: string, prompt: string, reason: string) {
  const judge = new MockLanguageModelV4({
    doGenerate: async () =>
      generateResult(JSON.stringify({ flagged: true, confidence: 0.9, reason })),
  });
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doGenerate: async () => generateResult('unused') }),
    middleware: guardrails({ input: [llmJudge({ model: judge, policy, cache: false })] }),
  });
  const result = await generateText({ model, prompt });
  return withoutTiming((await getGuardrailOutcome(result))?.records);
}
