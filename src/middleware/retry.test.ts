import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  blockWord,
  generateResult,
  redactEmails,
  streamOf,
  textParts,
  withoutTiming,
} from '../../test/helpers';
import { captureSpans } from '../../test/tracing';
import { buildGuardrailsConfig } from '../config/load-guardrails-config';
import { allow, block, defineGuardrail } from '../core/define-guardrail';
import { GuardrailConfigError, GuardrailTripwireError } from '../core/errors';
import { NotShown } from '../core/redact-secrets';
import { outputSchema } from '../guards/output-schema/output-schema';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { tokenBudget } from '../guards/token-budget/token-budget';
import { urlFilter } from '../guards/url-filter/url-filter';
import { memoryStore } from '../store/memory-store';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { type GuardrailsOptions, guardrails } from './guardrails-middleware';
import { defaultRetryFeedback } from './retry';

/** A model whose n-th stream call streams `answers[n]` in two deltas (the last one again after that). */
function scriptedStreamModel(answers: string[]) {
  let calls = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const text = answers[Math.min(calls++, answers.length - 1)]!;
      const cut = Math.floor(text.length / 2);
      return streamOf(textParts([text.slice(0, cut), text.slice(cut)]));
    },
  });
}

/** A model whose n-th generate call answers `answers[n]` (the last one again after that). */
function scriptedModel(answers: string[]) {
  let calls = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => generateResult(answers[Math.min(calls++, answers.length - 1)]!),
    doStream: async () => streamOf(textParts([answers[0]!])),
  });
}

function guarded(mock: MockLanguageModelV4, options: GuardrailsOptions) {
  return wrapLanguageModel({ model: mock, middleware: guardrails(options) });
}

/** Role and texts of each message: what the retry sends, without provider fields. */
function shape(prompt: LanguageModelV4Prompt) {
  return prompt.map(message => ({
    role: message.role,
    texts:
      typeof message.content === 'string'
        ? [message.content]
        : message.content.flatMap(part => (part.type === 'text' ? [part.text] : [])),
  }));
}

const ACME_FEEDBACK = [
  'Your previous answer was blocked by the "block-acme" guardrail.',
  '- matched acme',
  '- "acme" is not allowed.',
  'Write a new answer to the request that follows this rule.',
].join('\n');

