import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, readAll, streamOf, textParts } from '../../test/helpers';
import { allow, block, defineGuardrail } from '../core/define-guardrail';
import { guardrails } from './guardrails-middleware';

const SECRET = 'launch code 0000-1111';
const PROMPT = `Tell me about the ${SECRET}`;

/** The provider's request body: the prompt as the model received it. */
const requestBody = { messages: [{ role: 'user', content: PROMPT }] };

/** A parallel judge that decides once the model has answered (the model ran on the prompt). */
function lateJudge(blocks: boolean, modelDone: Promise<void>) {
  return defineGuardrail({
    name: 'late-judge',
    parallel: true,
    check: async () => {
      await modelDone;
      return blocks ? block({ message: 'Not allowed.' }) : allow();
    },
  });
}

function signal() {
  let open!: () => void;
  const promise = new Promise<void>(resolve => {
    open = resolve;
  });
  return { promise, open };
}

/** generateText over a model that answers while a parallel input guardrail (tripping or not) still runs. */
async function generateWithLateJudge(trips: boolean) {
  const done = signal();
  const model = new MockLanguageModelV4({
    doGenerate: async () => {
      setTimeout(done.open, 5);
      return generateResult('Here it is.', { request: { body: requestBody } });
    },
  });
  return generateText({
    model: wrapLanguageModel({
      model,
      middleware: guardrails({ input: [lateJudge(trips, done.promise)] }),
    }),
    prompt: PROMPT,
    include: { requestBody: true },
  });
}

describe('a parallel input trip does not hand on the request body (the prompt it blocked)', () => {
  it('generateText: result.request.body and the steps have no prompt', async () => {
    const result = await generateWithLateJudge(true);
    expect(result.text).toBe('Not allowed.');
    expect(result.finishReason).toBe('content-filter');
    expect(result.request.body).toBeUndefined();
    expect(JSON.stringify([result.request, result.steps.map(step => step.request)])).not.toContain(
      SECRET,
    );
  });

  it('generateText: a passing parallel guardrail keeps the request body', async () => {
    const result = await generateWithLateJudge(false);
    expect(result.text).toBe('Here it is.');
    expect(result.request.body).toEqual(requestBody);
  });

  for (const mode of ['hold', 'window', 'passthrough'] as const) {
    it(`streamText (${mode}): the request of the step has no prompt`, async () => {
      const done = signal();
      const model = new MockLanguageModelV4({
        doStream: async () => {
          setTimeout(done.open, 5);
          return { ...streamOf(textParts(['Here ', 'it is.'])), request: { body: requestBody } };
        },
      });
      const result = streamText({
        model: wrapLanguageModel({
          model,
          middleware: guardrails({ input: [lateJudge(true, done.promise)], stream: { mode } }),
        }),
        prompt: PROMPT,
        include: { requestBody: true },
      });
      const parts = await readAll(result.fullStream);
      expect(await result.text).toBe('Not allowed.');
      expect((await result.request).body).toBeUndefined();
      const steps = await result.steps;
      expect(JSON.stringify([parts, steps.map(step => step.request)])).not.toContain(SECRET);
    });
  }

  it('streamText: a passing parallel guardrail keeps the request body', async () => {
    const done = signal();
    const model = new MockLanguageModelV4({
      doStream: async () => {
        setTimeout(done.open, 5);
        return { ...streamOf(textParts(['Here ', 'it is.'])), request: { body: requestBody } };
      },
    });
    const result = streamText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({ input: [lateJudge(false, done.promise)] }),
      }),
      prompt: PROMPT,
      include: { requestBody: true },
    });
    await readAll(result.fullStream);
    expect(await result.text).toBe('Here it is.');
    expect((await result.request).body).toEqual(requestBody);
  });
});
