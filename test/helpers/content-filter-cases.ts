import { generateText, streamText, wrapLanguageModel } from 'ai';
import { contentFilter } from '../../src/guards/content-filter/content-filter';
import { promptInjection } from '../../src/guards/prompt-injection/prompt-injection';
import { getGuardrailOutcome } from '../../src/middleware/get-guardrail-outcome';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import { cut, modelFor, textModel, withoutTiming } from './index';

/** The record the default lists give an answer holding self-harm entry 1 ("kill yourself"). */
export const SELF_HARM_BLOCKED = {
  guardrail: 'content-filter',
  kind: 'output',
  status: 'blocked',
  message: 'This content is not allowed.',
  reason: 'matched self-harm entry 1',
  severity: 'warning',
  info: { category: 'self-harm', entry: 1 },
};

/** generateText of `answer` through the default `contentFilter()`: the text the app gets and the records. */
export async function contentFilterGenerate(answer: string) {
  const result = await generateText({
    model: wrapLanguageModel({
      model: textModel(answer),
      middleware: guardrails({ output: [contentFilter()] }),
    }),
    prompt: 'q',
  });
  return {
    text: result.text,
    records: withoutTiming((await getGuardrailOutcome(result))?.records),
  };
}

/** `contentFilter(options)` (default: the default lists) in window mode, blocked message `BLOCKED`. */
export function contentFilterWindowMiddleware(options?: Parameters<typeof contentFilter>[0]) {
  return guardrails({
    output: [contentFilter(options)],
    stream: { mode: 'window' },
    blockedMessage: 'BLOCKED',
  });
}

/**
 * `answer` streamed one character a delta through the default
 * `contentFilter()` in window mode (blocked message `BLOCKED`): the deltas
 * released before the last, joined, and the last delta.
 */
export async function contentFilterWindow(answer: string) {
  const model = wrapLanguageModel({
    model: modelFor(answer, cut(answer, [1])),
    middleware: contentFilterWindowMiddleware(),
  });
  const deltas: string[] = [];
  for await (const delta of streamText({ model, prompt: 'q' }).textStream) deltas.push(delta);
  return { released: deltas.slice(0, -1).join(''), last: deltas.at(-1) };
}

/**
 * generateText of `prompt` through `promptInjection()` on input: how many
 * times the model was called, and the first record.
 */
export async function promptInjectionInput(prompt: string) {
  const mock = textModel('ok');
  const result = await generateText({
    model: wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [promptInjection()] }),
    }),
    prompt,
  });
  return {
    modelCalls: mock.doGenerateCalls.length,
    record: (await getGuardrailOutcome(result))?.records[0],
  };
}

/**
 * generateText of `answer` through `contentFilter({ blocklist, categories: {} })`:
 * the text the app gets, and each record's guardrail, status and reason.
 */
export async function contentFilterBlocklistGenerate(blocklist: string[], answer: string) {
  const result = await generateText({
    model: wrapLanguageModel({
      model: textModel(answer),
      middleware: guardrails({ output: [contentFilter({ blocklist, categories: {} })] }),
    }),
    prompt: 'q',
  });
  const records = (await getGuardrailOutcome(result))?.records ?? [];
  return [result.text, records.map(record => [record.guardrail, record.status, record.reason])];
}
