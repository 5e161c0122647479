import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateResult, textModel, withoutTiming } from '../../../test/helpers';
import { isHealthCheck, promptOf } from '../../../test/helpers/judge-calls';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { CircuitBreaker } from './circuit-breaker';
import { llmJudge } from './llm-judge';

// Round 22: a judge that never answers cost every guarded call the whole
// `timeoutMs`: timeouts never reached the breaker (a client's long text may
// cause one, so they were left out), and it never opened. Now `failures`
// consecutive timeouts send the judge a health check, a fixed text no client
// writes; when that gets no answer either, the circuit opens and later
// checks fail at once by `onError`, without a judge call.

const policy = 'The assistant must not give medical advice.';
const clean = { flagged: false, confidence: 0.95, reason: 'fine' };

/** Never answers `hangs(prompt)` calls (rejects when aborted); answers the others `clean`. */
function judgeModel(hangs: (prompt: string) => boolean) {
  return new MockLanguageModelV4({
    doGenerate: async ({ abortSignal, ...call }) => {
      if (!hangs(promptOf(call as LanguageModelV4CallOptions))) {
        return generateResult(JSON.stringify(clean));
      }
      return new Promise((_, reject) => {
        abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true });
      });
    },
  });
}

function guardedModel(judge: MockLanguageModelV4, onError: 'block' | 'allow' = 'block') {
  return wrapLanguageModel({
    model: textModel('Here is a recipe.'),
    middleware: guardrails({
      input: [
        llmJudge({
          model: judge,
          policy,
          onError,
          // Short: every judge call that counts here hangs until cut.
          timeoutMs: 50,
          breaker: { failures: 2, resetMs: 60_000 },
        }),
      ],
    }),
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('llmJudge: a judge that never answers opens the breaker', () => {
  it('two timeouts and a health check that gets no answer: later calls fail at once, without a judge call', async () => {
    const probed = vi.spyOn(CircuitBreaker.prototype, 'probed');
    const judge = judgeModel(() => true);
    const model = guardedModel(judge);
    for (const prompt of ['first question', 'second question']) {
      const result = await generateText({ model, prompt });
      expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
        { guardrail: 'llm-judge', kind: 'input', status: 'error', reason: 'timed out after 50 ms' },
      ]);
    }
    await vi.waitFor(() => expect(probed).toHaveBeenCalledWith(true), { timeout: 10_000 });
    expect(judge.doGenerateCalls.map(isHealthCheck)).toEqual([false, false, true]);

    const third = await generateText({ model, prompt: 'third question' });
    const fourth = streamText({ model, prompt: 'fourth question' });
    await fourth.consumeStream();
    for (const outcome of [await getGuardrailOutcome(third), await getGuardrailOutcome(fourth)]) {
      const records = withoutTiming(outcome?.records);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ guardrail: 'llm-judge', kind: 'input', status: 'error' });
      expect(records[0]?.reason).toMatch(
        /^judge circuit open after 2 consecutive timeouts and a health check that got no answer; not called \(retry in \d+ ms\)$/,
      );
    }
    expect(third.text).toBe("Sorry, I can't help with that.");
    // No judge call after the health check: the open circuit does not wait.
    expect(judge.doGenerateCalls).toHaveLength(3);
  });

  it('after resetMs one trial call goes to the judge; when it times out too, a health check reopens the circuit', async () => {
    let clock = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => clock);
    const probed = vi.spyOn(CircuitBreaker.prototype, 'probed');
    const judge = judgeModel(() => true);
    const model = guardedModel(judge);
    await generateText({ model, prompt: 'a' });
    await generateText({ model, prompt: 'b' });
    await vi.waitFor(() => expect(probed).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    clock += 60_001;
    const trial = await generateText({ model, prompt: 'c' });
    expect((await getGuardrailOutcome(trial))?.records[0]?.reason).toBe('timed out after 50 ms');
    await vi.waitFor(() => expect(probed).toHaveBeenCalledTimes(2), { timeout: 10_000 });
    expect(probed.mock.calls).toEqual([[true], [true]]);
    const after = await generateText({ model, prompt: 'd' });
    expect((await getGuardrailOutcome(after))?.records[0]?.reason).toMatch(
      /^judge circuit open after 2 consecutive timeouts and a health check that got no answer; not called/,
    );
    // a, b, the health check, the trial c, its health check; none for d.
    expect(judge.doGenerateCalls.map(isHealthCheck)).toEqual([false, false, true, false, true]);
  });

  it("with onError: 'allow' the open circuit lets calls through at once", async () => {
    const probed = vi.spyOn(CircuitBreaker.prototype, 'probed');
    const judge = judgeModel(() => true);
    const model = guardedModel(judge, 'allow');
    await generateText({ model, prompt: 'a' });
    await generateText({ model, prompt: 'b' });
    await vi.waitFor(() => expect(probed).toHaveBeenCalledWith(true), { timeout: 10_000 });
    const result = await generateText({ model, prompt: 'c' });
    expect(result.text).toBe('Here is a recipe.');
    expect(judge.doGenerateCalls).toHaveLength(3);
  });

  it("timeouts a client's texts cause do not open it: the health check is answered, the next user is judged", async () => {
    const probed = vi.spyOn(CircuitBreaker.prototype, 'probed');
    const judge = judgeModel(prompt => prompt.includes('ATTACK'));
    const model = guardedModel(judge, 'allow');
    for (const prompt of ['ATTACK 1', 'ATTACK 2', 'ATTACK 3']) {
      const result = await generateText({ model, prompt });
      expect((await getGuardrailOutcome(result))?.records[0]?.reason).toBe('timed out after 50 ms');
    }
    await vi.waitFor(() => expect(probed).toHaveBeenCalledWith(false), { timeout: 10_000 });
    expect(probed).not.toHaveBeenCalledWith(true);
    const victim = await generateText({ model, prompt: 'How long do I boil an egg?' });
    expect(withoutTiming((await getGuardrailOutcome(victim))?.records)).toMatchObject([
      { guardrail: 'llm-judge', kind: 'input', status: 'passed', info: { cached: false } },
    ]);
    // Three attacks, one health check (after the second timeout), the victim.
    expect(judge.doGenerateCalls.map(isHealthCheck)).toEqual([false, false, true, false, false]);
  });
});
