import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { type ModelMessage, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import * as ai6 from 'ai-v6';
import * as ai6Test from 'ai-v6/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { noDropTable, usage, withoutTiming } from '../../test/helpers';
import { allow, defineGuardrail } from '../core/define-guardrail';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { type GuardrailsOptions, guardrails } from '../middleware/guardrails-middleware';
import { guardTools, STOP_ON_TRIP_WAIT_MS } from './guard-tool';

/** A middleware with a guardrail (one without any adds no hooks at all). */
const anyInput = defineGuardrail({ name: 'any-input', check: () => allow() });

const twoCalls: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'tool-call', toolCallId: 'q0', toolName: 'runSql', input: '{"query":"select 1"}' },
  {
    type: 'tool-call',
    toolCallId: 'q1',
    toolName: 'runSql',
    input: '{"query":"drop table users"}',
  },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
];

const closing: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Done.' },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
];

function sqlTools(ran: string[]) {
  return {
    runSql: tool({
      description: 'Run a SQL query',
      inputSchema: z.object({ query: z.string() }),
      execute: async ({ query }) => {
        ran.push(query);
        return `ok: ${query}`;
      },
    }),
  };
}

/** The first call's output when the second call's arguments were blocked. */
const stoppedQ0 = {
  status: 'blocked',
  message: 'The "runSql" tool call was blocked by a guardrail and did not run.',
  guardrail: {
    guardrail: 'no-drop-table',
    kind: 'tool_input',
    status: 'blocked',
    reason: 'not run: the arguments of another call of this step (q1) were blocked (stopOnTrip)',
    toolName: 'runSql',
    toolCallId: 'q0',
    durationMs: 0,
  },
};

describe('stopOnTrip in streamText', () => {
  const anyOutput = defineGuardrail({ name: 'any-output', check: () => allow(), streamSafe: true });
  it.each([
    ['with the guardrails() middleware on the model', { input: [anyInput] }],
    // The guard's read loop notes the calls it hands on (round 22: no layer of its own).
    [
      'with output guardrails on the model, window mode',
      { output: [anyOutput], stream: { mode: 'window' } },
    ],
    ['with output guardrails on the model, hold mode', { output: [anyOutput] }],
    ['with guardTools alone', undefined],
  ] satisfies Array<[string, GuardrailsOptions | undefined]>)(
    '%s: the first call never runs when the second trips',
    async (_, middlewareOptions) => {
      const ran: string[] = [];
      let streams = 0;
      const mock = new MockLanguageModelV4({
        doStream: async () => ({
          stream: convertArrayToReadableStream(streams++ === 0 ? twoCalls : closing),
        }),
      });
      const model = middlewareOptions
        ? wrapLanguageModel({ model: mock, middleware: guardrails(middlewareOptions) })
        : mock;
      const result = streamText({
        model,
        tools: guardTools(sqlTools(ran), { input: [noDropTable], stopOnTrip: true }),
        prompt: 'Tidy up.',
        stopWhen: stepCountIs(3),
      });
      const toolResults: Array<[string, unknown]> = [];
      for await (const part of result.fullStream) {
        if (part.type === 'tool-result') toolResults.push([part.toolCallId, part.output]);
      }
      expect(ran).toEqual([]);
      // q1's blocked output comes first: q0 waited for it.
      toolResults.sort(([a], [b]) => a.localeCompare(b));
      expect(toolResults).toEqual([
        ['q0', stoppedQ0],
        [
          'q1',
          {
            status: 'blocked',
            message: 'Dropping tables is not allowed.',
            guardrail: {
              guardrail: 'no-drop-table',
              kind: 'tool_input',
              status: 'blocked',
              message: 'Dropping tables is not allowed.',
              reason: 'DDL statement',
              toolName: 'runSql',
              toolCallId: 'q1',
              durationMs: expect.any(Number),
            },
          },
        ],
      ]);
      const outcome = await getGuardrailOutcome(result);
      expect(outcome?.status).toBe('blocked');
      const toolRecords = withoutTiming(outcome!.records).filter(r => r.kind === 'tool_input');
      // In the order of the step's results (q1 settled first); each call's records in order.
      toolRecords.sort((a, b) => a.toolCallId!.localeCompare(b.toolCallId!));
      expect(toolRecords).toEqual([
        {
          guardrail: 'no-drop-table',
          kind: 'tool_input',
          status: 'passed',
          toolName: 'runSql',
          toolCallId: 'q0',
        },
        withoutTiming([stoppedQ0.guardrail])[0],
        {
          guardrail: 'no-drop-table',
          kind: 'tool_input',
          status: 'blocked',
          message: 'Dropping tables is not allowed.',
          reason: 'DDL statement',
          toolName: 'runSql',
          toolCallId: 'q1',
        },
      ]);
    },
  );

  it('holds in AI SDK 6 too', async () => {
    const ran: string[] = [];
    let streams = 0;
    const mock = new ai6Test.MockLanguageModelV3({
      doStream: async () => ({
        stream: ai6Test.convertArrayToReadableStream(
          (streams++ === 0 ? twoCalls : closing) as never[],
        ),
      }),
    });
    const result = ai6.streamText({
      model: ai6.wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [anyInput], specificationVersion: 'v3' }),
      }),
      // ai@6's tool types differ from ai@7's, which guardTools is typed with (as in test/compat).
      tools: guardTools(
        {
          runSql: ai6.tool({
            inputSchema: z.object({ query: z.string() }),
            execute: async ({ query }: { query: string }) => {
              ran.push(query);
              return `ok: ${query}`;
            },
          }) as never,
        },
        { input: [noDropTable], stopOnTrip: true },
      ) as never,
      prompt: 'Tidy up.',
      stopWhen: ai6.stepCountIs(3) as never,
    });
    const outputs: unknown[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'tool-result') outputs.push(part.output);
    }
    expect(ran).toEqual([]);
    expect(outputs).toContainEqual(stoppedQ0);
    expect(outputs).toHaveLength(2);
  });
});

