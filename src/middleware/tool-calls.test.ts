import type { LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as ai6 from 'ai-v6';
import * as ai6Test from 'ai-v6/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  configIssuesOf,
  generateResult,
  guardedStreamParts,
  notShownString,
  serialisedWithoutTiming,
  streamOf,
  userPrompt,
  withoutTiming,
} from '../../test/helpers';
import { allow, defineGuardrail } from '../core/define-guardrail';
import { GuardrailTripwireError } from '../core/errors';
import type { GuardrailOutcome } from '../core/types';
import { pii } from '../guards/pii/pii';
import { rateLimit } from '../guards/rate-limit/rate-limit';
import { secrets } from '../guards/secrets/secrets';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { type GuardrailsOptions, guardrails } from './guardrails-middleware';

// The model's tool-call arguments reach the app and the browser (tool-input
// parts, then the call's input) before any tool guardrail runs: `toolCalls`
// judges them in the model's response, before anyone sees them.

const CARD = '4111 1111 1111 1111';
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const toolCalls = { unified: 'tool-calls', raw: 'tool_calls' } as const;

function toolsWithLog() {
  const ran: unknown[] = [];
  return {
    ran,
    tools: {
      save: tool({
        inputSchema: z.object({ card: z.string(), city: z.string().optional() }),
        execute: async input => {
          ran.push({ save: input });
          return 'saved';
        },
      }),
      weather: tool({
        inputSchema: z.object({ city: z.string() }),
        execute: async input => {
          ran.push({ weather: input });
          return 'sunny';
        },
      }),
    },
  };
}

/** The pii record of the card in `{"card":"4111 1111 1111 1111"...}` (canonical JSON). */
function cardRecord(toolCallId: string, start = 9) {
  return {
    guardrail: 'pii',
    kind: 'tool_input',
    status: 'modified',
    info: { types: ['CREDIT_CARD'], spans: [{ type: 'CREDIT_CARD', start, end: start + 19 }] },
    toolName: 'save',
    toolCallId,
  };
}

function keyRecord(toolCallId: string, toolName = 'save') {
  return {
    guardrail: 'secrets',
    kind: 'tool_input',
    status: 'blocked',
    message: 'The text contains credentials (AWS_ACCESS_KEY_ID).',
    reason: 'secrets: AWS_ACCESS_KEY_ID',
    severity: 'critical',
    info: {
      types: ['AWS_ACCESS_KEY_ID'],
      spans: [{ type: 'AWS_ACCESS_KEY_ID', start: 8, end: 28 }],
    },
    toolName,
    toolCallId,
  };
}

const passed = (guardrail: string, toolName: string, toolCallId: string) => ({
  guardrail,
  kind: 'tool_input',
  status: 'passed',
  toolName,
  toolCallId,
});

/** The wrapped model's own stream for one call: every part, the finish without its metadata. */
function streamedParts(parts: LanguageModelV4StreamPart[], options: GuardrailsOptions) {
  return guardedStreamParts(parts, options, 'save my card');
}

/** A model whose first response is `content` (finish 'tool-calls'), then 'done'. */
function callingModel(content: LanguageModelV4Content[]) {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async () =>
      ++step === 1 ? generateResult(content, { finishReason: toolCalls }) : generateResult('done'),
  });
}

