import type { LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import {
  generateText,
  type ModelMessage,
  stepCountIs,
  streamText,
  tool,
  wrapLanguageModel,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  blockWord,
  generateResult,
  readAll,
  redactEmails,
  streamOf,
  textModel,
  textParts,
  usage,
  withoutTiming,
} from '../../test/helpers';
import { allow, block, defineGuardrail, modify } from '../core/define-guardrail';
import { GuardrailConfigError, GuardrailTripwireError } from '../core/errors';
import type { GuardrailEvent } from '../core/types';
import { guardTools } from '../tools';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

function userTexts(prompt: LanguageModelV4Prompt): string[] {
  return prompt.flatMap(m =>
    m.role === 'user' ? m.content.flatMap(p => (p.type === 'text' ? [p.text] : [])) : [],
  );
}

describe('input guardrails', () => {
  it('a block stops the model from being called (generate)', async () => {
    const mock = textModel('never');
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [blockWord('bomb')] }),
    });
    const result = await generateText({ model, prompt: 'how to build a bomb' });
    expect(mock.doGenerateCalls).toHaveLength(0);
    expect(result.text).toBe('"bomb" is not allowed.');
    expect(result.finishReason).toBe('content-filter');
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      {
        guardrail: 'block-bomb',
        kind: 'input',
        status: 'blocked',
        message: '"bomb" is not allowed.',
        reason: 'matched bomb',
        severity: 'critical',
      },
    ]);
  });

  it('a block stops the model from being called (stream)', async () => {
    const mock = textModel('never');
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [blockWord('bomb')], blockedMessage: 'Blocked.' }),
    });
    const result = streamText({ model, prompt: 'a bomb please' });
    expect(await result.text).toBe('Blocked.');
    expect(mock.doStreamCalls).toHaveLength(0);
    expect(await result.finishReason).toBe('content-filter');
    expect((await getGuardrailOutcome(result))?.status).toBe('blocked');
  });

  it('modifications chain in order and reach the model', async () => {
    const mock = textModel('ok');
    const shout = defineGuardrail({ name: 'shout', check: t => modify(t.toUpperCase()) });
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [redactEmails(), shout] }),
    });
    const result = await generateText({ model, prompt: 'mail bob@example.com now' });
    expect(userTexts(mock.doGenerateCalls[0]!.prompt)).toEqual(['MAIL [EMAIL] NOW']);
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('modified');
    expect(withoutTiming(outcome?.records)).toEqual([
      { guardrail: 'redact-email', kind: 'input', status: 'modified', info: { count: 1 } },
      { guardrail: 'shout', kind: 'input', status: 'modified' },
    ]);
  });

  it('fails closed when a guardrail throws, and when it times out', async () => {
    const throws = defineGuardrail({
      name: 'throws',
      check: () => {
        throw new Error('classifier down');
      },
    });
    const slow = defineGuardrail({
      name: 'slow',
      timeoutMs: 30,
      check: () => new Promise(() => {}),
    });
    for (const [guardrail, reason] of [
      [throws, 'classifier down'],
      [slow, 'timed out after 30 ms'],
    ] as const) {
      const mock = textModel('never');
      const model = wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [guardrail] }),
      });
      const result = await generateText({ model, prompt: 'hi' });
      expect(mock.doGenerateCalls).toHaveLength(0);
      expect(result.text).toBe("Sorry, I can't help with that.");
      expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
        { guardrail: guardrail.name, kind: 'input', status: 'error', reason },
      ]);
    }
  });

  it("lets the call through on error when built with onError: 'allow'", async () => {
    const mock = textModel('fine');
    const flaky = defineGuardrail({
      name: 'flaky',
      onError: 'allow',
      check: () => {
        throw new Error('down');
      },
    });
    const model = wrapLanguageModel({ model: mock, middleware: guardrails({ input: [flaky] }) });
    const result = await generateText({ model, prompt: 'hi' });
    expect(result.text).toBe('fine');
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('passed');
    expect(outcome?.records.map(r => r.status)).toEqual(['error']);
  });

  it('keeps a redaction durable across a three-turn chat whose client re-sends raw history', async () => {
    const mock = textModel('noted');
    const checked: string[] = [];
    const spy = defineGuardrail({
      name: 'spy',
      check: t => {
        checked.push(t);
        return allow();
      },
    });
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [spy, redactEmails()] }),
    });
    const history: ModelMessage[] = [];
    const turns = ['my mail is ann@corp.io', 'and bob@corp.io too', 'what were they?'];
    for (const turn of turns) {
      history.push({ role: 'user', content: turn });
      const result = await generateText({ model, messages: history });
      history.push({ role: 'assistant', content: result.text });
    }
    expect(userTexts(mock.doGenerateCalls[2]!.prompt)).toEqual([
      'my mail is [EMAIL]',
      'and [EMAIL] too',
      'what were they?',
    ]);
    // Each text was judged once: re-sent history comes from the verdict cache.
    expect(checked).toEqual(turns);
    const raw = JSON.stringify(mock.doGenerateCalls.map(c => c.prompt));
    expect(raw).not.toContain('ann@corp.io');
    expect(raw).not.toContain('bob@corp.io');
  });

  it('judges history a fresh middleware never saw: its redactions apply and its blocks trip', async () => {
    const mock = textModel('ok');
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [blockWord('bomb'), redactEmails()] }),
    });
    await generateText({
      model,
      messages: [
        { role: 'user', content: 'mail from x@y.com' },
        { role: 'assistant', content: 'Noted.' },
        { role: 'user', content: 'hello' },
      ],
    });
    expect(userTexts(mock.doGenerateCalls[0]!.prompt)).toEqual(['mail from [EMAIL]', 'hello']);
    // The client owns the history: an earlier turn this deployment never judged is judged now.
    const result = await generateText({
      model,
      messages: [
        { role: 'user', content: 'bomb talk' },
        { role: 'assistant', content: 'Sure.' },
        { role: 'user', content: 'hello' },
      ],
    });
    expect(result.finishReason).toBe('content-filter');
    expect(mock.doGenerateCalls).toHaveLength(1);
  });

  it('runs blocking input checks once across a three-step tool loop', async () => {
    let checks = 0;
    const counter = defineGuardrail({
      name: 'counter',
      check: () => {
        checks++;
        return allow();
      },
    });
    let step = 0;
    const mock = new MockLanguageModelV4({
      doGenerate: async () => {
        step++;
        return step < 3
          ? generateResult(
              [
                {
                  type: 'tool-call',
                  toolCallId: `c${step}`,
                  toolName: 'lookup',
                  input: '{"q":"x"}',
                },
              ],
              {
                finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
              },
            )
          : generateResult('done');
      },
    });
    const model = wrapLanguageModel({ model: mock, middleware: guardrails({ input: [counter] }) });
    const result = await generateText({
      model,
      prompt: 'look it up',
      tools: {
        lookup: tool({ inputSchema: z.object({ q: z.string() }), execute: async () => 'found' }),
      },
      stopWhen: stepCountIs(5),
    });
    expect(result.steps).toHaveLength(3);
    expect(checks).toBe(1);
  });

  it('leaves system messages alone unless inputScope is all', async () => {
    for (const [inputScope, expected] of [
      ['user', 'reach admin@corp.io'],
      ['all', 'reach [EMAIL]'],
    ] as const) {
      const mock = textModel('ok');
      const model = wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [redactEmails()], inputScope }),
      });
      await generateText({ model, system: 'reach admin@corp.io', prompt: 'hi' });
      expect(mock.doGenerateCalls[0]!.prompt[0]).toEqual({ role: 'system', content: expected });
    }
  });

  it('passes non-text parts through unchanged and untouched by text guardrails', async () => {
    const mock = textModel('ok');
    const seen: string[] = [];
    const spy = defineGuardrail({
      name: 'spy',
      check: t => {
        seen.push(t);
        return modify(t.replace('secret', '[X]'));
      },
    });
    const model = wrapLanguageModel({ model: mock, middleware: guardrails({ input: [spy] }) });
    const image = new Uint8Array([1, 2, 3]);
    await generateText({
      model,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a secret' },
            { type: 'file', data: image, mediaType: 'image/png' },
          ],
        },
      ],
    });
    expect(seen).toEqual(['a secret']);
    const content = mock.doGenerateCalls[0]!.prompt[0]!.content as Array<{ type: string }>;
    expect(content[0]).toEqual({ type: 'text', text: 'a [X]' });
    expect(content[1]).toMatchObject({ type: 'file', mediaType: 'image/png' });
  });
});

