import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel } from '../../test/helpers';
import { captureSpans } from '../../test/tracing';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { guardrails } from '../middleware/guardrails-middleware';
import { runChain } from './chain';
import { allow, block, defineGuardrail } from './define-guardrail';
import {
  endGuardrailSpan,
  GUARDRAIL_SPAN_NAME,
  startGuardrailSpan,
  withGuardrailSpan,
} from './telemetry';
import type { GuardrailRecord } from './types';

const exporter = new InMemorySpanExporter();

/** What the chain does around one step, as the lead wires it into `runChain`. */
async function tracedStep(
  record: Omit<GuardrailRecord, 'durationMs' | 'guardrail' | 'kind'>,
  inner?: () => void,
) {
  const span = startGuardrailSpan('judge', { kind: 'tool_input', toolName: 'sendEmail' });
  await withGuardrailSpan(span, async () => {
    await Promise.resolve();
    inner?.();
  });
  endGuardrailSpan(span, {
    guardrail: 'judge',
    kind: 'tool_input',
    durationMs: 12.5,
    ...record,
  });
}

describe('guardrail spans', () => {
  it('is a no-op without a registered tracer provider', async () => {
    expect(startGuardrailSpan('judge', { kind: 'input' })).toBeUndefined();
    expect(withGuardrailSpan(undefined, () => 42)).toBe(42);
    expect(() =>
      endGuardrailSpan(undefined, {
        guardrail: 'judge',
        kind: 'input',
        status: 'passed',
        durationMs: 1,
      }),
    ).not.toThrow();
  });

  describe('with a tracer provider', () => {
    captureSpans(exporter);

    it('records one span per check with name, kind, tool, status and duration, never the content', async () => {
      await tracedStep({ status: 'blocked', severity: 'critical', reason: 'secret: my password' });
      const spans = exporter.getFinishedSpans();
      expect(spans.map(span => span.name)).toEqual([GUARDRAIL_SPAN_NAME]);
      expect(spans[0]!.attributes).toEqual({
        'ai_guardrails.guardrail.name': 'judge',
        'ai_guardrails.guardrail.kind': 'tool_input',
        'ai_guardrails.tool.name': 'sendEmail',
        'ai_guardrails.status': 'blocked',
        'ai_guardrails.duration_ms': 12.5,
        'ai_guardrails.severity': 'critical',
      });
      expect(spans[0]!.status.code).toBe(0);
    });

    it('runChain opens one span per guardrail step, with the outcome and without the content', async () => {
      const secret = 'my card is 4111 1111 1111 1111';
      await runChain(
        [
          defineGuardrail({ name: 'first', check: () => allow() }),
          defineGuardrail({ name: 'second', check: () => block({ reason: 'no' }) }),
        ],
        secret,
        { kind: 'input', messages: [], metadata: {}, state: new Map() },
      );
      const spans = exporter.getFinishedSpans();
      expect(
        spans.map(span => [
          span.name,
          span.attributes['ai_guardrails.guardrail.name'],
          span.attributes['ai_guardrails.status'],
        ]),
      ).toEqual([
        [GUARDRAIL_SPAN_NAME, 'first', 'passed'],
        [GUARDRAIL_SPAN_NAME, 'second', 'blocked'],
      ]);
      // Without the measured duration: a float may hold '4111' by chance.
      const untimed = (key: string, value: unknown) =>
        key === 'ai_guardrails.duration_ms' ? undefined : value;
      expect(
        JSON.stringify(
          spans.map(span => span.attributes),
          untimed,
        ),
      ).not.toContain('4111');
    });

    it("says which role and part of the history an input check judged (inputScope 'all'), as its record does", async () => {
      const secret = 'my card is 4111 1111 1111 1111';
      const judge = defineGuardrail({
        name: 'judge',
        check: content => (content.includes('Ignore') ? block({ reason: 'no' }) : allow()),
      });
      const model = wrapLanguageModel({
        model: textModel('ok'),
        middleware: guardrails({ input: [judge], inputScope: 'all' }),
      });
      const messages: ModelMessage[] = [
        { role: 'user', content: `Book me a table. ${secret}` },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'The user wants a table.' },
            { type: 'text', text: 'Sure.' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'book', input: { people: 2 } },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'book',
              output: { type: 'text', value: 'ok' },
            },
          ],
        },
        { role: 'user', content: 'Ignore the booking.' },
      ];
      const result = await generateText({ model, messages });
      const spans = exporter.getFinishedSpans().filter(span => span.name === GUARDRAIL_SPAN_NAME);
      const described = spans.map(span => {
        const { 'ai_guardrails.duration_ms': duration, ...rest } = span.attributes;
        expect(typeof duration).toBe('number');
        return rest;
      });
      const check = {
        'ai_guardrails.guardrail.name': 'judge',
        'ai_guardrails.guardrail.kind': 'input',
      };
      expect(described).toEqual([
        { ...check, 'ai_guardrails.status': 'passed' },
        {
          ...check,
          'ai_guardrails.status': 'passed',
          'ai_guardrails.input.role': 'assistant',
          'ai_guardrails.input.part': 'reasoning',
        },
        {
          ...check,
          'ai_guardrails.status': 'passed',
          'ai_guardrails.input.role': 'assistant',
          'ai_guardrails.input.part': 'text',
        },
        {
          ...check,
          'ai_guardrails.tool.name': 'book',
          'ai_guardrails.status': 'passed',
          'ai_guardrails.input.role': 'assistant',
          'ai_guardrails.input.part': 'tool-call',
        },
        { ...check, 'ai_guardrails.status': 'blocked' },
      ]);
      // The same role and part as the records, and no value of the texts.
      const records = (await getGuardrailOutcome(result))?.records ?? [];
      expect(records.map(record => [record.role, record.part])).toEqual(
        described.map(attributes => [
          attributes['ai_guardrails.input.role'],
          attributes['ai_guardrails.input.part'],
        ]),
      );
      const exported = JSON.stringify(spans.map(span => span.attributes));
      for (const text of ['4111', 'Book me', 'Sure', 'people', 'Ignore'])
        expect(exported).not.toContain(text);
    });

    it('marks an error record with an error status', async () => {
      await tracedStep({ status: 'error', reason: 'timed out' });
      expect(exporter.getFinishedSpans()[0]!.status.code).toBe(2);
    });

    it('nests under the active span and is active while the check runs', async () => {
      const tracer = trace.getTracer('test');
      await tracer.startActiveSpan('ai.generateText', async parent => {
        await tracedStep({ status: 'passed' }, () => {
          tracer.startSpan('judge-call').end();
        });
        parent.end();
      });
      const spans = exporter.getFinishedSpans();
      const byName = Object.fromEntries(spans.map(span => [span.name, span]));
      const parent = byName['ai.generateText']!;
      const check = byName[GUARDRAIL_SPAN_NAME]!;
      const judgeCall = byName['judge-call']!;
      expect(check.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
      expect(judgeCall.parentSpanContext?.spanId).toBe(check.spanContext().spanId);
      expect(check.spanContext().traceId).toBe(parent.spanContext().traceId);
    });
  });
});
