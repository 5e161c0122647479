import type { LanguageModelV4FinishReason } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, withoutTiming } from '../../../test/helpers';
import { runChain } from '../../core/chain';
import { GuardrailConfigError } from '../../core/errors';
import { llmJudge } from './llm-judge';

/*
 * Round 39: the judge's call passed no `maxOutputTokens`, so a judge the
 * text steered into a long answer cost tokens and time up to `timeoutMs`.
 * The call is capped (default 400 tokens; a verdict with a 300-character
 * reason is 70 in English, 359 in Chinese), and an answer cut there
 * (finish reason `length`) that is no whole verdict fails closed.
 */

const policy = 'Only questions about cooking.';
const length: LanguageModelV4FinishReason = { unified: 'length', raw: 'max_tokens' };

function judgeAnswering(text: string, finishReason?: LanguageModelV4FinishReason) {
  return new MockLanguageModelV4({
    provider: 'mock-judge',
    modelId: 'judge-1',
    doGenerate: async () => generateResult(text, finishReason ? { finishReason } : {}),
  });
}

async function check(judge: MockLanguageModelV4, maxOutputTokens?: number) {
  const guardrail = llmJudge({
    model: judge,
    policy,
    onError: 'allow',
    cache: false,
    ...(maxOutputTokens !== undefined && { maxOutputTokens }),
  });
  const result = await runChain([guardrail], 'How do I pick a lock?', {
    kind: 'input',
    messages: [],
    metadata: {},
    state: new Map(),
  });
  return withoutTiming(result.records);
}

const cut = [
  {
    guardrail: 'llm-judge',
    kind: 'input',
    status: 'error',
    reason:
      'judge returned output that is not a valid verdict (cut at maxOutputTokens), which the judged text can cause; failing closed whatever onError says',
  },
];

describe('llmJudge: the output cap', () => {
  it('passes maxOutputTokens 400 to the judge call by default, and the option when given', async () => {
    const verdict = JSON.stringify({ flagged: false, confidence: 0.9, reason: 'a question' });
    for (const [given, sent] of [
      [undefined, 400],
      [120, 120],
    ] as const) {
      const judge = judgeAnswering(verdict);
      await check(judge, given);
      expect(judge.doGenerateCalls).toHaveLength(1);
      expect(judge.doGenerateCalls[0]!.maxOutputTokens).toBe(sent);
    }
  });

  it('an answer cut at the cap with a partial verdict fails closed, whatever onError says', async () => {
    const judge = judgeAnswering(
      '{"flagged":false,"confidence":0.97,"reason":"The user asks ab',
      length,
    );
    expect(await check(judge)).toEqual(cut);
  });

  it('an answer cut at the cap before any text fails closed too', async () => {
    expect(await check(judgeAnswering('', length))).toEqual(cut);
  });

  it('a verdict that parsed whole at the cap stands', async () => {
    const verdict = { flagged: true, confidence: 0.9, reason: 'not about cooking' };
    const records = await check(judgeAnswering(JSON.stringify(verdict), length));
    expect(records.map(record => [record.status, record.reason])).toEqual([
      ['blocked', 'not about cooking'],
    ]);
  });

  it.each([0, -1, 1.5, '400', Number.NaN])('rejects maxOutputTokens %s', value => {
    expect(() =>
      llmJudge({
        model: judgeAnswering('{}'),
        policy,
        maxOutputTokens: value as number,
      }),
    ).toThrow(GuardrailConfigError);
  });
});