const finishPart = { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' } };

/** The error record of the arguments of `save` (call c1) over the 1,000,000-character limit. */
const tooLongRecord = {
  guardrail: 'tool-input-unreadable',
  kind: 'tool_input',
  status: 'error',
  reason:
    'the arguments of tool "save" were not judged: the text is longer than 1000000 characters',
  toolName: 'save',
  toolCallId: 'c1',
};

describe('toolCalls: generate', () => {
  it('a pii redaction rewrites the call input: the tool, the step and the outcome never see the card', async () => {
    const { ran, tools } = toolsWithLog();
    const model = callingModel([
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'save',
        input: `{ "card": "${CARD}", "city": "Oslo" }`,
      },
    ]);
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({ toolCalls: [pii({ action: 'redact' })] }),
      }),
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'save my card',
    });
    expect(ran).toEqual([{ save: { card: '[CREDIT_CARD]', city: 'Oslo' } }]);
    expect(result.steps[0]!.toolCalls.map(c => c.input)).toEqual([
      { card: '[CREDIT_CARD]', city: 'Oslo' },
    ]);
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('modified');
    expect(withoutTiming(outcome?.records)).toEqual([cardRecord('c1')]);
    // The step's own metadata carries the record too.
    const stepOutcome = result.steps[0]!.providerMetadata
      ?.guardrails as unknown as GuardrailOutcome;
    expect(withoutTiming(stepOutcome.records)).toEqual([cardRecord('c1')]);
    // Timings (AI SDK 7's step `performance`, a record's `durationMs`) are
    // left out: a float like 144670.34450841116 holds the digits 4111.
    const untimed = (key: string, value: unknown) =>
      key === 'performance' || key === 'durationMs' ? undefined : value;
    expect(JSON.stringify(result.steps, untimed)).not.toContain('4111');
    expect(serialisedWithoutTiming(outcome)).not.toContain('4111');
  });

  it('a secrets block withholds the call (its sibling runs); the run goes on, reported modified', async () => {
    const { ran, tools } = toolsWithLog();
    const model = callingModel([
      { type: 'text', text: 'On it.' },
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'save',
        input: JSON.stringify({ key: AWS_KEY, note: 'x' }),
      },
      {
        type: 'tool-call',
        toolCallId: 'c2',
        toolName: 'weather',
        input: '{"city":"Oslo"}',
      },
    ]);
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: guardrails({ toolCalls: [secrets()] }) }),
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'save it',
    });
    expect(ran).toEqual([{ weather: { city: 'Oslo' } }]);
    expect(result.steps[0]!.content.map(p => p.type)).toEqual(['text', 'tool-call', 'tool-result']);
    expect(result.steps[0]!.toolCalls.map(c => c.toolCallId)).toEqual(['c2']);
    expect(result.text).toBe('done');
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('modified');
    expect(withoutTiming(outcome?.records)).toEqual([
      keyRecord('c1'),
      passed('secrets', 'weather', 'c2'),
    ]);
    expect(JSON.stringify(result.steps)).not.toContain(AWS_KEY);
    expect(JSON.stringify(outcome)).not.toContain(AWS_KEY);
  });

  it("onTrip 'throw': a withheld call throws the tripwire error", async () => {
    const model = callingModel([
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'save',
        input: JSON.stringify({ key: AWS_KEY }),
      },
    ]);
    const { tools } = toolsWithLog();
    const error = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({ toolCalls: [secrets()], onTrip: 'throw' }),
      }),
      tools,
      prompt: 'save it',
    }).catch(e => e);
    expect(GuardrailTripwireError.isInstance(error)).toBe(true);
    expect(withoutTiming([(error as GuardrailTripwireError).record])).toEqual([
      {
        ...keyRecord('c1'),
        info: {
          types: ['AWS_ACCESS_KEY_ID'],
          spans: [{ type: 'AWS_ACCESS_KEY_ID', start: 8, end: 28 }],
        },
      },
    ]);
  });

  it('input that is not JSON is judged as written and given back redacted; the tool never runs', async () => {
    const { ran, tools } = toolsWithLog();
    const model = callingModel([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'save', input: `card ${CARD} {oops` },
    ]);
    const seen: unknown[] = [];
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({
          toolCalls: [
            defineGuardrail({
              name: 'spy',
              check: (_content, ctx) => {
                seen.push(ctx.value);
                return allow();
              },
            }),
            pii({ action: 'redact' }),
          ],
        }),
      }),
      tools,
      prompt: 'save it',
    });
    expect(seen).toEqual([undefined]);
    expect(ran).toEqual([]);
    const call = result.steps[0]!.content.find(p => p.type === 'tool-call');
    expect(call).toMatchObject({
      toolCallId: 'c1',
      input: 'card [CREDIT_CARD] {oops',
      invalid: true,
    });
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      passed('spy', 'save', 'c1'),
      cardRecord('c1', 5),
    ]);
    expect(
      JSON.stringify(result.steps, (key, value: unknown) =>
        key === 'performance' || key === 'durationMs' ? undefined : value,
      ),
    ).not.toContain('4111');
  });

  it('input over 1,000,000 characters is withheld unjudged with an error record', async () => {
    const { ran, tools } = toolsWithLog();
    const input = JSON.stringify({ card: 'x'.repeat(1_000_000) });
    let judged = 0;
    const model = callingModel([{ type: 'tool-call', toolCallId: 'c1', toolName: 'save', input }]);
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({
          toolCalls: [
            defineGuardrail({
              name: 'count',
              check: () => {
                judged++;
                return allow();
              },
            }),
          ],
        }),
      }),
      tools,
      prompt: 'save it',
    });
    expect(judged).toBe(0);
    expect(ran).toEqual([]);
    expect(result.steps[0]!.toolCalls).toEqual([]);
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('modified');
    expect(withoutTiming(outcome?.records)).toEqual([tooLongRecord]);
  });
});