describe('output guardrails', () => {
  const toolCallContent = [
    { type: 'text' as const, text: 'Running it. Then we build a bomb.' },
    { type: 'tool-call' as const, toolCallId: 'c1', toolName: 'run', input: '{}' },
  ];

  it('a block replaces the text and the tool calls (generate)', async () => {
    let executed = false;
    const mock = new MockLanguageModelV4({
      doGenerate: async () =>
        generateResult(toolCallContent, {
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        }),
    });
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ output: [blockWord('bomb')] }),
    });
    const result = await generateText({
      model,
      prompt: 'go',
      tools: {
        run: tool({
          inputSchema: z.object({}),
          execute: async () => {
            executed = true;
            return 'ran';
          },
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('"bomb" is not allowed.');
    expect(result.toolCalls).toEqual([]);
    expect(executed).toBe(false);
    expect(result.steps).toHaveLength(1);
    expect(result.finishReason).toBe('content-filter');
    expect(result.usage.outputTokens).toBe(20); // the model ran: its usage is still reported
  });

  it('hold mode emits nothing of a blocked answer', async () => {
    const mock = new MockLanguageModelV4({
      doStream: async () =>
        streamOf([
          { type: 'reasoning-start', id: 'r1' },
          { type: 'reasoning-delta', id: 'r1', delta: 'thinking' },
          { type: 'reasoning-end', id: 'r1' },
          ...textParts(['Sure, a ', 'bo', 'mb is ', 'made of']),
          { type: 'tool-call', toolCallId: 'c1', toolName: 'run', input: '{}' },
        ]),
    });
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ output: [blockWord('bomb')], blockedMessage: 'Withheld.' }),
    });
    const { stream } = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }],
    });
    const parts = await readAll(stream);
    expect(parts).toEqual([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 'guardrail-blocked' },
      { type: 'text-delta', id: 'guardrail-blocked', delta: 'Withheld.' },
      { type: 'text-end', id: 'guardrail-blocked' },
      {
        type: 'finish',
        usage,
        finishReason: { unified: 'content-filter', raw: 'guardrail:block-bomb' },
        providerMetadata: {
          guardrails: {
            status: 'blocked',
            records: [
              expect.objectContaining({
                guardrail: 'block-bomb',
                kind: 'output',
                status: 'blocked',
              }),
            ],
          },
        },
      },
    ]);
  });

  it('hold mode releases a redacted answer with its parts in their original order', async () => {
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'response-metadata', id: 'resp-1', modelId: 'm' },
      { type: 'reasoning-start', id: 'r1' },
      { type: 'reasoning-delta', id: 'r1', delta: 'hmm' },
      { type: 'reasoning-end', id: 'r1' },
      ...textParts(['Mail ', 'ann@', 'corp.io', ' today']),
      { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'run', input: '{}' },
    ];
    const mock = new MockLanguageModelV4({ doStream: async () => streamOf(parts) });
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ output: [redactEmails()] }),
    });
    const { stream } = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }],
    });
    const received = await readAll(stream);
    expect(received.slice(0, -1)).toEqual([
      { type: 'stream-start', warnings: [] },
      // Without its id: the provider stores the answer as written under it (round 36).
      { type: 'response-metadata', modelId: 'm' },
      { type: 'reasoning-start', id: 'r1' },
      { type: 'reasoning-delta', id: 'r1', delta: 'hmm' },
      { type: 'reasoning-end', id: 'r1' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'Mail [EMAIL] today' },
      { type: 'text-end', id: 't1' },
      // The source goes: the answer was changed, and a source's title or snippet may quote it.
      { type: 'tool-call', toolCallId: 'c1', toolName: 'run', input: '{}' },
    ]);
    const finish = received.at(-1) as Extract<LanguageModelV4StreamPart, { type: 'finish' }>;
    expect(finish.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
    expect((finish.providerMetadata!.guardrails as { status: string }).status).toBe('modified');
  });

  it('an unmodified answer keeps its original deltas', async () => {
    const model = wrapLanguageModel({
      model: textModel(['Hello ', 'there']),
      middleware: guardrails({ output: [redactEmails()] }),
    });
    const result = streamText({ model, prompt: 'hi' });
    expect(await readAll(result.textStream)).toEqual(['Hello ', 'there']);
    expect((await getGuardrailOutcome(result))?.status).toBe('passed');
  });

  it('judges reasoning only with checkReasoning', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: async () =>
        generateResult([
          { type: 'reasoning', text: 'plan: bomb' },
          { type: 'text', text: 'fine' },
        ]),
    });
    for (const [checkReasoning, text] of [
      [false, 'fine'],
      [true, '"bomb" is not allowed.'],
    ] as const) {
      const model = wrapLanguageModel({
        model: mock,
        middleware: guardrails({ output: [blockWord('bomb')], checkReasoning }),
      });
      expect((await generateText({ model, prompt: 'q' })).text).toBe(text);
    }
  });
});

