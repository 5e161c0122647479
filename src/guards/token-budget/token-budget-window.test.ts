import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { guardContext, withoutTiming } from '../../../test/helpers';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { memoryStore } from '../../store/memory-store';
import { StreamedTokenCount } from './streamed-token-count';
import { tokenBudget } from './token-budget';

const usage = (output: number | undefined, input: number | undefined = 10) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

/**
 * A model that streams `deltas` as one text part and records how many of its
 * parts were read: a tripped stream must stop reading the model.
 */
function streamingModel(deltas: string[], finishUsage = usage(500)) {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...deltas.map(delta => ({ type: 'text-delta' as const, id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: finishUsage },
  ];
  const read = { parts: 0 };
  const model = new MockLanguageModelV4({
    doStream: async () => ({
      // No read-ahead (highWaterMark 0): a part is made only when it is read.
      stream: new ReadableStream<LanguageModelV4StreamPart>(
        {
          pull(controller) {
            if (read.parts === parts.length) controller.close();
            else controller.enqueue(parts[read.parts++]!);
          },
        },
        { highWaterMark: 0 },
      ),
    }),
  });
  return { model, read };
}

/** 60 deltas of one short word each ("w0 ", "w1 ", ...). */
const WORDS = Array.from({ length: 60 }, (_, index) => `w${index} `);

/** The index of the delta at which the answer's count first passes `cap`. */
function deltaPassing(deltas: string[], cap: number): number {
  for (let index = 0; index < deltas.length; index++) {
    if (countTokens(deltas.slice(0, index + 1).join('')) > cap) return index;
  }
  throw new Error('never passes the cap');
}

describe('tokenBudget in window streams: the per-request cap as text passes', () => {
  it('trips at the delta that passes maxOutputTokens; text after it is never released or read', async () => {
    const { model, read } = streamingModel(WORDS);
    const budget = tokenBudget({ maxOutputTokens: 20 });
    const result = streamText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({ output: [budget], stream: { mode: 'window', window: 8 } }),
      }),
      prompt: 'Count.',
    });
    const parts: Array<{ type: string; text?: string }> = [];
    for await (const part of result.fullStream) parts.push(part as { type: string; text?: string });
    const passing = deltaPassing(WORDS, 20);
    const tokensAtTrip = countTokens(WORDS.slice(0, passing + 1).join(''));
    expect(tokensAtTrip).toBe(21);
    expect(passing).toBe(9);
    // Released: what the 8-character window had let out of "w0 … w8 " before
    // the trip, then the blocked message; "w9 " and all after it never appear.
    expect(parts.map(part => [part.type, part.text])).toEqual([
      ['start', undefined],
      ['start-step', undefined],
      ['text-start', undefined],
      ['text-delta', 'w0 w1 w2 w'],
      ['text-delta', '3 w4 w5 w'],
      ['text-end', undefined],
      ['text-start', undefined],
      ['text-delta', 'The answer is over the token limit of 20 tokens per answer.'],
      ['text-end', undefined],
      ['finish-step', undefined],
      ['finish', undefined],
    ]);
    expect(await result.finishReason).toBe('content-filter');
    // The stream + text-start, the deltas up to the one that tripped: nothing after it was read.
    expect(read.parts).toBe(2 + passing + 1);
    const outcome = await getGuardrailOutcome(result);
    expect(withoutTiming(outcome!.records)).toEqual([
      {
        guardrail: 'token-budget',
        kind: 'output',
        status: 'blocked',
        message: 'The answer is over the token limit of 20 tokens per answer.',
        reason: 'output is 21 tokens, over the per-request cap of 20',
        severity: 'warning',
        info: { tokens: 21, cap: 20, source: 'tokenizer' },
      },
    ]);
  });

  it('charges the session the input and the tokens produced up to the trip, not the reservation', async () => {
    const store = memoryStore();
    const { model } = streamingModel(WORDS);
    const budget = tokenBudget({ maxOutputTokens: 20, perSession: { maxTokens: 10_000 }, store });
    const result = streamText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({
          input: [budget],
          output: [budget],
          stream: { mode: 'window' },
        }),
      }),
      prompt: 'Count.',
      providerOptions: { guardrails: { sessionId: 's1' } },
    });
    await result.consumeStream();
    const records = (await getGuardrailOutcome(result))!.records;
    expect(records.map(record => [record.kind, record.status, record.info])).toEqual([
      [
        'input',
        'passed',
        { tokens: 2, reserved: 22, sessionTokens: 22, budget: 10_000, source: 'tokenizer' },
      ],
      ['output', 'blocked', { tokens: 21, cap: 20, source: 'tokenizer' }],
    ]);
    // 2 prompt tokens + the 21 produced (the reservation of 2 + 20 is settled to what was used).
    expect(await store.get('token-budget:session:s1')).toBe('23');
  });

  it.each([
    ['with', { maxOutputTokens: 20 }],
    ['without', {}],
  ])(
    'settles a passing stream without reported usage by the streamed count (%s an output cap)',
    async (_, cap) => {
      const store = memoryStore();
      const deltas = WORDS.slice(0, 5);
      const { model } = streamingModel(deltas, usage(undefined, undefined));
      const budget = tokenBudget({ ...cap, perSession: { maxTokens: 10_000 }, store });
      const result = streamText({
        model: wrapLanguageModel({
          model,
          middleware: guardrails({ input: [budget], output: [budget], stream: { mode: 'window' } }),
        }),
        prompt: 'Count.',
        providerOptions: { guardrails: { sessionId: 's2' } },
      });
      expect(await result.text).toBe('w0 w1 w2 w3 w4 ');
      const output = countTokens('w0 w1 w2 w3 w4 ');
      expect((await getGuardrailOutcome(result))!.records.at(-1)).toMatchObject({
        kind: 'output',
        status: 'passed',
        info: { tokens: output, source: 'tokenizer' },
      });
      expect(await store.get('token-budget:session:s2')).toBe(String(2 + output));
    },
  );

  it('counts with the tokenizer it was given, and reasoning deltas too', async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of [
              { type: 'stream-start', warnings: [] },
              { type: 'reasoning-start', id: 'r' },
              { type: 'reasoning-delta', id: 'r', delta: 'abcdef' },
              { type: 'reasoning-end', id: 'r' },
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'ghij' },
              { type: 'text-delta', id: 't', delta: 'k' },
              { type: 'text-delta', id: 't', delta: 'lmn' },
              { type: 'text-end', id: 't' },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(99) },
            ] as LanguageModelV4StreamPart[])
              controller.enqueue(part);
            controller.close();
          },
        }),
      }),
    });
    // One token per character: the cap of 10 is passed by the "k" (6 + 4 + 1).
    const budget = tokenBudget({ maxOutputTokens: 10, countTokens: text => text.length });
    const result = streamText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({ output: [budget], stream: { mode: 'window' } }),
      }),
      prompt: 'Letters.',
    });
    await result.consumeStream();
    expect(await result.text).toBe('The answer is over the token limit of 10 tokens per answer.');
    expect((await getGuardrailOutcome(result))!.records).toMatchObject([
      { status: 'blocked', info: { tokens: 11, cap: 10, source: 'tokenizer' } },
    ]);
  });
});