/** Text and two calls interleaved, as a provider streams them. */
const interleaved: LanguageModelV4StreamPart[] = [
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: 'Saving ' },
  { type: 'tool-input-start', id: 'c1', toolName: 'save' },
  { type: 'tool-input-delta', id: 'c1', delta: '{"card":"4111 1111' },
  { type: 'text-delta', id: 't1', delta: 'it now.' },
  { type: 'tool-input-delta', id: 'c1', delta: ' 1111 1111"}' },
  { type: 'tool-input-start', id: 'c2', toolName: 'weather' },
  { type: 'tool-input-delta', id: 'c2', delta: '{"city":"Oslo"}' },
  { type: 'tool-input-end', id: 'c1' },
  { type: 'tool-input-end', id: 'c2' },
  { type: 'text-end', id: 't1' },
  { type: 'tool-call', toolCallId: 'c1', toolName: 'save', input: `{"card":"${CARD}"}` },
  { type: 'tool-call', toolCallId: 'c2', toolName: 'weather', input: '{"city":"Oslo"}' },
];

/** What every stream mode releases of `interleaved`'s calls: judged, one delta each, call after. */
const judgedCalls = [
  { type: 'tool-input-start', id: 'c1', toolName: 'save' },
  { type: 'tool-input-delta', id: 'c1', delta: '{"card":"[CREDIT_CARD]"}' },
  { type: 'tool-input-end', id: 'c1' },
  { type: 'tool-call', toolCallId: 'c1', toolName: 'save', input: '{"card":"[CREDIT_CARD]"}' },
  { type: 'tool-input-start', id: 'c2', toolName: 'weather' },
  { type: 'tool-input-delta', id: 'c2', delta: '{"city":"Oslo"}' },
  { type: 'tool-input-end', id: 'c2' },
  { type: 'tool-call', toolCallId: 'c2', toolName: 'weather', input: '{"city":"Oslo"}' },
];

