import type { LanguageModelMiddleware } from 'ai';
import { generateText, wrapLanguageModel } from 'ai';
import { getGuardrailOutcome } from '../../src/middleware/get-guardrail-outcome';
import { textModel, withoutTiming } from './index';

/** The text `generateText` returns for a model answering `answer` through `middleware`, and the records (without timing). */
export async function answeredThrough(middleware: LanguageModelMiddleware, answer: string) {
  const result = await generateText({
    model: wrapLanguageModel({ model: textModel(answer), middleware }),
    prompt: 'Answer.',
  });
  return {
    text: result.text,
    records: withoutTiming((await getGuardrailOutcome(result))?.records),
  };
}
