import { expect } from 'vitest';
import type { Guardrail } from '../../src';
import { promptSentWithRecords, windowAndGenerateTexts } from './index';

/**
 * Asserts what a redacting input guardrail does to `prompt` through
 * `generateText`: the model receives `redacted`, the call's records are
 * `records` (timing stripped), and judging the redacted text again
 * changes nothing.
 */
export async function expectInputRedacted(
  make: () => Guardrail,
  prompt: string,
  redacted: string,
  records: unknown[],
): Promise<void> {
  const { sent, records: got } = await promptSentWithRecords(make(), prompt);
  expect(sent).toBe(redacted);
  expect(got).toEqual(records);
  expect((await promptSentWithRecords(make(), sent)).sent).toBe(sent);
}

/**
 * Asserts that `streamText` in window mode ends as `generateText` does for
 * a model answering `answer`, at each of `chunkings`, and that both give
 * `redacted`.
 */
export async function expectWindowAsGenerate(
  make: () => Guardrail,
  answer: string,
  redacted: string,
  chunkings: number[][] = [[1], [2], [3], [5], [7], [1, 4, 2]],
): Promise<void> {
  const { generated, streamed } = await windowAndGenerateTexts(make(), answer, chunkings);
  expect(generated).toBe(redacted);
  expect(streamed).toEqual(chunkings.map(() => generated));
}