describe('toolCalls: stream', () => {
  it('window mode: the text is judged as ever; each call is released judged, as one delta', async () => {
    const { parts, outcome } = await streamedParts(interleaved, {
      toolCalls: [pii({ action: 'redact' })],
      output: [pii({ action: 'redact' })],
      stream: { mode: 'window' },
    });
    expect(parts).toEqual([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't1' },
      // Shorter than the hold-back window: released whole at its end.
      { type: 'text-delta', id: 't1', delta: 'Saving it now.' },
      { type: 'text-end', id: 't1' },
      ...judgedCalls,
      finishPart,
    ]);
    expect(outcome.status).toBe('modified');
    // The text ended before the calls: its record comes first.
    expect(withoutTiming(outcome.records)).toEqual([
      { guardrail: 'pii', kind: 'output', status: 'passed' },
      cardRecord('c1'),
      passed('pii', 'weather', 'c2'),
    ]);
  });

  it('text keeps streaming while a call input is held: read before the model wrote the call', async () => {
    let writeCall!: () => void;
    const called = new Promise<void>(resolve => {
      writeCall = resolve;
    });
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({
        doStream: async () => ({
          stream: new ReadableStream<LanguageModelV4StreamPart>({
            async start(controller) {
              controller.enqueue({ type: 'stream-start', warnings: [] });
              for (const part of interleaved.slice(0, 5)) controller.enqueue(part);
              await called;
              for (const part of interleaved.slice(5)) controller.enqueue(part);
              controller.enqueue({
                type: 'finish',
                finishReason: toolCalls,
                usage: generateResult('').usage,
              });
              controller.close();
            },
          }),
        }),
      }),
      middleware: guardrails({
        toolCalls: [pii({ action: 'redact' })],
        stream: { mode: 'window' },
      }),
    });
    const { stream } = await model.doStream({ prompt: userPrompt('save my card') });
    const reader = stream.getReader();
    const early: unknown[] = [];
    for (let i = 0; i < 4; i++) early.push((await reader.read()).value);
    expect(early).toEqual([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'Saving ' },
      { type: 'text-delta', id: 't1', delta: 'it now.' },
    ]);
    writeCall();
    const rest: { type: string }[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest.push(r.value);
    expect(rest.slice(0, -1)).toEqual([{ type: 'text-end', id: 't1' }, ...judgedCalls]);
  });

  it.each(['hold', 'passthrough'] as const)(
    '%s mode: the exact parts (no output guardrails: passed on at once)',
    async mode => {
      const { parts } = await streamedParts(interleaved, {
        toolCalls: [pii({ action: 'redact' })],
        stream: { mode },
      });
      expect(parts).toEqual([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Saving ' },
        { type: 'text-delta', id: 't1', delta: 'it now.' },
        { type: 'text-end', id: 't1' },
        ...judgedCalls,
        finishPart,
      ]);
    },
  );

  it('a blocked call releases none of its parts; its sibling streams', async () => {
    const { parts, outcome } = await streamedParts(
      [
        { type: 'tool-input-start', id: 'c1', toolName: 'save' },
        { type: 'tool-input-delta', id: 'c1', delta: JSON.stringify({ key: AWS_KEY, note: 'x' }) },
        { type: 'tool-input-end', id: 'c1' },
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'save',
          input: JSON.stringify({ key: AWS_KEY, note: 'x' }),
        },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'weather', input: '{"city":"Oslo"}' },
      ],
      { toolCalls: [secrets()] },
    );
    expect(parts).toEqual([
      { type: 'stream-start', warnings: [] },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'weather', input: '{"city":"Oslo"}' },
      finishPart,
    ]);
    expect(outcome.status).toBe('modified');
    expect(withoutTiming(outcome.records)).toEqual([
      keyRecord('c1'),
      passed('secrets', 'weather', 'c2'),
    ]);
  });

  it('input whose tool-call never came is judged as received and withheld (fail closed)', async () => {
    const { parts, outcome } = await streamedParts(
      [
        { type: 'tool-input-start', id: 'c1', toolName: 'save' },
        { type: 'tool-input-delta', id: 'c1', delta: `{"card":"${CARD}"` },
      ],
      { toolCalls: [pii({ action: 'redact' })] },
    );
    expect(parts).toEqual([{ type: 'stream-start', warnings: [] }, finishPart]);
    expect(outcome.status).toBe('modified');
    expect(withoutTiming(outcome.records)).toEqual([
      cardRecord('c1'),
      {
        guardrail: 'tool-input-unreadable',
        kind: 'tool_input',
        status: 'error',
        reason: `the model's response ended before its call of tool "save" was complete: its arguments were withheld`,
        toolName: 'save',
        toolCallId: 'c1',
      },
    ]);
  });

  it('streamed input over 1,000,000 characters is not kept, and withheld with an error record', async () => {
    const { parts, outcome } = await streamedParts(
      [
        { type: 'tool-input-start', id: 'c1', toolName: 'save' },
        { type: 'tool-input-delta', id: 'c1', delta: 'x'.repeat(600_000) },
        { type: 'tool-input-delta', id: 'c1', delta: 'x'.repeat(600_000) },
      ],
      { toolCalls: [pii({ action: 'redact' })] },
    );
    expect(parts).toEqual([{ type: 'stream-start', warnings: [] }, finishPart]);
    expect(withoutTiming(outcome.records)).toEqual([tooLongRecord]);
  });

  it('a provider-executed call is judged too: blocked, its result goes with it; passed, it keeps its flags', async () => {
    const searchCall = (id: string, query: string): LanguageModelV4StreamPart[] => [
      { type: 'tool-input-start', id, toolName: 'web_search', providerExecuted: true },
      { type: 'tool-input-delta', id, delta: JSON.stringify({ query }) },
      { type: 'tool-input-end', id },
      {
        type: 'tool-call',
        toolCallId: id,
        toolName: 'web_search',
        input: JSON.stringify({ query }),
        providerExecuted: true,
      },
      { type: 'tool-result', toolCallId: id, toolName: 'web_search', result: { hits: 1 } },
    ];
    const { parts, outcome } = await streamedParts(
      [...searchCall('s1', `key ${AWS_KEY}`), ...searchCall('s2', 'weather Oslo')],
      { toolCalls: [secrets()] },
    );
    expect(parts).toEqual([
      { type: 'stream-start', warnings: [] },
      ...searchCall('s2', 'weather Oslo'),
      finishPart,
    ]);
    expect(withoutTiming(outcome.records)).toEqual([
      {
        ...keyRecord('s1', 'web_search'),
        info: {
          types: ['AWS_ACCESS_KEY_ID'],
          spans: [{ type: 'AWS_ACCESS_KEY_ID', start: 14, end: 34 }],
        },
      },
      passed('secrets', 'web_search', 's2'),
    ]);
  });

  it("onTrip 'throw': a withheld call becomes an error part", async () => {
    const { parts } = await streamedParts(
      [
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'save',
          input: JSON.stringify({ key: AWS_KEY }),
        },
      ],
      { toolCalls: [secrets()], onTrip: 'throw' },
    );
    expect(parts.map(p => (p as { type: string }).type)).toEqual([
      'stream-start',
      'error',
      'finish',
    ]);
    const error = (parts[1] as { error: unknown }).error;
    expect(GuardrailTripwireError.isInstance(error)).toBe(true);
    expect((error as GuardrailTripwireError).record.toolCallId).toBe('c1');
  });

  it("the UI message stream (useChat's body) never carries the card: deltas and input are redacted", async () => {
    const { tools } = toolsWithLog();
    let step = 0;
    const model = new MockLanguageModelV4({
      doStream: async () =>
        ++step === 1
          ? streamOf(interleaved, { finishReason: toolCalls })
          : streamOf([
              { type: 'text-start', id: 't2' },
              { type: 'text-delta', id: 't2', delta: 'Saved.' },
              { type: 'text-end', id: 't2' },
            ]),
    });
    const result = streamText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({
          toolCalls: [pii({ action: 'redact' })],
          stream: { mode: 'window' },
        }),
      }),
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'save my card',
    });
    const body = await result.toUIMessageStreamResponse().text();
    expect(body).toContain('"inputTextDelta":"{\\"card\\":\\"[CREDIT_CARD]\\"}"');
    expect(body).toContain('"input":{"card":"[CREDIT_CARD]"}');
    expect(body).toContain('Saved.');
    expect(body).not.toContain('4111');
  });
});