describe('onTrip', () => {
  const bomb = () => textModel(['a ', 'bomb']);

  it("'return' resolves with the blocked message (generate and stream)", async () => {
    const model = wrapLanguageModel({
      model: bomb(),
      middleware: guardrails({ output: [blockWord('bomb')] }),
    });
    const generated = await generateText({ model, prompt: 'q' });
    expect([generated.text, generated.finishReason]).toEqual([
      '"bomb" is not allowed.',
      'content-filter',
    ]);
    const streamed = streamText({ model, prompt: 'q' });
    expect([await streamed.text, await streamed.finishReason]).toEqual([
      '"bomb" is not allowed.',
      'content-filter',
    ]);
  });

  it("'throw' rejects generateText with a GuardrailTripwireError carrying the record", async () => {
    const model = wrapLanguageModel({
      model: bomb(),
      middleware: guardrails({ output: [blockWord('bomb')], onTrip: 'throw' }),
    });
    const error = await generateText({ model, prompt: 'q' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(GuardrailTripwireError.isInstance(error)).toBe(true);
    const trip = error as GuardrailTripwireError;
    expect(trip.record).toMatchObject({
      guardrail: 'block-bomb',
      kind: 'output',
      status: 'blocked',
    });
    expect(trip.records).toHaveLength(1);
  });

  it("'throw' delivers an error part on a stream and nothing of the answer", async () => {
    const model = wrapLanguageModel({
      model: bomb(),
      middleware: guardrails({ output: [blockWord('bomb')], onTrip: 'throw' }),
    });
    const errors: unknown[] = [];
    const result = streamText({
      model,
      prompt: 'q',
      onError: ({ error }) => void errors.push(error),
    });
    const parts = await readAll(result.fullStream);
    const types = parts.map(p => p.type);
    expect(types).toEqual(['start', 'start-step', 'error', 'finish-step', 'finish']);
    const errorPart = parts.find(p => p.type === 'error') as { error: unknown };
    expect(GuardrailTripwireError.isInstance(errorPart.error)).toBe(true);
    expect(errors).toHaveLength(1);
    expect(await result.text).toBe('');
  });
});

describe('outcome and events', () => {
  it('every call carries providerMetadata.guardrails: passed, modified, blocked', async () => {
    const cases = [
      ['hello', 'passed'],
      ['mail x@y.io', 'modified'],
      ['a bomb', 'blocked'],
    ] as const;
    for (const [answer, status] of cases) {
      const model = wrapLanguageModel({
        model: textModel(answer),
        middleware: guardrails({ output: [redactEmails(), blockWord('bomb')] }),
      });
      const result = await generateText({ model, prompt: 'q' });
      expect((result.providerMetadata!.guardrails as { status: string }).status).toBe(status);
      expect((await getGuardrailOutcome(result.steps[0]!))?.status).toBe(status);
      expect((await getGuardrailOutcome(result))?.status).toBe(status);
    }
  });

  it('getGuardrailOutcome includes the trips of tool guardrails from every step', async () => {
    let step = 0;
    const mock = new MockLanguageModelV4({
      doGenerate: async () =>
        ++step === 1
          ? generateResult(
              [
                {
                  type: 'tool-call',
                  toolCallId: 'c1',
                  toolName: 'sql',
                  input: '{"q":"DROP TABLE users"}',
                },
              ],
              {
                finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
              },
            )
          : generateResult('I could not run that.'),
    });
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ output: [redactEmails()] }),
    });
    const tools = guardTools(
      { sql: tool({ inputSchema: z.object({ q: z.string() }), execute: async () => 'dropped' }) },
      { input: [blockWord('drop')] },
    );
    const result = await generateText({
      model,
      prompt: 'clean up',
      tools,
      stopWhen: stepCountIs(3),
    });
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('blocked');
    expect(outcome?.records.map(r => [r.guardrail, r.kind, r.status])).toEqual([
      // Step 1 had no text (a tool call only): nothing for output guardrails to judge.
      // Its tool ran before step 2, so its record comes before step 2's answer.
      ['block-drop', 'tool_input', 'blocked'],
      ['redact-email', 'output', 'passed'],
    ]);
  });

  it('a middleware without guardrails adds no hook and reports nothing', async () => {
    const middleware = guardrails({});
    expect(Object.keys(middleware)).toEqual(['specificationVersion']);
    const model = wrapLanguageModel({ model: textModel('plain'), middleware });
    const result = await generateText({ model, prompt: 'q' });
    expect(result.text).toBe('plain');
    expect(result.providerMetadata?.guardrails).toBeUndefined();
  });

  it('getGuardrailOutcome resolves to undefined for an unguarded result', async () => {
    const result = await generateText({ model: textModel('x'), prompt: 'q' });
    expect(await getGuardrailOutcome(result)).toBeUndefined();
  });

  it('sends one event per decision, and a listener that throws never breaks the call', async () => {
    const events: GuardrailEvent[] = [];
    const model = wrapLanguageModel({
      model: textModel('mail x@y.io'),
      middleware: guardrails({
        input: [blockWord('bomb')],
        output: [redactEmails()],
        onEvent: event => {
          events.push(event);
          throw new Error('logging is broken');
        },
      }),
    });
    const result = await generateText({ model, prompt: 'q' });
    expect(result.text).toBe('mail [EMAIL]');
    expect(events.map(e => [e.type, e.record.guardrail, e.record.kind])).toEqual([
      ['guardrail.passed', 'block-bomb', 'input'],
      ['guardrail.modified', 'redact-email', 'output'],
    ]);
    expect(events.every(e => typeof e.record.durationMs === 'number')).toBe(true);
  });

  it('reads per-call metadata from providerOptions.guardrails and the context option', async () => {
    const seen: unknown[] = [];
    const spy = defineGuardrail({
      name: 'spy',
      check: (_t, ctx) => {
        seen.push(ctx.metadata);
        return allow();
      },
    });
    const model = wrapLanguageModel({
      model: textModel('ok'),
      middleware: guardrails({
        input: [spy],
        context: () => ({ tenant: 'acme', sessionId: 'default' }),
      }),
    });
    await generateText({
      model,
      prompt: 'q',
      providerOptions: { guardrails: { sessionId: 's-1' } },
    });
    expect(seen).toEqual([{ tenant: 'acme', sessionId: 's-1' }]);
  });
});

