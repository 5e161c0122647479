import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ModelMessage } from 'ai';
import { generateText, isStepCount, streamText, tool, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type GuardrailEvent,
  type GuardrailsOptions,
  getGuardrailOutcome,
  guardrails,
  guardTools,
  pii,
  secrets,
} from '../src';
import { describeErrors, spanReports } from './helpers/report-leaks';
import { turnsModel } from './helpers/turns-model';
import { captureSpans } from './tracing';

/*
 * What src/guards/record-hygiene.test.ts does not reach: values in the
 * system text, a user file's name and data, the history's tool calls and
 * results, the answer's reasoning, tool calls and the provider's own data
 * about the answer; and any piece of a value (4 characters), not only its
 * first 10. pii and secrets redact or block them; no report (outcome,
 * provider metadata, events, errors, spans) and, where the guardrail
 * changed the answer, nothing of the result may hold a piece of one.
 */

const VALUES = {
  email: 'qzvx.wbkq@example.com',
  openaiKey: 'sk-proj-Qz7xWb3kVq9Lm2Np8Rt5Yc4Hd6Jf1Gs0',
  githubToken: 'ghp_Vq9Lm2Np8Rt5Yc4Hd6Jf1Gs0Qz7xWb3kKx',
  card: '4111 1111 1111 1111',
} as const;

/** The part of each value nothing else writes (not `example.com`, not `ghp_`). */
const OWN_PART: Record<keyof typeof VALUES, string> = {
  email: 'qzvx.wbkq',
  openaiKey: 'Qz7xWb3kVq9Lm2Np8Rt5Yc4Hd6Jf1Gs0',
  githubToken: 'Vq9Lm2Np8Rt5Yc4Hd6Jf1Gs0Qz7xWb3kKx',
  card: '4111 1111 1111 1111',
};

const SENSITIVE = `mail ${VALUES.email}, key ${VALUES.openaiKey}, token ${VALUES.githubToken}, card ${VALUES.card}`;

/** Each value's 4-character pieces found in `value` (numbers read as 0, in errors too: durations and offsets are not pieces). */
function piecesIn(where: string, value: unknown, skipKey?: string): string[] {
  const json = JSON.stringify(value, (key, entry) =>
    key === skipKey
      ? undefined
      : typeof entry === 'number'
        ? 0
        : entry instanceof Uint8Array
          ? new TextDecoder().decode(entry)
          : entry,
  );
  const text = `${json ?? ''}\n${describeErrors(value, undefined, { numbersAsZero: true })}`;
  return Object.entries(OWN_PART).flatMap(([name, part]) => {
    for (let at = 0; at + 4 <= part.length; at++) {
      if (text.includes(part.slice(at, at + 4))) return [`${name} in ${where}`];
    }
    return [];
  });
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** The provider's data about an answer: token logprobs (OpenAI) and grounding segments (Google), each quoting it. */
const answerMetadata = (answer: string) => ({
  openai: { logprobs: [{ token: answer, logprob: -0.1 }] },
  google: {
    groundingMetadata: {
      webSearchQueries: ['weather today'],
      groundingSupports: [{ segment: { startIndex: 0, endIndex: answer.length, text: answer } }],
    },
  },
});

/** A model whose answer holds every value: in its text, its reasoning and its provider data. */
function answeringModel(answer: string) {
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [
        { type: 'reasoning', text: `Thinking about ${answer}` },
        { type: 'text', text: answer },
      ],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
      providerMetadata: answerMetadata(answer),
      response: { id: 'r1', body: { text: answer } },
    }),
    doStream: async () => ({
      stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
        { type: 'stream-start', warnings: [] },
        { type: 'reasoning-start', id: 'r1' },
        { type: 'reasoning-delta', id: 'r1', delta: `Thinking about ${answer}` },
        { type: 'reasoning-end', id: 'r1' },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: answer },
        { type: 'text-end', id: 't1' },
        {
          type: 'finish',
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          providerMetadata: answerMetadata(answer),
        },
      ]),
    }),
  });
}

/** A history that holds every value in each place the input guardrails judge. */
const HISTORY: ModelMessage[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: `Please look: ${SENSITIVE}` },
      {
        type: 'file',
        mediaType: 'text/plain',
        data: new TextEncoder().encode(SENSITIVE),
        filename: `notes for ${VALUES.email} key ${VALUES.openaiKey} .txt`,
      },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: `Noted ${SENSITIVE}` },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: { q: SENSITIVE } },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'lookup',
        output: { type: 'text', value: SENSITIVE },
      },
    ],
  },
  { role: 'user', content: `And again: ${SENSITIVE}` },
];

const ACTIONS = ['redact', 'block'] as const;
const APIS = ['generate', 'stream'] as const;
const TRIPS = ['return', 'throw'] as const;
const cases = ACTIONS.flatMap(action =>
  APIS.flatMap(api => TRIPS.map(onTrip => ({ action, api, onTrip }))),
);

const exporter = new InMemorySpanExporter();