describe('toolCalls: a withheld call in a streamed run', () => {
  it('streamText: the blocked call never runs nor reaches the UI stream; the step ends without it', async () => {
    const { ran, tools } = toolsWithLog();
    const input = JSON.stringify({ card: 'x', city: AWS_KEY });
    const model = new MockLanguageModelV4({
      doStream: async () =>
        streamOf(
          [
            { type: 'text-start', id: 't1' },
            { type: 'text-delta', id: 't1', delta: 'Saving.' },
            { type: 'text-end', id: 't1' },
            { type: 'tool-input-start', id: 'c1', toolName: 'save' },
            { type: 'tool-input-delta', id: 'c1', delta: input },
            { type: 'tool-input-end', id: 'c1' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'save', input },
          ],
          { finishReason: toolCalls },
        ),
    });
    const result = streamText({
      model: wrapLanguageModel({ model, middleware: guardrails({ toolCalls: [secrets()] }) }),
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'save it',
    });
    const body = await result.toUIMessageStreamResponse().text();
    expect(ran).toEqual([]);
    expect(await result.toolCalls).toEqual([]);
    expect((await result.steps).length).toBe(1);
    expect(await result.text).toBe('Saving.');
    expect(body).not.toContain(AWS_KEY);
    expect(body).not.toContain('tool-input');
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('modified');
    expect(withoutTiming(outcome?.records)).toEqual([
      {
        ...keyRecord('c1'),
        info: {
          types: ['AWS_ACCESS_KEY_ID'],
          spans: [{ type: 'AWS_ACCESS_KEY_ID', start: 20, end: 40 }],
        },
      },
    ]);
  });
});