describe('StreamedTokenCount', () => {
  // Long words, runs of one letter, spaces, newlines and emoji, past several 256-character slices.
  const text = Array.from(
    { length: 120 },
    (_, index) =>
      `${'word'.repeat(index % 7)} ${'z'.repeat((index * 37) % 300)}\n${index % 5 === 0 ? '😀 ' : ''}`,
  ).join('');

  it('ends at exactly the count of the whole text, for any chunking', async () => {
    const whole = await tokenBudget({ maxOutputTokens: 1 }).check(text, guardContext('output'));
    const expected = (whole as unknown as { info: { tokens: number } }).info.tokens;
    for (const size of [1, 3, 17, 256, 257, 1000, text.length]) {
      const counted = new StreamedTokenCount(countTokens);
      for (let at = 0; at < text.length; at += size) counted.push(text.slice(at, at + size));
      expect([size, counted.total()]).toEqual([size, expected]);
    }
  });

  it('tokenizes each character once while no exact count is asked for', () => {
    let tokenized = 0;
    const counted = new StreamedTokenCount(piece => {
      tokenized += piece.length;
      return countTokens(piece);
    });
    for (const char of text) counted.push(char);
    expect(counted.lowerBound).toBeGreaterThan(0);
    expect(tokenized).toBe(text.length - counted.openLength);
    counted.total();
    expect(tokenized).toBe(text.length);
  });
});
