import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, isStepCount, streamText, tool, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardContext as context } from '../../../test/helpers';
import { concurrentSpend } from '../../../test/helpers/concurrent-spend';
import { GuardrailConfigError } from '../../core/errors';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { memoryStore } from '../../store/memory-store';
import { isGuardrailBlocked } from '../../tools/blocked-output';
import { guardTools } from '../../tools/guard-tool';
import { tokenBudget } from './token-budget';

const usage = (output: number, input = 10) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

function model(text: string, outputTokens: number) {
  const mock = new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usage(outputTokens),
      warnings: [],
    }),
  });
  return mock;
}

/** A model that calls `readFile` once, then answers "done"; each call billed `callUsage`. */
function readFileThenDone(callUsage: ReturnType<typeof usage>) {
  let calls = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content:
        calls++ === 0
          ? [{ type: 'tool-call', toolCallId: 'c1', toolName: 'readFile', input: '{}' }]
          : [{ type: 'text', text: 'done' }],
      finishReason: { unified: calls === 1 ? 'tool-calls' : 'stop', raw: undefined },
      usage: callUsage,
      warnings: [],
    }),
  });
}

describe('tokenBudget', () => {
  it('counts input with the o200k tokenizer and blocks over the per-request cap', async () => {
    const budget = tokenBudget({ maxInputTokens: 6 });
    expect(await budget.check('hello world', context('input'))).toEqual({
      action: 'allow',
      info: { tokens: 2, source: 'tokenizer' },
    });
    expect(await budget.check('Hello, how are you today?', context('input'))).toEqual({
      action: 'block',
      message: 'This request is over the token limit of 6 tokens per request.',
      reason: 'input is 7 tokens, over the per-request cap of 6',
      severity: 'warning',
      info: { tokens: 7, cap: 6, source: 'tokenizer' },
    });
  });

  it('counts the whole prompt, system message included, on input', async () => {
    const budget = tokenBudget({ maxInputTokens: 10 });
    const verdict = await budget.check(
      'Hello, how are you today?',
      context('input', {
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: [{ type: 'text', text: 'Hello, how are you today?' }] },
        ],
      }),
    );
    expect(verdict).toMatchObject({ action: 'block', info: { tokens: 11, cap: 10 } });
  });

  it('counts each image part as imageTokens and other files by size', async () => {
    const budget = tokenBudget({ maxInputTokens: 1_000_000 });
    const count = async (content: LanguageModelV4Prompt[number]['content']) =>
      (
        (
          await budget.check(
            '',
            context('input', { messages: [{ role: 'user', content }] as never }),
          )
        ).info as { tokens: number }
      ).tokens;
    const png = new Uint8Array(50_000);
    expect(
      await count([{ type: 'file', mediaType: 'image/png', data: { type: 'data', data: png } }]),
    ).toBe(1_600);
    expect(
      await count([
        {
          type: 'file',
          mediaType: 'image',
          data: { type: 'url', url: new URL('https://x.test/a.jpg') },
        },
        { type: 'file', mediaType: 'image/jpeg', data: { type: 'data', data: 'AAAA' } },
      ]),
    ).toBe(3_200);
    // 600 KB of text as bytes: bytes / 4.
    const file = new Uint8Array(600_000).fill(97);
    expect(
      await count([{ type: 'file', mediaType: 'text/plain', data: { type: 'data', data: file } }]),
    ).toBe(150_000);
    // The same as base64 (AI SDK 6 passes the string directly): 8 characters are 6 bytes.
    expect(
      await count([{ type: 'file', mediaType: 'application/pdf', data: 'QUJDREVG' } as never]),
    ).toBe(2);
    // A data URL (AI SDK 6): the bytes after the comma.
    expect(
      await count([
        {
          type: 'file',
          mediaType: 'application/pdf',
          data: 'data:application/pdf;base64,QUJDREVGR0hJSktM',
        } as never,
      ]),
    ).toBe(3);
    // An inline text document goes through the tokenizer.
    expect(
      await count([
        { type: 'file', mediaType: 'text/plain', data: { type: 'text', text: 'hello world' } },
      ]),
    ).toBe(2);
    // A file by URL or provider reference: its size is unknown.
    expect(
      await count([
        {
          type: 'file',
          mediaType: 'application/pdf',
          data: { type: 'url', url: new URL('https://x.test/a.pdf') },
        },
        {
          type: 'file',
          mediaType: 'application/pdf',
          data: { type: 'reference', reference: { openai: 'file-1' } },
        },
      ]),
    ).toBe(3_200);
    const custom = tokenBudget({
      maxInputTokens: 10,
      imageTokens: 85,
      bytesPerToken: 3,
      referencedFileTokens: 7,
    });
    expect(
      await custom.check(
        '',
        context('input', {
          messages: [
            {
              role: 'user',
              content: [
                { type: 'file', mediaType: 'image/png', data: { type: 'data', data: png } },
                {
                  type: 'file',
                  mediaType: 'audio/wav',
                  data: { type: 'data', data: new Uint8Array(9) },
                },
                {
                  type: 'file',
                  mediaType: 'video/mp4',
                  data: { type: 'url', url: new URL('https://x.test/v') },
                },
              ],
            },
          ],
        }),
      ),
    ).toMatchObject({ action: 'block', info: { tokens: 85 + 3 + 7 } });
  });

  it('counts a 600 KB text file sent beside a question, through generateText', async () => {
    const mock = model('Read it.', 3);
    const result = await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [tokenBudget({ maxInputTokens: 1_000 })] }),
      }),
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Summarise this.' },
            { type: 'file', mediaType: 'text/plain', data: new Uint8Array(600_000).fill(97) },
          ],
        },
      ],
    });
    expect(result.finishReason).toBe('content-filter');
    expect((await getGuardrailOutcome(result))?.records[0]).toMatchObject({
      guardrail: 'token-budget',
      status: 'blocked',
      reason: 'input is 150005 tokens, over the per-request cap of 1000',
    });
    expect(mock.doGenerateCalls).toHaveLength(0);
  });

  // Round 19: the provider sends a file's name (OpenAI's filename) and its
  // provider options (Anthropic's document title and context) to the model.
  it.each([
    ['its name', { filename: 'word '.repeat(20_000) }],
    [
      'its provider options',
      { providerOptions: { anthropic: { context: 'word '.repeat(20_000) } } },
    ],
  ])('counts a file by %s too, through generateText', async (_, extra) => {
    const mock = model('Read it.', 3);
    const result = await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [tokenBudget({ maxInputTokens: 1_000 })] }),
      }),
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Summarise this.' },
            { type: 'file', mediaType: 'application/pdf', data: new Uint8Array(8), ...extra },
          ],
        },
      ],
    });
    expect(result.finishReason).toBe('content-filter');
    expect((await getGuardrailOutcome(result))?.records[0]).toMatchObject({
      guardrail: 'token-budget',
      status: 'blocked',
    });
    expect(mock.doGenerateCalls).toHaveLength(0);
  });

  it('stops counting an oversized prompt once it is past the cap (a 4 MB prompt is not tokenized whole)', async () => {
    const counted: number[] = [];
    const budget = tokenBudget({
      maxInputTokens: 1_000,
      countTokens: text => {
        counted.push(text.length);
        return countTokens(text);
      },
    });
    const prose = 'The quick brown fox jumps over the lazy dog. ';
    const verdict = await budget.check(prose.repeat(90_000), context('tool_input'));
    expect(verdict).toMatchObject({ action: 'block' });
    // Slices of at most 256 characters, and only until the count passed 1,000 tokens.
    const charactersCounted = counted.reduce((sum, n) => sum + n, 0);
    expect(charactersCounted).toBeLessThan(8_000);
    expect(charactersCounted).toBeGreaterThan(4_000);
  });

  it('counts prompts without any text (a file alone, an image alone), through generateText', async () => {
    const mock = model('Read it.', 3);
    const guarded = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [tokenBudget({ maxInputTokens: 1_000 })] }),
    });
    const file = await generateText({
      model: guarded,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', mediaType: 'text/plain', data: new Uint8Array(600_000).fill(97) },
          ],
        },
      ],
    });
    expect((await getGuardrailOutcome(file))?.records[0]).toMatchObject({
      guardrail: 'token-budget',
      status: 'blocked',
      reason: 'input is 150000 tokens, over the per-request cap of 1000',
    });
    const image = await generateText({
      model: guarded,
      messages: [
        { role: 'user', content: [{ type: 'image', image: new Uint8Array([137, 80, 78, 71]) }] },
      ],
    });
    expect((await getGuardrailOutcome(image))?.records[0]).toMatchObject({
      status: 'blocked',
      reason: 'input is 1600 tokens, over the per-request cap of 1000',
    });
    expect(mock.doGenerateCalls).toHaveLength(0);
  });

  it('counts a long run of one letter in slices, with the exact count for ordinary text', async () => {
    const budget = tokenBudget({ maxInputTokens: 1_000_000_000 });
    const tokensOf = async (text: string) =>
      ((await budget.check(text, context('input'))).info as { tokens: number }).tokens;
    // Unsliced, the tokenizer's merges are quadratic here (20 s for these 200,000 letters).
    expect(await tokensOf('a'.repeat(200_000))).toBe(25_000);
    const prose = 'The quick brown fox jumps over the lazy dog, twice. '.repeat(500);
    expect(await tokensOf(prose)).toBe(countTokens(prose));
  });

  it("prefers the model's reported output usage over the tokenizer", async () => {
    const budget = tokenBudget({ maxOutputTokens: 100 });
    expect(await budget.check('short', context('output', { usage: usage(250) }))).toMatchObject({
      action: 'block',
      reason: 'output is 250 tokens, over the per-request cap of 100',
      info: { source: 'usage' },
    });
    expect(await budget.check('hello world', context('output'))).toEqual({
      action: 'allow',
      info: { tokens: 2, source: 'tokenizer' },
    });
  });

  describe('per session: reserve before the call, settle after it', () => {
    const session = (extra: Parameters<typeof context>[1] = {}) =>
      context('input', { metadata: { sessionId: 's1' }, ...extra });

    // A new user's first call was told "the budget ... is used up" though the
    // session had used nothing: its reservation alone (5 + the default 1,024)
    // is over the budget. Used up is said only once nothing is left.
    it('tells a call the budget would be exceeded while tokens are left, used up once none are', async () => {
      const store = memoryStore({ now: () => 0 });
      const budget = tokenBudget({ perSession: { maxTokens: 1000 }, store });
      expect(await budget.check('Hello, how are you?', session())).toEqual({
        action: 'block',
        message: 'This request would exceed the token budget for this conversation.',
        reason: 'session "s1" would use 1030 tokens, over its budget of 1000',
        severity: 'warning',
        info: {
          tokens: 6,
          reserved: 1030,
          sessionTokens: 0,
          budget: 1000,
          source: 'tokenizer',
          resetInMs: 0, // the refused call opened no window
        },
      });
      expect(await store.get('token-budget:session:s1')).toBeUndefined();
      await store.incrBy('token-budget:session:s1', 1000, 86_400_000);
      expect(await budget.check('hi', session({ maxOutputTokens: 1 }))).toEqual({
        action: 'block',
        message: 'The token budget for this conversation is used up.',
        reason: 'session "s1" would use 1002 tokens, over its budget of 1000',
        severity: 'warning',
        info: {
          tokens: 1,
          reserved: 2,
          sessionTokens: 1000,
          budget: 1000,
          source: 'tokenizer',
          resetInMs: 86_400_000,
        },
      });
      // A message of the caller's own is kept in both cases.
      const own = tokenBudget({ perSession: { maxTokens: 1000 }, store, message: 'Budget.' });
      expect(await own.check('hi', session({ maxOutputTokens: 1 }))).toMatchObject({
        message: 'Budget.',
      });
      expect(
        await own.check('hi', context('input', { metadata: { sessionId: 's2' } })),
      ).toMatchObject({ action: 'block', message: 'Budget.', info: { sessionTokens: 0 } });
    });

    it("reserves the input plus the call's maxOutputTokens; a refused reservation is not counted", async () => {
      const store = memoryStore({ now: () => 0 });
      const budget = tokenBudget({ perSession: { maxTokens: 100 }, store });
      expect(
        await budget.check('Hello, how are you today?', session({ maxOutputTokens: 50 })),
      ).toEqual({
        action: 'allow',
        info: { tokens: 7, reserved: 57, sessionTokens: 57, budget: 100, source: 'tokenizer' },
      });
      expect(
        await budget.check('Hello, how are you today?', session({ maxOutputTokens: 50 })),
      ).toEqual({
        action: 'block',
        message: 'This request would exceed the token budget for this conversation.',
        reason: 'session "s1" would use 114 tokens, over its budget of 100',
        severity: 'warning',
        info: {
          tokens: 7,
          reserved: 57,
          sessionTokens: 57,
          budget: 100,
          source: 'tokenizer',
          resetInMs: 86_400_000,
        },
      });
      expect(await store.get('token-budget:session:s1')).toBe('57');
      // Calls without a session share one budget, under the key "".
      const anonymous = () => context('input', { maxOutputTokens: 50 });
      expect(await budget.check('hello world', anonymous())).toEqual({
        action: 'allow',
        info: {
          tokens: 2,
          reserved: 52,
          sessionTokens: 52,
          budget: 100,
          source: 'tokenizer',
        },
      });
      expect(await store.get('token-budget:session:')).toBe('52');
      expect(await budget.check('hello world', anonymous())).toMatchObject({
        action: 'block',
        reason: 'calls without a session id would use 104 tokens, over their shared budget of 100',
      });
    });

    it('settles a step that only calls tools (no text for the output chain), through generateText', async () => {
      const store = memoryStore();
      const budget = tokenBudget({ perSession: { maxTokens: 10_000 }, store });
      const mock = new MockLanguageModelV4({
        doGenerate: async () => ({
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: '{"q":"x"}' },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: usage(6, 20),
          warnings: [],
        }),
      });
      const result = await generateText({
        model: wrapLanguageModel({
          model: mock,
          middleware: guardrails({ input: [budget], output: [budget] }),
        }),
        prompt: 'Look it up.',
        maxOutputTokens: 2_000,
        tools: {
          lookup: tool({ inputSchema: z.object({ q: z.string() }), execute: async () => 'ok' }),
        },
        providerOptions: { guardrails: { sessionId: 's1' } },
      });
      expect(result.toolResults).toHaveLength(1);
      // The 2,000-token output reservation went back: the session pays the reported 20 + 6.
      expect(await store.get('token-budget:session:s1')).toBe('26');
      expect((await getGuardrailOutcome(result))?.records.map(r => [r.kind, r.status])).toEqual([
        ['input', 'passed'],
        ['output', 'passed'],
      ]);
    });

    it('settles a streamed step that only calls tools, through streamText', async () => {
      const store = memoryStore();
      const budget = tokenBudget({ perSession: { maxTokens: 10_000 }, store });
      const mock = new MockLanguageModelV4({
        doStream: async () => ({
          stream: convertArrayToReadableStream([
            { type: 'stream-start', warnings: [] },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: '{"q":"x"}' },
            {
              type: 'finish',
              finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
              usage: usage(6, 20),
            },
          ]),
        }),
      });
      const result = streamText({
        model: wrapLanguageModel({
          model: mock,
          middleware: guardrails({ input: [budget], output: [budget] }),
        }),
        prompt: 'Look it up.',
        maxOutputTokens: 2_000,
        tools: {
          lookup: tool({ inputSchema: z.object({ q: z.string() }), execute: async () => 'ok' }),
        },
        providerOptions: { guardrails: { sessionId: 's1' } },
      });
      expect(await result.toolResults).toHaveLength(1);
      expect(await store.get('token-budget:session:s1')).toBe('26');
    });

    it('settles with the reported usage: the unused reservation goes back', async () => {
      const store = memoryStore();
      const budget = tokenBudget({ perSession: { maxTokens: 100 }, store });
      const ctx = session({ maxOutputTokens: 50 });
      await budget.check('Hello, how are you today?', ctx);
      expect(await store.get('token-budget:session:s1')).toBe('57');
      const settled = await budget.check('Fine.', {
        ...ctx,
        kind: 'output',
        usage: usage(20, 12),
      });
      expect(settled).toEqual({
        action: 'allow',
        info: { tokens: 20, sessionTokens: 32, budget: 100, source: 'usage' },
      });
      expect(await store.get('token-budget:session:s1')).toBe('32');
      // A second text part of the same answer does not settle again.
      await budget.check('More.', { ...ctx, kind: 'output', usage: usage(20, 12) });
      expect(await store.get('token-budget:session:s1')).toBe('32');
    });

    it('counts an answer by the tokenizer when its reported usage is not a count (NaN, negative, fractional)', async () => {
      // A NaN output usage made the session's counter "NaN" in memoryStore,
      // and a NaN never passes a cap: the budget never tripped again.
      for (const reported of [Number.NaN, -5_000, 1.5, Number.POSITIVE_INFINITY]) {
        const store = memoryStore();
        const budget = tokenBudget({ perSession: { maxTokens: 100 }, store });
        const ctx = session({ maxOutputTokens: 50 });
        await budget.check('Hello, how are you today?', ctx);
        const settled = await budget.check('Fine.', {
          ...ctx,
          kind: 'output',
          usage: usage(reported, reported),
        });
        expect(settled, String(reported)).toEqual({
          action: 'allow',
          info: { tokens: 2, sessionTokens: 9, budget: 100, source: 'tokenizer' },
        });
        expect(await store.get('token-budget:session:s1'), String(reported)).toBe('9');
      }
    });

    it('charges what an answer used beyond its reservation and blocks past the budget', async () => {
      const store = memoryStore();
      const budget = tokenBudget({ perSession: { maxTokens: 40 }, store, reserveOutputTokens: 5 });
      const ctx = session();
      expect(await budget.check('Hello, how are you today?', ctx)).toMatchObject({
        action: 'allow',
        info: { reserved: 12, sessionTokens: 12 },
      });
      expect(
        await budget.check('A long answer', { ...ctx, kind: 'output', usage: usage(35) }),
      ).toEqual({
        action: 'block',
        message: 'The token budget for this conversation is used up.',
        reason: 'session "s1" would use 45 tokens, over its budget of 40',
        severity: 'warning',
        info: { tokens: 35, sessionTokens: 10, budget: 40, source: 'usage' },
      });
      expect(await store.get('token-budget:session:s1')).toBe('45');
    });

    it('settles by the tokenizer, part by part, when the model reports no usage', async () => {
      const store = memoryStore();
      const budget = tokenBudget({ perSession: { maxTokens: 1_000 }, store });
      const ctx = session({ maxOutputTokens: 100 });
      await budget.check('Hello, how are you today?', ctx);
      expect(await store.get('token-budget:session:s1')).toBe('107');
      await budget.check('hello world', { ...ctx, kind: 'output' });
      expect(await store.get('token-budget:session:s1')).toBe('9');
      await budget.check('Hello, how are you today?', { ...ctx, kind: 'output' });
      expect(await store.get('token-budget:session:s1')).toBe('16');
    });

    it('reserves once per call, however often the middleware checks the call', async () => {
      const store = memoryStore();
      const budget = tokenBudget({ perSession: { maxTokens: 1_000 }, store });
      const ctx = session({ maxOutputTokens: 10 });
      await budget.check('Hello, how are you today?', ctx);
      expect(await budget.check('Hello, how are you today?', ctx)).toMatchObject({
        action: 'allow',
      });
      expect(await store.get('token-budget:session:s1')).toBe('17');
    });

    it("reserves the call's maxOutputTokens, else reserveOutputTokens, else maxOutputTokens, else 1,024", async () => {
      const reservedBy = async (
        options: Parameters<typeof tokenBudget>[0],
        maxOutputTokens?: number,
      ) => {
        const store = memoryStore();
        await tokenBudget({ perSession: { maxTokens: 1_000_000 }, store, ...options }).check(
          'hello world',
          session({ maxOutputTokens }),
        );
        return Number(await store.get('token-budget:session:s1')) - 2;
      };
      expect(await reservedBy({ reserveOutputTokens: 300, maxOutputTokens: 500 }, 64)).toBe(64);
      expect(await reservedBy({ reserveOutputTokens: 300, maxOutputTokens: 500 })).toBe(300);
      expect(await reservedBy({ maxOutputTokens: 500 })).toBe(500);
      expect(await reservedBy({})).toBe(1_024);
    });

    it('starts a fresh window at 0 when the window reset before the release', async () => {
      let now = 0;
      const store = memoryStore({ now: () => now });
      const budget = tokenBudget({ perSession: { maxTokens: 1_000, windowMs: 1_000 }, store });
      const ctx = session({ maxOutputTokens: 500 });
      await budget.check('hello world', ctx); // 502 reserved
      now = 2_000; // the window reset while the model ran
      await budget.check('Hi', { ...ctx, kind: 'output', usage: usage(1, 2) });
      // The refund belongs to the old window: the new one is not opened by it.
      expect(await store.get('token-budget:session:s1')).toBeUndefined();
    });

    it('two releases racing after the window reset leave the new window at 0, not one refund twice', async () => {
      let now = 0;
      const store = memoryStore({ now: () => now });
      const budget = tokenBudget({ perSession: { maxTokens: 10_000, windowMs: 1_000 }, store });
      const ctxA = session({ maxOutputTokens: 500 });
      const ctxB = session({ maxOutputTokens: 800 });
      await budget.check('hello world', ctxA); // 502 reserved
      await budget.check('hello world', ctxB); // 802 reserved
      now = 2_000; // the window reset while both models ran
      await Promise.all([
        budget.check('Hi', { ...ctxA, kind: 'output', usage: usage(1, 2) }),
        budget.check('Hi', { ...ctxB, kind: 'output', usage: usage(1, 2) }),
      ]);
      // Each release repaired its own negative total and the other's: 502 were charged to nobody.
      expect(await store.get('token-budget:session:s1')).toBeUndefined();
      const next = await budget.check('hello world', session({ maxOutputTokens: 10 }));
      expect(next.info).toMatchObject({ sessionTokens: 12 });
    });
  });

  it('keys sessions with the sessionId option', async () => {
    const store = memoryStore();
    const budget = tokenBudget({
      perSession: { maxTokens: 100 },
      store,
      reserveOutputTokens: 1,
      sessionId: ctx => ctx.metadata.userId as string,
    });
    await budget.check('hello world', context('input', { metadata: { userId: 'u9' } }));
    expect(await store.get('token-budget:session:u9')).toBe('3');
  });

  it('blocks input over the cap before the model is called, through generateText', async () => {
    const mock = model('Hi!', 3);
    const result = await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [tokenBudget({ maxInputTokens: 5 })] }),
      }),
      prompt: 'Hello, how are you today?',
    });
    expect(mock.doGenerateCalls).toHaveLength(0);
    expect(result.finishReason).toBe('content-filter');
    expect((await getGuardrailOutcome(result))?.records[0]).toMatchObject({
      guardrail: 'token-budget',
      status: 'blocked',
      reason: 'input is 7 tokens, over the per-request cap of 5',
    });
  });

  it('in guardTools, names what it capped: the tool result, not "input"', async () => {
    const mock = readFileThenDone(usage(3));
    const tools = guardTools(
      { readFile: tool({ inputSchema: z.object({}), execute: async () => 'word '.repeat(50) }) },
      { output: [tokenBudget({ maxInputTokens: 5 })] },
    );
    const result = await generateText({
      model: mock,
      tools,
      prompt: 'Read it.',
      stopWhen: isStepCount(2),
    });
    const output = result.steps[0]?.toolResults[0]?.output;
    expect(isGuardrailBlocked(output) && output.guardrail).toMatchObject({
      guardrail: 'token-budget',
      kind: 'tool_output',
      status: 'blocked',
      reason: 'the tool result is 51 tokens, over the per-request cap of 5',
    });
  });

  it('one instance in the middleware and guardTools charges a tool result twice (documented); a tool budget of its own does not', async () => {
    // What is counted twice: guardTools charges the result's tokens to the
    // session as it is, and the next model call is billed for its whole
    // prompt (the result included) and settles with that usage. The
    // middleware cannot tell which tool results a tool wrapper charged (no
    // state is shared between a tool call and the model call reading its
    // result), so the limit stays; exact counts pin it.
    const RESULT = 'word '.repeat(50);
    // A string result is judged as the text it is: 51 tokens.
    const resultTokens = countTokens(RESULT);
    expect(resultTokens).toBe(51);
    const run = async (toolBudgetName?: string) => {
      const store = memoryStore();
      const budget = tokenBudget({ perSession: { maxTokens: 100_000 }, store });
      const toolBudget = toolBudgetName
        ? tokenBudget({ perSession: { maxTokens: 100_000 }, store, name: toolBudgetName })
        : budget;
      // Each call is billed 10 input and 5 output tokens.
      const mock = readFileThenDone(usage(5, 10));
      await generateText({
        model: wrapLanguageModel({
          model: mock,
          middleware: guardrails({ input: [budget], output: [budget] }),
        }),
        tools: guardTools(
          { readFile: tool({ inputSchema: z.object({}), execute: async () => RESULT }) },
          // The tool calls of the same session (guardTools reads no providerOptions).
          { output: [toolBudget], context: () => ({ sessionId: 's1' }) },
        ),
        prompt: 'Read it.',
        stopWhen: isStepCount(2),
        providerOptions: { guardrails: { sessionId: 's1' } },
      });
      const counter = async (name: string) => Number(await store.get(`${name}:session:s1`)) || 0;
      return {
        session: await counter('token-budget'),
        tools: toolBudgetName ? await counter(toolBudgetName) : undefined,
      };
    };
    // Two model calls of 15 billed tokens each, plus the tool result once more.
    expect(await run()).toEqual({ session: 30 + resultTokens, tools: undefined });
    expect(await run('tool-traffic')).toEqual({ session: 30, tools: resultTokens });
  });

  it('ends a session once its budget is spent, through generateText', async () => {
    const store = memoryStore();
    const budget = tokenBudget({ perSession: { maxTokens: 60 }, store });
    const mock = model('Fine, thanks.', 20);
    const guarded = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [budget], output: [budget] }),
    });
    const ask = (prompt: string) =>
      generateText({
        model: guarded,
        prompt,
        maxOutputTokens: 25,
        providerOptions: { guardrails: { sessionId: 'chat-1' } },
      });

    const first = await ask('Hello, how are you today?'); // reserves 7 + 25, settles 10 + 20
    expect(first.text).toBe('Fine, thanks.');
    expect(await store.get('token-budget:session:chat-1')).toBe('30');
    const second = await ask('And now?'); // reserves 3 + 25 = 58, settles 60
    expect(second.text).toBe('Fine, thanks.');
    expect(await store.get('token-budget:session:chat-1')).toBe('60');
    const third = await ask('Hello?'); // 2 + 25 more do not fit
    expect(third.finishReason).toBe('content-filter');
    expect((await getGuardrailOutcome(third))?.records[0]).toMatchObject({
      guardrail: 'token-budget',
      kind: 'input',
      status: 'blocked',
      reason: 'session "chat-1" would use 87 tokens, over its budget of 60',
    });
    expect(mock.doGenerateCalls).toHaveLength(2);
  });

  it('settles a streamed answer with the usage of its finish part', async () => {
    const store = memoryStore();
    const budget = tokenBudget({ perSession: { maxTokens: 1_000 }, store });
    const mock = new MockLanguageModelV4({
      doStream: async () => ({
        stream: convertArrayToReadableStream([
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Fine, thanks.' },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(30, 9) },
        ]),
      }),
    });
    const result = streamText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [budget], output: [budget] }),
      }),
      prompt: 'Hello, how are you today?',
      maxOutputTokens: 200,
      providerOptions: { guardrails: { sessionId: 'stream-1' } },
    });
    expect(await result.text).toBe('Fine, thanks.');
    expect(await store.get('token-budget:session:stream-1')).toBe('39');
  });

  it('300 concurrent calls against a session budget spend no more than the budget', async () => {
    const store = memoryStore();
    const { spent, results, modelCalls } = await concurrentSpend(store, 300, 5_000);
    // Reservations are upper bounds here (the model reports the tokenizer's
    // input count and answers with all of maxOutputTokens), so the budget
    // holds exactly; the last refused call needed more than was left.
    expect(spent).toBeLessThanOrEqual(5_000);
    expect(spent).toBeGreaterThan(5_000 - 54);
    expect(modelCalls).toBeLessThan(100);
    expect(results.filter(result => result.finishReason === 'content-filter')).toHaveLength(
      300 - modelCalls,
    );
    // The session's count is what the model reported, exactly.
    expect(await store.get('token-budget:session:busy')).toBe(String(spent));
  });

  it('needs at least one limit and positive integers', () => {
    expect(() => tokenBudget()).toThrow(GuardrailConfigError);
    try {
      tokenBudget({
        maxInputTokens: 0,
        perSession: { maxTokens: 1.5 },
        reserveOutputTokens: -1,
        imageTokens: Number.NaN,
      });
      expect.unreachable();
    } catch (error) {
      expect((error as GuardrailConfigError).issues.map(issue => issue.path)).toEqual([
        'token-budget.maxInputTokens',
        'token-budget.perSession.maxTokens',
        'token-budget.reserveOutputTokens',
        'token-budget.imageTokens',
      ]);
    }
  });
});