describe('toolCalls: AI SDK 6', () => {
  it("streamText of ai@6 (specificationVersion 'v3'): the UI stream carries the redacted input only", async () => {
    const model = new ai6Test.MockLanguageModelV3({
      doStream: async () => ({
        stream: ai6Test.convertArrayToReadableStream([
          { type: 'stream-start', warnings: [] },
          ...interleaved,
          { type: 'finish', finishReason: toolCalls, usage: generateResult('').usage },
        ] as never[]),
      }),
    });
    const result = ai6.streamText({
      model: ai6.wrapLanguageModel({
        model,
        middleware: guardrails({
          toolCalls: [pii({ action: 'redact' })],
          specificationVersion: 'v3',
        }),
      }),
      prompt: 'save my card',
    });
    const body = await result.toUIMessageStreamResponse().text();
    expect(body).toContain('"inputTextDelta":"{\\"card\\":\\"[CREDIT_CARD]\\"}"');
    expect(body).not.toContain('4111');
  });
});

describe('toolCalls: options', () => {
  it('a per-call or parallel guardrail in toolCalls is a config error naming its place', () => {
    const parallel = defineGuardrail({ name: 'slow', parallel: true, check: () => allow() });
    const issues = configIssuesOf(() =>
      guardrails({ toolCalls: [pii(), rateLimit({ limit: 5, windowMs: 60_000 }), parallel] }),
    );
    expect(issues.map(issue => issue.path)).toEqual(['toolCalls[2]', 'toolCalls[1]']);
    expect(issues[1]!.expected).toBe(
      'a guardrail that judges a text ("rate-limit" judges the call, once per model call: put it in input or output)',
    );
  });

  it('a pseudonymising pii in toolCalls is a config error: it would write the originals back where the model reads them', () => {
    const p = pii({ action: 'pseudonymize' });
    const issues = configIssuesOf(() =>
      guardrails({ input: [p], output: [p], toolCalls: [pii({ action: 'redact' }), p] }),
    );
    expect(issues.map(issue => [issue.path, issue.value])).toEqual([
      ['toolCalls[1]', notShownString('pii')],
    ]);
  });
});