/** Every report of one call, and with `wholeResult` everything the result holds. */
async function reportsOf(
  options: GuardrailsOptions,
  {
    api,
    answer,
    wholeResult,
  }: { api: 'generate' | 'stream'; answer: string; wholeResult: boolean },
): Promise<Record<string, unknown>> {
  const events: GuardrailEvent[] = [];
  const pieces: Record<string, unknown> = { events };
  const model = wrapLanguageModel({
    model: answeringModel(answer),
    middleware: guardrails({ ...options, onEvent: event => events.push(event) }),
  });
  const call = {
    model,
    instructions: `You are helpful. Admin contact: ${SENSITIVE}`,
    messages: HISTORY,
  };
  try {
    if (api === 'generate') {
      const result = await generateText({ ...call, include: { responseBody: true } });
      pieces.outcome = await getGuardrailOutcome(result);
      pieces.providerMetadata = result.providerMetadata;
      if (wholeResult) {
        pieces.content = result.steps.map(step => step.content);
        pieces.responses = result.steps.map(step => step.response);
      }
    } else {
      const result = streamText({ ...call, onError: () => {} });
      const parts: unknown[] = [];
      for await (const part of result.fullStream) {
        if (wholeResult || part.type === 'error') parts.push(part);
      }
      pieces.parts = parts;
      pieces.outcome = await getGuardrailOutcome(result);
      pieces.providerMetadata = await result.providerMetadata;
    }
  } catch (error) {
    pieces.thrown = error;
  }
  pieces.spans = spanReports(exporter);
  return pieces;
}

const leaks = (pieces: Record<string, unknown>) =>
  Object.entries(pieces).flatMap(([where, value]) => piecesIn(where, value));

describe('no report holds a piece (4 characters) of a value pii or secrets hid', () => {
  captureSpans(exporter);

  it.each(cases)(
    'input, system text, file name and data, history: $action via $api, onTrip $onTrip',
    async ({ action, api, onTrip }) => {
      const guards = () => [pii({ action }), secrets({ action })];
      const pieces = await reportsOf(
        { input: guards(), toolOutputs: guards(), inputScope: 'all', onTrip },
        // The model's answer is its own: only the reports are read.
        { api, answer: 'OK.', wholeResult: false },
      );
      expect(leaks(pieces)).toEqual([]);
      // The guardrails did judge and report.
      expect((pieces.events as GuardrailEvent[]).map(event => event.type)).toContain(
        action === 'redact' ? 'guardrail.modified' : 'guardrail.blocked',
      );
    },
  );

  it.each(cases)(
    "the answer's text, reasoning and provider data: $action via $api, onTrip $onTrip",
    async ({ action, api, onTrip }) => {
      const guards = () => [pii({ action }), secrets({ action })];
      const pieces = await reportsOf(
        { output: guards(), checkReasoning: true, onTrip },
        { api, answer: `Here you go: ${SENSITIVE}`, wholeResult: true },
      );
      expect(leaks(pieces)).toEqual([]);
      expect((pieces.events as GuardrailEvent[]).map(event => event.type)).toContain(
        action === 'redact' ? 'guardrail.modified' : 'guardrail.blocked',
      );
    },
  );

  it('catches a piece of a value (the control): a report that keeps the last 4 digits of a card', () => {
    expect(piecesIn('reason', { reason: 'card ending 1111' })).toEqual(['card in reason']);
    expect(piecesIn('reason', { reason: 'key …zzzz' })).toEqual([]);
    expect(piecesIn('reason', { reason: 'key …f1Gs0' })).toEqual([
      'openaiKey in reason',
      'githubToken in reason',
    ]);
  });

  it.each(
    (['input', 'output'] as const).flatMap(side =>
      cases.flatMap(({ action, api, onTrip }) =>
        // A redacting tool-input guard lets the tool run: its result is the tool's own.
        side === 'input' && action === 'redact' ? [] : [{ side, action, api, onTrip }],
      ),
    ),
  )(
    'guardTools, the tool call and its result: $side $action via $api, onTrip $onTrip',
    async ({ side, action, api, onTrip }) => {
      const events: GuardrailEvent[] = [];
      const tools = guardTools(
        {
          lookup: tool({
            inputSchema: z.object({ q: z.string() }),
            execute: async () => `Found: ${SENSITIVE}`,
          }),
        },
        {
          [side]: [pii({ action }), secrets({ action })],
          onTrip,
          onEvent: event => events.push(event),
        },
      );
      const model = turnsModel([
        {
          toolCalls: [
            {
              toolCallId: 'c1',
              toolName: 'lookup',
              input: { q: side === 'input' ? SENSITIVE : 'weather' },
            },
          ],
        },
        { text: 'Done.' },
      ]);
      const call = { model, tools, prompt: 'Look it up', stopWhen: isStepCount(3) };
      const pieces: Record<string, unknown> = { events };
      if (api === 'generate') {
        const result = await generateText(call);
        pieces.outcome = await getGuardrailOutcome(result);
        pieces.toolParts = result.steps.flatMap(step =>
          step.content.filter(part => part.type === 'tool-result' || part.type === 'tool-error'),
        );
      } else {
        const result = streamText({ ...call, onError: () => {} });
        const parts: unknown[] = [];
        for await (const part of result.fullStream) {
          if (['tool-result', 'tool-error', 'error'].includes(part.type)) parts.push(part);
        }
        pieces.toolParts = parts;
        pieces.outcome = await getGuardrailOutcome(result);
      }
      pieces.spans = spanReports(exporter);
      // A tool part repeats the model's call (`input`): the model's own, which guardTools does not change.
      expect(
        Object.entries(pieces).flatMap(([where, value]) => piecesIn(where, value, 'input')),
      ).toEqual([]);
      expect(events.map(event => event.type)).toContain(
        action === 'redact' ? 'guardrail.modified' : 'guardrail.blocked',
      );
    },
  );
});
