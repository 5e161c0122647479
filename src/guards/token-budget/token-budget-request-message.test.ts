import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { guardContext, textModel, withoutTiming } from '../../../test/helpers';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { memoryStore } from '../../store/memory-store';
import { tokenBudget } from './token-budget';

/**
 * Round 37: a request over a per-request cap (`maxInputTokens`,
 * `maxOutputTokens`) was told "The token budget for this conversation is
 * used up.", which is false: the conversation's budget may be untouched
 * (there may be none). A per-request cap has its own message, naming the
 * cap; the session budget keeps its two.
 */
describe('tokenBudget: a per-request cap says so in its message', () => {
  const PROMPT = 'Hello, how are you today?';
  /** The record of a block by a per-request cap: what it counted, its count, the cap, the message. */
  const capRecord = (
    kind: string,
    tokens: number,
    cap: number,
    message: string,
    source: string,
  ) => ({
    guardrail: 'token-budget',
    kind,
    status: 'blocked',
    message,
    reason: `${kind} is ${tokens} tokens, over the per-request cap of ${cap}`,
    severity: 'warning',
    info: { tokens, cap, source },
  });
  const inputBlock = capRecord(
    'input',
    7,
    6,
    'This request is over the token limit of 6 tokens per request.',
    'tokenizer',
  );

  it('maxInputTokens through generateText: the message and the exact record; the model is not called', async () => {
    const store = memoryStore();
    const mock = textModel('an answer');
    const budget = tokenBudget({ maxInputTokens: 6, perSession: { maxTokens: 100_000 }, store });
    const result = await generateText({
      model: wrapLanguageModel({ model: mock, middleware: guardrails({ input: [budget] }) }),
      prompt: PROMPT,
    });
    expect(result.text).toBe('This request is over the token limit of 6 tokens per request.');
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([inputBlock]);
    expect(mock.doGenerateCalls).toHaveLength(0);
    // The conversation's budget is untouched: nothing was reserved.
    expect(await store.get('token-budget:session:')).toBeUndefined();
  });

  it('maxInputTokens through streamText: the message is the streamed text, with the exact record', async () => {
    const mock = textModel('an answer');
    const result = streamText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [tokenBudget({ maxInputTokens: 6 })] }),
      }),
      prompt: PROMPT,
    });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas).toEqual(['This request is over the token limit of 6 tokens per request.']);
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([inputBlock]);
    expect(mock.doStreamCalls).toHaveLength(0);
  });

  it('maxOutputTokens through generateText and a window stream: the answer is over its cap', async () => {
    const answer = 'one two three four five six seven eight nine ten';
    const outputBlock = (tokens: number, source: string) =>
      capRecord(
        'output',
        tokens,
        5,
        'The answer is over the token limit of 5 tokens per answer.',
        source,
      );
    const model = (deltas: string[]) =>
      wrapLanguageModel({
        model: textModel(deltas),
        middleware: guardrails({
          output: [tokenBudget({ maxOutputTokens: 5 })],
          stream: { mode: 'window' },
        }),
      });
    // generateText: the usage the mock reports (20 output tokens).
    const generated = await generateText({ model: model([answer]), prompt: 'q' });
    expect(generated.text).toBe('The answer is over the token limit of 5 tokens per answer.');
    expect(withoutTiming((await getGuardrailOutcome(generated))?.records)).toEqual([
      outputBlock(20, 'usage'),
    ]);
    // Streamed whole in one delta: the stream trips at it (10 tokens by the tokenizer), before anything is released.
    const streamed = streamText({ model: model([answer]), prompt: 'q' });
    const deltas: string[] = [];
    for await (const delta of streamed.textStream) deltas.push(delta);
    expect(deltas).toEqual(['The answer is over the token limit of 5 tokens per answer.']);
    expect(withoutTiming((await getGuardrailOutcome(streamed))?.records)).toEqual([
      outputBlock(10, 'tokenizer'),
    ]);
  });

  it('tool traffic names what it capped', async () => {
    const budget = tokenBudget({ maxInputTokens: 6 });
    const verdicts = await Promise.all(
      (['tool_input', 'tool_output', 'tool_definition'] as const).map(kind =>
        budget.check(PROMPT, guardContext(kind)),
      ),
    );
    expect(verdicts.map(verdict => verdict.action === 'block' && verdict.message)).toEqual([
      'The tool arguments are over the token limit of 6 tokens.',
      'The tool result is over the token limit of 6 tokens.',
      'The tool definition is over the token limit of 6 tokens.',
    ]);
  });

  it('a custom message still replaces every block message', async () => {
    const budget = tokenBudget({ maxInputTokens: 6, message: 'Too long.' });
    expect(await budget.check(PROMPT, guardContext('input'))).toMatchObject({
      action: 'block',
      message: 'Too long.',
    });
  });
});
