import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { blockWord, generateResult, readAll, streamOf } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { type GuardrailsOptions, guardrails } from './guardrails-middleware';

const BLOCKED = 'Buy Acme, it is great.';
const CARD = '4111 1111 1111 1111';

/** What a provider hands back per call: the body, logprobs and a part's metadata all quote the answer. */
const logprobsOf = (text: string, n: number) => ({
  openai: { responseId: `resp_${n}`, logprobs: [{ token: text, logprob: -0.1 }] },
});
const partMeta = (text: string) => ({ openai: { itemId: 'msg_1', annotationText: text } });
const promptText = (options: LanguageModelV4CallOptions) => JSON.stringify(options.prompt);

/** A model whose n-th generate call answers `answers[n]`, with the provider's data of that answer. */
function scriptedModel(answers: string[]) {
  let calls = 0;
  return new MockLanguageModelV4({
    doGenerate: async options => {
      const n = Math.min(calls++, answers.length - 1);
      const text = answers[n]!;
      return generateResult([{ type: 'text', text, providerMetadata: partMeta(text) }], {
        request: { body: { prompt: promptText(options) } },
        response: { id: `r${n}`, body: { content: text } },
        providerMetadata: logprobsOf(text, n),
      });
    },
  });
}

function scriptedStreamModel(answers: string[]) {
  let calls = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const n = Math.min(calls++, answers.length - 1);
      const text = answers[n]!;
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'text-start', id: 't1', providerMetadata: partMeta(text) },
        { type: 'text-delta', id: 't1', delta: text },
        { type: 'text-end', id: 't1' },
      ];
      return streamOf(parts, { providerMetadata: logprobsOf(text, n) });
    },
  });
}

const options = (extra: Partial<GuardrailsOptions> = {}): GuardrailsOptions => ({
  output: [blockWord('acme'), pii({ action: 'redact' })],
  retry: { maxAttempts: 2 },
  ...extra,
});

async function generated(answers: string[]) {
  const result = await generateText({
    model: wrapLanguageModel({ model: scriptedModel(answers), middleware: guardrails(options()) }),
    prompt: 'What should I buy?',
    include: { requestBody: true, responseBody: true },
  });
  const json = JSON.stringify([
    result.request,
    result.response,
    result.steps,
    result.providerMetadata,
  ]);
  return { result, json };
}

describe('retry: the provider data is the returned attempt’s (generateText)', () => {
  it('a blocked then passing answer keeps the passing attempt’s body, logprobs and part metadata', async () => {
    const { result, json } = await generated([BLOCKED, 'Our product is great.']);
    expect(result.text).toBe('Our product is great.');
    expect(result.response.id).toBe('r1');
    expect(result.response.body).toEqual({ content: 'Our product is great.' });
    expect(result.providerMetadata?.openai).toEqual(logprobsOf('Our product is great.', 1).openai);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'Our product is great.',
        providerMetadata: partMeta('Our product is great.'),
      },
    ]);
    // The retry's request sent the blocked answer back with the feedback: its body goes.
    expect(result.request.body).toBeUndefined();
    expect(json).not.toContain('Buy Acme');
  });

  it('a blocked then redacted answer keeps none of the second attempt’s provider data', async () => {
    const { result, json } = await generated([BLOCKED, `Pay with ${CARD}.`]);
    expect(result.text).toBe('Pay with [CREDIT_CARD].');
    expect(result.response.id).toMatch(/^aitxt-/);
    expect(result.response.body).toBeUndefined();
    expect(result.providerMetadata?.openai).toEqual({});
    expect(result.content).toEqual([{ type: 'text', text: 'Pay with [CREDIT_CARD].' }]);
    expect(json).not.toContain(CARD);
    expect(json).not.toContain('Buy Acme');
  });

  it('every attempt blocked: the blocked result carries none of the last attempt’s data, nor its id', async () => {
    const { result, json } = await generated([BLOCKED, 'Acme again.']);
    expect(result.finishReason).toBe('content-filter');
    expect(result.response.id).toMatch(/^aitxt-/);
    expect(result.response.body).toBeUndefined();
    expect(result.request.body).toBeUndefined();
    expect(result.providerMetadata?.openai).toEqual({});
    expect(json).not.toContain('Buy Acme');
    expect(json).not.toContain('Acme again');
  });
});

describe('retry: the provider data is the returned attempt’s (streamText, hold)', () => {
  async function streamed(answers: string[]) {
    const result = streamText({
      model: wrapLanguageModel({
        model: scriptedStreamModel(answers),
        middleware: guardrails(options()),
      }),
      prompt: 'What should I buy?',
    });
    const parts = await readAll(result.fullStream);
    return {
      text: await result.text,
      openai: (await result.providerMetadata)?.openai,
      content: await result.content,
      json: JSON.stringify(parts),
    };
  }

  it('a blocked then passing answer keeps the passing attempt’s logprobs and part metadata', async () => {
    const out = await streamed([BLOCKED, 'Our product is great.']);
    expect(out.text).toBe('Our product is great.');
    expect(out.openai).toEqual(logprobsOf('Our product is great.', 1).openai);
    expect(out.content).toEqual([
      {
        type: 'text',
        text: 'Our product is great.',
        providerMetadata: partMeta('Our product is great.'),
      },
    ]);
    expect(out.json).not.toContain('Buy Acme');
  });

  it('a blocked then redacted answer keeps none of them', async () => {
    const out = await streamed([BLOCKED, `Pay with ${CARD}.`]);
    expect(out.text).toBe('Pay with [CREDIT_CARD].');
    expect(out.openai).toEqual({});
    expect(out.content).toEqual([{ type: 'text', text: 'Pay with [CREDIT_CARD].' }]);
    expect(out.json).not.toContain(CARD);
  });
});