/**
 * An AI SDK that runs each call as soon as its part arrives (as releases
 * before the deferred tool execution did): the parts of the guarded model's
 * stream are read one by one, and each call's hooks and `execute` start at
 * once, without waiting for the step to end.
 */
async function runEagerly(
  parts: LanguageModelV4StreamPart[],
  stopAfter: number = parts.length,
  abortSignal?: AbortSignal,
) {
  const ran: string[] = [];
  const tools = guardTools(sqlTools(ran), { input: [noDropTable], stopOnTrip: true });
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts.slice(0, stopAfter)) controller.enqueue(part);
            // A stream that stalls after `stopAfter` parts stays open.
            if (stopAfter === parts.length) controller.close();
          },
        }),
      }),
    }),
    middleware: guardrails({ input: [anyInput] }),
  });
  const { stream } = await model.doStream({
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'Tidy up.' }] }],
    tools: [
      {
        type: 'function',
        name: 'runSql',
        inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
      },
    ],
  });
  const messages: ModelMessage[] = [{ role: 'user', content: 'Tidy up.' }];
  const executions: Array<Promise<unknown>> = [];
  const reader = stream.getReader();
  for (let read = 0; read < stopAfter; read++) {
    const { value: part } = await reader.read();
    if (part?.type !== 'tool-call') continue;
    const input = JSON.parse(part.input);
    const options = { toolCallId: part.toolCallId, messages, abortSignal, context: undefined };
    await tools.runSql.onInputAvailable?.({ ...options, input } as never);
    executions.push(Promise.resolve(tools.runSql.execute(input, options as never)));
  }
  return { ran, executions };
}

describe('stopOnTrip with an AI SDK that runs calls as they arrive', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds the first call until the step ended, then stops it: the middleware tells the wrapper', async () => {
    const { ran, executions } = await runEagerly(twoCalls);
    const [first, second] = await Promise.all(executions);
    expect(ran).toEqual([]);
    expect(first).toEqual(stoppedQ0);
    expect(second).toMatchObject({ status: 'blocked', guardrail: { reason: 'DDL statement' } });
  });

  it('runs the calls when none trips', async () => {
    const clean = twoCalls.map(part =>
      part.type === 'tool-call' && part.toolCallId === 'q1'
        ? { ...part, input: '{"query":"select 2"}' }
        : part,
    );
    const { ran, executions } = await runEagerly(clean);
    expect(await Promise.all(executions)).toEqual(['ok: select 1', 'ok: select 2']);
    expect(ran).toEqual(['select 1', 'select 2']);
  });

  it('fails closed with an error record, without running, when the step never ends (bounded wait)', async () => {
    vi.useFakeTimers();
    // The stream stalls after the first call: the step's other calls never become known.
    const { ran, executions } = await runEagerly(twoCalls, 2);
    await vi.advanceTimersByTimeAsync(STOP_ON_TRIP_WAIT_MS);
    expect(await executions[0]).toEqual({
      status: 'blocked',
      message: 'The "runSql" tool call was blocked by a guardrail and did not run.',
      guardrail: {
        guardrail: 'no-drop-table',
        kind: 'tool_input',
        status: 'error',
        reason: `not run: the other calls of this step were not all known and checked within ${STOP_ON_TRIP_WAIT_MS} ms (stopOnTrip fails closed)`,
        toolName: 'runSql',
        toolCallId: 'q0',
        durationMs: 0,
      },
    });
    expect(ran).toEqual([]);
  });

  it('honours the abort signal while it waits', async () => {
    const controller = new AbortController();
    const { ran, executions } = await runEagerly(twoCalls, 2, controller.signal);
    const reason = new Error('user cancelled');
    controller.abort(reason);
    await expect(executions[0]).rejects.toBe(reason);
    expect(ran).toEqual([]);
  });
});