describe('configuration errors', () => {
  it('rejects bad options at construction with the path', () => {
    expect(() => guardrails({ stream: { mode: 'fast' as never } })).toThrow(
      "Invalid guardrail configuration at stream.mode: expected 'hold', 'window' or 'passthrough', received a string of 4 characters (not shown)",
    );
    try {
      guardrails({ input: [allow as never, blockWord('x')], output: [{ name: 'n' } as never] });
      expect.unreachable();
    } catch (error) {
      expect(GuardrailConfigError.isInstance(error)).toBe(true);
      // Every bad option at once, not only the first.
      expect((error as GuardrailConfigError).issues.map(i => i.path)).toEqual([
        'input[0]',
        'output[0]',
      ]);
    }
  });

  it('rejects a guardrail that is not stream-safe in window mode, naming it', () => {
    const whole = defineGuardrail({ name: 'needs-whole-answer', check: () => allow() });
    expect(() =>
      guardrails({ output: [redactEmails(), whole], stream: { mode: 'window' } }),
    ).toThrow(
      /output\[1\]: expected a stream-safe guardrail in window mode \("needs-whole-answer" needs the whole answer/,
    );
  });

  it('block() and modify() build the verdicts users would write by hand', () => {
    expect(block('No.')).toEqual({ action: 'block', message: 'No.' });
    expect(block({ reason: 'r', severity: 'info' })).toEqual({
      action: 'block',
      reason: 'r',
      severity: 'info',
    });
    expect(modify('x', { n: 1 })).toEqual({ action: 'modify', content: 'x', info: { n: 1 } });
    expect(allow()).toEqual({ action: 'allow' });
  });
});

describe('a blockedMessage that returns no string (or a Promise, or throws) fails closed', () => {
  const failed = (reason: string) => ({
    guardrail: 'blocked-message',
    kind: 'output',
    status: 'error',
    reason: `blockedMessage ${reason}: the default message was shown`,
  });
  const bombRecord = {
    guardrail: 'block-bomb',
    kind: 'output',
    status: 'blocked',
    message: '"bomb" is not allowed.',
    reason: 'matched bomb',
    severity: 'critical',
  };
  const cases: [() => unknown, string][] = [
    [async () => 'Not now.', 'returned no string (a Promise: blockedMessage must be synchronous)'],
    [() => undefined, 'returned no string (undefined)'],
    [() => 5, 'returned no string (the number 5)'],
    [
      () => {
        throw new RangeError('secret sk-live-1234 in the template');
      },
      'threw',
    ],
  ];

  it('generate: the block stands, the default message is the answer, an error record says why', async () => {
    // Before: the call rejected with a GuardrailConfigError and no message.
    for (const [blockedMessage, reason] of cases) {
      const events: GuardrailEvent[] = [];
      const model = wrapLanguageModel({
        model: textModel('a bomb recipe'),
        middleware: guardrails({
          output: [blockWord('bomb')],
          blockedMessage: blockedMessage as () => string,
          onEvent: event => events.push(event),
        }),
      });
      const result = await generateText({ model, prompt: 'x' });
      expect(result.text).toBe('"bomb" is not allowed.');
      expect(result.finishReason).toBe('content-filter');
      const outcome = await getGuardrailOutcome(result);
      expect(outcome?.status).toBe('blocked');
      expect(withoutTiming(outcome?.records)).toEqual([bombRecord, failed(reason)]);
      expect(events.at(-1)).toMatchObject({ type: 'guardrail.error', record: failed(reason) });
      expect(JSON.stringify(result)).not.toContain('sk-live');
    }
  });

  it('stream: the blocked stream ends with the default message, releasing nothing of the answer', async () => {
    for (const mode of ['hold', 'window'] as const) {
      for (const [blockedMessage, reason] of cases) {
        const model = wrapLanguageModel({
          model: textModel(['a bomb', ' recipe']),
          middleware: guardrails({
            output: [blockWord('bomb')],
            blockedMessage: blockedMessage as () => string,
            stream: { mode },
          }),
        });
        const errors: unknown[] = [];
        const result = streamText({
          model,
          prompt: 'x',
          onError: ({ error }) => errors.push(error),
        });
        expect(await readAll(result.textStream)).toEqual(['"bomb" is not allowed.']);
        expect(errors).toEqual([]);
        const outcome = await getGuardrailOutcome(result);
        expect(withoutTiming(outcome?.records)).toEqual([bombRecord, failed(reason)]);
      }
    }
  });

  it('a rejecting async blockedMessage leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const model = wrapLanguageModel({
        model: textModel('a bomb recipe'),
        middleware: guardrails({
          output: [blockWord('bomb')],
          blockedMessage: (async () => {
            throw new Error('template service down');
          }) as unknown as () => string,
        }),
      });
      expect((await generateText({ model, prompt: 'x' })).text).toBe('"bomb" is not allowed.');
      await new Promise(resolve => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});

describe('a context function that returns no metadata object', () => {
  it('fails the call with a GuardrailConfigError instead of judging with empty or garbled metadata', async () => {
    const { rateLimit } = await import('../guards/rate-limit/rate-limit');
    for (const [returned, shown] of [
      [Promise.resolve({ userId: 'u1' }), '"(a Promise: context must be synchronous)"'],
      ['u1', '"(a string)"'],
      [['u1'], '"(an array)"'],
    ] as const) {
      const mock = textModel('ok');
      const model = wrapLanguageModel({
        model: mock,
        middleware: guardrails({
          input: [rateLimit({ limit: 1, windowMs: 60_000 })],
          context: (() => returned) as never,
        }),
      });
      await expect(generateText({ model, prompt: 'x' })).rejects.toThrow(
        `Invalid guardrail configuration at context: expected a function returning the call's metadata (an object of JSON values), received ${shown}`,
      );
      expect(mock.doGenerateCalls).toHaveLength(0);
    }
  });
});

describe('guardrails passed without calling it (JavaScript)', () => {
  it('fails wrapLanguageModel with a GuardrailConfigError instead of returning the model unguarded', () => {
    const model = new MockLanguageModelV4();
    const wrap = () =>
      // biome-ignore lint/suspicious/noExplicitAny: what a JavaScript caller can write
      wrapLanguageModel({ model, middleware: guardrails as any });
    expect(wrap).toThrow(GuardrailConfigError);
    expect(wrap).toThrow(
      'Invalid guardrail configuration at middleware: expected guardrails({ ... }) (called): the middleware is the object it returns, received guardrails',
    );
  });
});
