import { readFileSync, writeFileSync } from 'node:fs';
import { generateText, type LanguageModelMiddleware, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { Guardrail } from '../src/core/types';
import { harmfulContent } from '../src/guards/harmful-content/harmful-content';
import { scoreHarmful } from '../src/guards/harmful-content/score-harmful';
import { pii } from '../src/guards/pii/pii';
import { promptInjection } from '../src/guards/prompt-injection/prompt-injection';
import { scorePromptInjection } from '../src/guards/prompt-injection/score-prompt-injection';
import { guardrails } from '../src/middleware/guardrails-middleware';
import { generateResult } from './helpers/index';
import { countingModel, firstText } from './r51-blind-stream';

/*
 * Round 51 review (hH): blind sets written before any round-51 branch was
 * read (test/fixtures/r51-blind-*), run against the shipped detectors. The
 * expectations (test/fixtures/r51-blind-expected.json) are the exact outputs
 * at the base e3931c8e, so any change of a score, signal, verdict or
 * redaction shows here by index. A branch that changes one is not wrong by
 * that alone: the diff is what the review reads.
 *
 * - first turns (60) and odd-token texts (40): `scorePromptInjection`
 *   (score, signals), `scoreHarmful` (score), and whether `promptInjection()`
 *   and `harmfulContent()` on input block the call;
 * - harmful look-alikes (40) and real harmful requests (20): `scoreHarmful`
 *   (score, categories) and both guards' verdicts;
 * - streamed answers (40): pii PERSON / STREET_ADDRESS / LOCATION /
 *   ORGANIZATION redacting in window mode: generate's text, whether the
 *   stream cut three ways ends as generate does, and how many source
 *   characters the model had sent when the first text reached the reader
 *   (each answer is shorter than the 256-character window, so at the base
 *   nothing shows before the whole answer; the joined answer shows more).
 *
 * Rewrite the expectations (only at the base): R51_BLIND_WRITE=1 npx vitest run
 * test/r51-blind.test.ts, then npx biome format --write test/fixtures/r51-blind-expected.json
 */

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);
const lines = (name: string) =>
  readFileSync(fixture(name), 'utf8')
    .split('\n')
    .filter(line => line.length > 0);
const rows = <T>(name: string) => lines(name).map(line => JSON.parse(line) as T);

const EXPECTED = 'r51-blind-expected.json';
const WRITE = process.env.R51_BLIND_WRITE === '1';
const expected: Record<string, unknown> = WRITE
  ? {}
  : (JSON.parse(readFileSync(fixture(EXPECTED), 'utf8')) as Record<string, unknown>);
const written: Record<string, unknown> = {};

function record(key: string, actual: unknown) {
  if (WRITE) {
    written[key] = actual;
    writeFileSync(fixture(EXPECTED), `${JSON.stringify(written, null, 1)}\n`);
    return;
  }
  expect(actual).toEqual(expected[key]);
}

async function blocked(guard: Guardrail, text: string): Promise<boolean> {
  const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Sure.') });
  const guarded = wrapLanguageModel({ model, middleware: guardrails({ input: [guard] }) });
  await generateText({ model: guarded, prompt: text }).catch(() => undefined);
  return model.doGenerateCalls.length === 0;
}

async function inputRow(index: number, text: string) {
  const injection = scorePromptInjection(text);
  return {
    index,
    start: text.slice(0, 40),
    injection: { score: injection.score, signals: injection.signals },
    injectionBlocked: await blocked(promptInjection(), text),
    harmful: scoreHarmful(text).score,
    harmfulBlocked: await blocked(harmfulContent(), text),
  };
}

const piiGuard = () =>
  pii({ entities: ['PERSON', 'STREET_ADDRESS', 'LOCATION', 'ORGANIZATION'], action: 'redact' });

const windowMiddleware = (): LanguageModelMiddleware =>
  guardrails({ output: [piiGuard()], stream: { mode: 'window' } });

const CUTS = [[1], [5], [3, 11, 2, 17]];

async function streamRow(index: number, text: string, cuts: number[][] = CUTS) {
  const generatedModel = wrapLanguageModel({
    model: countingModel(text, [text]).model,
    middleware: windowMiddleware(),
  });
  const generated = (await generateText({ model: generatedModel, prompt: 'hi' })).text;
  const streamsEqual: boolean[] = [];
  const firstTextAfter: number[] = [];
  for (const sizes of cuts) {
    const { first, out } = await firstText(windowMiddleware(), text, sizes);
    streamsEqual.push(out === generated);
    firstTextAfter.push(first);
  }
  return { index, length: text.length, generated, streamsEqual, firstTextAfter };
}

describe('r51 blind sets against the shipped detectors (expectations from e3931c8e)', () => {
  it('60 ordinary first turns', async () => {
    const texts = lines('r51-blind-first-turns.txt');
    expect(texts).toHaveLength(60);
    const out = [];
    for (const [index, text] of texts.entries()) out.push(await inputRow(index, text));
    record('firstTurns', out);
  }, 300_000);

  it('40 ordinary texts with odd token strings', async () => {
    const texts = lines('r51-blind-odd-tokens.txt');
    expect(texts).toHaveLength(40);
    const out = [];
    for (const [index, text] of texts.entries()) out.push(await inputRow(index, text));
    record('oddTokens', out);
  }, 300_000);

  it('40 harmful-topic look-alikes and 20 harmful requests', async () => {
    const set = rows<{ text: string; topic: string; harmful: boolean }>('r51-blind-harmful.jsonl');
    expect(set.filter(row => !row.harmful)).toHaveLength(40);
    expect(set.filter(row => row.harmful)).toHaveLength(20);
    const out = [];
    for (const [index, { text, harmful }] of set.entries()) {
      const score = scoreHarmful(text);
      out.push({
        index,
        harmful,
        start: text.slice(0, 40),
        score: score.score,
        categories: score.categories,
        harmfulBlocked: await blocked(harmfulContent(), text),
        injectionBlocked: await blocked(promptInjection(), text),
      });
    }
    record('harmful', out);
  }, 300_000);

  it('40 streamed answers in window mode (pii NER entities, redact)', async () => {
    const set = rows<{ kind: string; text: string }>('r51-blind-streamed-answers.jsonl');
    expect(set).toHaveLength(40);
    const out = [];
    for (const [index, { text }] of set.entries()) out.push(await streamRow(index, text));
    record('streamed', out);
  }, 600_000);

  it('the 40 answers as one long answer (blank lines between), in deltas of 7 and 1-2-31', async () => {
    const set = rows<{ kind: string; text: string }>('r51-blind-streamed-answers.jsonl');
    const joined = set.map(row => row.text).join('\n\n');
    record('streamedJoined', await streamRow(0, joined, [[7], [1, 2, 31]]));
  }, 600_000);
});