describe('tokenBudget in window streams', () => {
  it('streams, and settles the session with the reported usage once per call', async () => {
    const store = memoryStore({ now: () => 0 });
    const budget = tokenBudget({ perSession: { maxTokens: 10_000 }, store });
    const { streamText, wrapLanguageModel } = await import('ai');
    const { guardrails } = await import('../../middleware/guardrails-middleware');
    const { scriptedModel } = await import('../../testing/scripted-model');
    const answer = 'The weather is sunny today, with a light breeze from the west.';
    const result = streamText({
      model: wrapLanguageModel({
        model: scriptedModel({ respond: () => answer, chunkSize: 5 }),
        middleware: guardrails({
          input: [budget],
          output: [budget],
          stream: { mode: 'window' },
        }),
      }),
      prompt: 'Weather?',
      maxOutputTokens: 100,
      providerOptions: { guardrails: { sessionId: 'w1' } },
    });
    expect(await result.text).toBe(answer);
    const usage = await result.usage;
    // Reserved input + 100 before the call, settled to what the call used.
    expect(await store.get('token-budget:session:w1')).toBe(
      String((usage.inputTokens ?? 0) + (usage.outputTokens ?? 0)),
    );
  });
});

describe('tokenBudget counts the tool definitions of the call (billed as input)', () => {
  it("an MCP tool's 200,000-character description is over maxInputTokens: the model is not called", async () => {
    const mock = model('ok', 1);
    const description = `Search the wiki. ${'Lorem ipsum dolor sit amet. '.repeat(7_200)}`;
    const result = await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [tokenBudget({ maxInputTokens: 10_000 })] }),
      }),
      tools: {
        search: tool({
          description,
          inputSchema: z.object({ query: z.string() }),
          execute: async () => 'ok',
        }),
      },
      prompt: 'Hi',
    });
    expect(mock.doGenerateCalls).toHaveLength(0);
    expect(result.finishReason).toBe('content-filter');
    const [record] = (await getGuardrailOutcome(result))?.records ?? [];
    expect(record).toMatchObject({ guardrail: 'token-budget', kind: 'input', status: 'blocked' });
    // Counting stops once the cap is passed: the exact count is the tokens read so far.
    expect(record?.reason).toMatch(/^input is \d+ tokens, over the per-request cap of 10000$/);

    // The same tool with a short description, and the prompt, fit: every piece counted once.
    const fits = model('ok', 1);
    const outcome = await getGuardrailOutcome(
      await generateText({
        model: wrapLanguageModel({
          model: fits,
          middleware: guardrails({ input: [tokenBudget({ maxInputTokens: 10_000 })] }),
        }),
        tools: {
          search: tool({
            description: 'Search the wiki.',
            inputSchema: z.object({ query: z.string() }),
            execute: async () => 'ok',
          }),
        },
        prompt: 'Hi',
      }),
    );
    expect(fits.doGenerateCalls).toHaveLength(1);
    const sent = fits.doGenerateCalls[0]!.tools![0]!;
    expect(outcome?.records[0]?.info).toEqual({
      tokens: countTokens(
        [
          'search',
          'Search the wiki.',
          JSON.stringify(sent.type === 'function' ? sent.inputSchema : undefined),
          'Hi',
        ].join('\n'),
      ),
      source: 'tokenizer',
    });
  });
});
