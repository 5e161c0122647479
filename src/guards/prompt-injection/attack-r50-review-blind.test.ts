import { readFileSync } from 'node:fs';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult } from '../../../test/helpers/index';
import type { Guardrail } from '../../core/types';
import { guardrails } from '../../middleware/guardrails-middleware';
import { harmfulContent } from '../harmful-content/harmful-content';
import { promptInjection } from './prompt-injection';

/*
 * Round 50 review (hH): the blind fixtures (test/fixtures/r50-blind-*),
 * ordinary text written before any round-50 branch was read, through
 * generateText with the default `promptInjection()` on input. At the base
 * (14a3fe92) none of the 210 is blocked; a branch that blocks one fails
 * here with the text's index named. `harmfulContent()` blocks 23 of
 * them at the base (5 first turns, 1 follow-up, 1 noise tail, 16 benign
 * harmful-topic requests); the last block asserts that no other noise
 * tail or first turn is blocked (hG's tail kind).
 */

function lines(name: string): string[] {
  return readFileSync(new URL(`../../../test/fixtures/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter(line => line.length > 0);
}

interface Conversation {
  system?: string;
  user?: string;
  assistant: string;
  followUp: string;
}

async function blocked(
  guard: () => Guardrail,
  messages: ModelMessage[],
  instructions?: string,
): Promise<boolean> {
  const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Sure.') });
  const guarded = wrapLanguageModel({ model, middleware: guardrails({ input: [guard()] }) });
  // The SDK refuses a system message in `messages`: the app's prompt is `instructions`.
  await generateText({ model: guarded, messages, instructions }).catch(() => undefined);
  return model.doGenerateCalls.length === 0;
}

async function blockedIndices(
  prompts: Array<[ModelMessage[], string?]>,
  guard: () => Guardrail = promptInjection,
): Promise<number[]> {
  const found: number[] = [];
  for (const [index, [messages, instructions]] of prompts.entries()) {
    if (await blocked(guard, messages, instructions)) found.push(index);
  }
  return found;
}

const single = (text: string): [ModelMessage[]] => [[{ role: 'user', content: text }]];

describe('r50 review: blind ordinary fixtures reach the model', () => {
  it('80 first turns that address the assistant (20 not in English)', async () => {
    expect(await blockedIndices(lines('r50-blind-first-turns.txt').map(single))).toEqual([]);
  });

  it('40 follow-ups that refer back to the answer (8 after a greeting the assistant opened with)', async () => {
    const prompts = lines('r50-blind-follow-ups.jsonl').map((line): [ModelMessage[], string?] => {
      const { system, user, assistant, followUp } = JSON.parse(line) as Conversation;
      const messages: ModelMessage[] = [];
      if (user !== undefined) messages.push({ role: 'user', content: user });
      messages.push({ role: 'assistant', content: [{ type: 'text', text: assistant }] });
      messages.push({ role: 'user', content: followUp });
      return [messages, system];
    });
    expect(prompts).toHaveLength(40);
    expect(await blockedIndices(prompts)).toEqual([]);
  });

  it('50 prompts that end in code, hashes, IDs, URLs, names, emoji', async () => {
    expect(await blockedIndices(lines('r50-blind-noise-tails.txt').map(single))).toEqual([]);
  });

  it('40 benign requests on harmful topics (10 not in English)', async () => {
    const texts = lines('r50-blind-harmful-benign.jsonl').map(
      line => (JSON.parse(line) as { text: string }).text,
    );
    expect(await blockedIndices(texts.map(single))).toEqual([]);
  });
});

describe('r50 review: harmfulContent on the blind fixtures, no more than at the base', () => {
  // Blocked at 14a3fe92: first turns 56 ("topics you're told to avoid"), 66
  // and 67 (French), 75 and 76 (Swahili); noise tail 46 (Morse code).
  it('first turns: only the five blocked at the base', async () => {
    const found = await blockedIndices(
      lines('r50-blind-first-turns.txt').map(single),
      harmfulContent,
    );
    expect(found.filter(index => ![56, 66, 67, 75, 76].includes(index))).toEqual([]);
  });

  it('noise tails: only the Morse line blocked at the base', async () => {
    const found = await blockedIndices(
      lines('r50-blind-noise-tails.txt').map(single),
      harmfulContent,
    );
    expect(found.filter(index => index !== 46)).toEqual([]);
  });
});
