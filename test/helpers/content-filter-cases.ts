import { generateText, streamText, wrapLanguageModel } from 'ai';
import { expect } from 'vitest';
import { contentFilter } from '../../src/guards/content-filter/content-filter';
import { promptInjection } from '../../src/guards/prompt-injection/prompt-injection';
import { getGuardrailOutcome } from '../../src/middleware/get-guardrail-outcome';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import { cut, guardContext, modelFor, textModel, withoutTiming } from './index';
import { generatedText, randomSizes, streamedTextDeltas } from './window';

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

/**
 * `phrase` in an answer after some prose, through `middleware` (window mode,
 * blocked message `BLOCKED`): generated and streamed in several chunkings,
 * it ends `BLOCKED`, and what went out before is a prefix of the answer
 * ending at or before the phrase's unit `first` (its entry's first letter).
 */
export async function expectWindowHoldsPhrase(
  middleware: ReturnType<typeof guardrails>,
  phrase: string,
  first = 0,
) {
  const answer = `Here is my answer. ${'Some plain words to stream first. '.repeat(3)}You should ${phrase} today.`;
  const at = answer.indexOf(phrase) + first;
  expect(await generatedText(middleware, answer), phrase).toBe('BLOCKED');
  for (const sizes of [[1], [3], [8], [answer.length], ...[1, 2].map(randomSizes)]) {
    const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
    expect(deltas.at(-1), `${phrase} ${sizes}`).toBe('BLOCKED');
    const released = deltas.slice(0, -1).join('');
    expect(answer.startsWith(released), `${phrase} ${sizes}`).toBe(true);
    expect(released.length, `${phrase} ${sizes}`).toBeLessThanOrEqual(at);
  }
}

/** `answer` through `middleware` generated and streamed in several chunkings: it goes out whole. */
export async function expectStreamedWhole(
  middleware: ReturnType<typeof guardrails>,
  answer: string,
) {
  expect(await generatedText(middleware, answer)).toBe(answer);
  for (const sizes of [[1], [4], [9], ...[1, 2].map(randomSizes)]) {
    expect((await streamedTextDeltas(middleware, answer, cut(answer, sizes))).join('')).toBe(
      answer,
    );
  }
}

/** `contentFilter(options)` allows each of `answers` on output. */
export async function expectAllowed(
  answers: readonly string[],
  options?: Parameters<typeof contentFilter>[0],
) {
  const filter = contentFilter(options);
  for (const answer of answers) {
    expect(await filter.check(answer, guardContext('output')), answer).toEqual({ action: 'allow' });
  }
}

/** generateText of `answer` through the default lists returns the blocked message with SELF_HARM_BLOCKED. */
export async function expectSelfHarmGenerated(answer: string) {
  expect(await contentFilterGenerate(answer)).toEqual({
    text: 'This content is not allowed.',
    records: [SELF_HARM_BLOCKED],
  });
}

/** The block the default lists give an answer holding self-harm entry `entry`. */
export function selfHarmVerdict(entry: number) {
  return {
    action: 'block',
    message: 'This content is not allowed.',
    reason: `matched self-harm entry ${entry}`,
    severity: 'warning',
    info: { category: 'self-harm', entry },
  };
}

/** The default `contentFilter()` gives `verdict` on each of `answers` at output. */
export async function expectEachVerdict(answers: readonly string[], verdict: unknown) {
  const filter = contentFilter();
  for (const answer of answers) {
    expect(await filter.check(answer, guardContext('output')), answer).toEqual(verdict);
  }
}

/** generateText of `generated` and the check of each of `answers` give the default lists' self-harm entry 1 block. */
export async function expectSelfHarmEverywhere(generated: string, answers: readonly string[]) {
  await expectSelfHarmGenerated(generated);
  await expectEachVerdict(answers, selfHarmVerdict(1));
}
