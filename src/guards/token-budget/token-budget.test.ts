import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { guardContext as context } from '../../../test/helpers';
import { GuardrailConfigError } from '../../core/errors';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { memoryStore } from '../../store/memory-store';
import { tokenBudget } from './token-budget';

const usage = (output: number) => ({
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
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

describe('tokenBudget', () => {
  it('counts input with the o200k tokenizer and blocks over the per-request cap', async () => {
    const budget = tokenBudget({ maxInputTokens: 6 });
    expect(await budget.check('hello world', context('input'))).toEqual({
      action: 'allow',
      info: { tokens: 2, source: 'tokenizer' },
    });
    expect(await budget.check('Hello, how are you today?', context('input'))).toEqual({
      action: 'block',
      message: 'The token budget for this conversation is used up.',
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

  it('adds up a session in the store and does not count a refused prompt', async () => {
    const store = memoryStore({ now: () => 0 });
    const budget = tokenBudget({ perSession: { maxTokens: 10 }, store });
    const session = { metadata: { sessionId: 's1' } };
    expect(await budget.check('Hello, how are you today?', context('input', session))).toEqual({
      action: 'allow',
      info: { tokens: 7, sessionTokens: 7, budget: 10, source: 'tokenizer' },
    });
    expect(await budget.check('Hello, how are you today?', context('input', session))).toEqual({
      action: 'block',
      message: 'The token budget for this conversation is used up.',
      reason: 'session "s1" would use 14 tokens, over its budget of 10',
      severity: 'warning',
      info: { tokens: 7, sessionTokens: 7, budget: 10, source: 'tokenizer', resetInMs: 86_400_000 },
    });
    expect(await store.get('token-budget:session:s1')).toBe('7');
    // Another session has its own budget; calls without a session are not counted.
    expect(
      (await budget.check('hello world', context('input', { metadata: { sessionId: 's2' } })))
        .action,
    ).toBe('allow');
    expect(await budget.check('hello world', context('input'))).toEqual({
      action: 'allow',
      info: { tokens: 2, source: 'tokenizer' },
    });
  });

  it('lets only one of two concurrent prompts through when both do not fit', async () => {
    const store = memoryStore();
    const budget = tokenBudget({ perSession: { maxTokens: 10 }, store });
    const session = { metadata: { sessionId: 'race' } };
    const verdicts = await Promise.all([
      budget.check('Hello, how are you today?', context('input', session)),
      budget.check('Hello, how are you today?', context('input', session)),
    ]);
    expect(verdicts.map(verdict => verdict.action).sort()).toEqual(['allow', 'block']);
    expect(await store.get('token-budget:session:race')).toBe('7');
  });

  it('keys sessions with the sessionId option', async () => {
    const store = memoryStore();
    const budget = tokenBudget({
      perSession: { maxTokens: 100 },
      store,
      sessionId: ctx => ctx.metadata.userId as string,
    });
    await budget.check('hello world', context('input', { metadata: { userId: 'u9' } }));
    expect(await store.get('token-budget:session:u9')).toBe('2');
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

  it('ends a session once its budget is spent, through generateText', async () => {
    const budget = tokenBudget({ perSession: { maxTokens: 40 } });
    const mock = model('Fine, thanks.', 20);
    const guarded = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [budget], output: [budget] }),
    });
    const ask = (prompt: string) =>
      generateText({
        model: guarded,
        prompt,
        providerOptions: { guardrails: { sessionId: 'chat-1' } },
      });

    const first = await ask('Hello, how are you today?'); // 7 in + 20 out = 27
    expect(first.text).toBe('Fine, thanks.');
    const second = await ask('And now?'); // 3 in → 30, then 20 out → 50 > 40
    expect(second.finishReason).toBe('content-filter');
    expect((await getGuardrailOutcome(second))?.records.at(-1)).toMatchObject({
      guardrail: 'token-budget',
      kind: 'output',
      status: 'blocked',
      reason: 'session "chat-1" would use 50 tokens, over its budget of 40',
    });
    const third = await ask('Hello?');
    expect(third.finishReason).toBe('content-filter');
    expect(mock.doGenerateCalls).toHaveLength(2);
  });

  it('needs at least one limit and positive integers', () => {
    expect(() => tokenBudget()).toThrow(GuardrailConfigError);
    try {
      tokenBudget({ maxInputTokens: 0, perSession: { maxTokens: 1.5 } });
    } catch (error) {
      expect((error as GuardrailConfigError).issues.map(issue => issue.path)).toEqual([
        'token-budget.maxInputTokens',
        'token-budget.perSession.maxTokens',
      ]);
    }
  });
});