describe('retry (generate)', () => {
  it('asks again with the blocked answer and the feedback; the passing answer is returned', async () => {
    const mock = scriptedModel(['Buy Acme, it is great.', 'Our product is great.']);
    const events: [string, number | undefined][] = [];
    const result = await generateText({
      model: guarded(mock, {
        output: [blockWord('acme')],
        retry: { maxAttempts: 2 },
        onEvent: event => events.push([event.type, event.record.attempt]),
      }),
      prompt: 'What should I buy?',
    });
    expect(result.text).toBe('Our product is great.');
    expect(result.finishReason).toBe('stop');
    expect(mock.doGenerateCalls).toHaveLength(2);
    expect(shape(mock.doGenerateCalls[0]!.prompt)).toEqual([
      { role: 'user', texts: ['What should I buy?'] },
    ]);
    expect(shape(mock.doGenerateCalls[1]!.prompt)).toEqual([
      { role: 'user', texts: ['What should I buy?'] },
      { role: 'assistant', texts: ['Buy Acme, it is great.'] },
      { role: 'user', texts: [ACME_FEEDBACK] },
    ]);
    // Usage is the sum of both calls (10 + 10 in, 20 + 20 out).
    expect(result.usage.inputTokens).toBe(20);
    expect(result.usage.outputTokens).toBe(40);
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('passed');
    expect(withoutTiming(outcome?.records)).toEqual([
      {
        guardrail: 'block-acme',
        kind: 'output',
        status: 'blocked',
        message: '"acme" is not allowed.',
        reason: 'matched acme',
        severity: 'critical',
        attempt: 1,
      },
      { guardrail: 'block-acme', kind: 'output', status: 'passed', attempt: 2 },
    ]);
    expect(events).toEqual([
      ['guardrail.blocked', 1],
      ['guardrail.passed', 2],
    ]);
  });

  it('leaves the answer out when a guardrail hid a value of it; the feedback never holds the value', async () => {
    const mock = scriptedModel(['Mail bob@example.com at Acme.', 'Ask our support team.']);
    const result = await generateText({
      model: guarded(mock, {
        output: [redactEmails(), blockWord('acme')],
        retry: { maxAttempts: 1 },
      }),
      prompt: 'Who do I contact?',
    });
    expect(result.text).toBe('Ask our support team.');
    expect(shape(mock.doGenerateCalls[1]!.prompt)).toEqual([
      { role: 'user', texts: ['Who do I contact?'] },
      { role: 'user', texts: [ACME_FEEDBACK] },
    ]);
    expect(JSON.stringify(mock.doGenerateCalls[1]!.prompt)).not.toContain('bob@example.com');
    expect(
      withoutTiming((await getGuardrailOutcome(result))?.records).map(r => [
        r.guardrail,
        r.status,
        r.attempt,
      ]),
    ).toEqual([
      ['redact-email', 'modified', 1],
      ['block-acme', 'blocked', 1],
      ['redact-email', 'passed', 2],
      ['block-acme', 'passed', 2],
    ]);
  });

  it('repairs an answer outputSchema rejected: the feedback names the path and the issue', async () => {
    const mock = scriptedModel(['{"name":"Ada","age":"old"}', '{"name":"Ada","age":36}']);
    const result = await generateText({
      model: guarded(mock, {
        output: [outputSchema({ schema: z.object({ name: z.string(), age: z.number() }) })],
        retry: { maxAttempts: 1 },
      }),
      prompt: 'Ada as JSON',
    });
    expect(result.text).toBe('{"name":"Ada","age":36}');
    expect(shape(mock.doGenerateCalls[1]!.prompt)).toEqual([
      { role: 'user', texts: ['Ada as JSON'] },
      { role: 'assistant', texts: ['{"name":"Ada","age":"old"}'] },
      {
        role: 'user',
        texts: [
          [
            'Your previous answer was blocked by the "output-schema" guardrail.',
            '- answer does not match the schema at "age": Invalid input: expected number, received string',
            '- The answer did not have the expected format.',
            'Write a new answer to the request that follows this rule.',
          ].join('\n'),
        ],
      },
    ]);
  });

  it('retries a tool-calling answer whose text tripped; the retry prompt holds only its text', async () => {
    let calls = 0;
    const mock = new MockLanguageModelV4({
      doGenerate: async () =>
        calls++ === 0
          ? generateResult([
              { type: 'text', text: 'Checking Acme.' },
              { type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: '{}' },
            ])
          : generateResult('Checking.'),
    });
    const model = guarded(mock, { output: [blockWord('acme')], retry: { maxAttempts: 1 } });
    const result = await model.doGenerate({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
    expect(result.content).toEqual([{ type: 'text', text: 'Checking.' }]);
    expect(shape(mock.doGenerateCalls[1]!.prompt)).toEqual([
      { role: 'user', texts: ['Hi'] },
      { role: 'assistant', texts: ['Checking Acme.'] },
      { role: 'user', texts: [ACME_FEEDBACK] },
    ]);
  });

  it("the tool calls of each attempt are judged under its number, as its output is (toolCalls' records carry attempt)", async () => {
    let calls = 0;
    const mock = new MockLanguageModelV4({
      doGenerate: async () =>
        generateResult(
          [
            { type: 'text', text: calls === 0 ? 'Mailing Acme.' : 'Mailing them.' },
            {
              type: 'tool-call',
              toolCallId: `c${++calls}`,
              toolName: 'mail',
              input: JSON.stringify({ to: 'jane@example.com' }),
            },
          ],
          { finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
        ),
    });
    const result = await generateText({
      model: guarded(mock, {
        output: [blockWord('acme')],
        toolCalls: [redactEmails()],
        retry: { maxAttempts: 1 },
      }),
      prompt: 'Mail them',
    });
    expect(result.toolCalls.map(call => [call.toolCallId, call.input])).toEqual([
      ['c2', { to: '[EMAIL]' }],
    ]);
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      {
        guardrail: 'redact-email',
        kind: 'tool_input',
        status: 'modified',
        toolName: 'mail',
        toolCallId: 'c1',
        info: { count: 1 },
        attempt: 1,
      },
      {
        guardrail: 'block-acme',
        kind: 'output',
        status: 'blocked',
        message: '"acme" is not allowed.',
        reason: 'matched acme',
        severity: 'critical',
        attempt: 1,
      },
      {
        guardrail: 'redact-email',
        kind: 'tool_input',
        status: 'modified',
        toolName: 'mail',
        toolCallId: 'c2',
        info: { count: 1 },
        attempt: 2,
      },
      { guardrail: 'block-acme', kind: 'output', status: 'passed', attempt: 2 },
    ]);
  });

  it('a dropped call to a removed tool is recorded under the attempt that made it', async () => {
    let calls = 0;
    const mock = new MockLanguageModelV4({
      doGenerate: async () =>
        generateResult(
          [
            { type: 'text', text: calls++ === 0 ? 'Saving Acme.' : 'Saving.' },
            { type: 'tool-call', toolCallId: `n${calls}`, toolName: 'notes', input: '{}' },
          ],
          { finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
        ),
    });
    const noNotes = defineGuardrail({
      name: 'no-notes',
      check: (content: string) =>
        content.startsWith('notes') ? block({ reason: 'notes' }) : allow(),
    });
    const result = await generateText({
      model: guarded(mock, {
        output: [blockWord('acme')],
        toolDefinitions: [noNotes],
        retry: { maxAttempts: 1 },
      }),
      tools: {
        notes: {
          description: 'Save a note.',
          inputSchema: z.object({}),
          execute: async () => 'saved',
        },
      },
      prompt: 'Save it',
    });
    expect(
      withoutTiming((await getGuardrailOutcome(result))?.records).map(r => [
        r.guardrail,
        r.status,
        r.attempt,
      ]),
    ).toEqual([
      ['no-notes', 'blocked', undefined],
      ['removed-tool-call', 'blocked', 1],
      ['block-acme', 'blocked', 1],
      ['removed-tool-call', 'blocked', 2],
      ['block-acme', 'passed', 2],
    ]);
  });

  it("a provider-executed tool's result in each attempt is judged under its number (toolOutputs' records carry attempt)", async () => {
    let calls = 0;
    const mock = new MockLanguageModelV4({
      doGenerate: async () =>
        generateResult([
          {
            type: 'tool-call',
            toolCallId: `s${++calls}`,
            toolName: 'web_search',
            input: '{}',
            providerExecuted: true,
          },
          {
            type: 'tool-result',
            toolCallId: `s${calls}`,
            toolName: 'web_search',
            result: `Contact jane${calls}@example.com`,
          },
          { type: 'text', text: calls === 1 ? 'Ask Acme.' : 'Ask them.' },
        ]),
    });
    const result = await generateText({
      model: guarded(mock, {
        output: [blockWord('acme')],
        toolOutputs: [redactEmails()],
        retry: { maxAttempts: 1 },
      }),
      prompt: 'Who to ask?',
    });
    expect(result.text).toBe('Ask them.');
    expect(
      withoutTiming((await getGuardrailOutcome(result))?.records).map(r => [
        r.guardrail,
        r.kind,
        r.status,
        r.attempt,
      ]),
    ).toEqual([
      ['redact-email', 'tool_output', 'modified', 1],
      ['block-acme', 'output', 'blocked', 1],
      ['redact-email', 'tool_output', 'modified', 2],
      ['block-acme', 'output', 'passed', 2],
    ]);
  });

  it('a retry call that fails ends the call as the trip it retried', async () => {
    let calls = 0;
    const mock = new MockLanguageModelV4({
      doGenerate: async () => {
        if (calls++ > 0) throw new Error('provider down');
        return generateResult('Acme.');
      },
    });
    const result = await generateText({
      model: guarded(mock, { output: [blockWord('acme')], retry: { maxAttempts: 2 } }),
      prompt: 'Hi',
      maxRetries: 0,
    });
    expect(mock.doGenerateCalls).toHaveLength(2);
    expect(result.text).toBe('"acme" is not allowed.');
    expect(result.finishReason).toBe('content-filter');
    expect(result.usage.outputTokens).toBe(20);
  });

  it('a caller abort during the judging of an answer rejects with the abort; no retry is made', async () => {
    const controller = new AbortController();
    const abortingBlock = defineGuardrail({
      name: 'aborting-block',
      check: () => {
        controller.abort(new Error('user left'));
        return block('no');
      },
    });
    const mock = scriptedModel(['first', 'second']);
    const error = await generateText({
      model: guarded(mock, { output: [abortingBlock], retry: { maxAttempts: 2 } }),
      prompt: 'Hi',
      abortSignal: controller.signal,
    }).catch(e => e);
    expect(error).toEqual(new Error('user left'));
    expect(mock.doGenerateCalls).toHaveLength(1);
  });

  it('uses the feedback option for the user message', async () => {
    const mock = scriptedModel(['Acme.', 'Fine.']);
    await generateText({
      model: guarded(mock, {
        output: [blockWord('acme')],
        retry: { maxAttempts: 1, feedback: record => `Do not trip ${record.guardrail}.` },
      }),
      prompt: 'Hi',
    });
    expect(shape(mock.doGenerateCalls[1]!.prompt).at(-1)).toEqual({
      role: 'user',
      texts: ['Do not trip block-acme.'],
    });
  });

  it('after every attempt tripped, ends as a trip with every attempt recorded and usage summed', async () => {
    const mock = scriptedModel(['Acme.']);
    const result = await generateText({
      model: guarded(mock, { output: [blockWord('acme')], retry: { maxAttempts: 2 } }),
      prompt: 'Hi',
    });
    expect(mock.doGenerateCalls).toHaveLength(3);
    expect(result.text).toBe('"acme" is not allowed.');
    expect(result.finishReason).toBe('content-filter');
    expect(result.usage.inputTokens).toBe(30);
    expect(result.usage.outputTokens).toBe(60);
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('blocked');
    expect(outcome?.records.map(r => [r.status, r.attempt])).toEqual([
      ['blocked', 1],
      ['blocked', 2],
      ['blocked', 3],
    ]);
  });

  it("onTrip 'throw': the error carries every attempt's records", async () => {
    const mock = scriptedModel(['Acme.']);
    const error = await generateText({
      model: guarded(mock, {
        output: [blockWord('acme')],
        retry: { maxAttempts: 1 },
        onTrip: 'throw',
      }),
      prompt: 'Hi',
    }).catch(e => e);
    expect(GuardrailTripwireError.isInstance(error)).toBe(true);
    expect(mock.doGenerateCalls).toHaveLength(2);
    expect(error.record.attempt).toBe(2);
    expect(error.records.map((r: { attempt?: number }) => r.attempt)).toEqual([1, 2]);
  });

  it('never retries an input trip', async () => {
    const mock = scriptedModel(['never']);
    const result = await generateText({
      model: guarded(mock, { input: [blockWord('bomb')], retry: { maxAttempts: 3 } }),
      prompt: 'a bomb',
    });
    expect(mock.doGenerateCalls).toHaveLength(0);
    expect(result.text).toBe('"bomb" is not allowed.');
  });

  it('never retries a retryable:false guardrail or verdict, nor a failed-closed error', async () => {
    const noRetryGuardrail = defineGuardrail({
      name: 'no-retry',
      retryable: false,
      check: text => (text.includes('x') ? block('no x') : allow()),
    });
    const noRetryVerdict = defineGuardrail({
      name: 'no-retry-verdict',
      check: text => (text.includes('x') ? block({ message: 'no x', retryable: false }) : allow()),
    });
    const broken = defineGuardrail({
      name: 'broken',
      check: () => {
        throw new Error('down');
      },
    });
    for (const guardrail of [noRetryGuardrail, noRetryVerdict, broken]) {
      const mock = scriptedModel(['x', 'fine']);
      const result = await generateText({
        model: guarded(mock, { output: [guardrail], retry: { maxAttempts: 2 } }),
        prompt: 'Hi',
      });
      expect(mock.doGenerateCalls).toHaveLength(1);
      expect(result.finishReason).toBe('content-filter');
    }
    expect(noRetryVerdict.retryable).toBeUndefined();
  });

  it('secrets blocks are not retried: the credential is never shown to the model again', async () => {
    expect(secrets().retryable).toBe(false);
    const token = `ghp_${'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5'}`;
    const mock = scriptedModel([`Use ${token}`, 'fine']);
    const result = await generateText({
      model: guarded(mock, { output: [secrets()], retry: { maxAttempts: 2 } }),
      prompt: 'Hi',
    });
    expect(result.finishReason).toBe('content-filter');
    expect(mock.doGenerateCalls).toHaveLength(1);
  });

  it("pii and urlFilter blocks are retried with the feedback only ('without-answer'): the value never goes back", async () => {
    expect(pii().retryable).toBe('without-answer');
    const cases = [
      [
        pii({ action: 'block' }),
        'Write to canary.person@example.com.',
        'canary.person@example.com',
      ],
      [
        urlFilter({ allow: ['docs.example.com'] }),
        'See https://files.example.net/dl?token=TokCanary7Hq2 now.',
        'TokCanary7Hq2',
      ],
    ] as const;
    for (const [guardrail, answer, value] of cases) {
      const mock = scriptedModel([answer, 'Ask support.']);
      const result = await generateText({
        model: guarded(mock, { output: [guardrail], retry: { maxAttempts: 1 } }),
        prompt: 'Who?',
      });
      expect(result.text).toBe('Ask support.');
      const sent = shape(mock.doGenerateCalls[1]!.prompt);
      expect(sent.map(message => message.role)).toEqual(['user', 'user']);
      expect(sent[1]!.texts[0]).toMatch(/^Your previous answer was blocked by the "/);
      expect(JSON.stringify(mock.doGenerateCalls[1]!.prompt)).not.toContain(value);
    }
  });

  it("a verdict's retryable: 'without-answer' sends the feedback only", async () => {
    const mock = scriptedModel(['x marks it', 'fine']);
    const guardrail = defineGuardrail({
      name: 'no-x',
      check: text =>
        text.includes('x') ? block({ reason: 'has x', retryable: 'without-answer' }) : allow(),
    });
    await generateText({
      model: guarded(mock, { output: [guardrail], retry: { maxAttempts: 1 } }),
      prompt: 'Hi',
    });
    expect(shape(mock.doGenerateCalls[1]!.prompt)).toEqual([
      { role: 'user', texts: ['Hi'] },
      {
        role: 'user',
        texts: [
          'Your previous answer was blocked by the "no-x" guardrail.\n- has x\nWrite a new answer to the request that follows this rule.',
        ],
      },
    ]);
  });

  it('a feedback option that returns no string is a config error', async () => {
    const mock = scriptedModel(['Acme.']);
    const error = await generateText({
      model: guarded(mock, {
        output: [blockWord('acme')],
        retry: { maxAttempts: 1, feedback: (() => 5) as never },
      }),
      prompt: 'Hi',
    }).catch(e => e);
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    expect(error.issues[0].path).toBe('retry.feedback');
  });
});

describe('retry (hold stream)', () => {
  it('streams again after a trip; only the passing answer reaches the consumer', async () => {
    const mock = scriptedStreamModel(['Buy Acme, it is great.', 'Our product is great.']);
    const events: [string, number | undefined][] = [];
    const result = streamText({
      model: guarded(mock, {
        output: [blockWord('acme')],
        retry: { maxAttempts: 2 },
        onEvent: event => events.push([event.type, event.record.attempt]),
      }),
      prompt: 'What should I buy?',
    });
    const chunks: string[] = [];
    for await (const chunk of result.textStream) chunks.push(chunk);
    expect(chunks.join('')).toBe('Our product is great.');
    expect(await result.finishReason).toBe('stop');
    expect(mock.doStreamCalls).toHaveLength(2);
    expect(shape(mock.doStreamCalls[1]!.prompt)).toEqual([
      { role: 'user', texts: ['What should I buy?'] },
      { role: 'assistant', texts: ['Buy Acme, it is great.'] },
      { role: 'user', texts: [ACME_FEEDBACK] },
    ]);
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(20);
    expect(usage.outputTokens).toBe(40);
    expect(
      withoutTiming((await getGuardrailOutcome(result))?.records).map(r => [r.status, r.attempt]),
    ).toEqual([
      ['blocked', 1],
      ['passed', 2],
    ]);
    expect(events).toEqual([
      ['guardrail.blocked', 1],
      ['guardrail.passed', 2],
    ]);
  });

  it("the tool calls of each attempt are judged under its number (toolCalls' records carry attempt)", async () => {
    let calls = 0;
    const mock = new MockLanguageModelV4({
      doStream: async () =>
        streamOf(
          [
            ...textParts([calls === 0 ? 'Mailing Acme.' : 'Mailing them.']),
            {
              type: 'tool-call',
              toolCallId: `c${++calls}`,
              toolName: 'mail',
              input: JSON.stringify({ to: 'jane@example.com' }),
            },
          ],
          { finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
        ),
    });
    const result = streamText({
      model: guarded(mock, {
        output: [blockWord('acme')],
        toolCalls: [redactEmails()],
        retry: { maxAttempts: 1 },
      }),
      prompt: 'Mail them',
    });
    await result.consumeStream();
    expect((await result.toolCalls).map(call => [call.toolCallId, call.input])).toEqual([
      ['c2', { to: '[EMAIL]' }],
    ]);
    expect(
      withoutTiming((await getGuardrailOutcome(result))?.records).map(r => [
        r.guardrail,
        r.status,
        r.toolCallId,
        r.attempt,
      ]),
    ).toEqual([
      ['redact-email', 'modified', 'c1', 1],
      ['block-acme', 'blocked', undefined, 1],
      ['redact-email', 'modified', 'c2', 2],
      ['block-acme', 'passed', undefined, 2],
    ]);
  });

  it('after every attempt tripped, streams the blocked message with summed usage', async () => {
    const mock = scriptedStreamModel(['Acme rocks.']);
    const result = streamText({
      model: guarded(mock, { output: [blockWord('acme')], retry: { maxAttempts: 1 } }),
      prompt: 'Hi',
    });
    expect(await result.text).toBe('"acme" is not allowed.');
    expect(await result.finishReason).toBe('content-filter');
    expect(mock.doStreamCalls).toHaveLength(2);
    expect((await result.usage).outputTokens).toBe(40);
    expect((await getGuardrailOutcome(result))?.records.map(r => [r.status, r.attempt])).toEqual([
      ['blocked', 1],
      ['blocked', 2],
    ]);
  });

  it("onTrip 'throw': the stream's error carries every attempt's records", async () => {
    const mock = scriptedStreamModel(['Acme rocks.']);
    const errors: unknown[] = [];
    const result = streamText({
      model: guarded(mock, {
        output: [blockWord('acme')],
        retry: { maxAttempts: 1 },
        onTrip: 'throw',
      }),
      prompt: 'Hi',
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    expect(await result.text).toBe('');
    expect(mock.doStreamCalls).toHaveLength(2);
    expect(errors).toHaveLength(1);
    const error = errors[0] as GuardrailTripwireError;
    expect(GuardrailTripwireError.isInstance(error)).toBe(true);
    expect(error.records.map(r => [r.status, r.attempt])).toEqual([
      ['blocked', 1],
      ['blocked', 2],
    ]);
  });

  it('never retries an input trip or a secrets block in a stream', async () => {
    const token = `ghp_${'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5'}`;
    const leaky = scriptedStreamModel([`Use ${token} now`, 'fine']);
    const leakyResult = streamText({
      model: guarded(leaky, { output: [secrets()], retry: { maxAttempts: 2 } }),
      prompt: 'Hi',
    });
    expect(await leakyResult.finishReason).toBe('content-filter');
    expect(await leakyResult.text).not.toContain(token);
    expect(leaky.doStreamCalls).toHaveLength(1);

    const blocked = scriptedStreamModel(['never']);
    const blockedResult = streamText({
      model: guarded(blocked, { input: [blockWord('bomb')], retry: { maxAttempts: 2 } }),
      prompt: 'a bomb',
    });
    expect(await blockedResult.text).toBe('"bomb" is not allowed.');
    expect(blocked.doStreamCalls).toHaveLength(0);
  });

  it('leaves out an answer a guardrail modified', async () => {
    const mock = scriptedStreamModel(['Mail bob@example.com at Acme.', 'Ask support.']);
    const result = streamText({
      model: guarded(mock, {
        output: [redactEmails(), blockWord('acme')],
        retry: { maxAttempts: 1 },
      }),
      prompt: 'Who?',
    });
    expect(await result.text).toBe('Ask support.');
    expect(shape(mock.doStreamCalls[1]!.prompt)).toEqual([
      { role: 'user', texts: ['Who?'] },
      { role: 'user', texts: [ACME_FEEDBACK] },
    ]);
  });
});

describe('retry and per-call guardrails', () => {
  it.each(['generate', 'stream'] as const)(
    'a session token budget is charged for every attempt (%s)',
    async how => {
      const store = memoryStore();
      const budget = tokenBudget({ perSession: { maxTokens: 10_000 }, store });
      const mock =
        how === 'generate'
          ? scriptedModel(['Acme.', 'Fine.'])
          : scriptedStreamModel(['Acme.', 'Fine.']);
      const options = {
        model: guarded(mock, {
          input: [budget],
          output: [budget, blockWord('acme')],
          retry: { maxAttempts: 1 },
        }),
        prompt: 'Hi',
        maxOutputTokens: 2_000,
        providerOptions: { guardrails: { sessionId: 's1' } },
      };
      const text =
        how === 'generate' ? (await generateText(options)).text : await streamText(options).text;
      expect(text).toBe('Fine.');
      // Each call reported 10 input + 20 output tokens: two calls cost 60, not 30.
      expect(await store.get('token-budget:session:s1')).toBe('60');
    },
  );
});

describe('retry and telemetry', () => {
  const exporter = new InMemorySpanExporter();
  captureSpans(exporter);

  it('each guardrail span carries its attempt', async () => {
    const mock = scriptedModel(['Acme.', 'Fine.']);
    await generateText({
      model: guarded(mock, { output: [blockWord('acme')], retry: { maxAttempts: 1 } }),
      prompt: 'Hi',
    });
    expect(
      exporter
        .getFinishedSpans()
        .filter(span => span.attributes['ai_guardrails.guardrail.name'] === 'block-acme')
        .map(span => [
          span.attributes['ai_guardrails.status'],
          span.attributes['ai_guardrails.attempt'],
        ]),
    ).toEqual([
      ['blocked', 1],
      ['passed', 2],
    ]);
  });
});

describe('retry in a config file', () => {
  it('retry.max_attempts sets the extra calls; a feedback function comes from the loader options', async () => {
    const mock = scriptedModel(['Acme inside.', 'Acme again.', 'Fine.']);
    const { middleware } = buildGuardrailsConfig(
      { output: [{ type: 'content-filter', blocklist: ['acme'] }], retry: { max_attempts: 2 } },
      {
        middleware: {
          retry: { maxAttempts: 1, feedback: r => `Avoid what ${r.guardrail} blocks.` },
        },
      },
    );
    const result = await generateText({
      model: wrapLanguageModel({ model: mock, middleware }),
      prompt: 'Hi',
    });
    expect(result.text).toBe('Fine.');
    expect(mock.doGenerateCalls).toHaveLength(3);
    expect(shape(mock.doGenerateCalls[2]!.prompt).at(-1)?.texts[0]).toMatch(
      /^Avoid what .+ blocks\.$/,
    );
  });

  it('a bad max_attempts and retry with stream_mode window are config errors', () => {
    for (const [config, path] of [
      [{ retry: { max_attempts: 0 } }, 'retry.max_attempts'],
      [{ retry: { tries: 1 } }, 'retry.tries'],
      [
        {
          output: [{ type: 'content-filter', blocklist: ['a'] }],
          stream_mode: 'window',
          retry: { max_attempts: 1 },
        },
        'retry',
      ],
    ] as const) {
      let error: unknown;
      try {
        buildGuardrailsConfig(config as never);
      } catch (e) {
        error = e;
      }
      expect(GuardrailConfigError.isInstance(error)).toBe(true);
      expect((error as GuardrailConfigError).issues.map(issue => issue.path)).toContain(path);
    }
  });
});

describe('retry options', () => {
  it.each(['window', 'passthrough'] as const)('stream mode %s rejects retry', mode => {
    const error = (() => {
      try {
        guardrails({ output: [blockWord('acme')], stream: { mode }, retry: { maxAttempts: 1 } });
      } catch (e) {
        return e;
      }
    })() as GuardrailConfigError;
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    expect(error.issues).toEqual([
      {
        path: 'retry',
        value: new NotShown(`stream mode '${mode}'`),
        expected: `stream mode 'hold' with retry: '${mode}' releases text before the answer is judged, so a tripped answer cannot be replaced by a retry`,
      },
    ]);
  });

  it('maxAttempts must be an integer from 1 to 10, and is required', () => {
    for (const retry of [{ maxAttempts: 0 }, { maxAttempts: 11 }, { maxAttempts: 1.5 }, {}]) {
      expect(() => guardrails({ output: [blockWord('acme')], retry: retry as never })).toThrow(
        /retry\.maxAttempts: expected an integer from 1 to 10/,
      );
    }
  });

  it('the default feedback names the guardrail, its reason and message only', () => {
    expect(
      defaultRetryFeedback({
        guardrail: 'url-filter',
        kind: 'output',
        status: 'blocked',
        reason: 'host not allowed',
        durationMs: 1,
        info: { host: 'evil.example' },
      }),
    ).toBe(
      'Your previous answer was blocked by the "url-filter" guardrail.\n- host not allowed\nWrite a new answer to the request that follows this rule.',
    );
  });
});
