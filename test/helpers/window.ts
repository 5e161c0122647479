import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { seededRandom } from '../../bench/fixtures';
import { CallGuard } from '../../src/middleware/call-guard';
import type { guardrails } from '../../src/middleware/guardrails-middleware';
import type { InputJudge } from '../../src/middleware/input-guard';
import { modelFor, readAll, userPrompt } from './index';

/** A call guard with no input, for driving a stream processor directly. */
export function bareCallGuard(): CallGuard {
  return new CallGuard({
    input: { prompt: [], records: [], texts: [], contents: [], cachedVerdicts: 0 },
    metadata: {},
    state: new Map(),
    controller: new AbortController(),
    release: () => {},
    judge: undefined as unknown as InputJudge,
    defaultTimeoutMs: 30_000,
  });
}

/** `count` random tokens, each followed by a random blank (a test's own lists). */
export function randomTokenText(
  next: () => number,
  count: number,
  tokens: readonly string[],
  blanks: readonly string[],
): string {
  let text = '';
  for (let i = 0; i < count; i++) {
    text += tokens[Math.floor(next() * tokens.length)];
    text += blanks[Math.floor(next() * blanks.length)];
  }
  return text;
}

export type Middleware = ReturnType<typeof guardrails>;

/** The text `middleware` lets through for a model answering `text` whole (doGenerate). */
export async function generated(middleware: Middleware, text: string): Promise<string> {
  const model = wrapLanguageModel({ model: modelFor(text, [text]), middleware });
  const result = await model.doGenerate({ prompt: userPrompt('q') });
  return result.content.map(part => (part.type === 'text' ? part.text : '')).join('');
}

/** The text deltas `middleware` releases for a model streaming `text` in `deltas` (doStream). */
export async function streamed(middleware: Middleware, text: string, deltas: string[]) {
  const model = wrapLanguageModel({ model: modelFor(text, deltas), middleware });
  const { stream } = await model.doStream({ prompt: userPrompt('q') });
  const parts: LanguageModelV4StreamPart[] = await readAll(stream);
  return parts.flatMap(part => (part.type === 'text-delta' ? [part.delta] : []));
}

/** The text `generateText` returns through `middleware` for a model answering `answer`. */
export async function generatedText(middleware: Middleware, answer: string): Promise<string> {
  const model = wrapLanguageModel({ model: modelFor(answer, [answer]), middleware });
  return (await generateText({ model, prompt: 'q' })).text;
}

/** The text deltas `streamText` delivers through `middleware` for `answer` streamed in `deltas`. */
export async function streamedTextDeltas(
  middleware: Middleware,
  answer: string,
  deltas: string[],
): Promise<string[]> {
  const model = wrapLanguageModel({ model: modelFor(answer, deltas), middleware });
  const out: string[] = [];
  for await (const delta of streamText({ model, prompt: 'q' }).textStream) out.push(delta);
  return out;
}

/** 64 random delta sizes from 1 to 40 (for `cut`), from `seed`. */
export function randomSizes(seed: number): number[] {
  const next = seededRandom(seed);
  return Array.from({ length: 64 }, () => 1 + Math.floor(next() * 40));
}

/**
 * `text` cut into deltas: 4 characters each (`mode` 0), random sizes of 1
 * to 50 (1, from `random`), or whole (2).
 */
export function deltasOf(text: string, mode: number, random: () => number): string[] {
  if (mode === 2) return [text];
  const deltas: string[] = [];
  for (let at = 0; at < text.length; ) {
    const size = mode === 0 ? 4 : 1 + Math.floor(random() * 50);
    deltas.push(text.slice(at, at + size));
    at += size;
  }
  return deltas;
}
